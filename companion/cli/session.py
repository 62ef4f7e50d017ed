"""Sub-commands over the journal: new, act, show, undo, redo, list, play.

Each call is its own process that opens the journal, replays the game, does
one thing and exits, so a game played from a shell survives ``kill -9``
between any two calls.
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from typing import Any

from companion.cli.main import UsageError, command, emit, subcommands
from companion.engine import jsoncheck
from companion.engine.rules import RuleError
from companion.table.journal import Journal, default_db_path
from companion.table.session import Session
from companion.table.summary import summary


@subcommands
def _parsers(sub: Any) -> None:
    p = sub.add_parser("new", help="start a game and print its id")
    p.add_argument("game")
    p.add_argument("--players", required=True, help="names in seating order, comma-separated")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option; VALUE is JSON where it parses as JSON")

    p = sub.add_parser("act", help="apply one action (JSON) to a game")
    p.add_argument("id")
    p.add_argument("action")

    p = sub.add_parser("show", help="print a game's public state")
    p.add_argument("id")
    p.add_argument("--text", action="store_true", help="a human-readable summary instead of JSON")

    for name, text in (("undo", "take back the last action"), ("redo", "play the last undone action again")):
        p = sub.add_parser(name, help=text)
        p.add_argument("id")

    p = sub.add_parser("list", help="the games in the journal")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("play", help="an interactive table in the terminal (works over SSH)")
    p.add_argument("id", nargs="?", help="resume this game instead of starting one")


def open_journal(args: argparse.Namespace) -> Journal:
    return Journal(default_db_path(getattr(args, "db", None)))


def open_session(args: argparse.Namespace) -> Session:
    return Session.open(open_journal(args), args.id)


def parse_option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE``: VALUE as JSON where it parses as JSON (finite numbers only), else as text."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise UsageError(f"An option is written KEY=VALUE, not {text!r}.")
    try:
        return key, jsoncheck.loads(value, f"the option {key}")
    except RuleError as err:
        try:
            json.loads(value)  # JSON, but not allowed (NaN, Infinity, a huge number): say so
        except (ValueError, RecursionError):
            return key, value  # plain text
        raise err from None


def parse_action(text: str) -> Any:
    """The action's JSON, by the same check as every entry point (:mod:`companion.engine.jsoncheck`)."""
    try:
        return jsoncheck.loads(text, "the action")
    except RuleError as err:
        if err.msgid.startswith("Not valid JSON"):
            raise RuleError(f"The action is not valid JSON ({err.params['msg']} at column {err.params['col']}).") from None
        raise


@command("new")
def cmd_new(args: argparse.Namespace) -> int:
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    options = dict(parse_option(o) for o in args.option)
    session = Session.new(open_journal(args), args.game, players, options)
    print(session.id)
    return 0


@command("act")
def cmd_act(args: argparse.Namespace) -> int:
    action = parse_action(args.action)
    session = open_session(args)
    session.act(action, source="cli")
    emit(session.public())
    return 0


@command("show")
def cmd_show(args: argparse.Namespace) -> int:
    session = open_session(args)
    if args.text:
        print(summary(session))
    else:
        emit(session.public())
    return 0


def _move(args: argparse.Namespace, kind: str) -> int:
    session = open_session(args)
    action = session.undo() if kind == "undo" else session.redo()
    if action is None:
        raise UsageError(f"There is nothing to {kind} in game {session.id}.")
    emit({kind: action, "state": session.public()})
    return 0


@command("undo")
def cmd_undo(args: argparse.Namespace) -> int:
    return _move(args, "undo")


@command("redo")
def cmd_redo(args: argparse.Namespace) -> int:
    return _move(args, "redo")


@command("list")
def cmd_list(args: argparse.Namespace) -> int:
    journal = open_journal(args)
    records = journal.games()
    if args.json:
        for rec in records:
            emit(rec.to_json())
        return 0
    if not records:
        print("No games yet. Start one with: companion new GAME --players A,B")
        return 0
    for rec in records:
        when = datetime.fromtimestamp(rec.created).strftime("%Y-%m-%d %H:%M")
        status = "playing"
        if rec.result:
            winners = ", ".join(rec.result.get("winners") or []) or "nobody"
            status = f"over, won by {winners}"
        print(f"{rec.id}  {when}  {rec.game:<18} {', '.join(rec.players):<30} {status}")
    return 0


@command("play")
def cmd_play(args: argparse.Namespace) -> int:
    from companion.cli.terminal import play  # late: ~5 ms; play only

    return play(open_journal(args), args.id)
