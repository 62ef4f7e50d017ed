"""A damaged card: a journal truncated, overwritten, emptied; a full disk; a read-only mount.

Each case is what an SD card does to a Pi that loses power or wears out. Start-up
(:func:`companion.table.recovery.open_checked`, what ``companion run`` uses) must copy a
damaged file aside, recover what it can and say so; an emptied journal is reported
and put back from the newest backup; a full or read-only card refuses each write
with one sentence and changes nothing, and a read-only journal still reads.

The tmpfs cases mount a real filesystem and are skipped where mounting is not allowed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.table.backups import backups
from companion.table.journal import Journal
from companion.table.recovery import open_checked
from companion.table.rows import NOT_RECORDED, JournalUnavailable
from companion.table.session import Session
from tests.support.cli import run as companion_cli


def played(db: Path, games: int = 3, actions: int = 30) -> list[str]:
    """A journal with ``games`` pocket games of ``actions`` actions each; their ids."""
    ids = []
    with Journal(db) as journal:
        for g in range(games):
            session = Session.new(journal, "pocket-galapagos", [f"P{g}"], {})
            for i in range(actions):
                session.act({"type": "population", "species": ("rat", "ant", "finch")[i % 3], "change": 1 - 2 * (i % 2)})
            ids.append(session.id)
    return ids


def checkpointed(db: Path) -> None:
    """Everything in the main file (as after a clean stop): the WAL folded in and removed."""
    import sqlite3

    conn = sqlite3.connect(str(db))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()


def test_a_sound_journal_starts_without_a_notice_and_is_backed_up(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    played(db, games=2)
    journal, notices = open_checked(db)
    assert notices == []
    assert len(backups(db)) == 1
    with Journal(backups(db)[0]) as copy:
        assert len(copy.games()) == 2
    journal.close()


def test_only_the_last_few_backups_are_kept(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    played(db, games=1, actions=2)
    with Journal(db) as journal:
        for _ in range(8):
            journal.backup(keep=3)
    assert len(backups(db)) == 3


def test_a_truncated_journal_is_copied_aside_and_what_can_be_read_is_recovered(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    ids = played(db, games=4, actions=200)
    checkpointed(db)
    size = db.stat().st_size
    with open(db, "r+b") as fh:
        fh.truncate(size * 2 // 3)
    journal, notices = open_checked(db)
    assert len(notices) == 1 and "damaged" in notices[0] and "recovered" in notices[0]
    aside = list(tmp_path.glob("companion.db.damaged-*"))
    assert aside and aside[0].stat().st_size == size * 2 // 3  # the damaged file is kept as it was
    recovered = {r.id for r in journal.games()}
    assert recovered and recovered <= set(ids)
    for gid in recovered:  # what came back replays (a prefix of each game at worst)
        Session.open(journal, gid)
    Session.new(journal, "pocket-galapagos", ["New"], {}).act({"type": "end_turn"})  # and the table goes on
    journal.close()


def test_garbage_in_the_middle_is_found_at_start_not_written_over(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    played(db, games=3, actions=300)
    checkpointed(db)
    size = db.stat().st_size
    with open(db, "r+b") as fh:
        fh.seek(size // 2)
        fh.write(os.urandom(8192))
    journal, notices = open_checked(db)
    assert notices and "damaged" in notices[0]
    damaged = next(tmp_path.glob("companion.db.damaged-*"))
    with open(damaged, "rb") as fh:  # the evidence is intact in the copy
        fh.seek(size // 2)
        assert len(fh.read(8192)) == 8192
    assert journal.games()  # the games table's pages were elsewhere: the games are back
    journal.close()


def test_a_file_overwritten_from_the_start_gives_a_new_journal_and_says_so(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    played(db, games=1, actions=5)
    checkpointed(db)
    db.write_bytes(os.urandom(db.stat().st_size))
    journal, notices = open_checked(db)
    assert notices and "damaged" in notices[0]
    assert journal.games() == []
    Session.new(journal, "pocket-galapagos", ["Ann"], {})
    journal.close()


def test_an_emptied_journal_is_reported_and_the_newest_backup_put_back(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    ids = played(db, games=2, actions=10)
    open_checked(db)[0].close()  # a start: a backup is made
    checkpointed(db)
    db.write_bytes(b"")  # the card lost the file's contents
    journal, notices = open_checked(db)
    assert len(notices) == 1 and "empty (0 bytes)" in notices[0] and "put back" in notices[0]
    assert {r.id for r in journal.games()} == set(ids)
    assert list(tmp_path.glob("companion.db.empty-*"))  # the empty file is kept too
    journal.close()


def test_an_emptied_journal_without_a_backup_is_reported_all_the_same(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    played(db, games=1, actions=3)  # never started by companion run: no backup
    checkpointed(db)
    db.write_bytes(b"")
    journal, notices = open_checked(db)
    assert notices and "empty (0 bytes)" in notices[0] and "no backup" in notices[0]
    assert list(tmp_path.glob("companion.db.empty-*"))
    journal.close()


def test_a_first_start_says_nothing(tmp_path: Path) -> None:
    journal, notices = open_checked(tmp_path / "companion.db")
    assert notices == []
    journal.close()


def test_a_missing_journal_where_games_existed_is_reported(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    played(db, games=1, actions=3)
    open_checked(db)[0].close()
    checkpointed(db)
    db.unlink()
    journal, notices = open_checked(db)
    assert notices and "missing" in notices[0]
    assert len(journal.games()) == 1
    journal.close()


def test_a_damaged_journal_is_one_sentence_for_the_shell(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    db.write_bytes(b"this is not a database at all" * 200)
    proc = companion_cli("--db", str(db), "list")
    assert proc.returncode == 2
    assert "damaged" in proc.stderr and "Traceback" not in proc.stderr and "internal error" not in proc.stderr


# -- a full card and a read-only card: a real tmpfs -------------------------------------------

@pytest.fixture
def card(tmp_path: Path) -> Iterator[Path]:
    """A small tmpfs (the SD card, 2 MB) mounted at tmp_path/card; unmounted afterwards."""
    mnt = tmp_path / "card"
    mnt.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mnt)], capture_output=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.decode().strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def fill(mnt: Path) -> None:
    """Take every free block of the card."""
    try:
        with open(mnt / "filler", "wb") as fh:
            while True:
                fh.write(b"\0" * 4096)
                fh.flush()
    except OSError:
        pass


def test_a_full_card_refuses_each_action_with_one_sentence_and_changes_nothing(card: Path) -> None:
    db = card / "companion.db"
    journal = Journal(db)
    session = Session.new(journal, "pocket-galapagos", ["Ann"], {})
    session.act({"type": "end_turn"})
    fill(card)
    for _ in range(2000):  # the WAL has a little room left in its last pages: use it up
        before = session.fingerprint() if hasattr(session, "fingerprint") else session.version
        try:
            session.act({"type": "population", "species": "rat", "change": 1})
        except JournalUnavailable as err:
            assert err.message == NOT_RECORDED
            break
    else:
        pytest.fail("the full card never refused a write")
    after = session.fingerprint() if hasattr(session, "fingerprint") else session.version
    assert after == before  # the refused action changed nothing in memory ...
    assert Session.open(Journal(db), session.id).version == session.version  # ... nor on the card
    with pytest.raises(JournalUnavailable):
        session.undo()
    (card / "filler").unlink()
    session.act({"type": "end_turn"})  # space again: the game goes on
    assert Session.open(Journal(db), session.id).version == session.version


def test_a_read_only_card_still_shows_the_games_and_refuses_writes(card: Path) -> None:
    db = card / "companion.db"
    ids = played(db, games=1, actions=5)
    subprocess.run(["mount", "-o", "remount,ro", str(card)], check=True)
    journal, notices = open_checked(db)
    assert journal.readonly and any("read-only" in n for n in notices)
    session = Session.open(journal, ids[0])
    assert session.version == 5
    with pytest.raises(JournalUnavailable):
        session.act({"type": "end_turn"})
    show = companion_cli("--db", str(db), "show", ids[0])
    assert show.returncode == 0, show.stderr
    assert json.loads(show.stdout)["version"] == 5
    act = companion_cli("--db", str(db), "act", ids[0], '{"type":"end_turn"}')
    assert act.returncode == 2 and NOT_RECORDED in act.stderr and "Traceback" not in act.stderr


# -- companion run itself -----------------------------------------------------------------------

def test_companion_run_starts_on_a_damaged_journal_and_says_so(tmp_path: Path) -> None:
    from bench.harness import Server

    db = tmp_path / "companion.db"
    played(db, games=3, actions=300)
    checkpointed(db)
    with open(db, "r+b") as fh:
        fh.truncate(db.stat().st_size // 2)
    server = Server(db)
    server.start()
    try:
        status, body = server.api("GET", "/api/games")
        assert status == 200
        assert any("damaged" in n for n in body["journal"]["notices"])
        assert server.new_game("pocket-galapagos", ["Ann"])  # and it records again
    finally:
        server.kill()


def test_one_game_that_cannot_resume_does_not_stop_the_table(tmp_path: Path) -> None:
    from bench.harness import Server

    db = tmp_path / "companion.db"
    with Journal(db) as journal:
        good = Session.new(journal, "pocket-galapagos", ["Ann"], {})
        bad = Session.new(journal, "pocket-galapagos", ["Bob"], {})
        with journal.transaction() as conn:  # the last acted on, and it cannot be replayed
            journal.append(conn, bad.id, {"type": "end_turn", "from_a_newer_version": 1}, "old")
    server = Server(db)
    server.start()
    try:
        status, body = server.api("GET", "/api/games")
        assert status == 200 and body["current"] == good.id
        assert any(bad.id in n and "could not be resumed" in n for n in body["journal"]["notices"])
        status, _ = server.api("GET", f"/api/games/{bad.id}")
        assert status == 409  # its own page says why; no 500
    finally:
        server.kill()


def test_companion_run_on_a_full_card_starts_reads_and_refuses_each_write_with_the_sentence(card: Path) -> None:
    from bench.harness import Server, population_action

    db = card / "companion.db"
    ids = played(db, games=1, actions=3)
    open_checked(db)[0].close()  # a start before: secret, seats, backup exist
    server = Server(db)
    server.start()
    try:
        fill(card)
        statuses = set()
        for i in range(300):  # the WAL's last free pages go first; then every write is refused
            status, body = server.api("POST", f"/api/games/{ids[0]}/actions", population_action(i))
            statuses.add(status)
            if status == 503:
                assert body["error"]["message"] == NOT_RECORDED
                break
            assert status in (200, 409), body
        assert 503 in statuses
        held = Session.open(Journal(db), ids[0]).version
        status, body = server.api("GET", f"/api/games/{ids[0]}")
        assert status == 200 and body["state"]["version"] == held  # the page shows what the card holds
        status, body = server.api("POST", "/api/games", {"game": "pocket-galapagos", "players": ["Zed"], "options": {}})
        assert status == 503 and body["error"]["message"] == NOT_RECORDED
    finally:
        server.kill()


def test_companion_run_on_a_read_only_card_plays_on_a_copy_in_memory_and_says_so(card: Path) -> None:
    """A card gone read-only (worn SD cards do) still gives an evening's play: the journal is copied to
    the runtime folder in memory, its games shown and played on, the card never written, and every
    screen says that games will be lost at power-off (docs/appliance.md)."""
    from bench.harness import Server

    db = card / "companion.db"
    ids = played(db, games=1, actions=3)
    first = Server(db)
    first.start()  # a normal start first: the secret, the seats, the tags, a backup
    first.kill(signal.SIGTERM)
    subprocess.run(["mount", "-o", "remount,ro", str(card)], check=True)
    runtime = card.parent / "run"
    runtime.mkdir()
    server = Server(db, env=dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1",
                                 RUNTIME_DIRECTORY=str(runtime)))
    server.start()
    try:
        status, body = server.api("GET", "/api/games")
        assert status == 200 and not body["journal"]["readonly"]
        assert any("read-only" in n and "games will be lost at power-off" in n for n in body["journal"]["notices"])
        status, body = server.api("GET", f"/api/games/{ids[0]}")
        assert status == 200 and body["state"]["version"] == 3
        status, body = server.api("POST", f"/api/games/{ids[0]}/actions", {"type": "end_turn"})
        assert status == 200 and body["state"]["version"] == 4  # recorded, in memory
    finally:
        server.kill()
    with Journal(db) as on_card:  # read-only: opened read-only, and the card still ends at version 3
        assert Session.open(on_card, ids[0]).version == 3
    copies = list(runtime.rglob("companion.db"))
    assert len(copies) == 1
    with Journal(copies[0]) as in_memory:
        assert Session.open(in_memory, ids[0]).version == 4
