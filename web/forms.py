"""The phone's and the tablet's action forms: the game package's moves, rendered.

Nothing here knows a game. The game package lists the moves (every form
with its legal choices, ranges and previews, see :mod:`companion.engine.moves`); this
module picks those a page may submit (a seat: its own; the tablet: the table's
and those of seats without a phone) and splits them into what the game waits
for now and what may be done at any time. ``templates/macros.html`` draws
them; ``static/live.js`` reads a submitted form back into the action (each
choice's value travels as JSON, so any value works).
"""

from __future__ import annotations

import json
import re
from typing import Any

from companion import games
from companion.engine import moves
from companion.table.session import Session
from web.i18n import translator


def page_forms(session: Session, seat: str | None, lang: str, phone_seats: list[str] | tuple[str, ...] = ()
               ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the forms the rulebook expects now, the others) for ``seat`` (None: the tablet).

    The game package gives every form its ``step`` (:data:`companion.engine.moves.STEPS`) and lists them
    next, also, override; the page follows it: the first ``next`` form leads (the big button), the
    rest come after in that order (see :func:`by_step`). A form that may be drafted at the sand's end
    carries ``draft`` (:func:`_draftable`).
    """
    pkg = games.package(session.game)
    state = session.state  # states are immutable: a snapshot is safe
    forms = [_only_choice(f) for f in moves.visible(moves.for_seat(pkg.moves(state, lang), seat, phone_seats))]
    running = bool(session.timer is not None and session.timer.running and not session.timer.expired())
    exp = pkg.rules.expected(state)
    waiting = set(exp.players)
    now, more = [], []
    for f in moves.ordered(forms):
        if running and f.get("player") is not None:
            name = _draftable(pkg, state, f)
            if name:
                f["draft"] = name
        if f["step"] == "next" and not _expected(f, exp.actions, waiting):
            f["step"] = "also"  # « next » by default only: the rules do not wait for it now
        (now if f["step"] == "next" else more).append(f)
    return now, more


def _expected(f: dict[str, Any], actions: Any, waiting: set[str]) -> bool:
    """Whether the rules wait for this move now: its type among theirs, from a player they wait for."""
    return f["type"] in actions and (f.get("player") is None or not waiting or f.get("player") in waiting)


def by_step(forms: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The forms grouped by their step, each group in its order: ``{"next": [...], "also": [...], "override": [...]}``."""
    out: dict[str, list[dict[str, Any]]] = {s: [] for s in moves.STEPS}
    for f in forms:
        out[moves.step_of(f)].append(f)
    return out


def _draftable(pkg: Any, state: Any, f: dict[str, Any]) -> str | None:
    """The name of ``f``'s list field when what a player has laid in it counts at the sand's end, else None.

    Asked of the game package, not guessed: the list field counts when the package's
    :meth:`GamePackage.at_timer_end` turns a list laid there into this very move (as it does the
    dice lying in a seat's lanes). The phone then sends its draft as the player taps.
    """
    lists = [x for x in f.get("fields") or [] if moves.kind_of(x) == "items"]
    if len(lists) != 1:
        return None
    legal = moves.enabled(lists[0]["items"]["choices"])
    if not legal:
        return None
    try:
        made = pkg.at_timer_end(state, {f["player"]: [legal[0]["value"]]})
    except Exception:  # a package that cannot say: nothing is drafted
        return None
    if any(a.get("type") == f["type"] and a.get("player") == f["player"] for a in made):
        return str(lists[0]["name"])
    return None


def act_for_forms(session: Session, lang: str, phone_seats: list[str] | tuple[str, ...],
                  t: Any = None) -> list[dict[str, Any]]:
    """The moves of seats held by a phone that the tablet may still send, saying it acts for them.

    Acting for a phone's seat corrects the flow: each is an override that asks first
    (« Ann has a phone: send « Pass » for her from the tablet? »). Never a secret move (a vote):
    :meth:`GamePackage.table_may_act` decides.
    """
    pkg = games.package(session.game)
    forms = moves.visible(pkg.moves(session.state, lang))
    held = set(phone_seats)
    out = []
    for f in forms:
        if f.get("player") in held and pkg.table_may_act({"type": f["type"], "player": f["player"]}, phone_held=True):
            g = {**_only_choice(f), "act_for": f["player"]}
            ask = (t or translator(lang))("{p} has a phone: send « {move} » for {p} from the tablet?",
                                          p=f["player"], move=f.get("label") or f["type"])
            out.append(moves.override(g, ask))
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
    last one missing), so a move with one natural choice is one tap. A field of the form itself that
    may be left out and has a default (how many cards a gift gives) sits beside the move's name, set
    before that tap: it needs no Send of its own.
    """
    return any(_needs_send(f) for f in form.get("fields") or [] if not beside_name(f))


def beside_name(f: dict[str, Any]) -> bool:
    """A small option of the move, shown beside its name on a phone: optional, with a default, not a list."""
    return bool(f.get("optional")) and "default" in f and moves.kind_of(f) != "items"


def full_sends(form: dict[str, Any]) -> bool:
    """Whether a full list sends the form: its only field is a list, and once it holds as many values as it
    may (a throw's five dice, a plan of every die rolled) nothing is left to choose, so the tap that lays
    the last one sends it (the form's question, if it asks one, comes then): one tap a die. A shorter list
    is sent with the Send button."""
    fields = form.get("fields") or []
    if len(fields) != 1 or moves.kind_of(fields[0]) != "items":
        return False
    return fields[0]["items"]["max"] > 0 and not fields[0].get("optional")


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


def value_format(f: dict[str, Any]) -> str:
    """How a range's value is said with its unit (« £{n} », « {n} £ »), read from its own preview.

    A question must say « Amount: £300 », not « Amount: 300 ». The package's field may say it
    (``"format"``); otherwise its preview names its bounds with their unit (« £100 to £700 ») and
    the unit is the symbol written around both bounds the same way. "" when there is none.
    """
    if isinstance(f.get("format"), str) and "{n}" in f["format"]:
        return f["format"]
    pv = f.get("preview") or {}
    text = pv.get("text") if isinstance(pv, dict) else None
    if not isinstance(text, str) or "min" not in f or "max" not in f:
        return ""
    lo, hi = str(f["min"]), str(f["max"])
    found = re.search(r"([^\s\w]*)(?<!\d)" + re.escape(lo) + r"(?!\d)([\s\u00a0\u202f]?[^\s\w]+)?", text)
    if not found:
        return ""
    before, after = found.group(1) or "", found.group(2) or ""
    if not (before + after).strip() or f"{before}{hi}{after}" not in text:
        return ""
    return before + "{n}" + after


def helpers() -> dict[str, Any]:
    """What the form macros call."""
    return {"value_json": value_json, "field_kind": field_kind, "is_bare": is_bare, "needs_send": needs_send,
            "full_sends": full_sends,
            "chip_colour": chip_colour, "shown_choices": shown_choices, "limits_json": limits_json,
            "value_format": value_format}


def limits_json(f: dict[str, Any]) -> str:
    """An items field's limits as JSON keyed by each value's JSON (what the chips compare)."""
    spec = f.get("items") or {}
    return json.dumps({value_json(k): n for k, n in (spec.get("limits") or {}).items()}, ensure_ascii=False)
