"""The ``companion`` command line.

Every sub-command is a short function over the session API; bad input is one
sentence on stderr (or a JSON error object where the contract says so) and
exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import sqlite3
import sys
from collections.abc import Callable
from typing import Any

from companion import games
from companion.engine.jsoncheck import clean
from companion.engine.rules import RuleError
from companion.engine.script import run_file
from companion.table.rows import StorageError, UnknownGame
from hw.errors import DeviceError

Command = Callable[[argparse.Namespace], int]
_COMMANDS: dict[str, Command] = {}


class UsageError(Exception):
    """A mistake in the command line itself (exit 2, one sentence)."""


def command(name: str) -> Callable[[Command], Command]:
    def register(fn: Command) -> Command:
        _COMMANDS[name] = fn
        return fn

    return register


def emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=None) + "\n")


def fail(message: str) -> int:
    sys.stderr.write(f"companion: {clean(message)}\n")  # a refusal never echoes raw CR/LF
    return 2


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message[0].upper() + message[1:] + ".")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="companion", description="Galapagos Table Companion")
    parser.add_argument("--db", help="journal database (default: $COMPANION_DB, then the XDG data directory)")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    p = sub.add_parser("script", help="replay a JSON Lines game and print its public state")
    p.add_argument("file")
    p.add_argument("--audit", action="store_true",
                   help="check before each line that it was offered and that every move offered is accepted")
    p.add_argument("--narrate", action="store_true", help="print the story of the game, one sentence a line")
    p.add_argument("--lang", default="en", choices=["en", "fr"], help="language of the narration")

    p = sub.add_parser("replay", help="play a script through the simulated table only and compare the end")
    p.add_argument("file")
    p.add_argument("--via", choices=["table"], default="table", help="the interface to play it through")

    p = sub.add_parser("moves", help="print the moves offered after a script, as JSON")
    p.add_argument("file")
    p.add_argument("--seat", help="the moves of this player's phone (default: the table, every seat)")
    p.add_argument("--lang", default="en", choices=["en", "fr"])

    sub.add_parser("games", help="list the games")

    for extend in _PARSER_EXTENSIONS:
        extend(sub)
    return parser


#: other modules add their sub-commands here (session commands, oled, run, doctor...)
_PARSER_EXTENSIONS: list[Callable[[Any], None]] = []


def subcommands(fn: Callable[[Any], None]) -> Callable[[Any], None]:
    """Register a function that adds sub-parsers: ``fn(subparsers)``.

    An extension module (``companion/cli_*.py``) uses it beside :func:`command`.
    """
    _PARSER_EXTENSIONS.append(fn)
    return fn


@command("script")
def cmd_script(args: argparse.Namespace) -> int:
    if args.audit or args.narrate:
        return _script_check(args)
    result = run_file(args.file)
    emit(result.output)
    return result.exit_code


def _read_lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.readlines()
    except OSError as exc:
        raise UsageError(f"Cannot read {path}: {exc.strerror}.") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not UTF-8 text.") from None


def _script_check(args: argparse.Namespace) -> int:
    """``script --audit`` (one JSON report) or ``script --narrate`` (one sentence a line)."""
    from companion.engine import audit  # late: ~3 ms; audit, replay, moves only

    lines = _read_lines(args.file)
    try:
        if args.audit:
            report = audit.audit(lines)
            emit(report)
            return 0 if report["ok"] else 1
        sentences, error = audit.narrate(lines, args.lang)
    except audit.ScriptError as err:
        emit(err.to_json())
        return 2
    for sentence in sentences:
        sys.stdout.write(sentence + "\n")
    if error is not None:
        emit(error)
        return 2
    return 0


@command("replay")
def cmd_replay(args: argparse.Namespace) -> int:
    from companion.board.replay import replay_via_table  # late: ~110 ms; replay only
    from companion.engine import audit  # late: ~3 ms; audit, replay, moves only

    try:
        report = replay_via_table(_read_lines(args.file))
    except audit.ScriptError as err:
        emit(err.to_json())
        return 2
    emit(report)
    return 0 if report["ok"] else 1


@command("moves")
def cmd_moves(args: argparse.Namespace) -> int:
    from companion.engine import audit, moves  # late: ~3 ms; moves only

    try:
        pkg, state = audit.final_state(_read_lines(args.file))
    except audit.ScriptError as err:
        emit(err.to_json())
        return 2
    names = [p.get("name") for p in pkg.rules.view(state).get("players", [])]
    if args.seat is not None and args.seat not in names:
        raise UsageError(f"There is no player {args.seat!r} in this game.")
    forms = moves.for_seat(pkg.moves(state, args.lang), args.seat)
    emit({"game": pkg.id, "seat": args.seat, "prompt": pkg.prompt(state, args.lang), "moves": forms})
    return 0


@command("games")
def cmd_games(args: argparse.Namespace) -> int:
    for gid in games.ids():
        rules = games.get(gid)
        emit({"id": gid, "name": rules.name, "min_players": rules.min_players, "max_players": rules.max_players})
    return 0


def main(argv: list[str] | None = None) -> int:
    _load_extensions()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        return fail(str(exc))
    if not args.command:
        parser.print_help()
        return 2
    try:
        return _COMMANDS[args.command](args)
    # one answer per root, each its one sentence (the roots are disjoint: these clauses commute)
    except RuleError as exc:  # the rules refused: nothing changed
        return fail(exc.message)
    except StorageError as exc:  # the card or the journal's rows failed: nothing changed
        return fail(exc.message)
    except UnknownGame as exc:  # a game looked up and not found
        return fail(exc.message)
    except DeviceError as exc:  # a part of the table down: its sentence says the fix
        return fail(str(exc))
    except UsageError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `companion show ID --text | head`: the reader left, nothing is wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except sqlite3.DatabaseError as exc:  # damage met while reading; `companion run` recovers it
        return fail(f"The journal cannot be read ({exc}); `companion run` copies it aside and recovers what it can.")
    except Exception as exc:  # a bug of ours: one sentence for the user, the details in the log
        logging.getLogger("companion").debug("internal error", exc_info=True)
        return fail(f"internal error ({type(exc).__name__}: {exc}); nothing was changed. "
                    "Please report it with the game's script.")


def _load_extensions() -> None:
    """Import the modules that register sub-commands (kept lazy for a fast start)."""
    for name in ("companion.cli.session", "companion.cli.hw", "companion.cli.run", "companion.cli.league",
                 "companion.cli.update", "companion.cli.network", "companion.cli.firmware"):
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
