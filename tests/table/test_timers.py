"""The sand timer on a fake monotonic clock: no test sleeps."""

from __future__ import annotations

import pytest

from companion.table.timers import DEFAULT_SECONDS, SandTimer
from tests.support.clock import FakeClock


def test_default_is_the_published_30_seconds():
    assert DEFAULT_SECONDS == 30
    assert SandTimer(clock=FakeClock()).seconds == 30


def test_before_it_is_turned_the_timer_is_full_and_not_running():
    """"The sand timer is placed on the volcano." """
    clock = FakeClock()
    timer = SandTimer(clock=clock)
    clock.advance(100)
    assert timer.remaining() == 30
    assert not timer.expired()
    assert not timer.running
    assert not timer.started


def test_sand_runs_from_the_moment_it_is_turned():
    """"The first to finish turns over the timer signalling how long everyone else has to plan." """
    clock = FakeClock()
    timer = SandTimer(clock=clock)
    clock.advance(5)
    timer.start()
    clock.advance(12.5)
    assert timer.remaining() == pytest.approx(17.5)
    assert timer.running and not timer.expired()


def test_it_expires_exactly_when_the_sand_has_run_through():
    """"When the timer expires, the planning phase ends for all players." """
    clock = FakeClock()
    timer = SandTimer(clock=clock)
    timer.start()
    clock.advance(29.999)
    assert not timer.expired()
    clock.advance(0.001)
    assert timer.expired()
    assert timer.remaining() == 0
    clock.advance(60)
    assert timer.remaining() == 0  # never negative
    assert timer.expired() and not timer.running


def test_duration_is_configurable():
    clock = FakeClock()
    timer = SandTimer(45, clock=clock)
    timer.start()
    clock.advance(40)
    assert timer.remaining() == pytest.approx(5)
    assert not timer.expired()


def test_turning_again_restarts_and_reset_puts_it_back():
    clock = FakeClock()
    timer = SandTimer(10, clock=clock)
    timer.start()
    clock.advance(8)
    timer.start()
    assert timer.remaining() == 10
    clock.advance(3)
    timer.reset()
    assert timer.remaining() == 10 and not timer.started and not timer.expired()


def test_a_resumed_timer_keeps_the_sand_already_run():
    """After a power cut the session restarts the timer with the time already elapsed."""
    clock = FakeClock()
    timer = SandTimer(clock=clock)
    timer.start(elapsed=12)
    assert timer.remaining() == pytest.approx(18)
    timer.start(elapsed=45)
    assert timer.expired()


def test_wall_clock_is_not_used():
    """Only the injected clock moves the sand (a monotonic clock by default)."""
    clock = FakeClock()
    timer = SandTimer(clock=clock)
    timer.start()
    assert timer.remaining() == 30


@pytest.mark.parametrize("bad", [0, -1, True, "30"])
def test_a_timer_needs_a_positive_duration(bad):
    with pytest.raises(ValueError):
        SandTimer(bad, clock=FakeClock())
