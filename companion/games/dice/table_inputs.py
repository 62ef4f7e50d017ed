"""Galapagos (dice) at the table: turtles scanned at the bag, dice in the seats' lanes or on the scan pad.

* A **turtle** (``{"number": N}``) scanned at the ``bag`` reader while turtles
  are being placed is one more number of ``place_turtles``: it *fills* the
  move being dialled in (``{"fill": {"numbers": N}}``, the table appends it),
  and the one that completes the draw (five, six, or the rest of the bag)
  also sends it (``"send": true``), so scanning the turtles one by one is the
  whole entry, with OK as a fallback. A turtle scanned twice changes nothing; a
  turtle that is not in the bag is sent at once so that the rules say why
  (on the island, already collected). Once the first turtles are out (or while
  a ``start`` is being dialled), a turtle scanned during set-up is the one a
  player drew for his pawn ("Each player then draws a turtle from the bag and
  places his/her pawn on that island tile"): it fills and sends ``start``.
  Sending when the draw is complete rather than waiting for OK is the choice a
  player expects: the bag's turtles are counted out, and the OLED shows the
  numbers as they come (undo takes a wrong draw back).
* A **die** lying in a seat's lane slot (``seatN.slotM``) is remembered by the
  table with its face up. The seat button says « I am done » with the dice in
  slot order (:func:`lane_action`): the first seat to press it sends a ``plan``
  (the first finisher's plan, which turns the sand timer and is final), any
  later one ``done`` with its dice (its plan, and it has finished; it may still
  change them and press again until the sand runs out). With no die in the
  lanes the button selects the seat instead (its moves on the dial: a roll, a
  plan, « done », a move), and outside planning it always does.
* **At the sand's end** the dice lying in each seat's lanes are that seat's plan
  even if its button was never pressed ("Any dice not on a player's set up area
  cannot be used", so the dice on it can): :func:`at_timer_end` gives the
  ``plan`` actions to journal just before ``timer_expired``.
* A die laid on the ``scan`` pad during planning is one die of a ``roll`` (or of
  the plan being dialled); the fifth die of a roll sends it.

Faces: the firmware reads faces 1..6; Galapagos dice show colours, face ``n``
being the ``n``-th colour in docs/design.md's order (black, white, red, green, yellow,
blue), so opposite faces (``n`` and ``7 - n``) are black/blue, white/yellow and
red/green. A tagged die is enrolled with the colour it shows when its tag lies
under the face: ``{"die": D, "bottom": colour-below, "up": colour-on-top}``.
"""

from __future__ import annotations

from typing import Any

from companion.engine.gamepack import component_value as _value
from companion.engine.gamepack import dialled as _entry
from companion.engine.rules import RuleError
from companion.games.dice.island import COLOURS
from companion.games.dice.rules import DICE, DiceRules, DiceState

KINDS: dict[str, Any] = {
    "turtle": {"number": "the turtle's number (1-36): the field it is placed on"},
    "die": {"die": "which die (any number)", "bottom": "the colour of the face the tag is under",
            "up": "the colour on top: black, white, red, green, yellow or blue"},
}
LANE_PREFIX = "seat"


def die_face(face: Any) -> str | None:
    """The colour of firmware face ``face`` (1..6 in docs/design.md's order), a colour as it is, else None."""
    if isinstance(face, str) and face in COLOURS:
        return face
    if isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= len(COLOURS):
        return COLOURS[face - 1]
    return None


def opposite(colour: str) -> str:
    """The colour on the face opposite ``colour`` (faces n and 7 - n)."""
    return COLOURS[len(COLOURS) - 1 - COLOURS.index(colour)]





def tag_action(component: Any, point: str, state: DiceState, entry: Any = None) -> dict[str, Any] | None:
    """What a turtle or a die laid on ``point`` means now: fields to fill (and send), an action, or None."""
    kind, value = getattr(component, "kind", None), _value(component)
    dialling, values = _entry(entry)
    if kind == "turtle" and point == "bag":
        n = value.get("number")
        if isinstance(n, bool) or not isinstance(n, int):
            return None
        return _turtle(state, n, dialling, values)
    if kind == "die" and point == "scan" and state.phase == "plan":
        colour = die_face(value.get("up"))
        if colour is None:
            return None
        dice = values.get("dice") if dialling in ("roll", "plan") and isinstance(values.get("dice"), list) else []
        return {"fill": {"dice": colour}, "send": dialling == "roll" and len(dice) + 1 >= DICE}
    return None


def _turtle(state: DiceState, n: int, dialling: str | None, values: dict[str, Any]) -> dict[str, Any] | None:
    pawns_out = state.phase == "setup" and None in state.pawns
    placing = state.phase == "place" or (state.phase == "setup" and not state.seeded)
    if pawns_out and (dialling == "start" or not placing):
        return {"fill": {"field": n}, "send": True}
    if not placing:
        return None
    gathered = [x for x in values.get("numbers") or []] if dialling == "place_turtles" else []
    if n in gathered:
        return {"fill": {}}
    if n not in state.bag:  # the rules say where it is instead
        return {"type": "place_turtles", "numbers": gathered + [n]}
    want = min(state.table.per_round, len(state.bag))
    return {"fill": {"numbers": n}, "send": len(gathered) + 1 >= want}


def lane_action(player: str, lanes: list[Any], state: DiceState) -> dict[str, Any] | None:
    """The seat button during planning with dice in its lanes: « I am done », with those dice in slot order.

    The round's first press is a ``plan`` (the first finisher's: it turns the sand
    timer); a later one is ``done`` with the dice (for the first finisher himself
    the rules then say his plan stands).
    """
    if state.phase != "plan" or player not in state.table.players:
        return None
    dice: list[Any] = []
    for face in lanes:
        if face is None:
            continue
        colour = die_face(face)
        dice.append(colour if colour is not None else str(face))  # an odd face: the rules refuse it by name
    if not dice:
        return None
    kind = "plan" if state.first is None else "done"
    return {"type": kind, "player": player, "dice": dice}


def at_timer_end(state: DiceState, lanes: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """The ``plan`` actions to journal as the sand runs out: each seat's dice as they lie in its lanes.

    ``lanes`` maps a player to the die faces in his lane slots, in slot order
    (colours, or firmware faces 1-6; None for an empty slot). A seat counts when
    it has dice laid that differ from its plan, and is not the first finisher
    (his plan is final). A die whose face cannot be read ends that seat's plan
    there (the dice before it are used in order). A plan the rules would refuse
    (dice that are not the ones rolled) is left out: that seat keeps its plan.
    Every action returned is accepted, in order, on ``state``.
    """
    if state.phase != "plan" or state.timer != "running":
        return []
    rules = DiceRules()
    out: list[dict[str, Any]] = []
    s = state
    for i, player in enumerate(state.table.players):
        if i == state.first:
            continue
        dice: list[str] = []
        for face in lanes.get(player) or []:
            if face is None:
                continue
            colour = die_face(face)
            if colour is None:
                break
            dice.append(colour)
        if not dice or tuple(dice) == s.plans[i]:
            continue
        action = {"type": "plan", "player": player, "dice": dice}
        try:
            s, _ = rules.apply(s, action)
        except RuleError:
            continue
        out.append(action)
    return out


def table_tags(action: dict[str, Any], state: DiceState | None = None) -> list[tuple[str, str, dict[str, Any]]] | None:
    """How the table enters ``action`` with components; None: it is dialled.

    ``place_turtles``: each turtle scanned at the bag (the last one sends it).
    The round's first ``plan`` with dice, or a ``done`` with dice: the dice laid
    in the player's lane slots, left to right, then the seat button sends them
    (a ``plan`` when nobody has finished yet, else ``done``) - this needs the
    seating and the round, so only when ``state`` is given; otherwise, and for
    an empty plan, a later plan (changed on the dial) or a ``done`` without
    dice, it is dialled. A roll, a start and a move are dialled (the seat
    button, the encoder, OK).
    """
    kind = action.get("type")
    if kind == "place_turtles":
        numbers = action.get("numbers")
        if isinstance(numbers, list) and numbers and all(isinstance(n, int) and not isinstance(n, bool) for n in numbers) \
                and len(set(numbers)) == len(numbers):
            return [("bag", "turtle", {"number": n}) for n in numbers]
        return None
    if (kind == "plan" and state is not None and state.first is None) or (kind == "done" and state is not None):
        dice = action.get("dice")
        who = action.get("player")
        if not (isinstance(dice, list) and dice and all(c in COLOURS for c in dice)) or who not in state.table.players:
            return None
        seat = state.table.players.index(who) + 1
        return [(f"{LANE_PREFIX}{seat}.slot{k}", "die", {"die": 5 * (seat - 1) + k, "bottom": opposite(c), "up": c})
                for k, c in enumerate(dice, start=1)]
    return None


def component_kinds() -> dict[str, Any]:
    return {k: dict(v) for k, v in KINDS.items()}
