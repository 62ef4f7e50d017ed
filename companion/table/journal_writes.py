"""What the journal writes: games, actions, undo and redo, the tablet's edits, migrations, results.

Each call runs inside the caller's :meth:`~companion.table.journal_base.JournalBase.transaction`
(or opens its own) and bumps the game's revision in it, which is how another process notices
the change. Kept apart from the reads (:mod:`companion.table.journal_reads`), which it builds on
(a new game is read back), so that every way the file changes is one place.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from typing import Any

from companion.table.authorship import Author
from companion.table.authorship import of as author_of
from companion.table.journal_reads import JournalReads
from companion.table.rows import (
    GameRecord,
    JournalEntry,
    _dumps,
)


class JournalWrites(JournalReads):
    """The journal's writes (see :class:`companion.table.journal.Journal`)."""

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


    # -- actions (call inside transaction()) ---------------------------------
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
                           (game_id, seq, _dumps(action), near.source if kept and near else "migrate",
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
                    _dumps(note) if note is not None else None))
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
