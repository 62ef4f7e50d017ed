"""The outbox: what a table must publish, written in the SAME SQLite transaction as the action that caused it.

A power cut, a companion killed or a broker away for an hour lose nothing: a message exists exactly when
its action does (both commit or neither), and :mod:`companion.club.publisher` sends the rows in order,
marking one sent only on the broker's PUBACK. The hook runs inside :meth:`Journal.transaction` just before
its COMMIT (``Journal.commit_hooks``): it replays the changed game (a thousand actions take a few
milliseconds, with the session's own replay and policy: :mod:`companion.table.played`) and writes the new story lines, the status when it changed, and the game's result when it
ended. Nothing here talks to the network, so the table never waits for the broker.

Every row has an id that never comes back (AUTOINCREMENT) and the journal's generation (bumped when it is
put back from a backup); ``msg`` = ``<generation>-<id>`` travels in the payload so a subscriber drops the
copies a resend after an outage makes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion import games
from companion.club import messages
from companion.table.played import PlayedAction, play_onto, replay
from companion.table.rows import StorageError

log = logging.getLogger(__name__)

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS club_outbox (
        id      INTEGER PRIMARY KEY AUTOINCREMENT,
        gen     INTEGER NOT NULL DEFAULT 0,
        topic   TEXT NOT NULL,
        payload TEXT NOT NULL,
        qos     INTEGER NOT NULL DEFAULT 1,
        retain  INTEGER NOT NULL DEFAULT 0,
        game_id TEXT,
        kind    TEXT NOT NULL,
        created REAL NOT NULL,
        sent    REAL
    )""",
    "CREATE INDEX IF NOT EXISTS club_outbox_unsent ON club_outbox (id) WHERE sent IS NULL",
    # what was last written per game and kind (the story's last line, the status' and result's digests)
    "CREATE TABLE IF NOT EXISTS club_marks (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
)
#: sent rows kept for inspection (``companion`` never needs them again); older ones are trimmed
KEEP_SENT = 2000


@dataclass(frozen=True)
class Row:
    id: int
    gen: int
    topic: str
    payload: str
    qos: int
    retain: bool
    kind: str
    created: float

    @property
    def msg(self) -> str:
        return f"{self.gen}-{self.id}"

    def body(self) -> bytes:
        """The payload as sent: the stored JSON with its message id first."""
        return json.dumps({"msg": self.msg, **json.loads(self.payload)}, ensure_ascii=False,
                          separators=(",", ":")).encode()


def _digest(payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:24]


class Outbox:
    """The club's outbox in ``journal``'s file, filled by the journal's commit hook."""

    def __init__(self, journal: Any, table: str, lang: str = "en",
                 devices_down: Callable[[], list[str]] | None = None) -> None:
        self.journal = journal
        self.table = table
        self.lang = lang
        #: the devices failing now (their sentences), for the status; the composition root sets it
        self.devices_down = devices_down or (lambda: [])
        #: set after each commit that wrote rows: the publisher wakes at once
        self.wake = threading.Event()
        self._wrote = False
        #: game id -> ((players, options), seqs replayed, set-up state, steps): see :meth:`_replayed`
        self._cache: dict[str, tuple[Any, tuple[int, ...], Any, list[PlayedAction]]] = {}
        with journal.transaction() as db:
            for statement in SCHEMA:
                db.execute(statement)
        self.gen = journal.generation()

    # -- the journal's commit hook (inside the action's transaction) --------------------------------------
    def install(self) -> Outbox:
        self.journal.commit_hooks.append(self)
        return self

    def uninstall(self) -> None:
        if self in self.journal.commit_hooks:
            self.journal.commit_hooks.remove(self)

    def collect(self, db: sqlite3.Connection, changed: set[str]) -> None:
        """Write the messages of the games ``changed`` in this transaction (a savepoint: a bug here costs
        its messages, never the action)."""
        for game_id in sorted(changed):
            db.execute("SAVEPOINT club")
            try:
                self._collect(db, game_id)
            except Exception as exc:  # noqa: BLE001 - the action commits; its messages are logged as lost
                if isinstance(exc, StorageError):  # its rows cannot be read or played again: said, no trace
                    log.error("the club messages of game %s wait: %s", game_id, exc)
                else:
                    log.exception("the club messages of game %s could not be written", game_id)
                db.execute("ROLLBACK TO club")
            db.execute("RELEASE club")

    def committed(self) -> None:
        if self._wrote:
            self._wrote = False
            self.wake.set()

    def _collect(self, db: sqlite3.Connection, game_id: str) -> None:
        record = self.journal.game(game_id)
        pkg = games.package(record.game)
        first, steps, entries = self._replayed(db, pkg, record)
        state = steps[-1].after if steps else first
        key = f"story:{game_id}"
        mark = self._mark(db, key)
        if mark is None:  # publishing turned on mid-game: its story starts now, not with a burst of history
            mark = str(max((e.seq for e in entries[:-1]), default=0))
        last = int(mark)
        for line in messages.story_lines(self.table, record, pkg, steps, last, self.lang):
            self._put(db, "story", line, game_id, retain=False)
            last = max(last, line["seq"])
        self._set_mark(db, key, str(max([last, *(e.seq for e in entries)])))
        status = messages.status(self.table, record, pkg, state, steps, self.devices_down(), self.lang)
        self.put_status(db, status, game_id)
        rkey = f"result:{game_id}"
        done = self._mark(db, rkey)
        if pkg.rules.outcome(state) is not None:
            res = messages.result(self.table, record, pkg, state, steps, record.finished)
            digest = _digest(res)
            if digest != done:
                self._put_result(db, {**res, "rev": record.rev}, game_id)
                self._set_mark(db, rkey, digest)
        elif done not in (None, "withdrawn"):
            self._put_result(db, {**messages.withdrawn(self.table, record), "rev": record.rev}, game_id)
            self._set_mark(db, rkey, "withdrawn")

    def _replayed(self, db: sqlite3.Connection, pkg: Any, record: Any) -> tuple[Any, list[PlayedAction], list[Any]]:
        """The game replayed and its actions in play, reusing the last replay when they only grew or shrank
        at the end (an action, an undo): the hook then reads and applies the new actions only, not the game.
        The replay is the session's (:func:`companion.table.played.replay`): a line today's rules refuse is a
        :class:`~companion.table.played.ReplayError`, and the game's messages wait, as the game itself cannot be opened."""
        seqs = tuple(r[0] for r in db.execute("SELECT seq FROM actions WHERE game_id = ? AND status = 'active' "
                                              "ORDER BY seq", (record.id,)))
        key = (record.players, record.options)
        hit = self._cache.get(record.id)
        if hit is not None and hit[0] == key:
            old, first, steps = hit[1], hit[2], hit[3]
            n = next((i for i, (a, b) in enumerate(zip(old, seqs, strict=False)) if a != b), min(len(old), len(seqs)))
            if n in (len(old), len(seqs)):  # it grew or shrank at the end only
                steps = steps[:n]
                new = self.journal.active(record.id, db, after=seqs[n - 1]) if n and n < len(seqs) else \
                    self.journal.active(record.id, db) if n < len(seqs) else []
                steps = steps + play_onto(pkg.rules, record, steps[-1].after if steps else first, new)
                self._cache[record.id] = (key, seqs, first, steps)
                return first, steps, [s.entry for s in steps]
        entries = self.journal.active(record.id, db)
        first, steps = replay(pkg.rules, record, entries)
        if len(self._cache) > 16:
            self._cache.clear()
        self._cache[record.id] = (key, tuple(e.seq for e in entries), first, steps)
        return first, steps, entries

    def put_status(self, db: sqlite3.Connection, status: dict[str, Any], game_id: str | None) -> None:
        """The retained status, when it differs from the last one written."""
        digest = _digest(status)
        if self._mark(db, "status") != digest:
            self._put(db, "status", status, game_id, retain=True)
            self._set_mark(db, "status", digest)

    def _put_result(self, db: sqlite3.Connection, payload: dict[str, Any], game_id: str) -> None:
        """A result on ``results`` (retained: the table's last) and on ``results/<game id>`` (retained for
        good: a league started late still finds every game of the evening)."""
        self._put(db, "results", payload, game_id, retain=True)
        self._put(db, f"results/{game_id}", payload, game_id, retain=True)

    def _put(self, db: sqlite3.Connection, kind: str, payload: dict[str, Any], game_id: str | None, retain: bool) -> None:
        db.execute("INSERT INTO club_outbox (gen, topic, payload, qos, retain, game_id, kind, created) "
                   "VALUES (?, ?, ?, 1, ?, ?, ?, ?)",
                   (self.gen, messages.topic(self.table, kind), json.dumps(payload, ensure_ascii=False),
                    int(retain), game_id, kind, time.time()))
        self._wrote = True

    @staticmethod
    def _mark(db: sqlite3.Connection, key: str) -> str | None:
        row = db.execute("SELECT value FROM club_marks WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @staticmethod
    def _set_mark(db: sqlite3.Connection, key: str, value: str) -> None:
        db.execute("INSERT INTO club_marks (key, value) VALUES (?, ?) "
                   "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    # -- a status outside any action (a device down or back) -------------------------------------------------
    def refresh(self, game_id: str | None) -> None:
        """Write the status of ``game_id`` again in a transaction of its own (the devices' health changed)."""
        if game_id is None:
            return
        with self.journal.transaction() as db:
            self.collect(db, {game_id})
        self.committed()


class Reader:
    """The publisher's own connection to the journal file: pending rows in order, marks on PUBACK.

    A mark lost in a power cut only means the row is sent again (its ``msg`` lets subscribers drop it),
    so marks are written with ``synchronous=NORMAL``, in batches, away from the table's transactions.
    """

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
        self.db.execute("PRAGMA synchronous=NORMAL")
        self._lock = threading.Lock()

    def pending(self, after: int = 0, limit: int = 100) -> list[Row]:
        with self._lock:
            rows = self.db.execute("SELECT id, gen, topic, payload, qos, retain, kind, created FROM club_outbox "
                                   "WHERE sent IS NULL AND id > ? ORDER BY id LIMIT ?", (after, limit)).fetchall()
        return [Row(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], r[7]) for r in rows]

    def mark_sent(self, ids: list[int], at: float | None = None) -> None:
        if not ids:
            return
        at = time.time() if at is None else at
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.executemany("UPDATE club_outbox SET sent = ? WHERE id = ?", [(at, i) for i in ids])
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def trim(self, keep: int = KEEP_SENT) -> None:
        with self._lock:
            self.db.execute("DELETE FROM club_outbox WHERE sent IS NOT NULL AND id <= "
                            "(SELECT id FROM club_outbox WHERE sent IS NOT NULL ORDER BY id DESC LIMIT 1 OFFSET ?)",
                            (keep,))

    def unsent(self) -> int:
        with self._lock:
            return self.db.execute("SELECT COUNT(*) FROM club_outbox WHERE sent IS NULL").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self.db.close()
