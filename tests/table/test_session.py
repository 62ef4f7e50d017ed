"""The table session: journal before screens, undo/redo, resume, several processes on one game."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.engine.rules import RuleError
from companion.table.journal import Journal
from companion.table.session import Change, Session

GAME = "pocket-galapagos"
OCEAN = {"type": "ocean", "species": "rat", "icons": 1, "mode": "migrate"}
END = {"type": "end_turn"}


def journaled(db_path: Path, game_id: str) -> list[str]:
    """What another connection (a fresh process after a power cut) sees in the journal."""
    con = sqlite3.connect(db_path)
    try:
        return [r[0] for r in con.execute(
            "SELECT action FROM actions WHERE game_id = ? AND status = 'active' ORDER BY seq", (game_id,))]
    finally:
        con.close()


def test_action_is_committed_before_any_listener_hears_of_it(db_path: Path) -> None:
    session = Session.new(Journal(db_path), GAME, ["Ann"])
    seen: list[list[str]] = []
    session.subscribe(lambda change: seen.append(journaled(db_path, session.id)))
    session.act(END)
    assert seen == [['{"type":"end_turn"}']]


def test_rejected_action_changes_nothing(db_path: Path) -> None:
    session = Session.new(Journal(db_path), GAME, ["Ann"])
    session.act(END)
    before = session.rules.fingerprint(session.state)
    heard: list[Change] = []
    session.subscribe(heard.append)
    with pytest.raises(RuleError):
        session.act({"type": "ocean", "species": "dodo", "icons": 1, "mode": "migrate"})
    with pytest.raises(RuleError):
        session.act({"type": "no-such-action"})
    assert session.rules.fingerprint(session.state) == before
    assert journaled(db_path, session.id) == ['{"type":"end_turn"}']
    assert heard == [] and session.version == 1


def test_undo_and_redo_restore_exact_states(db_path: Path) -> None:
    session = Session.new(Journal(db_path), GAME, ["Ann"])
    start = session.rules.fingerprint(session.state)
    session.act(OCEAN)
    after_ocean = session.rules.fingerprint(session.state)
    session.act(END)
    after_end = session.rules.fingerprint(session.state)
    assert session.undo() == END
    assert session.rules.fingerprint(session.state) == after_ocean
    assert session.undo() == OCEAN
    assert session.rules.fingerprint(session.state) == start
    assert session.undo() is None
    assert session.redo() == OCEAN and session.redo() == END
    assert session.rules.fingerprint(session.state) == after_end
    assert session.redo() is None


def test_a_new_action_after_undo_drops_the_redo(db_path: Path) -> None:
    session = Session.new(Journal(db_path), GAME, ["Ann"])
    session.act(OCEAN)
    session.undo()
    session.act(END)
    assert session.redo() is None
    assert [e.action for e in session.history()] == [END]


def test_resume_after_power_loss_replays_the_journal(db_path: Path) -> None:
    journal = Journal(db_path)
    session = Session.new(journal, GAME, ["Ann"])
    for action in (OCEAN, END, OCEAN, END):
        session.act(action)
    session.undo()
    expected = session.rules.fingerprint(session.state)
    game_id = session.id
    # no close(): the process just dies; a new one opens the file afresh
    resumed = Session.open(Journal(db_path), game_id)
    assert resumed.rules.fingerprint(resumed.state) == expected
    assert resumed.version == 3
    assert resumed.redo() == END


def test_two_processes_on_one_game_never_act_on_a_stale_state(db_path: Path) -> None:
    server = Session.new(Journal(db_path), GAME, ["Ann"])
    shell = Session.open(Journal(db_path), server.id)
    shell.act(END)  # e.g. `companion act` from a shell while the dashboard runs
    server.act(END)  # the server replays the shell's action first
    assert [e.action for e in server.history()] == [END, END]
    assert server.public()["turn"] == shell.public()["turn"] + 1
    assert shell.sync() is True
    assert shell.rules.fingerprint(shell.state) == server.rules.fingerprint(server.state)


def test_finished_game_is_stored_with_its_result(db_path: Path) -> None:
    journal = Journal(db_path)
    session = Session.new(journal, GAME, ["Ann"])
    while not session.over:
        session.act(END)
    record = journal.game(session.id)
    assert record.finished is not None
    assert record.result is not None
    assert record.result["winners"] == session.rules.winners(session.state)
    assert record.result["reason"] == session.rules.outcome(session.state).reason
    session.undo()
    assert journal.game(session.id).finished is None


def test_bad_setup_stores_nothing(db_path: Path) -> None:
    journal = Journal(db_path)
    with pytest.raises(RuleError):
        Session.new(journal, GAME, ["Ann", "Bob"])  # a solo game
    with pytest.raises(RuleError):
        Session.new(journal, "chess", ["Ann"])
    assert journal.games() == []


def test_public_state_carries_id_and_version(db_path: Path) -> None:
    session = Session.new(Journal(db_path), GAME, ["Ann"])
    session.act(OCEAN)
    pub = session.public()
    assert pub["id"] == session.id and pub["version"] == 1 and pub["game"] == GAME
