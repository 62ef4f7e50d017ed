"""The buttons' leading-edge debounce.

A press acts on its first edge (no 20 ms wait for the level to settle, as lgpio's own
debounce does); the contact chatter that follows, and the chatter as the contacts open,
is dropped. Driven on gpiozero's MockFactory pins, edges as a real switch makes them.
"""

from __future__ import annotations

import time

from hw.events import ButtonEvent
from hw.inputs import Panel
from tests.hw.conftest import mock_factory  # noqa: F401  (fixture)


def chatter(pin, edges: int) -> None:  # type: ignore[no-untyped-def]
    """A switch closing: low, then ``edges`` bounces back up and down within a millisecond or so."""
    pin.drive_low()
    for _ in range(edges):
        pin.drive_high()
        pin.drive_low()


def test_the_first_edge_acts_at_once_and_its_bounces_are_dropped(mock_factory) -> None:  # noqa: F811
    events: list[object] = []
    panel = Panel({"ok": 16}, None, events.append, bounce_time=0.02)
    pin = mock_factory.pin(16)
    try:
        pin.drive_low()  # MockFactory delivers the edge on this thread: the press is out when it returns
        assert events == [ButtonEvent("ok", "press")]  # the leading edge acted, before any window passed
        for _ in range(4):
            pin.drive_high()
            pin.drive_low()
        assert events == [ButtonEvent("ok", "press")]
        assert panel.bounces == 4
        time.sleep(0.05)
        for _ in range(3):  # the contacts opening chatter too: no press comes of it
            pin.drive_high()
            pin.drive_low()
        pin.drive_high()
        assert events == [ButtonEvent("ok", "press")]
        time.sleep(0.05)
        chatter(pin, 2)  # the next real press
        assert events == [ButtonEvent("ok", "press")] * 2
    finally:
        panel.close()


def test_without_a_window_every_edge_is_a_press(mock_factory) -> None:  # noqa: F811
    events: list[object] = []
    panel = Panel({"ok": 16}, None, events.append, bounce_time=None)
    try:
        chatter(mock_factory.pin(16), 2)
        assert events == [ButtonEvent("ok", "press")] * 3
    finally:
        panel.close()
