"""The interactive terminal table: pick a game and players, then type short actions.

It is a thin loop over the session API, so what is typed here is journaled
exactly like a phone's tap or a button press, and survives a power cut.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from companion import games
from companion.journal import Journal
from companion.rules import RuleError
from companion.session import Session
from companion.shortform import parse, usage
from companion.summary import summary

HELP = """Type an action in short form, e.g. `bid Ann N 300`, or as JSON.
Commands: help, show, undo, redo, quit."""


def _ask(prompt: str, read: Callable[[str], str]) -> str:
    return read(prompt).strip()


def choose_session(journal: Journal, read: Callable[[str], str], out: Callable[[str], None]) -> Session | None:
    unfinished = journal.games(finished=False)
    if unfinished:
        out("Unfinished games:")
        for rec in unfinished[:9]:
            out(f"  {rec.id}  {rec.game}  {', '.join(rec.players)}")
        answer = _ask("Resume one (type its id) or press Enter for a new game: ", read)
        if answer:
            return Session.open(journal, answer)
    ids = games.ids()
    for n, gid in enumerate(ids, 1):
        rules = games.get(gid)
        out(f"  {n}. {rules.name} ({gid}, {rules.min_players}-{rules.max_players} players)")
    while True:
        answer = _ask("Game number: ", read)
        if answer.isdigit() and 1 <= int(answer) <= len(ids):
            gid = ids[int(answer) - 1]
            break
        out("Type one of the numbers above.")
    while True:
        names = [n.strip() for n in _ask("Players in seating order, comma-separated: ", read).split(",") if n.strip()]
        try:
            return Session.new(journal, gid, names, {})
        except RuleError as err:
            out(err.message)


def play(journal: Journal, game_id: str | None = None,
         read: Callable[[str], str] = input, out: Callable[[str], None] = print) -> int:
    try:
        session = Session.open(journal, game_id) if game_id else choose_session(journal, read, out)
        if session is None:
            return 0
        out(f"Game {session.id}. {HELP}")
        out(summary(session))
        while True:
            line = _ask("> ", read)
            if not line:
                continue
            word = line.split()[0].lower()
            if word in ("quit", "exit"):
                return 0
            if word == "help":
                out(HELP)
                for kind in session.expected().actions:
                    out("  " + usage(session.rules, kind))
                continue
            if word == "show":
                out(summary(session))
                continue
            if word in ("undo", "redo"):
                done = session.undo() if word == "undo" else session.redo()
                out(f"{word}: {done}" if done else f"Nothing to {word}.")
                out(summary(session))
                continue
            try:
                session.act(parse(session.rules, line), source="terminal")
            except RuleError as err:
                out(f"Refused: {err.message}")
                continue
            out(summary(session))
    except (EOFError, KeyboardInterrupt):
        out("")
        return 0
    except RuleError as err:
        sys.stderr.write(f"companion: {err.message}\n")
        return 2
