"""Buttons and the rotary encoder on mock pins: what a press or a turn emits."""

from __future__ import annotations

import threading
import time

from hw.events import ButtonEvent, EncoderEvent
from hw.inputs import Panel
from tests.hw.conftest import wait_until

BUTTONS = {"seat1": 5, "seat2": 6, "ok": 16, "back": 20, "up": 21, "down": 12}


def turn(factory, a: int, b: int, clockwise: bool) -> None:
    """One detent of a quadrature encoder (pins pulled up, contacts close to ground)."""
    pa, pb = factory.pin(a), factory.pin(b)
    first, second = (pa, pb) if clockwise else (pb, pa)
    first.drive_low()
    second.drive_low()
    first.drive_high()
    second.drive_high()


def test_a_press_emits_the_buttons_name_once(mock_factory):
    events = []
    panel = Panel(BUTTONS, None, events.append, bounce_time=None)
    mock_factory.pin(16).drive_low()
    mock_factory.pin(16).drive_high()
    mock_factory.pin(6).drive_low()
    assert events == [ButtonEvent("ok"), ButtonEvent("seat2")]
    panel.close()


def test_releasing_a_button_emits_nothing(mock_factory):
    events = []
    panel = Panel(BUTTONS, None, events.append, bounce_time=None)
    mock_factory.pin(20).drive_low()
    events.clear()
    mock_factory.pin(20).drive_high()
    assert events == []
    panel.close()


def test_holding_a_button_emits_a_hold_after_the_hold_time(mock_factory):
    events = []
    panel = Panel(BUTTONS, None, events.append, bounce_time=None, hold_time=0.05)
    mock_factory.pin(20).drive_low()
    assert wait_until(lambda: ButtonEvent("back", "hold") in events)
    assert events[0] == ButtonEvent("back", "press")
    mock_factory.pin(20).drive_high()
    panel.close()


def test_encoder_detents_give_signed_deltas(mock_factory):
    events = []
    panel = Panel({}, (17, 27), events.append)
    turn(mock_factory, 17, 27, clockwise=True)
    turn(mock_factory, 17, 27, clockwise=True)
    turn(mock_factory, 17, 27, clockwise=False)
    assert events == [EncoderEvent(1), EncoderEvent(1), EncoderEvent(-1)]
    panel.close()


def test_a_half_turn_that_goes_back_is_no_step(mock_factory):
    """A jiggle (one contact closes and opens again) must not move the amount."""
    events = []
    panel = Panel({}, (17, 27), events.append)
    pb = mock_factory.pin(27)
    pb.drive_low()
    pb.drive_high()
    assert events == []
    panel.close()


def _hold_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "button-holds" or "Hold" in type(t).__name__]


def test_a_hold_fires_once_after_the_hold_time_from_one_thread_shared_by_every_button(mock_factory):
    """gpiozero's Button kept a thread per button awake every 0.1 s; the panel times every hold
    with one thread, and only while a button is down."""
    events = []
    panel = Panel(BUTTONS, None, events.append, bounce_time=None, hold_time=0.5)
    try:
        assert _hold_threads() == []  # at rest: nothing timing holds
        mock_factory.pin(20).drive_low()
        mock_factory.pin(16).drive_low()
        assert len(_hold_threads()) == 1  # two buttons down, one timer
        assert events == [ButtonEvent("back"), ButtonEvent("ok")]  # not held long enough yet
        assert wait_until(lambda: len(events) == 4)
        assert sorted(e.name for e in events[2:]) == ["back", "ok"] and {e.kind for e in events[2:]} == {"hold"}
        time.sleep(0.7)  # still down, past another hold time: no repeat
        assert len(events) == 4
        assert wait_until(lambda: _hold_threads() == [])  # nothing left to time: the thread ended
        mock_factory.pin(20).drive_high()
        mock_factory.pin(16).drive_high()
    finally:
        panel.close()


def test_a_press_released_before_the_hold_time_is_no_hold(mock_factory):
    events = []
    panel = Panel(BUTTONS, None, events.append, bounce_time=None, hold_time=1.0)
    try:
        mock_factory.pin(20).drive_low()
        mock_factory.pin(20).drive_high()
        time.sleep(1.2)
        assert events == [ButtonEvent("back")]
        mock_factory.pin(20).drive_low()  # pressed again: timed from this press
        assert wait_until(lambda: events[-1] == ButtonEvent("back", "hold"))
        assert events == [ButtonEvent("back"), ButtonEvent("back"), ButtonEvent("back", "hold")]
    finally:
        panel.close()


def test_closing_with_a_button_down_ends_the_hold_timer_and_sends_nothing_more(mock_factory):
    events = []
    panel = Panel(BUTTONS, None, events.append, bounce_time=None, hold_time=0.3)
    mock_factory.pin(20).drive_low()
    panel.close()
    assert _hold_threads() == []  # close waited for it
    time.sleep(0.5)
    assert events == [ButtonEvent("back")]
