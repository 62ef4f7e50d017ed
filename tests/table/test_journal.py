"""The SQLite journal: durability settings, statuses, undo/redo bookkeeping, many games."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.table.journal import Journal, default_db_path
from companion.table.rows import UnknownGame


def test_journal_uses_wal_and_full_sync(db_path: Path) -> None:
    journal = Journal(db_path)
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # 2 == FULL: every commit is fsynced before it returns
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_append_undo_redo_flip_statuses_and_never_delete(db_path: Path) -> None:
    journal = Journal(db_path)
    rec = journal.create_game("pocket-galapagos", ["Ann"], {})
    with journal.transaction() as db:
        journal.append(db, rec.id, {"type": "a"}, "test")
        journal.append(db, rec.id, {"type": "b"}, "test")
    with journal.transaction() as db:
        undone = journal.undo(db, rec.id)
    assert undone is not None and undone.action == {"type": "b"}
    assert [e.action["type"] for e in journal.active(rec.id)] == ["a"]
    with journal.transaction() as db:
        redone = journal.redo(db, rec.id)
    assert redone is not None and redone.action == {"type": "b"}
    with journal.transaction() as db:
        journal.undo(db, rec.id)
        journal.append(db, rec.id, {"type": "c"}, "test")
        # the undone "b" is now off the redo branch for good
        assert journal.redo(db, rec.id) is None
    assert [e.action["type"] for e in journal.active(rec.id)] == ["a", "c"]
    rows = sqlite3.connect(db_path).execute(
        "SELECT action, status FROM actions WHERE game_id = ? ORDER BY seq", (rec.id,)
    ).fetchall()
    assert rows == [('{"type":"a"}', "active"), ('{"type":"b"}', "discarded"), ('{"type":"c"}', "active")]


def test_undo_with_nothing_to_undo_returns_none(db_path: Path) -> None:
    journal = Journal(db_path)
    rec = journal.create_game("pocket-galapagos", ["Ann"], {})
    with journal.transaction() as db:
        assert journal.undo(db, rec.id) is None
        assert journal.redo(db, rec.id) is None


def test_rev_changes_with_every_write(db_path: Path) -> None:
    journal = Journal(db_path)
    rec = journal.create_game("pocket-galapagos", ["Ann"], {})
    revs = [journal.rev(rec.id)]
    with journal.transaction() as db:
        journal.append(db, rec.id, {"type": "a"}, "t")
    revs.append(journal.rev(rec.id))
    with journal.transaction() as db:
        journal.undo(db, rec.id)
    revs.append(journal.rev(rec.id))
    assert len(set(revs)) == 3


def test_many_games_with_ids_times_and_results(db_path: Path) -> None:
    times = iter([100.0, 200.0, 300.0, 400.0])
    journal = Journal(db_path, clock=lambda: next(times))
    first = journal.create_game("pocket-galapagos", ["Ann"], {"turns": 10})
    second = journal.create_game("galapagos-auction", ["Ann", "Bob"], {})
    assert first.id != second.id
    assert first.created == 100.0 and second.created == 200.0
    with journal.transaction() as db:
        journal.set_result(db, first.id, {"winners": ["Ann"]})
    done = journal.game(first.id)
    assert done.finished == 300.0 and done.result == {"winners": ["Ann"]}
    assert [g.id for g in journal.games(finished=True)] == [first.id]
    assert [g.id for g in journal.games(finished=False)] == [second.id]
    assert [g.id for g in journal.games()] == [second.id, first.id]
    assert journal.game(first.id).options == {"turns": 10}


def test_unknown_game_is_one_sentence(db_path: Path) -> None:
    journal = Journal(db_path)
    with pytest.raises(UnknownGame, match="There is no game 'nope'"):
        journal.game("nope")


def test_a_transaction_killed_before_commit_leaves_nothing(db_path: Path) -> None:
    journal = Journal(db_path)
    rec = journal.create_game("pocket-galapagos", ["Ann"], {})
    with pytest.raises(RuntimeError):
        with journal.transaction() as db:
            journal.append(db, rec.id, {"type": "half"}, "t")
            raise RuntimeError("power cut")
    assert journal.active(rec.id) == []


def test_db_path_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "env.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_db_path("cli.db") == Path("cli.db")
    assert default_db_path(None) == tmp_path / "env.db"
    monkeypatch.delenv("COMPANION_DB")
    assert default_db_path(None) == tmp_path / "xdg" / "galapagos-companion" / "companion.db"
