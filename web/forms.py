"""Action forms for phones and the table, built from the game's vocabulary and state.

Each action type becomes a small form: one widget per field, chosen by the
field's name (``direction`` is four choices, ``amount`` a number, ``animals``
a set of ticks...) with choices read from the public state (players, animals,
species, colours) and costs from :mod:`companion.extras`. A field this table
does not know becomes a text box whose value is read as JSON, so a new action
type still works. ``static/live.js`` turns a submitted form into the action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from companion import extras
from companion.session import Session

DIRECTIONS = ["N", "E", "S", "W"]
SPACES = ["dominant", "biome", "invasive"]


@dataclass
class Field:
    name: str
    widget: str  # select | number | checks | seq | bool | text | list | hidden
    kind: str = "str"  # how the value is read back: str | int | bool | list-str | list-int | json
    choices: list[tuple[Any, str]] = field(default_factory=list)
    value: Any = None
    min: int | None = None
    max: int | None = None
    step: int | None = None
    count: int = 0  # seq: how many slots
    optional: bool = False


@dataclass
class Form:
    type: str
    fields: list[Field]
    note: str = ""

    @property
    def visible(self) -> list[Field]:
        return [f for f in self.fields if f.widget != "hidden"]


def _animals(pub: dict[str, Any]) -> list[str]:
    return list(pub.get("education_track") or pub.get("supply") or [])


def _label(text: str) -> str:
    return str(text).replace("_", " ")


def _money(n: int | None) -> str:
    return "none left" if n is None else f"£{n}"


def field_for(name: str, session: Session, pub: dict[str, Any], seat: str | None,
              costs: dict[str, Any] | None, kind: str = "") -> Field:
    """The widget for one field of a ``kind`` action."""
    names = [p["name"] for p in pub.get("players", [])]
    if name == "player":
        if seat is not None or len(names) == 1:  # a phone acts for itself; a solo game has one player
            return Field(name, "hidden", value=seat or names[0])
        waiting = (pub.get("expected") or {}).get("players") or []
        return Field(name, "select", choices=[(n, n) for n in names], value=waiting[0] if waiting else None)
    if name in ("target",):
        alive = [p["name"] for p in pub.get("players", []) if p.get("alive", True)]
        return Field(name, "select", choices=[(n, n) for n in alive])
    if name == "direction":  # a tile goes on the empty square
        empty = [d for d, pair in (pub.get("tiles") or {}).items() if not pair]
        return Field(name, "select", choices=[(d, d) for d in DIRECTIONS], value=empty[0] if empty else None)
    if name == "amount":
        return Field(name, "number", "int", min=0, step=100 if session.game == "galapagos-auction" else 1, value=100 if session.game == "galapagos-auction" else 1)
    if name == "steps":
        prices = (costs or {}).get("education", {})
        return Field(name, "select", "int", choices=[(s, f"{s} — {_money(prices.get(str(s)))}" if prices else str(s)) for s in (1, 2, 3, 4)])
    if name in ("animal", "take"):
        prices = (costs or {}).get("expedition" if kind == "expedition" else "exchange" if name == "take" else "", {}) or {}
        animals = list(prices) if kind == "expedition" and prices else _animals(pub)  # the round's tile
        return Field(name, "select", choices=[(a, f"{_label(a)} — {_money(prices[a])}" if a in prices else _label(a)) for a in animals])
    if name == "animals":
        return Field(name, "checks", "list-str", choices=[(a, _label(a)) for a in _animals(pub)])
    if name == "give":
        return Field(name, "seq", "list-str", choices=[(a, _label(a)) for a in _animals(pub)], count=2)
    if name == "bonus":
        return Field(name, "select", choices=[(b, _label(b)) for b in pub.get("bonus_face_up", [])], optional=True)
    if name == "count":
        return Field(name, "number", "int", min=1, max=7, value=1)
    if name == "species":
        return Field(name, "select", choices=[(s, s) for s in (pub.get("populations") or {"rat": 0, "ant": 0, "finch": 0})])
    if name == "space":
        return Field(name, "select", choices=[(s, s) for s in SPACES])
    if name in ("from", "to"):
        return Field(name, "select", choices=[(s, s) for s in SPACES + ["elsewhere"]])
    if name == "mode":
        return Field(name, "select", choices=[("inhabit", "inhabit"), ("migrate", "migrate")])
    if name == "icons":
        return Field(name, "number", "int", min=1, max=7, value=1)
    if name == "change":
        return Field(name, "number", "int", min=-7, max=7, value=1)
    if name == "field":
        nums = sorted(int(k) for k in (pub.get("layout") or {})) or list(range(1, 37))
        return Field(name, "select", "int", choices=[(n, str(n)) for n in nums])
    if name in ("numbers", "path"):
        return Field(name, "list", "list-int")
    if name == "dice":
        colours = ["black", "white", "red", "green", "yellow", "blue"]
        return Field(name, "seq", "list-str", choices=[(c, c) for c in colours], count=5)
    if name in ("snake", "hurricane", "wildcard"):
        return Field(name, "bool", "bool", value=False)
    if name in ("fish", "water", "extra"):
        return Field(name, "number", "int", min=0, max=5 if name == "extra" else 3, value=0 if name != "extra" else 0)
    if name == "resource":
        return Field(name, "select", choices=[("water", "water"), ("food", "food")])
    return Field(name, "text", "json")


def forms(session: Session, pub: dict[str, Any], seat: str | None, kinds: list[str]) -> list[Form]:
    """Forms for ``kinds``; ``seat`` fixes the player field (None: the table chooses)."""
    costs = extras.costs(session, seat) if seat else None
    out = []
    for kind in kinds:
        names, optional = extras.action_fields(session, kind)
        fields = []
        for name in names:
            if name == "player" and name in optional and not extras.seat_may(session, kind):
                continue  # who turned the weather card: nobody needs to say
            f = field_for(name, session, pub, seat, costs, kind)
            f.optional = f.optional or name in optional
            fields.append(f)
        out.append(Form(kind, fields))
    return out


def split_kinds(session: Session, pub: dict[str, Any], seat: str | None) -> tuple[list[str], list[str]]:
    """(what ``seat`` is expected to do now, everything else it could try)."""
    exp = pub.get("expected") or {}
    expected_players = exp.get("players") or []
    now = list(exp.get("actions") or [])
    all_kinds = extras.action_types(session)
    if seat is None:  # the table may act for anyone: everything expected now comes first
        return now, [k for k in all_kinds if k not in now]
    mine = [k for k in all_kinds if extras.seat_may(session, k)]
    primary = [k for k in now if k in mine] if seat in expected_players else []
    return primary, [k for k in mine if k not in primary]


MONEY = {"galapagos-auction": ("amount",)}


def describe(action: dict[str, Any], order: list[str] | None = None, me: str | None = None,
             money: tuple[str, ...] = (), t: Any = None) -> str:
    """One line for an action, fields in the game's own order: "bid · Ann · N · £300".

    ``me``: the viewer's own name is left out of their own actions; ``t`` translates
    the action's and fields' names (the values are the game's own words).
    """
    t = t or (lambda text: text)
    parts = [t(str(action.get("type", "?")).replace("_", " "))]
    if "player" in action and action["player"] != me:
        parts.append(str(action["player"]))
    keys = [k for k in (order or []) if k in action] + sorted(k for k in action if k not in (order or []))
    for key in keys:
        if key in ("type", "player"):
            continue
        value = action[key]
        if isinstance(value, list):
            value = ", ".join(_label(v) for v in value) or "–"
        elif isinstance(value, bool):
            if value:
                parts.append(_field(t, key))
            continue
        elif key in money:
            parts.append(f"£{value}")
            continue
        else:
            value = t(value) if value == "hidden" else _label(value)
        parts.append(f"{_field(t, key)} {value}" if key not in ("direction", "animal", "species") else str(value))
    return " · ".join(parts)


def _field(t: Any, key: str) -> str:
    """A field's name in the viewer's language (:func:`web.i18n.translator` knows field names apart)."""
    return t.field(key) if hasattr(t, "field") else t(_label(key))


def describe_in(session: Session, action: dict[str, Any], me: str | None = None, t: Any = None) -> str:
    """:func:`describe` with the field order the game declares for this action type."""
    try:
        order, _ = extras.action_fields(session, str(action.get("type")))
    except Exception:  # an action type this version no longer knows: plain order
        order = []
    return describe(action, order, me, MONEY.get(session.game, ()), t)


def quick(session: Session, seat: str | None, t: Any = None, limit: int = 8, per_type: int = 4) -> list[dict[str, Any]]:
    """One-tap buttons: legal actions for ``seat`` (or for anyone, at the table).

    Only action types with a handful of choices (pass, done, a vote per player)
    get buttons; where there are many (every bid size) the form is clearer.
    """
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in extras.candidates(session, seat, 60):
        if a["type"] not in DIGITAL and a not in by_type.get(a["type"], []):
            by_type.setdefault(a["type"], []).append(a)
    for kind, group in by_type.items():  # "plan no dice" is legal, but one tap must not send nothing
        by_type[kind] = [a for a in group if not _empty_list(a)] or group
    found = [a for kind, group in by_type.items() if len(group) <= per_type or kind in FIRST_FEW
             for a in (group[:FIRST_FEW[kind]] if kind in FIRST_FEW else group)][:limit]
    return [{"type": a["type"], "label": describe_in(session, a, seat, t), "json": json.dumps(a, ensure_ascii=False)}
            for a in found]


def _empty_list(action: dict[str, Any]) -> bool:
    return any(v == [] for v in action.values())


#: action types whose first few candidates are worth a button even when there are many
#: (the dice game's paths: the longest walks come first)
FIRST_FEW = {"move": 6}

#: observed randomness the quick buttons must not invent (a roll is thrown, or drawn by /draw)
DIGITAL = ("roll", "weather", "place_turtles", "timer_expired")
