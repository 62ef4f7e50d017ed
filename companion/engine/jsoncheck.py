"""One check of numbers and JSON for every way in: the API, the forms, the CLI, scripts.

A game's state is rebuilt by replaying what the journal holds, so whatever is
accepted once is replayed for ever: a ``NaN`` sand timer, a number JSON cannot
write back (``Infinity``), a name Python cannot encode (a lone surrogate) or a
value nested past the interpreter's recursion limit would break a game for good,
or every page that shows it. Everything entering a session goes through
:func:`loads` (text) or :func:`check` (decoded values) and is refused with one
sentence (:class:`~companion.engine.rules.RuleError`) otherwise.
"""

from __future__ import annotations

import json
import math
from typing import Any

from companion.engine.rules import RuleError

#: nesting deeper than this is refused (a dice layout is 4 levels deep)
MAX_DEPTH = 16
#: values in one document at most
MAX_NODES = 20_000
#: integers beyond this size are refused (a seed, a count, a score all fit)
MAX_INT = 10**15
#: one text at most (names, messages)
MAX_TEXT = 10_000


class _Constant(Exception):
    """``NaN``, ``Infinity`` or ``-Infinity`` met while decoding."""


def _no_constant(name: str) -> Any:
    raise _Constant(name)


def loads(text: str | bytes, what: str = "the input") -> Any:
    """Decode JSON strictly: finite numbers, bounded depth and size, valid Unicode; RuleError otherwise."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise RuleError("The text of {what} is not UTF-8.", what=what) from None
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except _Constant as const:
        raise RuleError("In {what}, {name} is not a number JSON allows; give a finite number.", what=what,
                        name=str(const)) from None
    except json.JSONDecodeError as exc:
        raise RuleError("Not valid JSON in {what} ({msg} at column {col}).", what=what, msg=exc.msg,
                        col=exc.colno) from None
    except RecursionError:
        raise RuleError("In {what}, values are nested more than {depth} levels deep.", what=what, depth=MAX_DEPTH) from None
    except ValueError:  # an integer over Python's 4,300-digit limit
        raise RuleError("In {what}, a number is far too large.", what=what) from None
    check(value, what)
    return value


def check(value: Any, what: str = "the input") -> None:
    """Refuse non-finite or huge numbers, deep nesting, too many values and text that is not valid Unicode."""
    budget = [MAX_NODES]

    def walk(v: Any, depth: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise RuleError("In {what}, there are more than {n} values.", what=what, n=MAX_NODES)
        if depth > MAX_DEPTH:
            raise RuleError("In {what}, values are nested more than {depth} levels deep.", what=what, depth=MAX_DEPTH)
        if isinstance(v, bool) or v is None:
            return
        if isinstance(v, int):
            if not -MAX_INT <= v <= MAX_INT:
                raise RuleError("In {what}, a number is far too large.", what=what)
        elif isinstance(v, float):
            if not math.isfinite(v):
                name = "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
                raise RuleError("In {what}, {name} is not a number JSON allows; give a finite number.", what=what, name=name)
            if abs(v) > MAX_INT:
                raise RuleError("In {what}, a number is far too large.", what=what)
        elif isinstance(v, str):
            _text(v, what)
        elif isinstance(v, dict):
            for key, item in v.items():
                if not isinstance(key, str):
                    raise RuleError("In {what}, a key is not text.", what=what)
                _text(key, what)
                walk(item, depth + 1)
        elif isinstance(v, list | tuple):
            for item in v:
                walk(item, depth + 1)
        else:
            raise RuleError("In {what}, a value is not one JSON has.", what=what)

    walk(value, 0)


def _text(s: str, what: str) -> None:
    if len(s) > MAX_TEXT:
        raise RuleError("In {what}, a text is longer than {n} characters.", what=what, n=MAX_TEXT)
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise RuleError("In {what}, a text is not valid Unicode (a lone surrogate).", what=what) from None


def clean(text: str) -> str:
    """``text`` safe to print in a refusal: control characters and lone surrogates shown as escapes."""
    out = []
    for c in text:
        code = ord(c)
        if code < 32 or code == 127 or 0xD800 <= code <= 0xDFFF:
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(c, f"\\u{code:04x}"))
        else:
            out.append(c)
    return "".join(out)
