"""Debounce timing of reader points, with a hand-driven clock.

The issue's rule: "the same UID re-read within a delay is one event, and a
tag is removed only after several consecutive misses".
"""

from __future__ import annotations

from hw.events import TagEvent
from hw.rfid import Debouncer, DebounceSettings, normalise_uid

SETTINGS = DebounceSettings(hold=0.5, misses=3)
UID = "04A1B2C3"


def make(clock):
    return Debouncer("scan", SETTINGS, clock)


def test_first_read_is_one_placed_event(clock):
    d = make(clock)
    assert d.observe(UID) == [TagEvent("scan", UID, True, clock.now)]
    clock.advance(0.1)
    assert d.observe(UID) == []
    assert d.uid == UID


def test_two_misses_are_not_a_removal(clock):
    d = make(clock)
    d.observe(UID)
    for _ in range(2):
        clock.advance(0.4)
        assert d.observe(None) == []
    clock.advance(0.4)
    assert d.observe(UID) == []  # still the same placement


def test_three_consecutive_misses_after_the_hold_remove_the_tag(clock):
    d = make(clock)
    d.observe(UID)
    clock.advance(0.2)
    assert d.observe(None) == []
    clock.advance(0.2)
    assert d.observe(None) == []
    clock.advance(0.2)
    assert d.observe(None) == [TagEvent("scan", UID, False, clock.now)]
    assert d.uid is None


def test_misses_within_the_hold_wait_for_the_hold_to_pass(clock):
    """Three quick misses right after a read: the removal waits until 0.5 s after that read."""
    d = make(clock)
    d.observe(UID)
    for _ in range(3):
        clock.advance(0.05)
        assert d.observe(None) == []
    clock.advance(0.30)  # 0.45 s since the read
    assert d.tick() == []
    clock.advance(0.06)  # 0.51 s
    assert d.tick() == [TagEvent("scan", UID, False, clock.now)]


def test_a_miss_streak_broken_by_a_read_starts_again(clock):
    d = make(clock)
    d.observe(UID)
    for _ in range(2):
        clock.advance(0.3)
        d.observe(None)
    clock.advance(0.3)
    d.observe(UID)
    for _ in range(2):
        clock.advance(0.3)
        assert d.observe(None) == []


def test_lift_and_replace_within_the_hold_is_one_event(clock):
    """A bridge reports the tag gone then back within the hold: players did nothing."""
    d = make(clock)
    d.observe(UID)
    clock.advance(0.1)
    assert d.absent() == []
    clock.advance(0.2)
    assert d.observe(UID) == []
    clock.advance(1.0)
    assert d.tick() == []  # the re-read cancelled the pending removal
    assert d.uid == UID


def test_reported_absence_removes_after_the_hold(clock):
    d = make(clock)
    d.observe(UID)
    clock.advance(0.1)
    assert d.absent() == []
    clock.advance(0.5)
    assert d.tick() == [TagEvent("scan", UID, False, clock.now)]


def test_another_tag_replaces_the_first_at_once(clock):
    d = make(clock)
    d.observe(UID)
    clock.advance(0.1)
    assert d.observe("04FFEE") == [TagEvent("scan", UID, False, clock.now), TagEvent("scan", "04FFEE", True, clock.now)]


def test_uids_are_normalised_to_upper_hex():
    assert normalise_uid("04:a1:b2") == "04A1B2"
    assert normalise_uid(bytes([4, 0xA1, 0xB2])) == "04A1B2"
    assert normalise_uid([4, 161, 178]) == "04A1B2"


# -- properties ------------------------------------------------------------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.hw.conftest import FakeClock  # noqa: E402

polls = st.lists(st.tuples(st.floats(0.0, 0.5), st.sampled_from([None, None, "A1", "B2"])), max_size=60)


@given(polls)
def test_events_alternate_placed_removed_and_follow_the_reads(steps):
    """Whatever the reads, a point never reports two placements or two removals in a row,
    a removal names the tag that was placed, and only UIDs actually read are placed."""
    clock = FakeClock(0.0)
    d = Debouncer("N", DebounceSettings(hold=0.3, misses=2), clock)
    events, read = [], set()
    for dt, uid in steps:
        clock.now += dt
        if uid:
            read.add(uid)
        events += d.observe(uid)
    current = None
    for e in events:
        if e.present:
            assert current is None and e.uid in read
            current = e.uid
        else:
            assert e.uid == current
            current = None
    assert current == d.uid


@given(polls)
def test_a_removal_needs_the_misses_and_the_hold(steps):
    clock = FakeClock(0.0)
    d = Debouncer("N", DebounceSettings(hold=0.3, misses=2), clock)
    last_read, misses = None, 0
    for dt, uid in steps:
        clock.now += dt
        before = d.uid
        out = d.observe(uid)
        if uid is not None:
            last_read, misses = clock.now, 0
        elif before is not None:
            misses += 1
        removed = [e for e in out if not e.present and e.uid == before and uid is None]
        if removed:
            assert misses >= 2 and clock.now - last_read >= 0.3
            misses = 0
