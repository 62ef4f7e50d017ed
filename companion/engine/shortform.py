"""Short typed actions for the terminal table: ``bid Ann N 300`` → a JSON action.

Positional words fill the action's fields in the order the game declares in
``Rules.short_forms`` (or ``player`` first, then the other fields
alphabetically); ``key=value`` words name a field directly; a line starting
with ``{`` is taken as JSON. Values that read as JSON (numbers, true/false)
become those; fields that hold lists take comma-separated words.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from companion.engine.rules import Action, RuleError, Rules

#: fields that always hold a list, whatever the game
LIST_FIELDS = frozenset({"animals", "dice", "numbers", "path", "give"})


def field_order(rules: Rules, kind: str) -> list[str]:
    declared = getattr(rules, "short_forms", {}).get(kind)
    if declared:
        return list(declared)
    fields = set(rules.actions.get(kind, ()))
    head = ["player"] if "player" in fields else []
    return head + sorted(fields - {"player"})


def usage(rules: Rules, kind: str) -> str:
    """``bid PLAYER DIRECTION AMOUNT``: how to type one action."""
    return " ".join([kind] + [f.upper() for f in field_order(rules, kind)])


def _value(name: str, word: str) -> Any:
    if name in LIST_FIELDS:
        return [_scalar(w) for w in word.split(",") if w]
    return _scalar(word)


def _scalar(word: str) -> Any:
    try:
        value = json.loads(word)
    except json.JSONDecodeError:
        return word
    return value if isinstance(value, (int, float, bool, list, dict)) or value is None else word


def parse(rules: Rules, line: str) -> Action:
    """Turn a typed line into an action dict, or raise RuleError with one sentence."""
    text = line.strip()
    if text.startswith("{"):
        try:
            decoded: Action = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RuleError(f"That is not valid JSON ({exc.msg}).") from None
        return decoded
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise RuleError(f"Cannot read that line ({exc}).") from None
    if not words:
        raise RuleError("Type an action, such as \"pass Ann\".")
    kind, rest = words[0], words[1:]
    if kind not in rules.actions:
        raise RuleError(f"{rules.name} has no action \"{kind}\"; it knows {', '.join(sorted(rules.actions))}.")
    order = field_order(rules, kind)
    action: Action = {"type": kind}
    positional = [w for w in rest if "=" not in w]
    if len(positional) > len(order):
        raise RuleError(f"Too many words for \"{kind}\"; type it as: {usage(rules, kind)}.")
    for name, word in zip(order, positional, strict=False):
        action[name] = _value(name, word)
    for word in rest:
        if "=" in word:
            name, _, value = word.partition("=")
            action[name] = _value(name, value)
    return action
