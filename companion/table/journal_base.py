"""The journal's file: opening it (read-only on a card that refuses writes), its transactions.

The ground floor of :class:`companion.table.journal.Journal`, kept apart from what is read
(:mod:`companion.table.journal_reads`), written (:mod:`companion.table.journal_writes`) and
backed up (:mod:`companion.table.journal_backups`): every one of those goes through the one
connection, lock and transaction opened here, so a write is all or nothing wherever it is made.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from companion.table.rows import (
    _ACTION_COLUMNS,
    _GAME_COLUMNS,
    GameDamaged,
    JournalDamaged,
    JournalEntry,
    JournalUnavailable,
    _entry,
    _row_problem,
    _text_factory,
    _write_failure,
)
from companion.table.schema import SCHEMA, _migrate_actions, _migrate_authors

#: the journal's messages keep the one name they had before the split
log = logging.getLogger("companion.table.journal")


class JournalBase:
    """One SQLite file holding every game, opened and guarded. Safe to share between threads of one process.

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

    def now(self) -> float:
        """The journal's own time: the clock every row's time is read from (injected by the tests)."""
        return self._clock()

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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- rows decoded under a guard: a row that cannot be read sets its game aside ----------
    def _guarded_entry(self, game_id: str, row: tuple[Any, ...]) -> JournalEntry:
        """One row (seq, action, source, at[, author]) as an entry, decoded under a guard: a row that
        cannot be read sets its game aside."""
        seq, text, source, at = row[:4]
        problem = _row_problem((seq, text, source, at, "active", None, None, None))
        if problem:
            raise self._set_aside_damaged(game_id, problem)
        return _entry(seq, text, source, at, row[4] if len(row) > 4 else None)

    def _set_aside_damaged(self, game_id: str, what: str) -> GameDamaged:
        self._damage[game_id] = what
        log.error("game %s is damaged in the journal: %s", game_id, what)
        return GameDamaged(game_id, what)
