"""What the journal's rows are, and how a row is read back even when a flipped bit damaged it.

The records (:class:`GameRecord`, :class:`JournalEntry`), the storage errors and the decoding of
a row that refuses to guess: a cell that is not what it should be marks the game damaged rather
than replaying something else. Kept apart from the store (:mod:`companion.table.journal`), which
uses them.

Errors, one root per trade. What the card and the journal's rows fail to do is a
:class:`StorageError` (:class:`JournalUnavailable`: the card refused a write, full, read-only or
failing; :class:`JournalDamaged`: the file is not a database; :class:`GameDamaged`: one game's rows
cannot be read; :class:`companion.table.played.ReplayError`: one game's lines cannot be played
again). It is never a refusal of the rules (:class:`~companion.engine.rules.RuleError`, the player's
own root) nor a device down (:class:`hw.errors.DeviceError`), so a handler catches each root by
itself, in any order: the dashboard answers a storage error with its one sentence and a 503 (a 409
when it is one game's rows: the others play on), the CLI with its sentence and exit status 2, the
table's OLED with its sentence where a refusal goes, and nothing changed. :class:`UnknownGame` is a lookup that found nothing (a :class:`LookupError`): a
404 on the dashboard, one sentence in the CLI.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.engine import texts
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


class StorageError(Exception):
    """The storage trade's root: the card or the journal's rows failed (never a refusal of the rules).

    Like a refusal it carries a message id of the interface's catalog and its parameters (``message``:
    the English sentence; :meth:`text`: in the reader's language), so every screen says it in one
    sentence; unlike one, nothing the player does can fix it. ``retry_after``: the seconds after which
    trying again may work (a card freed), None when it never will by itself. ``one_game``: the failure is
    one game's rows (the other games play on; the dashboard answers 409) rather than the card's or the
    journal file's (503).
    """

    retry_after: int | None = None
    one_game: bool = False

    def __init__(self, message: str, **params: Any):
        self.msgid = message
        self.params = params
        self.message = texts.render(message, params, "en") if params else message
        super().__init__(self.message)

    def text(self, lang: str = "en") -> str:
        """The sentence in ``lang``."""
        return texts.render(self.msgid, self.params, lang)


class UnknownGame(LookupError):
    """No game with that id in this journal: a lookup that found nothing (a 404, one sentence), neither a
    refusal of the rules nor a storage failure."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.message = self.text("en")
        super().__init__(self.message)

    def text(self, lang: str = "en") -> str:
        """The sentence in ``lang``."""
        return texts.render("There is no game {game}.", {"game": repr(self.game_id)}, lang)


class GameDamaged(StorageError):
    """A game whose rows in the journal cannot be read (a flipped bit): set aside, the other games play on."""

    one_game = True

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


class JournalUnavailable(StorageError):
    """The card refused the write (full, read-only, failing): nothing was recorded, nothing changed."""

    retry_after = 30

    def __init__(self, detail: str = ""):
        super().__init__(NOT_RECORDED)
        self.detail = detail


class JournalDamaged(StorageError):
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
