"""The interactive terminal table: pick a game and players, then type short actions.

It is a thin loop over the session API, so what is typed here is journaled
exactly like a phone's tap or a button press, and survives a power cut.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

from companion import games
from companion.engine import moves
from companion.engine.rules import RuleError
from companion.engine.shortform import parse, usage
from companion.table import extras
from companion.table.journal import Journal
from companion.table.rows import StorageError, UnknownGame
from companion.table.session import Session
from companion.table.summary import story_lines, summary

HELP = """Type the number of a move below (then answer its questions), or an action in short
form (`bid Ann N 300`) or as JSON. Commands: help, moves, show, undo, redo, quit."""


def _ask(prompt: str, read: Callable[[str], str]) -> str:
    return read(prompt).strip()


def choose_session(journal: Journal, read: Callable[[str], str], out: Callable[[str], None]) -> Session | None:
    unfinished = journal.games(finished=False)
    if unfinished:
        out("Unfinished games:")
        for rec in unfinished[:9]:
            out(f"  {rec.id}  {rec.game}  {', '.join(rec.players)}")
        while True:
            answer = _ask("Resume one (type its id) or press Enter for a new game: ", read)
            if not answer:
                break
            if any(rec.id == answer for rec in unfinished):
                return Session.open(journal, answer)
            out(f"There is no unfinished game {answer!r}; type one of the ids above, or press Enter.")
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
        out(list_moves(session))
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
            if word == "moves":
                out(list_moves(session))
                continue
            if word.isdigit():
                action = choose_move(session, int(word), read, out)
                if action is None:
                    continue
                try:
                    session.act(action, source="terminal")
                except RuleError as err:
                    out(f"Refused: {err.message}")
                    continue
                except StorageError as err:  # the card refused the write: said, nothing changed, play on
                    out(err.message)
                    continue
                out(after_move(session))
                continue
            if word in ("undo", "redo"):
                try:
                    done = extras.undo(session) if word == "undo" else session.redo()
                except RuleError as err:
                    out(f"Refused: {err.message}")
                    continue
                except StorageError as err:  # the card refused the write: said, nothing changed, play on
                    out(err.message)
                    continue
                pkg = games.package(session.game)
                out(f"{'Undone' if word == 'undo' else 'Redone'}: {pkg.describe(done)}." if done else f"Nothing to {word}.")
                out(after_move(session, story=False))
                continue
            try:
                session.act(parse(session.rules, line), source="terminal")
            except RuleError as err:
                out(f"Refused: {err.message}")
                continue
            except StorageError as err:  # the card refused the write: said, nothing changed, play on
                out(err.message)
                continue
            out(after_move(session))
    except (EOFError, KeyboardInterrupt):
        out("")
        return 0
    except (RuleError, StorageError, UnknownGame) as err:  # a refusal, the card, or no such game: one sentence
        sys.stderr.write(f"companion: {err.message}\n")
        return 2


def after_move(session: Session, story: bool = True) -> str:
    """What a player wants after a move: what happened, what the game waits for, the moves."""
    pkg = games.package(session.game)
    lines = [f"  {s}" for s in story_lines(session, limit=1)] if story else []
    if session.over:
        lines.append(pkg.outcome_text(session.state) or "The game is over.")
    else:
        lines.append(f"Next: {pkg.prompt(session.state)}")
        lines.append(list_moves(session))
    return "\n".join(lines)


# -- the moves, as the game package describes them ------------------------------------

def _forms(session: Session) -> list[dict]:
    pkg = games.package(session.game)
    return moves.expected_first(moves.visible(pkg.moves(session.state)), session.expected().players)


def list_moves(session: Session) -> str:
    """The moves offered now, numbered (the terminal is a table without phones)."""
    forms = _forms(session)
    if not forms:
        return "No move to make now."
    lines = ["Moves:"]
    headings = {"also": "Also allowed now:", "override": "Corrections (each asks first):"}
    step = "next"
    for n, f in enumerate(forms, 1):
        if moves.step_of(f) != step:
            step = moves.step_of(f)
            lines.append(headings.get(step, "Moves:"))
        who = f"{f['player']}: " if f.get("player") and len(session.players) > 1 else ""
        lines.append(f"  {n}. {who}{f['label']}" + (f" ({', '.join(x['label'] for x in f['fields'])})" if f["fields"] else ""))
    return "\n".join(lines)


def choose_move(session: Session, number: int, read: Callable[[str], str], out: Callable[[str], None]) -> dict | None:
    """Ask for each field of move ``number`` among its legal choices; the action, or None if abandoned."""
    forms = _forms(session)
    if not 1 <= number <= len(forms):
        out(f"Type a move number from 1 to {len(forms)}." if forms else "No move to make now.")
        return None
    form = forms[number - 1]
    action: dict = {"type": form["type"]}
    if form.get("player") is not None:
        action["player"] = form["player"]
    pending = list(form["fields"])
    draw = form.get("draw")
    if draw:  # a digital draw fills this move (its step and question stay this move's)
        out(f"  d: {draw['label']}")
    while pending:
        f = pending.pop(0)
        value = _ask_field(f, read, out, drawable=bool(draw) and f is form["fields"][0])
        if value is _ABANDON:
            return None
        if value is _DRAW and draw:
            try:
                action = extras.draw(session, draw["what"], form.get("player"))[0]
            except RuleError as err:
                out(f"  {err.text()}")
                return None
            break
        if value is _SKIP:
            continue
        action[f["name"]] = value
        if moves.kind_of(f) == "choices":
            hit = next(c for c in f["choices"] if moves.same(c["value"], value))
            pending = list(hit.get("fields") or []) + pending
    if moves.step_of(form) == "override" and _ask(f"  {form.get('ask') or 'Correct the flow?'} [y/N] ",
                                                 read).lower() not in ("y", "yes", "o", "oui"):
        out("  Not sent.")
        return None
    return action


_ABANDON, _SKIP, _DRAW = object(), object(), object()


def _ask_field(f: dict, read: Callable[[str], str], out: Callable[[str], None], drawable: bool = False) -> object:
    """The value typed for ``f`` among its legal ones; ``drawable``: « d » draws the move digitally instead."""
    kind = moves.kind_of(f)
    extra = " (Enter to leave it out)" if f.get("optional") else ""
    while True:
        if kind == "choices":
            options = moves.enabled(f["choices"])
            if len(options) == 1 and not f.get("optional"):  # nothing to ask: the only legal one
                return options[0]["value"]
            numeric = _numeric(options)
            for n, c in enumerate(options, 1):
                text = (c.get("preview") or {}).get("text")
                key = c["value"] if numeric else f"{n}."
                out(f"    {key} {c['label']}" + (f" — {text}" if text else ""))
            answer = _ask(f"  {f['label']}{extra}: ", read)
        elif kind == "range":
            answer = _ask(f"  {f['label']} ({f['min']}–{f['max']}, step {f.get('step', 1)}){extra}: ", read)
        else:
            spec = f["items"]
            out("    " + ", ".join(f"{c['label']}={moves._canon(c['value'])}" for c in moves.enabled(spec["choices"])))
            answer = _ask(f"  {f['label']}: {spec['min']}–{spec['max']} values, comma-separated{extra}: ", read)
        if answer in ("q", "quit", "back"):
            return _ABANDON
        if drawable and answer == "d":
            return _DRAW
        if not answer and f.get("optional"):
            return _SKIP
        value = _read_value(f, kind, answer)
        if value is not _ABANDON:
            return value
        out("  That is not one of the choices.")


def _numeric(options: list[dict]) -> bool:
    """Choices whose values are whole numbers: the player types the number, not its place in the list."""
    return bool(options) and all(isinstance(c["value"], int) and not isinstance(c["value"], bool) for c in options)


def _read_value(f: dict, kind: str, answer: str) -> object:
    if kind == "choices":
        options = moves.enabled(f["choices"])
        if _numeric(options):  # the number typed is the value itself (3 drops, field 10), never a position
            return next((c["value"] for c in options if str(c["value"]) == answer), _ABANDON)
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]["value"]
        return next((c["value"] for c in options if str(c["label"]) == answer or str(c["value"]) == answer), _ABANDON)
    if kind == "range":
        try:
            value = int(answer)
        except ValueError:
            return _ABANDON
        return value if value in moves.range_values(f) else _ABANDON
    values = []
    for word in (w.strip() for w in answer.split(",") if w.strip()):
        try:
            values.append(json.loads(word))
        except json.JSONDecodeError:
            values.append(word)
    return values if moves._match_items(f["items"], values) is None else _ABANDON
