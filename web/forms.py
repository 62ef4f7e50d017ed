"""The phone's and the tablet's action forms: the game package's moves, rendered.

Nothing here knows a game. The game package lists the moves (every form
with its legal choices, ranges and previews, see :mod:`companion.moves`); this
module picks those a page may submit (a seat: its own; the tablet: the table's
and those of seats without a phone) and splits them into what the game waits
for now and what may be done at any time. ``templates/macros.html`` draws
them; ``static/live.js`` reads a submitted form back into the action (each
choice's value travels as JSON, so any value works).
"""

from __future__ import annotations

import json
from typing import Any

from companion import games, moves
from companion.session import Session


def page_forms(session: Session, seat: str | None, lang: str, phone_seats: list[str] | tuple[str, ...] = ()
               ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(forms the game waits for now, forms that may be played at any time) for ``seat`` (None: the tablet)."""
    pkg = games.package(session.game)
    state = session.state  # states are immutable: a snapshot is safe
    forms = [_only_choice(f) for f in moves.visible(moves.for_seat(pkg.moves(state, lang), seat, phone_seats))]
    exp = pkg.rules.expected(state)
    waiting = set(exp.players)
    now, more = [], []
    for f in forms:
        if f["type"] in exp.actions and (f.get("player") is None or not waiting or f.get("player") in waiting):
            now.append(f)
        else:
            more.append(f)
    return now, more


def act_for_forms(session: Session, lang: str, phone_seats: list[str] | tuple[str, ...]) -> list[dict[str, Any]]:
    """The moves of seats held by a phone that the tablet may still send, saying it acts for them.

    Never a secret move (a vote): :meth:`GamePackage.table_may_act` decides.
    """
    pkg = games.package(session.game)
    forms = moves.visible(pkg.moves(session.state, lang))
    held = set(phone_seats)
    out = []
    for f in forms:
        if f.get("player") in held and pkg.table_may_act({"type": f["type"], "player": f["player"]}, phone_held=True):
            out.append({**_only_choice(f), "act_for": f["player"]})
    return out


def _only_choice(node: dict[str, Any]) -> dict[str, Any]:
    """A field with one legal choice shows it chosen (round 2's only empty square), at any depth."""
    out = dict(node)
    fields = []
    for f in node.get("fields") or []:
        f = dict(f)
        if "choices" in f:
            f["choices"] = [_only_choice(c) for c in f["choices"]]
            legal = moves.enabled(f["choices"])
            if len(legal) == 1 and "default" not in f and not f.get("optional"):
                f["default"] = legal[0]["value"]
        fields.append(f)
    if "fields" in node:
        out["fields"] = fields
    return out


def value_json(value: Any) -> str:
    """A choice's value as the form carries it (JSON, read back by live.js)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def field_kind(f: dict[str, Any]) -> str:
    """"choices", "range" or "items" (how the field is drawn)."""
    return moves.kind_of(f)


def is_bare(form: dict[str, Any]) -> bool:
    """A form with nothing to choose: one button."""
    return not form.get("fields")


def needs_send(form: dict[str, Any]) -> bool:
    """Whether the form needs a Send button: a range or a list to fill, or a field that may be left out.

    Any other form is sent by the tap that completes it (a chip whose choice is the
    last one missing), so a move with one natural choice is one tap.
    """
    return any(_needs_send(f) for f in form.get("fields") or [])


def _needs_send(f: dict[str, Any]) -> bool:
    kind = moves.kind_of(f)
    if kind != "choices" or (f.get("optional") and "default" not in f):
        return True
    return any(_needs_send(sub) for c in moves.enabled(f["choices"]) for sub in c.get("fields") or [])


def chip_colour(c: dict[str, Any]) -> str:
    """The colour a choice's chip wears (a die, a turtle, a field of the island), "" for a plain chip."""
    pv = c.get("preview") or {}
    colour = pv.get("colour") if isinstance(pv, dict) else None
    return str(colour) if isinstance(colour, str) and colour in CHIP_COLOURS else ""


#: the colours a chip may wear (web/static/phone.css gives each its background and ink)
CHIP_COLOURS = ("black", "white", "red", "green", "yellow", "blue")


def shown_choices(f: dict[str, Any]) -> list[dict[str, Any]]:
    """The choices a phone shows as chips: the legal ones (a refused choice is not a move)."""
    return moves.enabled(f.get("choices") or [])


def helpers() -> dict[str, Any]:
    """What the form macros call."""
    return {"value_json": value_json, "field_kind": field_kind, "is_bare": is_bare, "needs_send": needs_send,
            "chip_colour": chip_colour, "shown_choices": shown_choices, "limits_json": limits_json}


def limits_json(f: dict[str, Any]) -> str:
    """An items field's limits as JSON keyed by each value's JSON (what the chips compare)."""
    spec = f.get("items") or {}
    return json.dumps({value_json(k): n for k, n in (spec.get("limits") or {}).items()}, ensure_ascii=False)
