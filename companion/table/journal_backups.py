"""The journal's own backups: its counter (generation, last change) and a consistent copy beside it.

Kept apart from the store because a backup is about the whole file, never one game, and
orders itself by the journal's counter, not a clock; naming and listing the copies is
:mod:`companion.table.backups`, putting one back :mod:`companion.table.recovery`.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
from pathlib import Path

from companion.table.backups import _fsync, backup_counter, backups, backups_dir
from companion.table.journal_base import JournalBase
from companion.table.rows import (
    JournalUnavailable,
    _write_failure,
)

#: backups kept beside the journal (``<db>.backups/``)
KEEP_BACKUPS = 5


class JournalBackups(JournalBase):
    """The journal's backups (see :class:`companion.table.journal.Journal`)."""

    #: (counter, this connection's total changes) at this process's last backup
    _backed_up: tuple[tuple[int, int], int] | None = None

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
