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
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from companion.table.authorship import Author
from companion.table.authorship import of as author_of
from companion.table.backups import backup_counter, backups, backups_dir, sync_to_disk
from companion.table.rows import (
    ACTION_COLUMNS,
    GAME_COLUMNS,
    DamagedGame,
    GameDamaged,
    GameRecord,
    JournalDamaged,
    JournalEntry,
    JournalUnavailable,
    UnknownGame,
    author_of_row,
    dumps,
    entry_of_row,
    is_write_failure,
    json_or_none,
    raw_value,
    record_of_row,
    row_problem,
    shown,
    text_factory,
)
from companion.table.schema import SCHEMA, migrate_actions, migrate_authors

log = logging.getLogger(__name__)

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


class Journal:
    """One SQLite file holding every game. Safe to share between threads of one process.

    On a read-only card it opens read-only (``readonly`` is True): everything reads,
    every write raises :class:`JournalUnavailable`.

    One class over one connection, one lock and one transaction at a time: the file and its
    transactions, what is read (every row decoded under a guard: a row that cannot be read sets its
    game aside instead of failing the file), what is written (each write bumps its game's revision,
    which is how another process notices the change) and the whole file's backups (ordered by the
    journal's own counter, never a clock). Start-up checks, recovery and restores are
    :mod:`companion.table.recovery`; naming and listing the backups, :mod:`companion.table.backups`.
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
            if not is_write_failure(exc):
                raise JournalDamaged(self.path, str(exc)) from None
            self._db = self._connect_readonly(exc)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # a schema whose text is not UTF-8
            raise JournalDamaged(self.path, str(exc)) from None
        self._touched = self._has_column("games", "touched")
        #: a read-only journal from before authors has no ``author`` column: its sources are read instead
        self._author_col = "author" if self._has_column("actions", "author") else "NULL"
        self._game_columns = GAME_COLUMNS + (", rules_version" if self._has_column("games", "rules_version")
                                              else ", NULL")  # a read-only journal from before versions
        self._action_columns = ACTION_COLUMNS if self._has_column("actions", "note") else \
            "seq, action, source, at, status, NULL, NULL, NULL"  # a read-only journal from before edits
        #: game id -> why its rows cannot be read ("" once checked sound); filled as games are first read
        self._damage: dict[str, str] = {}
        self._scanned = False
        #: objects with ``collect(db, game_ids)``, called inside each write transaction just before its COMMIT
        #: with the games it changed, and ``committed()`` after it: the club's outbox commits with the action
        self.commit_hooks: list[Any] = []
        self._changed: set[str] = set()
        #: (counter, this connection's total changes) at this process's last backup
        self._backed_up: tuple[tuple[int, int], int] | None = None

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=30)
        db.text_factory = text_factory
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
                migrate_actions(db)
                migrate_authors(db)
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
                db.text_factory = text_factory
                db.execute("SELECT COUNT(*) FROM games").fetchone()
            except sqlite3.DatabaseError:
                continue
            self.readonly = True
            log.warning("journal %s opened read-only: %s", self.path, why)
            return db
        raise JournalUnavailable(str(why))

    def now(self) -> float:
        """The journal's own time: the clock every row's time is read from (injected by the tests)."""
        return self._clock()

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
                if is_write_failure(exc):
                    raise JournalUnavailable(str(exc)) from None
                raise
            try:
                yield self._db
            except BaseException as exc:
                self._rollback()
                if is_write_failure(exc):
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
                    if is_write_failure(exc):
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
        problem = row_problem((seq, text, source, at, "active", None, None, None))
        if problem:
            raise self._set_aside_damaged(game_id, problem)
        return entry_of_row(seq, text, source, at, row[4] if len(row) > 4 else None)

    def _set_aside_damaged(self, game_id: str, what: str) -> GameDamaged:
        self._damage[game_id] = what
        log.error("game %s is damaged in the journal: %s", game_id, what)
        return GameDamaged(game_id, what)

    # -- reads: games ---------------------------------------------------------
    def game(self, game_id: str) -> GameRecord:
        """One game's record; :class:`GameDamaged` when its rows cannot be read (UnknownGame: no such id)."""
        with self._lock:
            row = self._db.execute(f"SELECT {self._game_columns} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        record = record_of_row(row)
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
        return self._sound([record_of_row(r) for r in rows])

    def last_acted(self, finished: bool | None = False) -> list[GameRecord]:
        """Games by the journal's order of the last change to each, the last acted on first.

        Not by wall-clock time: after a power cut a Pi's clock may have gone back.
        """
        where = "" if finished is None else ("WHERE finished IS NOT NULL" if finished else "WHERE finished IS NULL")
        order = "touched DESC, rowid DESC" if self._touched else "rowid DESC"
        with self._lock:
            rows = self._db.execute(f"SELECT {self._game_columns} FROM games {where} ORDER BY {order}").fetchall()
        return self._sound([record_of_row(r) for r in rows])

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
               for record in [record_of_row(row)]]
        bad = [item for item in bad if item[2]]
        if not bad:
            return []
        with self._lock:
            counts = dict(self._db.execute("SELECT game_id, COUNT(*) FROM actions GROUP BY game_id").fetchall())
        return [DamagedGame(shown(record.id), shown(record.game), [shown(p) for p in record.players],
                            record.created, str(problem), int(counts.get(row[0], 0) or 0))
                for row, record, problem in bad]

    def _rows_damage(self, game_id: str) -> str:
        """Why one game's action rows cannot be read ("" when every one can); checked once per game."""
        if game_id in self._damage:
            return self._damage[game_id]
        with self._lock:
            rows = self._db.execute(f"SELECT {self._action_columns} FROM actions WHERE game_id = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        self._damage[game_id] = next((p for p in map(row_problem, rows) if p), "")
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
                    problem = row_problem(rest)
                    if problem:
                        found[gid] = problem
            for gid in self._db.execute("SELECT id FROM games").fetchall():
                self._damage.setdefault(gid[0], found.get(gid[0], ""))
            self._damage.update(found)
            self._scanned = True

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
        return {"game": dict(zip(names, map(raw_value, row), strict=True)),
                "actions": [dict(zip(action_names, map(raw_value, r), strict=True)) for r in actions]}

    def rev(self, game_id: str, db: sqlite3.Connection | None = None) -> int:
        """The game's revision: it changes with every append, undo and redo."""
        with self._lock:
            row = (db or self._db).execute("SELECT rev FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        if not isinstance(row[0], int):
            raise self._set_aside_damaged(game_id, "its revision cannot be read")
        return row[0]

    # -- reads: actions -------------------------------------------------------
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

    def undone(self, game_id: str, db: sqlite3.Connection | None = None) -> list[JournalEntry]:
        """The undone actions, oldest first: what redo would play again (the next one first)."""
        return self._with_status(game_id, "undone", db)

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
            note = json_or_none(row[5])
            out.append((entry, note if isinstance(note, dict) else {}))
        return out

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
            problem = row_problem(r[:8])
            if problem:
                raise self._set_aside_damaged(game_id, problem)
        return [{"seq": r[0], "action": json.loads(r[1]), "source": r[2], "at": r[3], "status": r[4], "edit": r[5],
                 "origin": r[6], "note": json.loads(r[7]) if r[7] else None,
                 "author": author_of_row(r[2], r[8]).to_json()} for r in rows]

    # -- writes: games --------------------------------------------------------
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
                (game_id, game, dumps(players), dumps(options), now, rules_version),
            )
            self._touch(db, game_id)
            self._changed.add(game_id)
        return self.game(game_id)

    # -- writes: actions (call inside transaction()) ---------------------------
    def append(self, db: sqlite3.Connection, game_id: str, action: dict[str, Any], source: Author | str) -> JournalEntry:
        """Append an action sent by ``source`` (an :class:`Author`, or an older caller's one word);
        any undone actions become discarded (the redo branch is gone)."""
        author = author_of(source)
        db.execute("UPDATE actions SET status = 'discarded' WHERE game_id = ? AND status = 'undone'", (game_id,))
        (top,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)).fetchone()
        seq, at = int(top) + 1, self._clock()
        db.execute(
            "INSERT INTO actions (game_id, seq, action, source, at, author) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seq, dumps(action), author.transport, at, author.dumps()),
        )
        self._bump(db, game_id)
        return JournalEntry(seq, json.loads(dumps(action)), author.transport, at, author)

    def undo(self, db: sqlite3.Connection, game_id: str) -> JournalEntry | None:
        """The newest active action becomes undone; None when there is none."""
        return self._flip(db, game_id, "active", "undone", newest=True)

    def redo(self, db: sqlite3.Connection, game_id: str) -> JournalEntry | None:
        """The oldest undone action becomes active again; None when there is none."""
        return self._flip(db, game_id, "undone", "active", newest=False)

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
                           (status, dumps(note), game_id, entry.seq))
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
            (game_id, seq, dumps(entry.action), entry.source, entry.at, edit, entry.seq, entry.author.dumps()),
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
                           (game_id, seq, dumps(action), near.source if kept and near else "migrate",
                            near.at if near else self._clock(), near.seq if kept and near else None,
                            near.author.dumps() if kept and near else None))
            db.execute("UPDATE games SET rules_version = ? WHERE id = ?", (version, game_id))
            self._bump(db, game_id)

    def _edit_row(self, db: sqlite3.Connection, game_id: str, kind: str, seq: int, source: Author | str,
                  note: dict[str, Any] | None = None) -> int:
        author = author_of(source)
        (top,) = db.execute("SELECT COALESCE(MAX(id), 0) FROM edits WHERE game_id = ?", (game_id,)).fetchone()
        db.execute("INSERT INTO edits (game_id, id, kind, seq, source, at, author, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (game_id, int(top) + 1, kind, seq, author.transport, self._clock(), author.dumps(),
                    dumps(note) if note is not None else None))
        return int(top) + 1

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

    def set_result(self, db: sqlite3.Connection, game_id: str, result: dict[str, Any] | None) -> None:
        """Record (or, after an undo, clear) the end of a game."""
        if result is None:
            db.execute("UPDATE games SET finished = NULL, result = NULL WHERE id = ?", (game_id,))
        else:
            db.execute(
                "UPDATE games SET finished = COALESCE(finished, ?), result = ? WHERE id = ?",
                (self._clock(), dumps(result), game_id),
            )

    def _bump(self, db: sqlite3.Connection, game_id: str) -> None:
        db.execute("UPDATE games SET rev = rev + 1 WHERE id = ?", (game_id,))
        self._changed.add(game_id)
        self._touch(db, game_id)

    def _touch(self, db: sqlite3.Connection, game_id: str) -> None:
        if self._touched:
            db.execute("UPDATE games SET touched = (SELECT COALESCE(MAX(touched), 0) + 1 FROM games) WHERE id = ?",
                       (game_id,))


    # -- backups: the whole file, ordered by the journal's counter ------------------------
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

    def backup_if_changed(self, keep: int = KEEP_BACKUPS) -> Path | None:
        """A backup only when the journal changed since the last one (None when nothing did).

        An hourly backup of a journal nobody played on rewrites the whole file on the SD card for
        nothing. Changed means: another counter than the newest backup's (a new action, undo or
        edit moves it), or a write through this connection since this process last backed up (a
        deleted game does not move the counter, it does change the file).
        """
        with self._lock:
            written = self._db.total_changes
        counter = self.counter()
        last = self._backed_up
        if last is None:  # first time in this process: compare with the newest backup on disk
            existing = backups(self.path)
            if existing and backup_counter(existing[-1], self.path) == counter:
                self._backed_up = (counter, written)
                return None
        elif last == (counter, written):
            return None
        dest = self.backup(keep)
        self._backed_up = (counter, written)
        return dest

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
            sync_to_disk(work)
            os.replace(work, dest)
            sync_to_disk(folder)
        except sqlite3.OperationalError as exc:
            work.unlink(missing_ok=True)
            if is_write_failure(exc):
                raise JournalUnavailable(str(exc)) from None
            raise
        except OSError:
            work.unlink(missing_ok=True)
            raise
        for old in backups(self.path)[:-keep]:
            old.unlink(missing_ok=True)
        return dest
