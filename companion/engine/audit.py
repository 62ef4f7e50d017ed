"""Checks of a script against the game's moves, and its story (``companion script --audit / --narrate``).

The audit replays a script and, before each line, asks the game package for
its moves (every form, for every seat and the table, as a table without
phones sees them) and checks two things:

* the line's action was offered: its type for its player, each field value
  among the choices or within the range (:func:`companion.engine.moves.match`);
* every concrete move offered is accepted by the rules (all of them where a form
  stands for few moves, a seeded sample where it stands for many).

A line the rules refuse ends the replay; it must not have been offered.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from companion import games
from companion.engine import moves
from companion.engine.rules import RuleError
from companion.engine.script import decode_line, parse_header

#: concrete moves tried per form and line (a form standing for more is sampled)
PER_FORM = 150
#: at most this many gaps are listed (the counts stay exact)
MAX_GAPS = 50


@dataclass
class Line:
    """One action line of a script as replayed: the state before it, and what came of it."""

    number: int
    action: Any
    before: Any
    after: Any = None
    events: list[dict[str, Any]] = field(default_factory=list)
    error: RuleError | None = None


class ScriptError(Exception):
    """A script that cannot be replayed at all (bad header, bad JSON): the JSON error shape."""

    def __init__(self, line: int, message: str, state: Any = None):
        super().__init__(message)
        self.line, self.message, self.state = line, message, state

    def to_json(self) -> dict[str, Any]:
        return {"error": {"line": self.line, "message": self.message}, "state": self.state}


def replay(lines: Iterable[str]) -> tuple[Any, Any, Iterator[Line]]:
    """(game package, initial state, the action lines as they are replayed, stopping after a refusal).

    Raises :class:`ScriptError` when the header or a line is not even readable.
    """
    numbered = [(n, raw.strip()) for n, raw in enumerate(lines, start=1) if raw.strip()]
    if not numbered:
        raise ScriptError(1, "The script is empty; its first line must name the game and players.")
    n0, head = numbered[0]
    try:
        rules, players, options = parse_header(decode_line(head))
        pkg = games.package(rules.id)
        state = rules.setup(players, options)
    except RuleError as err:
        raise ScriptError(n0, err.message) from None

    def walk() -> Iterator[Line]:
        current = state
        for number, text in numbered[1:]:
            try:
                action = decode_line(text)
            except RuleError as err:
                raise ScriptError(number, err.message, rules.public_state(current)) from None
            line = Line(number, action, current)
            try:
                line.after, line.events = rules.apply(current, action)
            except RuleError as err:
                line.error = err
                yield line
                return
            yield line
            current = line.after

    return pkg, state, walk()


def audit(lines: Iterable[str], per_form: int = PER_FORM, seed: int = 0) -> dict[str, Any]:
    """The audit report of a script: ``{"actions", "offered", "offered_refused", "refused_line_offered", "gaps"}``."""
    pkg, _, walk = replay(lines)
    rules = pkg.rules
    rng = random.Random(seed)
    report: dict[str, Any] = {"actions": 0, "offered": 0, "offered_refused": 0, "refused_line_offered": False,
                              "moves_tried": 0, "gaps": []}
    gaps: list[dict[str, Any]] = report["gaps"]
    for line in walk:
        forms = pkg.moves(line.before)

        def accepts(action: dict[str, Any], state: Any = line.before) -> bool:
            try:
                rules.apply(state, action)
                return True
            except RuleError:
                return False

        tried, refused = moves.audit_step(forms, accepts, per_form, rng)
        report["moves_tried"] += tried
        report["offered_refused"] += len(refused)
        for action in refused[:3]:
            _gap(gaps, {"line": line.number, "kind": "offered_refused", "action": action,
                        "why": _refusal(rules, line.before, action)})
        why = moves.match(forms, line.action)
        if line.error is not None:
            report["refused_line"] = {"line": line.number, "message": line.error.message}
            if why is None:
                report["refused_line_offered"] = True
                _gap(gaps, {"line": line.number, "kind": "refused_line_offered", "action": line.action,
                            "why": line.error.message})
            break
        report["actions"] += 1
        if why is None:
            report["offered"] += 1
        else:
            _gap(gaps, {"line": line.number, "kind": "not_offered", "action": line.action, "why": why})
    report["ok"] = (report["offered"] == report["actions"] and report["offered_refused"] == 0
                    and not report["refused_line_offered"])
    return report


def _refusal(rules: Any, state: Any, action: dict[str, Any]) -> str:
    try:
        rules.apply(state, action)
    except RuleError as err:
        return err.message
    return ""


def _gap(gaps: list[dict[str, Any]], gap: dict[str, Any]) -> None:
    if len(gaps) < MAX_GAPS:
        gaps.append(gap)


def narrate(lines: Iterable[str], lang: str = "en") -> tuple[list[str], dict[str, Any] | None]:
    """Every sentence of the script's story, in ``lang``; and the error object of a refused line, if any.

    The error is the line and its one sentence, not the state: a reader of the story wants to
    know why the line was refused (``companion script FILE`` prints the state for a program).
    """
    pkg, _, walk = replay(lines)
    out: list[str] = []
    for line in walk:
        if line.error is not None:
            return out, {"error": {"line": line.number, "message": pkg.error_text(line.error, lang)}}
        out.extend(pkg.narrate(line.before, line.action, line.events, line.after, lang))
    return out, None


def final_state(lines: Iterable[str]) -> tuple[Any, Any]:
    """(game package, the state after the script's last accepted line)."""
    pkg, state, walk = replay(lines)
    for line in walk:
        if line.error is not None:
            break
        state = line.after
    return pkg, state
