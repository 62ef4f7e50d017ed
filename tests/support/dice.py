"""Shared helpers for the galapagos-dice tests (no tests of its own).

The tests play on the *spiral island*: fields numbered ring by ring from the
volcano (1-6 touch it, 7-18 the middle ring, 19-36 the coast, each ring
counter-clockwise from its east end) and coloured black, white, red, green,
yellow, blue over and over (field 1 black, 2 white, ... 7 black again). Its
neighbours, worked out on paper and used by the tests:

    field 1 (black): 2 white, 6 blue, 7 black, 8 white, 18 blue   (the volcano is its 6th side)
    field 7 (black): 1 black, 8 white, 18 blue, 19 black, 20 white, 36 blue
    field 8 (white): 1 black, 2 white, 7 black, 9 red, 20 white, 21 red
    field 19 (black, east corner): 7 black, 20 white, 36 blue; by sea 22 green and 34 green
    field 22 (green, corner): 9 red, 21 red, 23 yellow; by sea 19 black and 25 black
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.engine.rules import RuleError
from companion.games.dice.rules import DiceRules, DiceState

RULES = DiceRules()
COLOURS = ["black", "white", "red", "green", "yellow", "blue"]
#: (q, r) of each field of the spiral island, typed out ring by ring.
SPIRAL_HEXES = [
    (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1),
    (2, 0), (2, -1), (2, -2), (1, -2), (0, -2), (-1, -1), (-2, 0), (-2, 1), (-2, 2), (-1, 2), (0, 2), (1, 1),
    (3, 0), (3, -1), (3, -2), (3, -3), (2, -3), (1, -3), (0, -3), (-1, -2), (-2, -1), (-3, 0),
    (-3, 1), (-3, 2), (-3, 3), (-2, 3), (-1, 3), (0, 3), (1, 2), (2, 1),
]  # fmt: skip
SPIRAL = {str(n): {"colour": COLOURS[(n - 1) % 6], "hex": list(SPIRAL_HEXES[n - 1])} for n in range(1, 37)}
CORNERS = (19, 22, 25, 28, 31, 34)


AXIAL_STEPS = {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}


def neighbours_on_paper(n: int) -> set[int]:
    """Neighbours of field ``n`` of the spiral island, from its coordinates and the corner ring.

    Worked independently of the engine's geometry so tests can check it.
    """
    q, r = SPIRAL_HEXES[n - 1]
    out = {m for m, (a, b) in enumerate(SPIRAL_HEXES, start=1) if (a - q, b - r) in AXIAL_STEPS}
    if n in CORNERS:
        i = CORNERS.index(n)
        out |= {CORNERS[i - 1], CORNERS[(i + 1) % 6]}
    return out


def colour(n: int) -> str:
    """Colour of field ``n`` on the spiral island."""
    return COLOURS[(n - 1) % 6]


def act(kind: str, player: str | None = None, **fields: Any) -> dict[str, Any]:
    action: dict[str, Any] = {"type": kind, **fields}
    if player is not None:
        action["player"] = player
    return action


def new(players: tuple[str, ...] = ("Ann", "Bob"), **options: Any) -> DiceState:
    if "layout_seed" not in options:
        options.setdefault("layout", SPIRAL)
    return RULES.setup(list(players), options)


def play(state: DiceState, *actions: dict[str, Any]) -> DiceState:
    for action in actions:
        state, _ = RULES.apply(state, action)
    return state


def refused(state: DiceState, action: dict[str, Any], *words: str) -> str:
    """Assert the action is refused, the state untouched, and the message names ``words``."""
    before = RULES.fingerprint(state)
    with pytest.raises(RuleError) as err:
        RULES.apply(state, action)
    assert RULES.fingerprint(state) == before
    for word in words:
        assert word in err.value.message, err.value.message
    return err.value.message


def ready(
    players: tuple[str, ...] = ("Ann", "Bob"),
    pawns: tuple[int, ...] = (1, 2),
    turtles: dict[int, str] | None = None,
    island: tuple[int, ...] = (),
    **options: Any,
) -> DiceState:
    """A planning position: pawns started on ``pawns``, ``island`` turtles lying out, the rest in the bag.

    ``turtles`` (number -> colour) is the game's ``turtles`` option; the island
    is staged directly (like a chess position from a FEN) so a test can start
    from any lie of turtles; ``place_turtles`` has its own tests.
    """
    if turtles is not None:
        options["turtles"] = {str(k): v for k, v in turtles.items()}
    state = new(players, **options)
    for name, field in zip(players, pawns, strict=True):
        state = play(state, act("start", name, field=field))
    placed = frozenset(island)
    assert placed <= state.bag
    return replace(state, phase="plan", seeded=True, island=placed, bag=state.bag - placed)


def view(state: DiceState) -> dict[str, Any]:
    return RULES.view(state)


def player(state: DiceState, name: str) -> dict[str, Any]:
    return next(p for p in view(state)["players"] if p["name"] == name)


def plan_all(state: DiceState, *plans: tuple[str, list[str]]) -> DiceState:
    """Each player lays his dice and says done (the seat button); once everyone has, movement starts."""
    for name, dice in plans:
        state = play(state, act("done", name, dice=dice))
    return state
