"""The script format: a JSON Lines game replayed to its public state.

The contract is docs/design.md, « The script format and the action vocabulary ».

Kept apart from the CLI so tests, the dashboard and bug-report tooling can run
scripts without a process or a database.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion import games
from companion.engine import jsoncheck
from companion.engine.rules import RuleError, Rules


@dataclass
class ScriptResult:
    """What a script run produced: the final public state, or the first error."""

    ok: bool
    output: dict[str, Any]
    rules: Rules | None = None
    state: Any = None

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 2


def parse_header(obj: Any) -> tuple[Rules, list[str], dict[str, Any]]:
    """Validate a header object (``{"game", "players", "options"}``) and return its parts."""
    if not isinstance(obj, dict):
        raise RuleError("The first line must be a JSON object with \"game\" and \"players\".")
    unknown = sorted(set(obj) - {"game", "players", "options"})
    if unknown:
        raise RuleError(f"The first line has no field \"{unknown[0]}\"; it takes game, players and options.")
    rules = games.get(obj.get("game"))
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise RuleError("\"options\" must be a JSON object.")
    players = obj.get("players")
    if players is None:
        raise RuleError("The first line needs \"players\", a list of names in seating order.")
    return rules, players, options


def decode_line(text: str) -> Any:
    """Parse one JSON line, turning a syntax error into one clear sentence.

    The same check as every other entry point (:mod:`companion.engine.jsoncheck`): finite
    numbers only, bounded depth and size, valid Unicode.
    """
    try:
        return jsoncheck.loads(text, "this line")
    except RuleError as err:
        if err.msgid.startswith("Not valid JSON"):
            raise RuleError(f"This line is not valid JSON ({err.params['msg']} at column {err.params['col']}).") from None
        raise


def run_lines(lines: Iterable[str], trail: list[tuple[Any, Any, Any, Any]] | None = None) -> ScriptResult:
    """Replay script lines; stop at the first rejected line (1-based numbering). ``trail`` (when given)
    receives each accepted action's ``(before, action, events, after)``: the course reads them."""
    rules: Rules | None = None
    state: Any = None
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            obj = decode_line(text)
            if rules is None:
                rules, players, options = parse_header(obj)
                state = rules.setup(players, options)
            else:
                before = state
                state, _events = rules.apply(state, obj)
                if trail is not None:
                    trail.append((before, obj, _events, state))
        except RuleError as err:
            before = rules.public_state(state) if rules is not None and state is not None else None
            return ScriptResult(False, {"error": {"line": number, "message": err.message}, "state": before}, rules, state)
        except Exception as exc:  # a rules bug on strange input: still the contract's error shape, exit 2
            logging.getLogger(__name__).debug("script line %d", number, exc_info=True)
            before = rules.public_state(state) if rules is not None and state is not None else None
            message = f"This line could not be applied ({type(exc).__name__}); nothing was changed."
            return ScriptResult(False, {"error": {"line": number, "message": message}, "state": before}, rules, state)
    if rules is None:
        return ScriptResult(False, {"error": {"line": 1, "message": "The script is empty; its first line must name the game and players."}, "state": None})
    return ScriptResult(True, rules.public_state(state), rules, state)


def run_file(path: str, trail: list[tuple[Any, Any, Any, Any]] | None = None) -> ScriptResult:
    try:
        with open(path, encoding="utf-8") as handle:
            return run_lines(handle.readlines(), trail)
    except OSError as exc:
        return ScriptResult(False, {"error": {"line": 0, "message": f"Cannot read {path}: {exc.strerror}."}, "state": None})
    except UnicodeDecodeError:
        return ScriptResult(False, {"error": {"line": 0, "message": f"{path} is not UTF-8 text."}, "state": None})
