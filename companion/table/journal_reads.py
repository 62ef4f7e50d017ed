"""What the journal reads: the games, the damaged ones, the actions of each by status, the edits.

Kept apart from the writes (:mod:`companion.table.journal_writes`) so that what a reader
may ask of the file (a read-only card answers all of it) is one place; every row is decoded
under a guard here, and a row that cannot be read sets its game aside instead of failing the file.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from companion.table.journal_base import JournalBase
from companion.table.rows import (
    DamagedGame,
    GameDamaged,
    GameRecord,
    JournalEntry,
    UnknownGame,
    _author,
    _json_or_none,
    _raw,
    _record,
    _row_problem,
    _shown,
)


class JournalReads(JournalBase):
    """The journal's reads (see :class:`companion.table.journal.Journal`)."""

    # -- games --------------------------------------------------------------
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
                            record.created, str(problem), int(counts.get(row[0], 0) or 0))
                for row, record, problem in bad]

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
            note = _json_or_none(row[5])
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
            problem = _row_problem(r[:8])
            if problem:
                raise self._set_aside_damaged(game_id, problem)
        return [{"seq": r[0], "action": json.loads(r[1]), "source": r[2], "at": r[3], "status": r[4], "edit": r[5],
                 "origin": r[6], "note": json.loads(r[7]) if r[7] else None,
                 "author": _author(r[2], r[8]).to_json()} for r in rows]
