"""Where the journal's backups live and which files are backups (named by the journal's counter).

Kept apart from the store so that recovery (:mod:`companion.table.recovery`) and the store's
own :meth:`Journal.backup <companion.table.journal.Journal.backup>` share one naming.
"""

from __future__ import annotations

import os
import re
from pathlib import Path


def sync_to_disk(path: Path) -> None:
    """Make ``path`` (a file, or a folder's entries) durable before going on."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def backups_dir(path: Path) -> Path:
    return path.with_name(path.name + ".backups")


#: a backup's name: ``<db>.g<generation>.c<counter>.<random>``; older ones carried a time stamp
BACKUP_NAME = r"\.g(\d{4,})\.c(\d{12,})\.[0-9a-f]{4}"


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
        new = re.fullmatch(BACKUP_NAME, rest)
        if new and p.is_file():
            found.append(((int(new.group(1)), int(new.group(2)), p.stat().st_mtime_ns), p))
        elif re.fullmatch(_OLD_BACKUP_NAME, rest) and p.is_file():
            found.append(((-1, 0, p.stat().st_mtime_ns), p))
    return [p for _, p in sorted(found)]


def backup_counter(backup: Path, path: Path) -> tuple[int, int] | None:
    """The journal counter (generation, last change) a backup of ``path`` was taken at; None for an old name."""
    rest = backup.name[len(path.name):] if backup.name.startswith(path.name) else ""
    match = re.fullmatch(BACKUP_NAME, rest)
    return (int(match.group(1)), int(match.group(2))) if match else None
