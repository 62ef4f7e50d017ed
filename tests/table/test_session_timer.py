"""The sand timer lives in the session: turned by the first plan, journaled when it runs out."""

from __future__ import annotations

from pathlib import Path

from companion.table.journal import Journal
from companion.table.session import Session
from tests.support.clock import FakeClock as Clock


def until_timer_runs(session: Session) -> None:
    """Play legal actions until someone's plan has turned the sand timer."""
    for _ in range(200):
        if session.rules.view(session.state)["timer"] == "running":
            return
        candidates = [a for a in session.rules.candidates(session.state) if a["type"] != "timer_expired"]
        plan = [a for a in candidates if a["type"] == "plan"]
        session.act((plan or candidates)[0])
    raise AssertionError("no plan turned the timer")


def test_first_plan_turns_the_timer_and_expiry_is_journaled(db_path: Path) -> None:
    mono, wall = Clock(50.0), Clock(10_000.0)
    journal = Journal(db_path, clock=wall)
    session = Session.new(journal, "galapagos-dice", ["Ann", "Bob"], {"layout_seed": 3}, clock=mono, wall=wall)
    assert session.timer is None
    until_timer_runs(session)
    assert session.timer is not None and session.timer.remaining() == 30.0
    mono.now += 29.5
    wall.now += 29.5
    assert session.tick() is None
    assert session.public()["timer_remaining"] == 0.5
    mono.now += 0.6
    wall.now += 0.6
    assert session.tick() is not None
    assert session.history()[-1].action == {"type": "timer_expired"}
    assert session.history()[-1].source == "timer"
    assert session.rules.view(session.state)["timer"] == "expired"
    assert session.timer is None and session.tick() is None


def test_a_resumed_game_keeps_the_sand_already_run(db_path: Path) -> None:
    mono, wall = Clock(50.0), Clock(10_000.0)
    session = Session.new(Journal(db_path, clock=wall), "galapagos-dice", ["Ann", "Bob"], {"layout_seed": 3},
                          clock=mono, wall=wall)
    until_timer_runs(session)
    wall.now += 12.0  # the power goes; the Pi is back 12 s later (monotonic clock restarted)
    resumed = Session.open(Journal(db_path, clock=wall), session.id, clock=Clock(0.0), wall=wall)
    assert resumed.timer is not None
    assert abs(resumed.timer.remaining() - 18.0) < 1e-6


def test_undo_of_the_first_plan_puts_the_timer_back(db_path: Path) -> None:
    session = Session.new(Journal(db_path), "galapagos-dice", ["Ann", "Bob"], {"layout_seed": 3})
    until_timer_runs(session)
    session.undo()
    assert session.timer is None
    session.redo()
    assert session.timer is not None


def test_autotick_journals_the_expiry_by_itself(db_path: Path) -> None:
    import threading

    session = Session.new(Journal(db_path), "galapagos-dice", ["Ann", "Bob"],
                          {"layout_seed": 3, "timer_seconds": 0.2}, autotick=True)
    expired = threading.Event()
    session.subscribe(lambda c: c.action == {"type": "timer_expired"} and expired.set())
    until_timer_runs(session)
    assert expired.wait(5), "the session did not journal the expiry on its own"
    assert session.history()[-1].source == "timer"
    session.close()
