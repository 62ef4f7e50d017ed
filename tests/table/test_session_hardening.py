"""The session refuses what it could not replay, undoes the dice plan in one transaction, and
resumes by journal order with a sand timer that trusts the journal more than the wall clock."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from companion.engine.rules import RuleError
from companion.table import extras
from companion.table.journal import Journal
from companion.table.played import ReplayError
from companion.table.session import Session
from tests.support.clock import FakeClock as Clock
from tests.table.test_session_timer import until_timer_runs


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_non_finite_timer_is_refused_before_anything_is_journaled(db_path: Path, bad: float) -> None:
    journal = Journal(db_path)
    with pytest.raises(RuleError, match="not a number JSON allows"):
        Session.new(journal, "galapagos-dice", ["Ann", "Bob"], {"layout_seed": 3, "timer_seconds": bad})
    assert journal.games() == []


@pytest.mark.parametrize("action", [
    {"type": "population", "species": "rat", "change": math.nan},
    {"type": "population", "species": "\ud800", "change": 1},
    {"type": "population", "species": "rat", "change": 10**400},
])
def test_an_action_json_cannot_write_back_is_refused_and_changes_nothing(db_path: Path, action: dict) -> None:
    session = Session.new(Journal(db_path), "pocket-galapagos", ["Ann"], {})
    with pytest.raises(RuleError):
        session.act(action)
    assert Session.open(Journal(db_path), session.id).version == 0


def test_deep_nesting_is_refused_with_a_sentence(db_path: Path) -> None:
    deep: object = 1
    for _ in range(5000):
        deep = [deep]
    session = Session.new(Journal(db_path), "pocket-galapagos", ["Ann"], {})
    with pytest.raises(RuleError, match="nested more than"):
        session.act({"type": "end_turn", "x": deep})


def _plan_then_expiry(db_path: Path) -> Session:
    mono, wall = Clock(50.0), Clock(10_000.0)
    session = Session.new(Journal(db_path, clock=wall), "galapagos-dice", ["Ann", "Bob"], {"layout_seed": 3},
                          clock=mono, wall=wall)
    until_timer_runs(session)
    mono.now += 31
    wall.now += 31
    assert session.tick() is not None
    return session


def test_the_dice_undo_takes_back_plan_and_expiry_in_one_transaction(db_path: Path) -> None:
    session = _plan_then_expiry(db_path)
    plan = session.history()[-2].action
    assert plan["type"] == "plan" and session.history()[-1].action == {"type": "timer_expired"}
    rev = session.journal.rev(session.id)
    assert extras.undo(session) == plan
    assert session.journal.rev(session.id) == rev + 2  # both flipped ...
    statuses = dict(session.journal._db.execute(
        "SELECT seq, status FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 2", (session.id,)).fetchall())
    assert set(statuses.values()) == {"undone"}  # ... and by one commit (see the SIGKILL suite)


def test_undo_last_with_only_automatic_actions_changes_nothing(db_path: Path) -> None:
    session = Session.new(Journal(db_path), "pocket-galapagos", ["Ann"], {})
    assert session.undo_last(automatic=("end_turn",)) is None
    session.act({"type": "end_turn"})
    assert session.undo_last(automatic=("end_turn",)) is None
    assert session.version == 1  # the automatic action alone is not taken back


def test_after_the_clock_went_back_the_table_resumes_the_game_last_acted_on(db_path: Path) -> None:
    wall = Clock(20_000.0)
    journal = Journal(db_path, clock=wall)
    older = Session.new(journal, "pocket-galapagos", ["Ann"], {})
    wall.now = 30_000.0
    newer = Session.new(journal, "pocket-galapagos", ["Bob"], {})
    wall.now = 5_000.0  # the Pi's clock starts far behind after a power cut
    older.act({"type": "end_turn"})
    assert [r.id for r in journal.last_acted()] == [older.id, newer.id]
    newer.act({"type": "end_turn"})
    assert journal.last_acted()[0].id == newer.id


def sand_turned(db_path: Path) -> tuple[Session, Clock, float]:
    """A dice game whose sand has just turned: the session, its wall clock and the wall time of the turn."""
    wall = Clock(10_000.0)
    session = Session.new(Journal(db_path, clock=wall), "galapagos-dice", ["Ann", "Bob"], {"layout_seed": 3},
                          clock=Clock(50.0), wall=wall)
    until_timer_runs(session)
    return session, wall, session.history()[-1].at


def test_a_clock_gone_back_gives_no_sand_back(db_path: Path) -> None:
    session, wall, turned = sand_turned(db_path)
    wall.now = turned - 3600  # reboot with a clock an hour behind
    resumed = Session.open(Journal(db_path, clock=wall), session.id, clock=Clock(0.0), wall=wall)
    assert resumed.timer is not None and resumed.timer.remaining() <= 30.0


def test_a_clock_far_ahead_runs_the_timer_out_no_further_than_the_whole_timer(db_path: Path) -> None:
    session, wall, turned = sand_turned(db_path)
    assert session._sand_run(turned, 30.0) == 0.0
    wall.now = turned + 10**9
    assert session._sand_run(turned, 30.0) == 30.0
    wall.now = turned - 10**9
    assert session._sand_run(turned, 30.0) == 0.0


def test_a_game_whose_replay_fails_is_its_own_problem(db_path: Path) -> None:
    journal = Journal(db_path)
    broken = Session.new(journal, "pocket-galapagos", ["Ann"], {})
    fine = Session.new(journal, "pocket-galapagos", ["Bob"], {})
    with journal.transaction() as db:  # an action today's rules refuse (written by another version)
        journal.append(db, broken.id, {"type": "end_turn", "bogus": True}, "old")
    with pytest.raises(ReplayError):
        Session.open(Journal(db_path), broken.id)
    assert Session.open(Journal(db_path), fine.id).version == 0
