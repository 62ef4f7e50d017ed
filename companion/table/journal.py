"""The SQLite journal: every accepted action, in order, before anything is shown.

State is never stored; it is rebuilt by replaying the active actions, so a Pi
that loses power resumes at the last committed action. Undo and redo only flip
an action's status, so nothing a player did is ever deleted:

* ``active``    — part of the game;
* ``undone``    — taken back, can be redone (always the newest rows);
* ``discarded`` — was undone, then a new action was taken instead;
* ``replaced``  — an earlier action was edited from the tablet: this row and every
  active one after it gave way to new rows (the corrected action, and copies of
  the later ones that still apply, each with ``origin`` = the row it stands for);
* ``removed``   — the action the tablet removed from the history;
* ``aside``     — a later action that no longer applies after an edit: kept with the
  rules' refusal (``note``) for the table to re-enter or drop;
* ``reentered`` / ``dropped`` — what became of an action set aside (an automatic one,
  the sand's expiry, is dropped at once: the companion journals it again by itself).

Each edit is a row of ``edits`` and happens in ONE transaction: a power cut leaves
either the old history or the new one. Journals from before edits are migrated
when opened (the ``actions`` table rebuilt with the new statuses and columns).

Every mutation bumps ``games.rev`` in the same transaction, which lets a
long-running process notice that another one (``companion act`` from a shell)
changed the game and replay before acting. It also sets ``games.touched`` to
the next value of one counter over the whole file: "the game last acted on" is
then a matter of journal order, never of a wall clock that a Pi without a
battery-backed clock may have set back.

A card that is full or read-only refuses every write with
:class:`JournalUnavailable` ("Not recorded: ... Nothing changed."), and a
read-only journal still opens for reading. :func:`open_checked` (used by
``companion run``) checks the file at start, copies a damaged one aside and
recovers what it can, reports an emptied journal, and keeps backups.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import shutil
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.engine.rules import RuleError
from companion.table.authorship import Author, from_legacy
from companion.table.authorship import of as author_of

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id        TEXT PRIMARY KEY,
    game      TEXT NOT NULL,
    players   TEXT NOT NULL,
    options   TEXT NOT NULL,
    created   REAL NOT NULL,
    finished  REAL,
    result    TEXT,
    rev       INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    game_id   TEXT NOT NULL REFERENCES games(id),
    seq       INTEGER NOT NULL,
    action    TEXT NOT NULL,
    source    TEXT NOT NULL DEFAULT '',
    at        REAL NOT NULL,
    status    TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'undone', 'discarded', 'replaced',
                                                              'removed', 'aside', 'reentered', 'dropped')),
    edit      INTEGER,
    origin    INTEGER,
    note      TEXT,
    author    TEXT,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS actions_status ON actions (game_id, status, seq);
CREATE TABLE IF NOT EXISTS edits (
    game_id   TEXT NOT NULL REFERENCES games(id),
    id        INTEGER NOT NULL,
    kind      TEXT NOT NULL CHECK (kind IN ('edit', 'remove', 'reenter', 'drop')),
    seq       INTEGER NOT NULL,
    source    TEXT NOT NULL DEFAULT '',
    at        REAL NOT NULL,
    author    TEXT,
    note      TEXT,
    PRIMARY KEY (game_id, id)
);
"""
#: the statuses of a journal from before edits (its ``actions`` table is rebuilt when opened)
_OLD_STATUSES = "CHECK (status IN ('active', 'undone', 'discarded'))"

#: what a write on a full or read-only card answers, everywhere (API 503, OLED, CLI)
NOT_RECORDED = "Not recorded: the card is full (or read-only). Nothing changed."
#: backups kept beside the journal (``<db>.backups/``)
KEEP_BACKUPS = 5


def default_db_path(cli_value: str | None = None) -> Path:
    """``--db``, then ``$COMPANION_DB``, then ``$XDG_DATA_HOME/galapagos-companion/companion.db``."""
    if cli_value:
        return Path(cli_value)
    env = os.environ.get("COMPANION_DB")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "galapagos-companion" / "companion.db"


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


class Journal:
    """One SQLite file holding every game. Safe to share between threads of one process.

    On a read-only card it opens read-only (``readonly`` is True): everything reads,
    every write raises :class:`JournalUnavailable`.
    """

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time):
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.RLock()
        self.readonly = False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass  # a read-only card: opening tells
        try:
            self._db = self._connect()
        except sqlite3.OperationalError as exc:
            if not _write_failure(exc):
                raise JournalDamaged(self.path, str(exc)) from None
            self._db = self._connect_readonly(exc)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # a schema whose text is not UTF-8
            raise JournalDamaged(self.path, str(exc)) from None
        self._touched = self._has_column("games", "touched")
        #: a read-only journal from before authors has no ``author`` column: its sources are read instead
        self._author_col = "author" if self._has_column("actions", "author") else "NULL"
        self._game_columns = _GAME_COLUMNS + (", rules_version" if self._has_column("games", "rules_version")
                                              else ", NULL")  # a read-only journal from before versions
        self._action_columns = _ACTION_COLUMNS if self._has_column("actions", "note") else \
            "seq, action, source, at, status, NULL, NULL, NULL"  # a read-only journal from before edits
        #: game id -> why its rows cannot be read ("" once checked sound); filled as games are first read
        self._damage: dict[str, str] = {}
        self._scanned = False
        #: objects with ``collect(db, game_ids)``, called inside each write transaction just before its COMMIT
        #: with the games it changed, and ``committed()`` after it: the club's outbox commits with the action
        self.commit_hooks: list[Any] = []
        self._changed: set[str] = set()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=30)
        db.text_factory = _text_factory
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            with self._lock:
                db.executescript(SCHEMA)
                cols = {row[1] for row in db.execute("PRAGMA table_info(games)")}
                if "touched" not in cols:  # journals from before journal-order "last acted on"
                    db.execute("ALTER TABLE games ADD COLUMN touched INTEGER NOT NULL DEFAULT 0")
                    db.execute("UPDATE games SET touched = rowid")
                if "rules_version" not in cols:  # journals from before versions of the rules (NULL: unrecorded)
                    db.execute("ALTER TABLE games ADD COLUMN rules_version INTEGER")
                _migrate_actions(db)
                _migrate_authors(db)
        except BaseException:
            db.close()
            raise
        return db

    def _connect_readonly(self, why: BaseException) -> sqlite3.Connection:
        """Open for reading only (a read-only mount, a full card that cannot take the WAL's index)."""
        if not self.path.exists():
            raise JournalUnavailable(str(why))
        uri = self.path.resolve().as_uri()
        attempts = [f"{uri}?mode=ro"]
        if not Path(str(self.path) + "-wal").exists():
            attempts.append(f"{uri}?mode=ro&immutable=1")  # no WAL to read: nothing is lost this way
        for attempt in attempts:
            try:
                db = sqlite3.connect(attempt, uri=True, isolation_level=None, check_same_thread=False, timeout=30)
                db.text_factory = _text_factory
                db.execute("SELECT COUNT(*) FROM games").fetchone()
            except sqlite3.DatabaseError:
                continue
            self.readonly = True
            log.warning("journal %s opened read-only: %s", self.path, why)
            return db
        raise JournalUnavailable(str(why))

    def _has_column(self, table: str, column: str) -> bool:
        with self._lock:
            return any(row[1] == column for row in self._db.execute(f"PRAGMA table_info({table})"))

    # -- plumbing -----------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """An IMMEDIATE transaction: one writer at a time, across processes too.

        A card that refuses the write (full, read-only) raises :class:`JournalUnavailable`
        after rolling back: the game is exactly as it was.
        """
        with self._lock:
            if self.readonly:
                raise JournalUnavailable("the journal is open read-only")
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if _write_failure(exc):
                    raise JournalUnavailable(str(exc)) from None
                raise
            try:
                yield self._db
            except BaseException as exc:
                self._rollback()
                if _write_failure(exc):
                    raise JournalUnavailable(str(exc)) from None
                raise
            else:
                changed, self._changed = self._changed, set()
                try:
                    for hook in self.commit_hooks if changed else ():
                        hook.collect(self._db, changed)
                    self._db.execute("COMMIT")
                except sqlite3.OperationalError as exc:
                    self._rollback()
                    if _write_failure(exc):
                        raise JournalUnavailable(str(exc)) from None
                    raise
                for hook in self.commit_hooks if changed else ():
                    hook.committed()
            finally:
                self._changed = set()

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: one consistent snapshot, and it works on a read-only card too."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                yield self._db
            finally:
                self._rollback()

    def _rollback(self) -> None:
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # SQLite already rolled back (a full disk does that)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games --------------------------------------------------------------
    def create_game(self, game: str, players: list[str], options: dict[str, Any],
                    rules_version: int | None = None) -> GameRecord:
        """A new game, journalled under ``rules_version`` of its rules (what a later upgrade migrates from)."""
        now = self._clock()
        with self.transaction() as db:
            while True:
                game_id = secrets.token_hex(4)
                if not db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
                    break
            db.execute(
                "INSERT INTO games (id, game, players, options, created, rules_version) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, game, _dumps(players), _dumps(options), now, rules_version),
            )
            self._touch(db, game_id)
            self._changed.add(game_id)
        return self.game(game_id)

    def game(self, game_id: str) -> GameRecord:
        """One game's record; :class:`GameDamaged` when its rows cannot be read (UnknownGame: no such id)."""
        with self._lock:
            row = self._db.execute(f"SELECT {self._game_columns} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        record = _record(row)
        problem = record.damage or self._rows_damage(game_id)
        if problem:
            raise GameDamaged(game_id, problem)
        return record

    def games(self, finished: bool | None = None) -> list[GameRecord]:
        """All sound games, newest first; ``finished`` filters on whether they have ended.

        A damaged game (:meth:`damaged`) is not among them: nothing plays, lists or joins it.
        """
        where = "" if finished is None else ("WHERE finished IS NOT NULL" if finished else "WHERE finished IS NULL")
        with self._lock:
            rows = self._db.execute(f"SELECT {self._game_columns} FROM games {where} ORDER BY created DESC, rowid DESC"
                                    ).fetchall()
        return self._sound([_record(r) for r in rows])

    def last_acted(self, finished: bool | None = False) -> list[GameRecord]:
        """Games by the journal's order of the last change to each, the last acted on first.

        Not by wall-clock time: after a power cut a Pi's clock may have gone back.
        """
        where = "" if finished is None else ("WHERE finished IS NOT NULL" if finished else "WHERE finished IS NULL")
        order = "touched DESC, rowid DESC" if self._touched else "rowid DESC"
        with self._lock:
            rows = self._db.execute(f"SELECT {self._game_columns} FROM games {where} ORDER BY {order}").fetchall()
        return self._sound([_record(r) for r in rows])

    # -- damage: every row decoded under a guard ------------------------------------------
    def _sound(self, records: list[GameRecord]) -> list[GameRecord]:
        self._scan()
        return [r for r in records if not r.damage and not self._damage.get(r.id)]

    def damaged(self) -> list[DamagedGame]:
        """The games whose rows cannot be read, with what could be: set aside, listed on Home as damaged."""
        self._scan()
        with self._lock:
            rows = self._db.execute(f"SELECT {self._game_columns} FROM games ORDER BY rowid").fetchall()
        bad = [(row, record, record.damage or self._damage.get(record.id)) for row in rows
               for record in [_record(row)]]
        bad = [item for item in bad if item[2]]
        if not bad:
            return []
        with self._lock:
            counts = dict(self._db.execute("SELECT game_id, COUNT(*) FROM actions GROUP BY game_id").fetchall())
        return [DamagedGame(_shown(record.id), _shown(record.game), [_shown(p) for p in record.players],
                            record.created, problem, int(counts.get(row[0], 0) or 0)) for row, record, problem in bad]

    def _rows_damage(self, game_id: str) -> str:
        """Why one game's action rows cannot be read ("" when every one can); checked once per game."""
        if game_id in self._damage:
            return self._damage[game_id]
        with self._lock:
            rows = self._db.execute(f"SELECT {self._action_columns} FROM actions WHERE game_id = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        self._damage[game_id] = next((p for p in map(_row_problem, rows) if p), "")
        return self._damage[game_id]

    def _scan(self) -> None:
        """Check every action row of the file once (one pass over the table, at the first listing)."""
        if self._scanned:
            return
        found: dict[str, str] = {}
        with self._lock:
            for row in self._db.execute(f"SELECT game_id, {self._action_columns} FROM actions"):
                gid, rest = row[0], row[1:]
                if isinstance(gid, str) and gid not in found:
                    problem = _row_problem(rest)
                    if problem:
                        found[gid] = problem
            for gid in self._db.execute("SELECT id FROM games").fetchall():
                self._damage.setdefault(gid[0], found.get(gid[0], ""))
            self._damage.update(found)
            self._scanned = True

    def _set_aside_damaged(self, game_id: str, what: str) -> GameDamaged:
        self._damage[game_id] = what
        log.error("game %s is damaged in the journal: %s", game_id, what)
        return GameDamaged(game_id, what)

    def raw_rows(self, game_id: str) -> dict[str, Any]:
        """Every row of one game as stored, each value as text can carry it: what the export of a damaged game holds.

        Text that is not UTF-8 shows its bytes as ``\\xNN``; a blob is written in hex.
        """
        with self._lock:
            game = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,))
            names = [d[0] for d in game.description]
            row = game.fetchone()
            if row is None:
                raise UnknownGame(game_id)
            cur = self._db.execute("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
            action_names = [d[0] for d in cur.description]
            actions = cur.fetchall()
        return {"game": dict(zip(names, map(_raw, row), strict=True)),
                "actions": [dict(zip(action_names, map(_raw, r), strict=True)) for r in actions]}

    def rev(self, game_id: str, db: sqlite3.Connection | None = None) -> int:
        """The game's revision: it changes with every append, undo and redo."""
        with self._lock:
            row = (db or self._db).execute("SELECT rev FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        if not isinstance(row[0], int):
            raise self._set_aside_damaged(game_id, "its revision cannot be read")
        return row[0]

    # -- actions (call inside transaction()) ---------------------------------
    def active(self, game_id: str, db: sqlite3.Connection | None = None, after: int = 0) -> list[JournalEntry]:
        """The actions in play, oldest first: replaying them gives the game's state (``after``: only those
        journalled after that seq, for a reader that has the rest)."""
        return self._with_status(game_id, "active", db, after)

    def _with_status(self, game_id: str, status: str, db: sqlite3.Connection | None, after: int = 0) -> list[JournalEntry]:
        conn = db or self._db
        with self._lock:
            rows = conn.execute(
                f"SELECT seq, action, source, at, {self._author_col} FROM actions WHERE game_id = ? AND status = ? "
                "AND seq > ? ORDER BY seq", (game_id, status, after),
            ).fetchall()
        return [self._guarded_entry(game_id, row) for row in rows]

    def _guarded_entry(self, game_id: str, row: tuple[Any, ...]) -> JournalEntry:
        """One row (seq, action, source, at[, author]) as an entry, decoded under a guard: a row that
        cannot be read sets its game aside."""
        seq, text, source, at = row[:4]
        problem = _row_problem((seq, text, source, at, "active", None, None, None))
        if problem:
            raise self._set_aside_damaged(game_id, problem)
        return _entry(seq, text, source, at, row[4] if len(row) > 4 else None)

    def append(self, db: sqlite3.Connection, game_id: str, action: dict[str, Any], source: Author | str) -> JournalEntry:
        """Append an action sent by ``source`` (an :class:`Author`, or an older caller's one word);
        any undone actions become discarded (the redo branch is gone)."""
        author = author_of(source)
        db.execute("UPDATE actions SET status = 'discarded' WHERE game_id = ? AND status = 'undone'", (game_id,))
        (top,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)).fetchone()
        seq, at = int(top) + 1, self._clock()
        db.execute(
            "INSERT INTO actions (game_id, seq, action, source, at, author) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seq, _dumps(action), author.transport, at, author.dumps()),
        )
        self._bump(db, game_id)
        return JournalEntry(seq, json.loads(_dumps(action)), author.transport, at, author)

    def undo(self, db: sqlite3.Connection, game_id: str) -> JournalEntry | None:
        """The newest active action becomes undone; None when there is none."""
        return self._flip(db, game_id, "active", "undone", newest=True)

    def redo(self, db: sqlite3.Connection, game_id: str) -> JournalEntry | None:
        """The oldest undone action becomes active again; None when there is none."""
        return self._flip(db, game_id, "undone", "active", newest=False)

    def undone(self, game_id: str, db: sqlite3.Connection | None = None) -> list[JournalEntry]:
        """The undone actions, oldest first: what redo would play again (the next one first)."""
        return self._with_status(game_id, "undone", db)

    def _flip(self, db: sqlite3.Connection, game_id: str, old: str, new: str, newest: bool) -> JournalEntry | None:
        order = "DESC" if newest else "ASC"
        row = db.execute(
            f"SELECT seq, action, source, at, {self._author_col} FROM actions WHERE game_id = ? AND status = ? "
            f"ORDER BY seq {order} LIMIT 1", (game_id, old),
        ).fetchone()
        if row is None:
            return None
        entry = self._guarded_entry(game_id, row)
        db.execute("UPDATE actions SET status = ? WHERE game_id = ? AND seq = ?", (new, game_id, row[0]))
        self._bump(db, game_id)
        return entry

    # -- edits from the tablet (call inside transaction()) ---------------------------
    def rewrite(self, db: sqlite3.Connection, game_id: str, target: JournalEntry, replacement: dict[str, Any] | None,
                kept: list[JournalEntry], aside: list[tuple[JournalEntry, dict[str, Any]]],
                dropped: list[tuple[JournalEntry, dict[str, Any]]], source: Author | str,
                note: dict[str, Any] | None = None) -> int:
        """Edit (``replacement``) or remove (None) the active action ``target``; returns the edit's id.

        Nothing is deleted: ``target`` becomes ``replaced`` (or ``removed``), every active
        action after it ``replaced`` — or ``aside`` / ``dropped`` with the rules' refusal
        when it no longer applies — and new rows carry the corrected action and copies of
        ``kept`` (their time and author unchanged, ``origin`` = the row each stands for).
        ``source`` is the correction's author: the corrected row's, and the edit's; ``note`` what the
        story says of it (public figures only, :func:`companion.table.story.corrections`).
        The caller's transaction makes it all or nothing.
        """
        source = author_of(source)
        db.execute("UPDATE actions SET status = 'discarded' WHERE game_id = ? AND status = 'undone'", (game_id,))
        edit = self._edit_row(db, game_id, "edit" if replacement is not None else "remove", target.seq, source, note)
        db.execute("UPDATE actions SET status = ?, edit = ? WHERE game_id = ? AND seq = ? AND status = 'active'",
                   ("replaced" if replacement is not None else "removed", edit, game_id, target.seq))
        db.execute("UPDATE actions SET status = 'replaced', edit = ? WHERE game_id = ? AND seq > ? AND status = 'active'",
                   (edit, game_id, target.seq))
        for status, rows in (("aside", aside), ("dropped", dropped)):
            for entry, note in rows:
                db.execute("UPDATE actions SET status = ?, note = ? WHERE game_id = ? AND seq = ?",
                           (status, _dumps(note), game_id, entry.seq))
        (top,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)).fetchone()
        seq = int(top)
        if replacement is not None:
            seq += 1
            self._copy_row(db, game_id, seq, JournalEntry(target.seq, replacement, source.transport, target.at, source),
                           edit)
        for entry in kept:
            seq += 1
            self._copy_row(db, game_id, seq, entry, edit)
        self._bump(db, game_id)
        return edit

    def _copy_row(self, db: sqlite3.Connection, game_id: str, seq: int, entry: JournalEntry, edit: int) -> None:
        db.execute(
            "INSERT INTO actions (game_id, seq, action, source, at, edit, origin, author) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, seq, _dumps(entry.action), entry.source, entry.at, edit, entry.seq, entry.author.dumps()),
        )

    def set_rules_version(self, game_id: str, version: int) -> None:
        """Record the version of the rules ``game_id``'s lines are written under."""
        with self.transaction() as db:
            db.execute("UPDATE games SET rules_version = ? WHERE id = ?", (version, game_id))

    def migrate_lines(self, game_id: str, entries: list[JournalEntry], lines: list[tuple[int | None, dict[str, Any]]],
                      version: int) -> None:
        """Write a game's lines in the vocabulary of ``version`` of its rules, in ONE transaction.

        Nothing is deleted: the active rows ``entries`` become ``replaced`` (undone ones ``discarded``:
        a redo would play an old line), and new rows carry ``lines``, each with ``origin`` = the row it
        translates, its time and source (a line added, such as a skipped player's move, has no origin
        and takes the time of the row after it). A power cut leaves the old lines or the new ones.
        """
        with self.transaction() as db:
            db.execute("UPDATE actions SET status = 'discarded' WHERE game_id = ? AND status = 'undone'", (game_id,))
            db.execute("UPDATE actions SET status = 'replaced' WHERE game_id = ? AND status = 'active'", (game_id,))
            (top,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)).fetchone()
            seq = int(top)
            for n, (index, action) in enumerate(lines):
                near = entries[index] if index is not None else next(
                    (entries[i] for i, _ in lines[n:] if i is not None), entries[-1] if entries else None)
                seq += 1
                kept = index is not None and near is not None
                db.execute("INSERT INTO actions (game_id, seq, action, source, at, origin, author) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (game_id, seq, _dumps(action), near.source if kept else "migrate",
                            near.at if near else self._clock(), near.seq if kept else None,
                            near.author.dumps() if kept else None))
            db.execute("UPDATE games SET rules_version = ? WHERE id = ?", (version, game_id))
            self._bump(db, game_id)

    def _edit_row(self, db: sqlite3.Connection, game_id: str, kind: str, seq: int, source: Author | str,
                  note: dict[str, Any] | None = None) -> int:
        author = author_of(source)
        (top,) = db.execute("SELECT COALESCE(MAX(id), 0) FROM edits WHERE game_id = ?", (game_id,)).fetchone()
        db.execute("INSERT INTO edits (game_id, id, kind, seq, source, at, author, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (game_id, int(top) + 1, kind, seq, author.transport, self._clock(), author.dumps(),
                    _dumps(note) if note is not None else None))
        return int(top) + 1

    def set_aside(self, game_id: str, db: sqlite3.Connection | None = None) -> list[tuple[JournalEntry, dict[str, Any]]]:
        """The actions an edit set aside, oldest first, each with the rules' refusal (``msgid``, ``params``…)."""
        conn = db or self._db
        with self._lock:
            try:
                rows = conn.execute(f"SELECT seq, action, source, at, {self._author_col}, note FROM actions "
                                    "WHERE game_id = ? AND status = 'aside' ORDER BY seq", (game_id,)).fetchall()
            except sqlite3.OperationalError:  # a read-only journal from before edits: nothing was set aside
                return []
        out = []
        for row in rows:
            entry = self._guarded_entry(game_id, row[:5])
            note = _json_or_none(row[5])
            out.append((entry, note if isinstance(note, dict) else {}))
        return out

    def settle_aside(self, db: sqlite3.Connection, game_id: str, seq: int, status: str, source: Author | str) -> bool:
        """An action set aside is ``reentered`` (played again) or ``dropped``; False when it was not aside."""
        if not 0 < seq < 2**63:  # no such row (and SQLite's integers end there)
            return False
        done = db.execute("UPDATE actions SET status = ? WHERE game_id = ? AND seq = ? AND status = 'aside'",
                          (status, game_id, seq)).rowcount
        if not done:
            return False
        self._edit_row(db, game_id, "reenter" if status == "reentered" else "drop", seq, source)
        self._bump(db, game_id)
        return True

    def corrections(self, game_id: str, db: sqlite3.Connection | None = None) -> list[dict[str, Any]]:
        """The edits and removals that left a note for the story, oldest first: ``{"id", "kind", "at", "note"}``."""
        conn = db or self._db
        with self._lock:
            try:
                rows = conn.execute("SELECT id, kind, at, note FROM edits WHERE game_id = ? AND note IS NOT NULL "
                                    "ORDER BY id", (game_id,)).fetchall()
            except sqlite3.OperationalError:  # a read-only journal from before notes
                return []
        out = []
        for eid, kind, at, note in rows:
            try:
                out.append({"id": eid, "kind": kind, "at": at, "note": json.loads(note)})
            except ValueError:  # a damaged note: the story goes on without that line
                continue
        return out

    def versions(self, game_id: str, db: sqlite3.Connection | None = None) -> list[dict[str, Any]]:
        """Every row of the game, whatever its status, oldest first: both versions of an edited history."""
        conn = db or self._db
        with self._lock:
            rows = conn.execute("SELECT seq, action, source, at, status, edit, origin, note, "
                                f"{self._author_col} FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
        for r in rows:
            problem = _row_problem(r[:8])
            if problem:
                raise self._set_aside_damaged(game_id, problem)
        return [{"seq": r[0], "action": json.loads(r[1]), "source": r[2], "at": r[3], "status": r[4], "edit": r[5],
                 "origin": r[6], "note": json.loads(r[7]) if r[7] else None,
                 "author": _author(r[2], r[8]).to_json()} for r in rows]

    def set_result(self, db: sqlite3.Connection, game_id: str, result: dict[str, Any] | None) -> None:
        """Record (or, after an undo, clear) the end of a game."""
        if result is None:
            db.execute("UPDATE games SET finished = NULL, result = NULL WHERE id = ?", (game_id,))
        else:
            db.execute(
                "UPDATE games SET finished = COALESCE(finished, ?), result = ? WHERE id = ?",
                (self._clock(), _dumps(result), game_id),
            )

    def _bump(self, db: sqlite3.Connection, game_id: str) -> None:
        db.execute("UPDATE games SET rev = rev + 1 WHERE id = ?", (game_id,))
        self._changed.add(game_id)
        self._touch(db, game_id)

    def _touch(self, db: sqlite3.Connection, game_id: str) -> None:
        if self._touched:
            db.execute("UPDATE games SET touched = (SELECT COALESCE(MAX(touched), 0) + 1 FROM games) WHERE id = ?",
                       (game_id,))

    # -- backups ------------------------------------------------------------
    def counter(self) -> tuple[int, int]:
        """The journal's own position: (generation, last change). Backups are ordered by it, not by a clock.

        The last change is the highest ``games.touched`` (one counter over the whole file, bumped
        by every action, undo and edit); the generation goes up each time the journal is put back
        from a backup, so a backup taken after a restore outranks the ones taken before it.
        """
        with self._lock:
            try:
                (top,) = self._db.execute(f"SELECT COALESCE(MAX({'touched' if self._touched else 'rowid'}), 0) "
                                          "FROM games").fetchone()
            except sqlite3.DatabaseError:
                top = 0
        return self.generation(), int(top) if isinstance(top, int) else 0

    def generation(self) -> int:
        with self._lock:
            try:
                row = self._db.execute("SELECT value FROM journal_meta WHERE key = 'generation'").fetchone()
            except sqlite3.OperationalError:  # a journal from before backups had generations
                return 0
        return int(row[0]) if row and isinstance(row[0], int) else 0

    def set_generation(self, generation: int) -> None:
        with self.transaction() as db:
            db.execute("CREATE TABLE IF NOT EXISTS journal_meta (key TEXT PRIMARY KEY, value INTEGER)")
            db.execute("INSERT OR REPLACE INTO journal_meta (key, value) VALUES ('generation', ?)", (generation,))

    def backup(self, keep: int = KEEP_BACKUPS) -> Path:
        """A consistent copy of the whole journal in ``<db>.backups/``; the newest ``keep`` stay.

        ``VACUUM INTO`` a hidden temporary name, synced, then renamed to its final name (which
        carries the journal's counter): a kill or a power cut at any moment leaves either no new
        backup or a complete one, never a partial file (nor its ``-journal``) among the backups.
        """
        folder = backups_dir(self.path)
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.glob(".tmp-*"):  # what a kill during an earlier backup left
            stale.unlink(missing_ok=True)
        generation, top = self.counter()
        work = folder / f".tmp-{secrets.token_hex(4)}"
        dest = folder / f"{self.path.name}.g{generation:04d}.c{top:012d}.{secrets.token_hex(2)}"
        try:
            with self._lock:
                self._db.execute("VACUUM INTO ?", (str(work),))
            _fsync(work)
            os.replace(work, dest)
            _fsync(folder)
        except sqlite3.OperationalError as exc:
            work.unlink(missing_ok=True)
            if _write_failure(exc):
                raise JournalUnavailable(str(exc)) from None
            raise
        except OSError:
            work.unlink(missing_ok=True)
            raise
        for old in backups(self.path)[:-keep]:
            old.unlink(missing_ok=True)
        return dest


def _fsync(path: Path) -> None:
    """Make ``path`` (a file, or a folder's entries) durable before going on."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _migrate_actions(db: sqlite3.Connection) -> None:
    """Rebuild a journal's ``actions`` table from before edits (SQLite cannot widen a CHECK in place).

    One transaction: a power cut during it leaves the old table whole, and the next
    start migrates again. Every row keeps its seq, time, source and status.
    """
    row = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'actions'").fetchone()
    if row is None or _OLD_STATUSES not in " ".join(str(row[0]).split()):
        return
    new_table = SCHEMA[SCHEMA.index("CREATE TABLE IF NOT EXISTS actions"):SCHEMA.index("CREATE INDEX")]
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("DROP TABLE IF EXISTS actions_migrating")
        db.execute(new_table.replace("IF NOT EXISTS actions", "actions_migrating", 1).strip().rstrip(";"))
        db.execute("INSERT INTO actions_migrating (game_id, seq, action, source, at, status) "
                   "SELECT game_id, seq, action, source, at, status FROM actions")
        db.execute("DROP TABLE actions")
        db.execute("ALTER TABLE actions_migrating RENAME TO actions")
        db.execute("CREATE INDEX IF NOT EXISTS actions_status ON actions (game_id, status, seq)")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    log.info("journal migrated: actions can now be edited and removed from the tablet")


def _migrate_authors(db: sqlite3.Connection) -> None:
    """Give a journal from before authors its ``author`` column, filled once from each row's source text.

    The old texts are read as the old version read them (:func:`companion.table.authorship.from_legacy`);
    from then on nothing reads the source. One transaction: a power cut leaves the old rows whole.
    """
    if not any(r[1] == "note" for r in db.execute("PRAGMA table_info(edits)")):  # the story's corrections
        db.execute("ALTER TABLE edits ADD COLUMN note TEXT")
    missing = [table for table in ("actions", "edits")
               if not any(r[1] == "author" for r in db.execute(f"PRAGMA table_info({table})"))]
    todo = db.execute("SELECT 1 FROM actions WHERE author IS NULL LIMIT 1").fetchone() if not missing else True
    if not todo:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        for table in missing:
            db.execute(f"ALTER TABLE {table} ADD COLUMN author TEXT")
        for table in ("actions", "edits"):
            for (source,) in db.execute(f"SELECT DISTINCT source FROM {table} WHERE author IS NULL").fetchall():
                db.execute(f"UPDATE {table} SET author = ? WHERE author IS NULL AND source = ?",
                           (from_legacy(source).dumps(), source))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    log.info("journal migrated: every action records who sent it")


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


def backups_dir(path: Path) -> Path:
    return path.with_name(path.name + ".backups")


#: a backup's name: ``<db>.g<generation>.c<counter>.<random>``; older ones carried a time stamp
_BACKUP_NAME = r"\.g(\d{4,})\.c(\d{12,})\.[0-9a-f]{4}"
_OLD_BACKUP_NAME = r"\.\d{8}-\d{6}-[0-9a-f]{4}"


def backups(path: Path) -> list[Path]:
    """The journal's complete backups, oldest first, by the journal's counter (generation, last change).

    Only names a finished backup is given: a temporary file, a ``-journal`` or anything else in
    the folder is not a backup. Backups from before counters (named by the clock) come first.
    """
    folder = backups_dir(path)
    if not folder.is_dir():
        return []
    found = []
    for p in folder.iterdir():
        rest = p.name[len(path.name):] if p.name.startswith(path.name) else ""
        new = re.fullmatch(_BACKUP_NAME, rest)
        if new and p.is_file():
            found.append(((int(new.group(1)), int(new.group(2)), p.stat().st_mtime_ns), p))
        elif re.fullmatch(_OLD_BACKUP_NAME, rest) and p.is_file():
            found.append(((-1, 0, p.stat().st_mtime_ns), p))
    return [p for _, p in sorted(found)]


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


def _json_or_none(text: Any) -> Any:
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


def _time(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value < _LATEST


def _row_problem(row: tuple[Any, ...]) -> str | None:
    """Why one action row (:data:`_ACTION_COLUMNS`) cannot be replayed as stored; None when it can."""
    seq, text, source, at, status, edit, origin, note = row
    if not isinstance(seq, int) or seq <= 0:
        return "an action's number cannot be read"
    action = _json_or_none(text)
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return f"action {seq} cannot be read"
    if not _sound_text(source) or not _time(at):
        return f"action {seq} cannot be read"
    if status not in _STATUSES or not all(v is None or isinstance(v, int) for v in (edit, origin)):
        return f"the status of action {seq} cannot be read"
    if note is not None and not isinstance(_json_or_none(note), dict):
        return f"the note of action {seq} cannot be read"
    return None


def _record(row: tuple[Any, ...]) -> GameRecord:
    """A game's row decoded under a guard: a cell that cannot be read gives a record with ``damage`` set."""
    gid, game, players, options, created, finished, result, rev = row[:8]
    version = row[8] if len(row) > 8 and isinstance(row[8], int) else None
    problem = None
    names, opts, res = _json_or_none(players), _json_or_none(options), _json_or_none(result) if result else None
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


# -- start-up: check, recover, report ----------------------------------------------------------

def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def _side_files(path: Path) -> list[Path]:
    return [Path(str(path) + suffix) for suffix in ("-wal", "-shm")]


def quick_check(path: Path) -> str | None:
    """None when SQLite's ``PRAGMA integrity_check`` finds the file sound, else what it found.

    The full check, not ``quick_check``: a flipped bit in an index page passes ``quick_check``
    (which does not compare indexes with their tables) and then hides rows from the replay.
    """
    try:
        with open(path, "rb") as fh:
            header = fh.read(100)
    except OSError as exc:
        return str(exc)
    if len(header) == 100 and header.startswith(b"SQLite format 3\0") and not (
            header[18] in (1, 2) and header[19] in (1, 2)):  # SQLite would take the file as read-only (or refuse it)
        return f"the header is damaged (format versions {header[18]}/{header[19]})"
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as exc:
        return str(exc)
    try:
        db.text_factory = _text_factory
        rows = db.execute("PRAGMA integrity_check").fetchall()
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if names and "games" in names:  # the columns every reader names (a flipped bit in the schema's text)
            db.execute(f"SELECT {_GAME_COLUMNS} FROM games LIMIT 1").fetchone()
            db.execute("SELECT game_id, seq, action, source, at, status FROM actions LIMIT 1").fetchone()
    except sqlite3.OperationalError as exc:
        if _write_failure(exc):
            return None  # a read-only card without the WAL's index: not damage; opening decides
        return str(exc)
    except sqlite3.DatabaseError as exc:
        return str(exc)
    except UnicodeDecodeError:  # SQLite's own message quotes schema text that is no longer UTF-8
        return "the schema's text is damaged"
    finally:
        db.close()
    found = [r[0] for r in rows]
    return None if found == ["ok"] else "; ".join(found[:3])


def recover(damaged: Path, into: Path) -> tuple[int, int]:
    """What can be read of ``damaged`` written to a new journal ``into``: (games, actions) recovered.

    SQLite's own ``.recover`` (the ``sqlite3`` command) when it is installed; otherwise the
    same idea in Python: every row that can still be read, table by table.
    """
    into.unlink(missing_ok=True)
    work = into.with_name(into.name + ".work")
    _padded_copy(damaged, work)
    try:
        return _recover(work, into)
    finally:
        for leftover in [work, *_side_files(work)]:
            leftover.unlink(missing_ok=True)


def _padded_copy(src: Path, dest: Path) -> None:
    """``src`` copied, grown back with zeros to the size its header gives (a truncated file).

    SQLite refuses every query of a file shorter than its schema says (a root page past
    the end reads as a malformed schema); padded, the intact tables read again.
    """
    shutil.copyfile(src, dest)
    wal = Path(str(src) + "-wal")
    if wal.exists():
        shutil.copyfile(wal, Path(str(dest) + "-wal"))
    with open(dest, "r+b") as fh:
        header = fh.read(100)
        if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
            return
        page_size = int.from_bytes(header[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        pages = int.from_bytes(header[28:32], "big")
        wanted = page_size * pages
        fh.seek(0, 2)
        if 0 < wanted <= 1 << 31 and fh.tell() < wanted:
            fh.truncate(wanted)


def _recover(damaged: Path, into: Path) -> tuple[int, int]:
    tool = shutil.which("sqlite3")
    if tool:
        try:
            dump = subprocess.run([tool, str(damaged), ".recover"], capture_output=True, timeout=300, check=False)
            if dump.stdout:
                subprocess.run([tool, str(into)], input=dump.stdout, capture_output=True, timeout=300, check=False)
        except (OSError, subprocess.SubprocessError):
            log.exception("sqlite3 .recover failed; recovering in Python")
    if not _counts(into) or quick_check(into) is not None:  # .recover keeps a damaged schema's text as it is
        into.unlink(missing_ok=True)
        for side in _side_files(into):
            side.unlink(missing_ok=True)
        _recover_python(damaged, into)
    with Journal(into):
        pass  # the schema is complete again (tables .recover could not find are created empty)
    return _counts(into) or (0, 0)


def _counts(path: Path) -> tuple[int, int] | None:
    if not path.exists():
        return None
    try:
        db = sqlite3.connect(str(path))
        try:
            games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            actions = db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return None
    return (games, actions) if games or actions else None


def _recover_python(damaged: Path, into: Path) -> None:
    """Copy every readable row of every readable table (row by row where a page is broken)."""
    out = sqlite3.connect(str(into), isolation_level=None)
    out.executescript(SCHEMA)
    try:
        src = sqlite3.connect(f"{damaged.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        out.close()
        return
    try:
        try:
            tables = src.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").fetchall()
        except (sqlite3.DatabaseError, UnicodeDecodeError):
            tables = [("games", None), ("actions", None)]
        for name, sql in tables:
            if sql:
                try:
                    out.execute(sql.replace("CREATE TABLE ", "CREATE TABLE IF NOT EXISTS ", 1))
                except sqlite3.Error:
                    continue
            cols = [r[1] for r in out.execute(f'PRAGMA table_info("{name}")')]
            try:  # a journal from before edits lacks their columns: copy the ones both tables have
                have = {r[1] for r in src.execute(f'PRAGMA table_info("{name}")')}
            except (sqlite3.DatabaseError, UnicodeDecodeError):
                have = set(cols)
            cols = [c for c in cols if c in have or not have]
            if not cols:
                continue
            listed = ", ".join(f'"{c}"' for c in cols)
            marks = ", ".join("?" for _ in cols)
            insert = f'INSERT OR IGNORE INTO "{name}" ({listed}) VALUES ({marks})'
            out.execute("BEGIN")
            try:
                out.executemany(insert, src.execute(f'SELECT {listed} FROM "{name}"'))
            except (sqlite3.DatabaseError, UnicodeDecodeError):  # a broken page: read what is left row by row
                misses, rowid = 0, 1
                while misses < 5000 and rowid < 10_000_000:
                    try:
                        row = src.execute(f'SELECT {listed} FROM "{name}" WHERE rowid = ?', (rowid,)).fetchone()
                    except (sqlite3.DatabaseError, UnicodeDecodeError):
                        row = None
                    if row is None:
                        misses += 1
                    else:
                        misses = 0
                        out.execute(insert, row)
                    rowid += 1
            out.execute("COMMIT")
    finally:
        src.close()
        out.close()


def open_checked(path: Path, keep: int = KEEP_BACKUPS) -> tuple[Journal, list[str]]:
    """The journal for ``companion run``, checked first; the notices say what start-up found and did.

    * a damaged file (``PRAGMA integrity_check``) is copied aside as ``<db>.damaged-<time>``
      and what can be read is recovered into a new journal;
    * an empty (0-byte) or missing journal where games were recorded before (a backup
      says so) is reported, and the newest backup that verifies (:func:`verify`: SQLite's
      ``integrity_check`` and a replay of every game) put back, newest by the journal's own
      counter (:meth:`Journal.counter`), never by the clock;
    * a read-only card opens read-only (the notice says nothing new is recorded);
    * a backup is made with ``VACUUM INTO`` (the last ``keep`` are kept).
    """
    notices: list[str] = []
    path = Path(path)
    saved = backups(path)
    wal = Path(str(path) + "-wal")
    empty = (not path.exists() or path.stat().st_size == 0) and not (wal.exists() and wal.stat().st_size > 0)
    if empty and saved:
        state = "empty (0 bytes)" if path.exists() else "missing"
        if path.exists():
            kept = path.with_name(f"{path.name}.empty-{_stamp()}")
            try:
                os.replace(path, kept)
            except OSError:
                kept = path
        notices.append(_restore_newest(path, saved, state))
    elif empty and path.exists():  # SQLite never leaves a journal at 0 bytes: the card lost it
        kept = path.with_name(f"{path.name}.empty-{_stamp()}")
        try:
            os.replace(path, kept)
            notices.append(f"The journal was empty (0 bytes) and no backup was found; a new journal was "
                           f"started (the empty file is kept as {kept.name}).")
        except OSError as exc:
            notices.append(f"The journal is empty (0 bytes) and no backup was found ({exc.strerror or exc}).")
    elif path.exists() and path.stat().st_size > 0:
        problem = quick_check(path)
        if problem is not None:
            notices.append(_recover_in_place(path, problem))
    try:
        journal = Journal(path)
    except JournalDamaged as exc:  # what was recovered does not open either: start afresh, the file kept aside
        notices.append(_start_afresh(path, str(exc)))
        journal = Journal(path)
    for bad in journal.damaged():
        notices.append(f"Game {bad.id} ({bad.game}) is damaged in the journal ({bad.problem}); it is set aside "
                       "on Home, where its rows can be exported. The other games play on.")
    if journal.readonly:
        notices.append("The card is full or read-only: the games can be seen, but nothing new is recorded.")
    elif journal.games():
        try:
            journal.backup(keep)
        except (JournalUnavailable, sqlite3.Error, OSError) as exc:
            log.warning("no backup of %s: %s", path, exc)
    for notice in notices:
        log.warning("%s", notice)
    return journal, notices


def verify(candidate: Path) -> str | None:
    """None when ``candidate`` can be the journal: SQLite's ``integrity_check`` finds it sound and
    every game in it replays (a damaged or refused game makes it fail); else what is wrong."""
    from companion.table.session import (
        Session,  # the session sits above the journal: imported when used
    )

    problem = quick_check(candidate)
    if problem is not None:
        return problem
    try:
        with Journal(candidate) as journal:
            if journal.readonly:
                return "it cannot be opened for writing"
            for bad in journal.damaged():
                return f"game {bad.id} is damaged ({bad.problem})"
            for record in journal.games():
                Session.open(journal, record.id)
    except Exception as exc:  # noqa: BLE001 - whatever fails, this candidate is not the one
        return getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
    return None


def _restore_newest(path: Path, saved: list[Path], state: str) -> str:
    """Put back the newest backup that verifies (:func:`verify`); what was done, as a notice."""
    skipped = []
    fresh = path.with_name(path.name + ".restoring")
    for candidate in reversed(saved):
        try:
            fresh.unlink(missing_ok=True)
            for side in _side_files(fresh):
                side.unlink(missing_ok=True)
            shutil.copyfile(candidate, fresh)
        except OSError as exc:
            skipped.append(f"{candidate.name}: {exc.strerror or exc}")
            continue
        problem = verify(fresh)
        if problem is not None:
            skipped.append(f"{candidate.name}: {problem}")
            continue
        try:
            generation = max([_generation_of(p) for p in saved] + [0]) + 1
            with Journal(fresh) as restored:
                restored.set_generation(generation)  # backups from now on outrank the ones before the loss
            for side in _side_files(path):
                side.unlink(missing_ok=True)
            os.replace(fresh, path)
            for side in _side_files(fresh):
                side.unlink(missing_ok=True)
        except (OSError, RuleError, sqlite3.Error) as exc:
            skipped.append(f"{candidate.name}: {exc}")
            continue
        also = f" ({len(skipped)} newer backups did not verify: {'; '.join(skipped)})" if skipped else ""
        return (f"The journal was {state} although games were recorded; the backup {candidate.name} was put "
                f"back (what was played after it is lost){also}.")
    fresh.unlink(missing_ok=True)
    return (f"The journal was {state} although games were recorded, and no backup could be put back "
            f"({'; '.join(skipped)}); a new journal was started.")


def _generation_of(backup: Path) -> int:
    m = re.search(_BACKUP_NAME + "$", backup.name)
    return int(m.group(1)) if m else 0


def _start_afresh(path: Path, why: str) -> str:
    aside = path.with_name(f"{path.name}.unreadable-{_stamp()}")
    os.replace(path, aside)
    for side in _side_files(path):
        side.unlink(missing_ok=True)
    return f"The journal could not be opened ({why}); it was moved to {aside.name} and a new journal was started."


def _recover_in_place(path: Path, problem: str) -> str:
    aside = path.with_name(f"{path.name}.damaged-{_stamp()}")
    try:
        shutil.copyfile(path, aside)
        for side in _side_files(path):
            if side.exists():
                shutil.copyfile(side, Path(str(aside) + side.name[len(path.name):]))
    except OSError as exc:
        return (f"The journal is damaged ({problem}) and could not be copied aside ({exc.strerror or exc}); "
                "it was left as it is.")
    fresh = path.with_name(path.name + ".recovering")
    try:
        games, actions = recover(aside, fresh)
        for side in _side_files(path):
            side.unlink(missing_ok=True)
        os.replace(fresh, path)
    except (OSError, sqlite3.Error, RuleError, UnicodeDecodeError) as exc:
        return (f"The journal is damaged ({problem}); it was copied to {aside.name}, but recovering it "
                f"failed ({exc}).")
    return (f"The journal was damaged ({problem}); it was copied to {aside.name} and {games} games with "
            f"{actions} actions were recovered from it.")
