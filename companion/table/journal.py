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

import os
from pathlib import Path

from companion.table.journal_backups import JournalBackups
from companion.table.journal_writes import JournalWrites


def default_db_path(cli_value: str | None = None) -> Path:
    """``--db``, then ``$COMPANION_DB``, then ``$XDG_DATA_HOME/galapagos-companion/companion.db``."""
    if cli_value:
        return Path(cli_value)
    env = os.environ.get("COMPANION_DB")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "galapagos-companion" / "companion.db"


class Journal(JournalWrites, JournalBackups):
    """One SQLite file holding every game. Safe to share between threads of one process.

    On a read-only card it opens read-only (``readonly`` is True): everything reads,
    every write raises :class:`JournalUnavailable`.

    Made of one piece per concern, each in its own module so that none grows past what a reader
    takes in at once: the file and its transactions (:class:`~companion.table.journal_base.JournalBase`),
    the reads (:class:`~companion.table.journal_reads.JournalReads`), the writes
    (:class:`~companion.table.journal_writes.JournalWrites`) and the backups
    (:class:`~companion.table.journal_backups.JournalBackups`). Start-up checks, recovery and
    restores are :mod:`companion.table.recovery`.
    """
