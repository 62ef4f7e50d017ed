"""Redo only when there is something to redo, and it mirrors undo (a plan comes back with its sand's expiry)."""

from __future__ import annotations

from pathlib import Path

from companion.table import extras
from companion.table.journal import Journal
from companion.table.session import Session
from tests.table.test_session_timer import until_timer_runs

OCEAN = {"type": "ocean", "species": "rat", "icons": 1, "mode": "migrate"}
END = {"type": "end_turn"}


def test_can_redo_follows_the_journal(db_path: Path) -> None:
    session = Session.new(Journal(db_path), "pocket-galapagos", ["Ann"])
    assert not session.can_redo and extras.to_redo(session) is None
    session.act(OCEAN)
    session.act(END)
    session.undo()
    assert session.can_redo and extras.to_redo(session) == END
    session.undo()
    assert extras.to_redo(session) == OCEAN  # redo plays the oldest undone first
    other = Session.open(Journal(db_path), session.id)  # another process sees the same
    assert other.can_redo and [e.action for e in other.undone] == [OCEAN, END]
    session.redo()
    session.redo()
    assert not session.can_redo
    session.undo()
    session.act(OCEAN)  # a new action discards the redo branch
    assert not session.can_redo and extras.redo(session) is None


def test_redo_of_a_plan_brings_its_expiry_back_in_one_go(db_path: Path) -> None:
    """The dice dashboard's undo takes back a plan with the `timer_expired` after it; redo must give both
    back, or the plan would stand with planning reopened and the sand run out long ago."""
    session = Session.new(Journal(db_path), "galapagos-dice", ["Ann", "Bob"], {"layout_seed": 3})
    until_timer_runs(session)
    session.act({"type": "timer_expired"}, source="timer")
    played = [e.action for e in session.history()]
    undone = extras.undo(session)
    assert undone is not None and undone["type"] == "plan"
    assert [e.action["type"] for e in session.undone] == ["plan", "timer_expired"]
    assert extras.redo(session) == undone
    assert [e.action for e in session.history()] == played and not session.can_redo
