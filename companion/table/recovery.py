"""Start-up: check the journal, recover what a damaged file still holds, restore a backup, report.

``companion run`` calls :func:`open_checked`: a sound journal opens as it is; a damaged one is
copied aside and recovered (SQLite's own recovery, then row by row), or the newest backup that
verifies is restored; what happened is said on every screen. Kept apart from the store
(:mod:`companion.table.journal`), which it uses.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

from companion.engine.rules import RuleError
from companion.table.backups import _BACKUP_NAME, backups
from companion.table.journal import Journal
from companion.table.journal_backups import KEEP_BACKUPS
from companion.table.rows import (
    _GAME_COLUMNS,
    JournalDamaged,
    JournalUnavailable,
    StorageError,
    _text_factory,
    _write_failure,
)
from companion.table.schema import SCHEMA

log = logging.getLogger(__name__)


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
    * a backup is made with ``VACUUM INTO`` (the last ``keep`` are kept) unless the newest one
      already holds this journal.
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
        try:  # a journal repaired or restored just now is backed up; an unchanged one is not copied again
            journal.backup(keep) if notices else journal.backup_if_changed(keep)
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
        except (OSError, StorageError, sqlite3.Error) as exc:
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
    except (OSError, sqlite3.Error, RuleError, StorageError, UnicodeDecodeError) as exc:
        return (f"The journal is damaged ({problem}); it was copied to {aside.name}, but recovering it "
                f"failed ({exc}).")
    return (f"The journal was damaged ({problem}); it was copied to {aside.name} and {games} games with "
            f"{actions} actions were recovered from it.")
