"""Backups only when the journal changed: a quiet table does not rewrite its SD card every hour."""

from __future__ import annotations

from pathlib import Path

from gpiozero import Device

from companion.board.config import Config
from companion.cli.app import build
from companion.table.backups import backup_counter, backups
from companion.table.journal import Journal
from companion.table.library import Library
from companion.table.session import Session


def test_nothing_changed_no_backup_an_action_one_backup(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    with Journal(db) as journal:
        session = Session.new(journal, "pocket-galapagos", ["Ann"], {})
        first = journal.backup_if_changed()
        assert first is not None and backups(db) == [first]
        for _ in range(3):  # the hourly look at a journal nobody played on
            assert journal.backup_if_changed() is None
        assert backups(db) == [first]
        session.act({"type": "population", "species": "rat", "change": 1})
        second = journal.backup_if_changed()
        assert second is not None and backups(db) == [first, second]
        assert backup_counter(second, db) == journal.counter() != backup_counter(first, db)


def test_a_game_deleted_on_home_is_a_change_though_the_counter_does_not_move(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    with Journal(db) as journal:
        older = Session.new(journal, "pocket-galapagos", ["Ann"], {}).id
        Session.new(journal, "pocket-galapagos", ["Bob"], {})
        assert journal.backup_if_changed() is not None
        counter = journal.counter()
        Library(journal).delete(older)  # a mark in the library table, no action
        assert journal.counter() == counter
        assert journal.backup_if_changed() is not None


def test_a_restarted_table_does_not_back_up_a_journal_its_newest_backup_already_holds(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    with Journal(db) as journal:
        Session.new(journal, "pocket-galapagos", ["Ann"], {})
        journal.backup_if_changed()
    companion = build(Config(), db, sim=True, port=0)
    try:
        companion.backup()  # what the loop does each hour and when a game ends
        companion.backup()
        assert len(backups(db)) == 1
    finally:
        companion.close()
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
