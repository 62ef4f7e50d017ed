"""What the journal's rows are, and how a row is read back even when a flipped bit damaged it.

The records (:class:`GameRecord`, :class:`JournalEntry`), the errors a player is told
(:class:`UnknownGame`, :class:`JournalUnavailable`...) and the decoding of a row that refuses
to guess: a cell that is not what it should be marks the game damaged rather than replaying
something else. Kept apart from the store (:mod:`companion.table.journal`), which uses them.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.engine.rules import RuleError
from companion.table.authorship import Author, from_legacy

#: what a write on a full or read-only card answers, everywhere (API 503, OLED, CLI)
NOT_RECORDED = "Not recorded: the card is full (or read-only). Nothing changed."


@dataclass(frozen=True)
class GameRecord:
    id: str
    game: str
    players: list[str]
    options: dict[str, Any]
    created: float
    finished: float | None
    result: dict[str, Any] | None
    rev: int
    #: why the game's rows cannot be read (None: sound); a damaged game is set aside (:meth:`Journal.damaged`)
    damage: str | None = None
    #: the version of its game's rules it was journalled under (None: before versions were recorded)
    rules_version: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "created": self.created,
            "finished": self.finished,
            "result": self.result,
        }


@dataclass(frozen=True)
class JournalEntry:
    seq: int
    action: dict[str, Any]
    #: one word for older readers (``web``, ``table``, ``timer``…); decisions read ``author``, never this
    source: str
    at: float
    #: who sent it, as data (:mod:`companion.table.authorship`): consent, edit and undo rights read it
    author: Author = field(default=Author("cli"))


class UnknownGame(RuleError):
    """No game with that id in this journal."""

    def __init__(self, game_id: str):
        super().__init__(f"There is no game {game_id!r} in this journal.")


class GameDamaged(RuleError):
    """A game whose rows in the journal cannot be read (a flipped bit): set aside, the other games play on."""

    def __init__(self, game_id: str, what: str):
        super().__init__("Game {game_id} is damaged in the journal ({what}); it is set aside on Home, where its rows "
                         "can be exported. The other games play on.", game_id=_shown(game_id), what=what)
        self.game_id = game_id
        self.what = what


@dataclass(frozen=True)
class DamagedGame:
    """What could be read of a damaged game (Home lists it, with an export of its raw rows)."""

    id: str
    game: str
    players: list[str]
    created: float | None
    problem: str
    rows: int


class JournalUnavailable(RuleError):
    """The card refused the write (full, read-only, failing): nothing was recorded, nothing changed."""

    def __init__(self, detail: str = ""):
        super().__init__(NOT_RECORDED)
        self.detail = detail


class JournalDamaged(RuleError):
    """The journal file cannot be read as a database."""

    def __init__(self, path: Path, detail: str):
        super().__init__("The journal {path} is damaged ({detail}); `companion run` copies it aside and "
                         "recovers what it can.", path=str(path), detail=detail)


#: SQLite errors that mean "the card did not take the write"
_WRITE_FAILURES = ("SQLITE_FULL", "SQLITE_READONLY", "SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_PERM")


def _write_failure(exc: BaseException) -> bool:
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc)
    return name.startswith(_WRITE_FAILURES) or "disk is full" in text or "readonly" in text or "disk I/O" in text


def _author(source: str, author: str | None) -> Author:
    """A row's author; a row never migrated (a read-only card from before authors), or whose author
    cell a flipped bit damaged, by its source text."""
    if author:
        try:
            return Author.from_json(author)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            pass
    return from_legacy(source)


def _entry(seq: int, action: str, source: str, at: float, author: str | None) -> JournalEntry:
    return JournalEntry(seq, json.loads(action), source, at, _author(source, author))


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


_GAME_COLUMNS = "id, game, players, options, created, finished, result, rev"


_ACTION_COLUMNS = "seq, action, source, at, status, edit, origin, note"


_STATUSES = ("active", "undone", "discarded", "replaced", "removed", "aside", "reentered", "dropped")


#: a time later than this (the year 2286) is a flipped bit, not a date
_LATEST = 1e10


def _text_factory(raw: bytes) -> str:
    """Text as stored; bytes that are not UTF-8 (a flipped bit) come back as lone surrogates, which
    every check below refuses, instead of failing the whole query (and every game with it)."""
    return raw.decode("utf-8", "surrogateescape")


def _sound_text(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _shown(value: Any) -> str:
    """A value of a damaged row as text a page can show (its undecodable bytes as ``\\xNN``)."""
    if isinstance(value, str):
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def _raw(value: Any) -> Any:
    return value if value is None or isinstance(value, int | float) else _shown(value)


def json_or_none(text: Any) -> Any:
    """``text`` decoded, or None when it is not sound JSON text (a damaged cell).

    Text with bytes that are not UTF-8 is refused before decoding; the journal writes no
    ``\\u`` escapes (``ensure_ascii=False``), so a decoded value holds no lone surrogate.
    """
    if not _sound_text(text):
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


#: the name the journal's reads import it by
_json_or_none = json_or_none


def _time(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value < _LATEST


def _row_problem(row: tuple[Any, ...]) -> str | None:
    """Why one action row (:data:`_ACTION_COLUMNS`) cannot be replayed as stored; None when it can."""
    seq, text, source, at, status, edit, origin, note = row
    if not isinstance(seq, int) or seq <= 0:
        return "an action's number cannot be read"
    action = json_or_none(text)
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return f"action {seq} cannot be read"
    if not _sound_text(source) or not _time(at):
        return f"action {seq} cannot be read"
    if status not in _STATUSES or not all(v is None or isinstance(v, int) for v in (edit, origin)):
        return f"the status of action {seq} cannot be read"
    if note is not None and not isinstance(json_or_none(note), dict):
        return f"the note of action {seq} cannot be read"
    return None


def _record(row: tuple[Any, ...]) -> GameRecord:
    """A game's row decoded under a guard: a cell that cannot be read gives a record with ``damage`` set."""
    gid, game, players, options, created, finished, result, rev = row[:8]
    version = row[8] if len(row) > 8 and isinstance(row[8], int) else None
    problem = None
    names, opts, res = json_or_none(players), json_or_none(options), json_or_none(result) if result else None
    if not _sound_text(gid) or not _sound_text(game):
        problem = "its name cannot be read"
    elif not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        problem, names = "its players cannot be read", None
    elif not isinstance(opts, dict):
        problem, opts = "its options cannot be read", None
    elif not _time(created) or not (finished is None or _time(finished)):
        problem = "its dates cannot be read"
    elif result and not (isinstance(res, dict) and isinstance(res.get("scores", {}), dict)
                         and isinstance(res.get("winners", []), list)):
        problem, res = "its result cannot be read", None
    elif not isinstance(rev, int):
        problem = "its revision cannot be read"
    return GameRecord(
        gid if isinstance(gid, str) else _shown(gid), game if isinstance(game, str) else _shown(game),
        names if isinstance(names, list) else [], opts if isinstance(opts, dict) else {},
        created if _time(created) else 0.0, finished if problem is None else None, res,
        rev if isinstance(rev, int) else 0, problem, version,
    )
