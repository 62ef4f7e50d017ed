"""Legal moves as data: the forms a seat may submit now (docs/design.md, "Moves and their steps").

On the model of python-chess's ``legal_moves``: each game package describes,
for a state, every action that may be submitted now as *forms*, and every
interface (the dial and OLED, the phones, the terminal, the CLI) renders
these forms and nothing else. A form::

    {"type": "bid", "player": "Ann", "label": "Bid", "confirm": True,
     "fields": [FIELD, ...]}

``player`` is the value of the action's ``player`` field (None: a table-wide
action that names nobody). A form may carry its own ``"preview"`` (what
ending the turn would do), and ``confirm`` asks before sending (it spends
money or ends a turn). A field is one of three kinds:

* choices: ``{"name", "label", "choices": [CHOICE, ...]}``; a CHOICE is
  ``{"value", "label", "preview", "disabled"}`` and may carry ``"fields"``, the
  fields that follow when it is chosen (a bid's amount depends on the direction;
  a wood gamble's snake is only asked when an extra ball was drawn). A choice
  whose ``disabled`` holds a reason is shown but not offered: the rules refuse it.
* a range: ``{"name", "label", "min", "max", "step", "preview"}``; every value
  ``min, min+step, … ≤ max`` is legal.
* items: ``{"name", "label", "items": {"choices": [CHOICE...], "min", "max",
  "distinct", "limits"}}``: a list of ``min``..``max`` values, each among the
  choices (``distinct``: no value twice; ``limits``: value → most times).

Any field may say ``"optional": true`` (the action may leave it out, the rules
then take their default) and ``"default"`` (the value an interface preselects;
without it nothing is preselected). A preview is data (``{"cost": 1000}``,
``{"points": 9, "bonus": 3}``) with a ``"text"`` key holding it as a few words
in the reader's language, which a small screen shows as it is.

Where ``apply`` accepts several spellings of one move (a tile's animals in
either order, a bonus tile named ``3`` or ``"3"``), the extra spellings are
offered too, marked ``"alias": true`` (on a form or a choice): the audit counts
them, while screens show each move once (:func:`visible`).

Soundness and completeness are checked by :func:`audit_step` (and
``companion script FILE --audit``): every concrete move offered is accepted by
``apply``; every action ``apply`` accepts is offered; a refused one is not.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from companion.engine.shapes import Action, Choice, Field, Form, Items, Json, Step

_MISSING = object()


# -- building forms -------------------------------------------------------------

def preview(text: str, **data: Any) -> dict[str, Any]:
    """A preview: its data and the few words a screen shows (``text``)."""
    return {"text": text, **data}


def choice(value: Any, label: str, preview: dict[str, Any] | None = None, disabled: str | None = None,
           fields: list[Field] | None = None) -> Choice:
    out: Choice = {"value": value, "label": label, "preview": preview, "disabled": disabled}
    if fields:
        out["fields"] = list(fields)
    return out


def pick(name: str, label: str, choices: Iterable[Choice], *, default: Any = _MISSING,
         optional: bool = False) -> Field:
    """A field whose legal values are listed (each with its label and preview)."""
    out: Field = {"name": name, "label": label, "choices": list(choices)}
    return _extras(out, default, optional)


def number(name: str, label: str, lo: int, hi: int, step: int = 1, *, preview: dict[str, Any] | None = None,
           default: Any = _MISSING, optional: bool = False) -> Field:
    """A field whose legal values are ``lo, lo+step, …`` up to ``hi``."""
    out: Field = {"name": name, "label": label, "min": lo, "max": hi, "step": step, "preview": preview}
    return _extras(out, default, optional)


def items(name: str, label: str, choices: Iterable[Choice], lo: int, hi: int, *, distinct: bool = False,
          limits: dict[str, int] | None = None, default: Any = _MISSING, optional: bool = False) -> Field:
    """A field holding a list of ``lo``..``hi`` values, each among ``choices``."""
    spec: Items = {"choices": list(choices), "min": lo, "max": hi, "distinct": distinct}
    if limits:
        spec["limits"] = dict(limits)
    out: Field = {"name": name, "label": label, "items": spec}
    return _extras(out, default, optional)


def form(kind: str, player: str | None, label: str, fields: Iterable[Field] = (), *, confirm: bool = False,
         **extra: Json) -> Form:
    """A form; ``extra`` are the keys a package adds (``preview``, ``ends_turn``, ``round``... see :class:`Form`)."""
    out: Form = {"type": kind, "player": player, "label": label, "fields": list(fields), "confirm": confirm}
    out.update(extra)  # type: ignore[typeddict-item]  # a package's own keys, carried as they are
    return out


def _extras(out: Field, default: Any, optional: bool) -> Field:
    if default is not _MISSING:
        out["default"] = default
    if optional:
        out["optional"] = True
    return out


def kind_of(f: Field) -> str:
    """"choices", "range" or "items"."""
    if "choices" in f:
        return "choices"
    if "items" in f:
        return "items"
    return "range"


def enabled(choices: Iterable[Choice]) -> list[Choice]:
    return [c for c in choices if not c.get("disabled")]


def range_values(f: Field) -> range:
    step = max(1, int(f.get("step") or 1))
    return range(int(f["min"]), int(f["max"]) + 1, step)


def same(a: Any, b: Any) -> bool:
    """JSON equality (a list equals a tuple, True is not 1)."""
    return canon(a) == canon(b)


#: the one encoder every comparison uses: ``json.dumps`` with these options would build a new
#: encoder at each call, which was most of the time spent matching a move against its forms
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str)


def canon(value: Any) -> str:
    """The value as canonical JSON: equal strings mean ``same`` values."""
    kind = type(value)
    if kind is str:
        return json.encoder.encode_basestring_ascii(value)  # what the encoder writes for a string
    if kind is int:
        return int.__repr__(value)  # what the encoder writes for an int (never a bool: its type is bool)
    return _ENCODER.encode(value)


# -- the next step: what the rulebook expects now ---------------------------------------

#: a form's ``step``, in the order every interface lists them: what the rulebook expects now,
#: what is legal but not expected (a card any time, an exchange), the table correcting the flow
STEPS: tuple[Step, ...] = ("next", "also", "override")


def step_of(f: Form) -> Step:
    """A form's step; a package that says nothing: ``anytime`` moves are "also", the rest "next"."""
    value = f.get("step")
    for step in STEPS:
        if value == step:
            return step
    return "also" if f.get("anytime") else "next"


def override(f: Form, ask: str) -> Form:
    """Mark ``f`` as the table correcting the flow: never a main button, and ``ask`` is put first."""
    f["step"] = "override"
    f["ask"] = ask
    f["confirm"] = True
    return f


def ordered(forms: list[Form]) -> list[Form]:
    """Every form with its ``step`` set, listed next, also, override (each group in its own order)."""
    for f in forms:
        f["step"] = step_of(f)
    return sorted(forms, key=lambda f: STEPS.index(f["step"]))


# -- digital draws: a way of filling a move ----------------------------------------------

def with_draws(forms: list[Form], draws: dict[str, dict[str, Any]], label: Callable[[str], str]) -> list[Form]:
    """Each digital draw put on the move it fills: ``draw`` ``{"what", "label"}`` on the first form of its
    action type (one a player for a player's draw, the table's for the table's).

    A draw is never a move of its own: it enters that form's fields (the weather card's drops, a
    throw's dice), so it has that form's step and asks that form's question. Drawing the next weather
    card while the survival step is due is as much an override as entering it by hand. ``draws`` is
    :meth:`GamePackage.draws`; ``label`` renders a draw's message id in the reader's language.
    """
    seen: set[tuple[str, str | None]] = set()
    for f in forms:
        if f.get("alias"):
            continue
        for what, spec in draws.items():
            if f["type"] != spec.get("action", what) or bool(spec.get("player")) != (f.get("player") is not None):
                continue
            if (what, f.get("player")) not in seen:
                seen.add((what, f.get("player")))
                f["draw"] = {"what": what, "label": label(str(spec.get("label") or what))}
    return forms


def draw_form(forms: list[Form], what: str, player: str | None) -> Form | None:
    """The form the draw ``what`` (for ``player``, None: the table's) fills among ``forms``; None when that
    move is not offered there now."""
    for form in forms:
        draw = form.get("draw")
        if draw is not None and draw["what"] == what and form.get("player") == player:
            return form
    return None


# -- which forms a seat sees -------------------------------------------------------

def visible(forms: list[Form]) -> list[Form]:
    """The forms without their alias spellings: each move once, as screens show them."""
    return [_unaliased_form(f) for f in forms if not f.get("alias")]


def _unaliased_form(node: Form) -> Form:
    out = node.copy()
    if "fields" in node:
        out["fields"] = [_unaliased_field(f) for f in node["fields"]]
    return out


def _unaliased_choice(node: Choice) -> Choice:
    out = node.copy()
    if "fields" in node and isinstance(node["fields"], list):
        out["fields"] = [_unaliased_field(f) for f in node["fields"]]
    return out


def _unaliased_field(f: Field) -> Field:
    out = f.copy()
    if "choices" in f:
        out["choices"] = [_unaliased_choice(c) for c in f["choices"] if not c.get("alias")]
    if "items" in f:
        out["items"] = {**f["items"], "choices": [c for c in f["items"]["choices"] if not c.get("alias")]}
    return out


def for_seat(forms: list[Form], seat: str | None, phone_seats: Iterable[str] = ()) -> list[Form]:
    """The forms ``seat`` may submit; ``seat`` None: the table (table-wide + seats without a phone)."""
    if seat is not None:
        return [f for f in forms if f.get("player") == seat]
    phones = set(phone_seats)
    return [f for f in forms if f.get("player") is None or f.get("player") not in phones]


def expected_first(forms: list[Form], players: Iterable[str]) -> list[Form]:
    """The forms in their step's order (next, also, override); within a step, the players the
    game waits for first, each group keeping its order."""
    waiting = set(players)
    return sorted(forms, key=lambda f: (STEPS.index(step_of(f)),
                                        0 if f.get("player") in waiting or f.get("player") is None else 1))


# -- walking a form: matching an action and listing its concrete moves ------------------

def match(forms: list[Form], action: Any) -> str | None:
    """None when ``action`` is among the moves ``forms`` offer, else why not (one sentence)."""
    if not isinstance(action, dict):
        return "the line is not an action object"
    kind = action.get("type")
    same_type = [f for f in forms if f.get("type") == kind]
    if not same_type:
        offered = sorted({f.get("type") for f in forms})
        return f"no {kind!r} move is offered now (offered: {', '.join(map(str, offered)) or 'nothing'})"
    player = action.get("player")
    candidates = [f for f in same_type if f.get("player") == player
                  or (f.get("player") is not None and "player" not in action and _player_optional(f))]
    if not candidates:
        who = sorted({str(f.get("player")) for f in same_type})
        return f"{kind!r} is offered to {', '.join(who)}, not to {player!r}"
    reasons = []
    for f in candidates:
        why = _match_fields(f["fields"], action, {"type", "player"})
        if why is None:
            return None
        reasons.append(why)
    return reasons[0]


def _player_optional(f: Form) -> bool:
    return bool(f.get("player_optional"))


def _match_fields(fields: list[Field], action: Action, seen: set[str]) -> str | None:
    pending = list(fields)
    seen = set(seen)
    while pending:
        f = pending.pop(0)
        name = f["name"]
        seen.add(name)
        value = action.get(name, _MISSING)
        if value is _MISSING:
            if f.get("optional"):
                continue
            return f"the move needs {name!r}"
        kind = kind_of(f)
        if kind == "choices":
            key = canon(value)
            hit = next((c for c in enabled(f["choices"]) if canon(c["value"]) == key), None)
            if hit is None:
                return f"{name}={key} is not among the choices offered"
            pending = list(hit.get("fields") or []) + pending
        elif kind == "range":
            if isinstance(value, bool) or not isinstance(value, int) or value not in range_values(f):
                return f"{name}={canon(value)} is outside the range offered ({f['min']}..{f['max']} step {f.get('step', 1)})"
        else:
            why = match_items(f["items"], value)
            if why:
                return f"{name}={canon(value)}: {why}"
    extra = sorted(set(action) - seen)
    if extra:
        return f"the field {extra[0]!r} is not part of the move offered"
    return None


def match_items(spec: Items, value: Any) -> str | None:
    """Why the list ``value`` does not fit the items field ``spec`` (how many, which, how often); None when it does."""
    if not isinstance(value, list):
        return "a list is needed"
    if not spec["min"] <= len(value) <= spec["max"]:
        return f"{spec['min']} to {spec['max']} items are offered, not {len(value)}"
    allowed = {canon(c["value"]) for c in enabled(spec["choices"])}
    keys = [canon(v) for v in value]  # each value canonicalised once, then compared by its key
    for key in keys:
        if key not in allowed:
            return f"{key} is not among the choices offered"
    counts: dict[str, int] = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    if spec.get("distinct") and any(n > 1 for n in counts.values()):
        return "a value is repeated"
    for key, most in (spec.get("limits") or {}).items():
        if counts.get(canon(key), 0) > most:
            return f"{key} is offered at most {most} times"
    return None


def count(f_or_fields: Form | list[Field]) -> int:
    """How many concrete moves a form (or a list of fields) stands for."""
    fields = f_or_fields["fields"] if isinstance(f_or_fields, dict) else f_or_fields
    return _count(list(fields))


def _count(fields: list[Field]) -> int:
    if not fields:
        return 1
    f, rest = fields[0], fields[1:]
    skip = _count(rest) if f.get("optional") else 0
    kind = kind_of(f)
    if kind == "choices":
        return skip + sum(_count(list(c.get("fields") or []) + rest) for c in enabled(f["choices"]))
    if kind == "range":
        return skip + len(range_values(f)) * _count(rest)
    return skip + _count_items(f["items"]) * _count(rest)


def _count_items(spec: Items) -> int:
    n = len(enabled(spec["choices"]))
    total = 0
    for length in range(spec["min"], spec["max"] + 1):
        total += (_perm(n, length) if spec.get("distinct") else n ** length)
    return total


def _perm(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= max(0, n - i)
    return out


def expand(form_: Form, limit: int = 2000, rng: random.Random | None = None) -> Iterator[Action]:
    """The concrete actions a form offers: all of them when there are at most ``limit``,
    else ``limit`` drawn at random with ``rng`` (a seeded one in the audit)."""
    base: Action = {"type": form_["type"]}
    if form_.get("player") is not None:
        base["player"] = form_["player"]
    if count(form_) <= limit:
        yield from _walk(list(form_["fields"]), base)
        return
    rng = rng or random.Random(0)
    for _ in range(limit):
        yield _sample(list(form_["fields"]), dict(base), rng)


def _walk(fields: list[Field], acc: Action) -> Iterator[Action]:
    if not fields:
        yield dict(acc)
        return
    f, rest = fields[0], fields[1:]
    if f.get("optional"):
        yield from _walk(rest, acc)
    kind = kind_of(f)
    if kind == "choices":
        for c in enabled(f["choices"]):
            yield from _walk(list(c.get("fields") or []) + rest, {**acc, f["name"]: c["value"]})
    elif kind == "range":
        for v in range_values(f):
            yield from _walk(rest, {**acc, f["name"]: v})
    else:
        for seq in _item_lists(f["items"]):
            yield from _walk(rest, {**acc, f["name"]: seq})


def _item_lists(spec: Items) -> Iterator[list[Any]]:
    values = [c["value"] for c in enabled(spec["choices"])]
    for length in range(spec["min"], spec["max"] + 1):
        source = itertools.permutations(values, length) if spec.get("distinct") else itertools.product(values, repeat=length)
        for seq in source:
            if match_items(spec, list(seq)) is None:
                yield list(seq)


def _sample(fields: list[Field], acc: Action, rng: random.Random) -> Action:
    while fields:
        f, fields = fields[0], fields[1:]
        if f.get("optional") and rng.random() < 0.2:
            continue
        kind = kind_of(f)
        if kind == "choices":
            options = enabled(f["choices"])
            if not options:
                continue
            c = rng.choice(options)
            acc[f["name"]] = c["value"]
            fields = list(c.get("fields") or []) + fields
        elif kind == "range":
            acc[f["name"]] = rng.choice(range_values(f))
        else:
            acc[f["name"]] = _sample_items(f["items"], rng)
    return acc


def _sample_items(spec: Items, rng: random.Random) -> list[Any]:
    values = [c["value"] for c in enabled(spec["choices"])]
    for _ in range(50):
        length = rng.randint(spec["min"], spec["max"])
        seq = rng.sample(values, length) if spec.get("distinct") and length <= len(values) else [rng.choice(values) for _ in range(length)]
        if match_items(spec, seq) is None:
            return seq
    return next(_item_lists(spec))


def disabled_moves(form_: Form) -> Iterator[tuple[Action, str]]:
    """One action per disabled choice at the first level (with the reason): they must be refused."""
    base: Action = {"type": form_["type"]}
    if form_.get("player") is not None:
        base["player"] = form_["player"]
    fields = list(form_["fields"])
    for i, f in enumerate(fields):
        if kind_of(f) != "choices":
            continue
        for c in f["choices"]:
            why = c["disabled"]
            if why:
                rest = next(_walk(fields[:i] + fields[i + 1:], dict(base)), None)
                if rest is not None:
                    yield {**rest, f["name"]: c["value"]}, why


# -- the audit of one state -----------------------------------------------------------

def audit_step(forms: list[Form], accepts: Callable[[Action], bool], limit: int = 400,
               rng: random.Random | None = None) -> tuple[int, list[Action]]:
    """Try every concrete move offered (up to ``limit`` a form); return (tried, refused ones)."""
    rng = rng or random.Random(0)
    tried, refused = 0, []
    for f in forms:
        for action in expand(f, limit, rng):
            tried += 1
            if not accepts(action):
                refused.append(action)
    return tried, refused


__all__ = [
    "STEPS", "Action", "Choice", "Field", "Form", "audit_step", "choice", "count", "disabled_moves", "draw_form",
    "enabled",
    "expand", "expected_first", "for_seat", "form", "items", "kind_of", "match", "number", "ordered",
    "override", "pick", "preview", "range_values", "same", "step_of", "visible", "with_draws",
]
