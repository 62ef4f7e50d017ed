"""How the auction game's table inputs become actions (docs/design.md, "Hardware and simulation").

Two tagged components: a species tile laid on the N, E, S or W square around
the volcano is the ``tile`` action itself; an animal token laid on a reader
fills the ``animal`` field of the move being dialled in (an expedition, a
sale). Everything else (bids, steps, exhibitions, exchanges) is dialled with
the encoder through the moves. There are no dice and no lanes in this game.
"""

from __future__ import annotations

from typing import Any

from companion.engine.rules import RuleError
from companion.games.auction.rules import ALL_PAIRS, ANIMALS, DIRECTIONS, TILE

Action = dict[str, Any]


def tag_action(component: Any, point: str, state: Any, entry: Any = None) -> Action | None:
    """A tile on a square → ``tile``; an animal token → ``{"fill": {"animal": A}}``; else None.

    A tile laid when none is awaited is still sent: the rules refuse it with a
    sentence that says what the game waits for, which tells the table more
    than "means nothing now". The move being dialled in (``entry``) changes nothing here.
    """
    kind = getattr(component, "kind", None)
    value = getattr(component, "value", None) or {}
    if kind == "tile":
        animals = value.get("animals")
        if point not in DIRECTIONS or not isinstance(animals, list):
            return None
        return {"type": "tile", "direction": point, "animals": list(animals)}
    if kind == "animal":
        animal = value.get("animal")
        return {"fill": {"animal": animal}} if animal in ANIMALS else None
    return None


def table_tags(action: Action, state: Any = None) -> list[tuple[str, str, dict[str, Any]]] | None:
    """The components a table lays to enter ``action`` (the rest is dialled): [(point, kind, value)], whatever
    the state."""
    kind = action.get("type")
    if kind == "tile" and action.get("direction") in DIRECTIONS and isinstance(action.get("animals"), list):
        return [(action["direction"], "tile", {"animals": list(action["animals"])})]
    if kind in ("expedition", "sale") and action.get("animal") in ANIMALS:
        return [("scan", "animal", {"animal": action["animal"]})]
    return None


def component_kinds() -> dict[str, Any]:
    """What can be enrolled for this game: kind → the shape of its value and the values allowed."""
    return {
        "tile": {"value": {"animals": [ANIMALS[0], ANIMALS[1]]}, "animals": list(ANIMALS), "count": 2,
                 "points": list(DIRECTIONS), "does": "tile"},
        "animal": {"value": {"animal": ANIMALS[0]}, "animals": list(ANIMALS), "does": "fill animal"},
    }



def draw_tile(state: Any, rng: Any, player: str | None = None) -> Action:
    """A species tile drawn digitally for a table without its tile deck: an unused pair on an empty square.

    The rules stay pure: the randomness is the ``random.Random`` given (seeded and
    journaled by the companion), and the draw is journaled as the ``tile`` it gives.
    """
    if getattr(state, "phase", None) != TILE:
        raise RuleError("No species tile is awaited now.", domain="galapagos-auction")
    square = next(d for d in range(4) if state.tiles[d] is None)
    unused = [pair for pair in ALL_PAIRS if pair not in state.used_tiles]
    a, b = rng.choice(unused)
    return {"type": "tile", "direction": DIRECTIONS[square], "animals": [ANIMALS[a], ANIMALS[b]]}


__all__ = ["component_kinds", "draw_tile", "table_tags", "tag_action"]
