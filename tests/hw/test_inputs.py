"""Buttons and the rotary encoder on mock pins: what a press or a turn emits."""

from __future__ import annotations

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
