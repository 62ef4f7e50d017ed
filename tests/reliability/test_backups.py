"""Backups you can restore: complete or absent, ordered by the journal's counter, verified.

- a kill during the backup never leaves a partial file or its ``-journal`` among the backups;
- a clock set back (a Pi without network has no real-time clock) does not make the restore
  take a stale backup: backups are ordered by the journal's own counter and generation;
- the restore verifies each candidate (``integrity_check`` and a replay of every game) and
  takes the newest that verifies.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from companion.table.backups import backups, backups_dir
from companion.table.journal import Journal
from companion.table.recovery import open_checked, quick_check
from companion.table.session import Session


def played(db: Path, name: str, actions: int = 4) -> str:
    with Journal(db) as journal:
        session = Session.new(journal, "pocket-galapagos", [name], {})
        for i in range(actions):
            session.act({"type": "population", "species": ("rat", "ant", "finch")[i % 3], "change": 1 - 2 * (i % 2)})
        return session.id


def lose_the_journal(db: Path) -> None:
    conn = sqlite3.connect(str(db))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    for side in ("-wal", "-shm"):
        Path(str(db) + side).unlink(missing_ok=True)
    db.write_bytes(b"")  # the card lost the file's contents


def test_a_clock_set_back_does_not_make_the_restore_take_a_stale_backup(tmp_path: Path, monkeypatch) -> None:
    db = tmp_path / "companion.db"
    first = played(db, "Ann")
    with Journal(db) as journal:
        journal.backup()
    second = played(db, "Bob")
    real = time.strftime
    monkeypatch.setattr(time, "strftime", lambda fmt, *a: real(fmt, time.localtime(time.time() - 86400 * 400)))
    with Journal(db) as journal:  # the clock went back a year and more after a power cut
        journal.backup()
    monkeypatch.setattr(time, "strftime", real)
    lose_the_journal(db)
    journal, notices = open_checked(db)
    try:
        assert {r.id for r in journal.games()} == {first, second}  # was: only Ann's game (the stale backup)
        assert "put back" in notices[0]
    finally:
        journal.close()


def test_backups_are_ordered_by_the_journals_counter_and_a_restore_starts_a_new_generation(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    played(db, "Ann")
    with Journal(db) as journal:
        a = journal.backup()
        assert journal.counter()[0] == 0
    played(db, "Bob")
    with Journal(db) as journal:
        b = journal.backup()
    os.utime(a, (time.time() + 3600, time.time() + 3600))  # a file's time says nothing
    assert backups(db) == [a, b]
    lose_the_journal(db)
    journal, _ = open_checked(db)  # Bob's backup is put back: generation 1 from now on
    try:
        assert journal.generation() == 1
        c = backups(db)[-1]
        assert c not in (a, b) and ".g0001." in c.name  # the start-up's own backup outranks both
    finally:
        journal.close()


def test_the_restore_takes_the_newest_backup_that_verifies(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    first = played(db, "Ann")
    with Journal(db) as journal:
        journal.backup()
    played(db, "Bob")
    with Journal(db) as journal:
        newest = journal.backup()
    data = bytearray(newest.read_bytes())
    data[len(data) // 2: len(data) // 2 + 512] = os.urandom(512)  # the card damaged the newest copy
    newest.write_bytes(bytes(data))
    lose_the_journal(db)
    journal, notices = open_checked(db)
    try:
        assert [r.id for r in journal.games()] == [first]
        assert "did not verify" in notices[0] and newest.name in notices[0]
    finally:
        journal.close()


def test_a_backup_whose_game_does_not_replay_is_not_put_back(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    first = played(db, "Ann")
    with Journal(db) as journal:
        journal.backup()
    played(db, "Bob")
    with Journal(db) as journal:
        newest = journal.backup()
    conn = sqlite3.connect(str(newest))  # a sound file whose game the rules refuse
    conn.execute("UPDATE actions SET action = '{\"type\":\"fly\"}' WHERE seq = 1")
    conn.commit()
    conn.close()
    assert quick_check(newest) is None
    lose_the_journal(db)
    journal, notices = open_checked(db)
    try:
        assert [r.id for r in journal.games()] == [first] and "did not verify" in notices[0]
    finally:
        journal.close()


KILLED = textwrap.dedent("""
    import sys
    from companion.table.journal import Journal
    journal = Journal(sys.argv[1])
    print("ready", flush=True)
    while True:
        journal.backup(keep=3)
""")


def test_a_kill_during_the_backup_leaves_no_partial_file_among_the_backups(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    with Journal(db) as journal:  # large enough that VACUUM INTO takes a while
        session = Session.new(journal, "pocket-galapagos", ["Ann"], {})
        with journal.transaction() as conn:
            for seq in range(1, 4000):
                conn.execute("INSERT INTO actions (game_id, seq, action, source, at, status) VALUES (?, ?, ?, '', 1, 'undone')",
                             (session.id, seq, '{"type":"end_turn","pad":"' + "y" * 400 + '"}'))
    caught = 0
    for delay in (0.05, 0.13, 0.21, 0.34, 0.55):
        proc = subprocess.Popen([sys.executable, "-c", KILLED, str(db)], stdout=subprocess.PIPE)
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        leftovers = [p.name for p in backups_dir(db).iterdir()]
        caught += any(".tmp" in name or name.endswith("-journal") for name in leftovers)
        listed = backups(db)
        assert all(not p.name.endswith("-journal") and not p.name.startswith(".tmp") for p in listed), leftovers
        for p in listed:  # each one listed is whole
            assert quick_check(p) is None, (p.name, leftovers)
    assert caught  # at least one kill came during a VACUUM INTO (its partial file was there, unlisted)
    lose_the_journal(db)
    journal, notices = open_checked(db)
    try:
        assert len(journal.games()) == 1 and "put back" in notices[0]
    finally:
        journal.close()
