"""The SQLite journal: every accepted action, in order, before anything is shown.

State is never stored; it is rebuilt by replaying the active actions, so a Pi
that loses power resumes at the last committed action. Undo and redo only flip
an action's status, so nothing a player did is ever deleted:

* ``active``    — part of the game;
* ``undone``    — taken back, can be redone (always the newest rows);
* ``discarded`` — was undone, then a new action was taken instead.

Every mutation bumps ``games.rev`` in the same transaction, which lets a
long-running process notice that another one (``companion act`` from a shell)
changed the game and replay before acting.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.rules import RuleError

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
    status    TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'undone', 'discarded')),
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS actions_status ON actions (game_id, status, seq);
"""


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
    source: str
    at: float


class UnknownGame(RuleError):
    """No game with that id in this journal."""

    def __init__(self, game_id: str):
        super().__init__(f"There is no game {game_id!r} in this journal.")


class Journal:
    """One SQLite file holding every game. Safe to share between threads of one process."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._clock = clock
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._lock:
            self._db.executescript(SCHEMA)

    # -- plumbing -----------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """An IMMEDIATE transaction: one writer at a time, across processes too."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            else:
                self._db.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games --------------------------------------------------------------
    def create_game(self, game: str, players: list[str], options: dict[str, Any]) -> GameRecord:
        now = self._clock()
        with self.transaction() as db:
            while True:
                game_id = secrets.token_hex(4)
                if not db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
                    break
            db.execute(
                "INSERT INTO games (id, game, players, options, created) VALUES (?, ?, ?, ?, ?)",
                (game_id, game, _dumps(players), _dumps(options), now),
            )
        return self.game(game_id)

    def game(self, game_id: str) -> GameRecord:
        with self._lock:
            row = self._db.execute(
                "SELECT id, game, players, options, created, finished, result, rev FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        return _record(row)

    def games(self, finished: bool | None = None) -> list[GameRecord]:
        """All games, newest first; ``finished`` filters on whether they have ended."""
        where = "" if finished is None else ("WHERE finished IS NOT NULL" if finished else "WHERE finished IS NULL")
        with self._lock:
            rows = self._db.execute(
                f"SELECT id, game, players, options, created, finished, result, rev FROM games {where} "
                "ORDER BY created DESC, rowid DESC"
            ).fetchall()
        return [_record(r) for r in rows]

    def rev(self, game_id: str, db: sqlite3.Connection | None = None) -> int:
        """The game's revision: it changes with every append, undo and redo."""
        with self._lock:
            row = (db or self._db).execute("SELECT rev FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        return int(row[0])

    # -- actions (call inside transaction()) ---------------------------------
    def active(self, game_id: str, db: sqlite3.Connection | None = None) -> list[JournalEntry]:
        conn = db or self._db
        with self._lock:
            rows = conn.execute(
                "SELECT seq, action, source, at FROM actions WHERE game_id = ? AND status = 'active' ORDER BY seq",
                (game_id,),
            ).fetchall()
        return [JournalEntry(seq, json.loads(a), src, at) for seq, a, src, at in rows]

    def append(self, db: sqlite3.Connection, game_id: str, action: dict[str, Any], source: str) -> JournalEntry:
        """Append an action; any undone actions become discarded (the redo branch is gone)."""
        db.execute("UPDATE actions SET status = 'discarded' WHERE game_id = ? AND status = 'undone'", (game_id,))
        (top,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)).fetchone()
        seq, at = int(top) + 1, self._clock()
        db.execute(
            "INSERT INTO actions (game_id, seq, action, source, at) VALUES (?, ?, ?, ?, ?)",
            (game_id, seq, _dumps(action), source, at),
        )
        self._bump(db, game_id)
        return JournalEntry(seq, json.loads(_dumps(action)), source, at)

    def undo(self, db: sqlite3.Connection, game_id: str) -> JournalEntry | None:
        """The newest active action becomes undone; None when there is none."""
        return self._flip(db, game_id, "active", "undone", newest=True)

    def redo(self, db: sqlite3.Connection, game_id: str) -> JournalEntry | None:
        """The oldest undone action becomes active again; None when there is none."""
        return self._flip(db, game_id, "undone", "active", newest=False)

    def _flip(self, db: sqlite3.Connection, game_id: str, old: str, new: str, newest: bool) -> JournalEntry | None:
        order = "DESC" if newest else "ASC"
        row = db.execute(
            f"SELECT seq, action, source, at FROM actions WHERE game_id = ? AND status = ? ORDER BY seq {order} LIMIT 1",
            (game_id, old),
        ).fetchone()
        if row is None:
            return None
        db.execute("UPDATE actions SET status = ? WHERE game_id = ? AND seq = ?", (new, game_id, row[0]))
        self._bump(db, game_id)
        return JournalEntry(row[0], json.loads(row[1]), row[2], row[3])

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


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _record(row: tuple[Any, ...]) -> GameRecord:
    gid, game, players, options, created, finished, result, rev = row
    return GameRecord(
        gid, game, json.loads(players), json.loads(options), created, finished,
        json.loads(result) if result else None, int(rev),
    )
