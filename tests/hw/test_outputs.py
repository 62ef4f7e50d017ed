"""Buzzer patterns and status LEDs on mock pins."""

from __future__ import annotations

from hw.outputs import PATTERNS, Beeper, StatusLeds
from tests.hw.conftest import wait_until


def high_pulses(pin) -> int:
    return sum(1 for s in pin.states[1:] if s.state)


def test_error_pattern_drives_the_buzzer_pin_twice(mock_factory):
    beeper = Beeper(18)
    pin = mock_factory.pin(18)
    beeper.play("error")
    assert wait_until(lambda: high_pulses(pin) == PATTERNS["error"].count and not pin.state)
    assert beeper.played == ["error"]
    beeper.close()


def test_timer_pattern_is_longer_than_the_error_pattern():
    assert PATTERNS["timer"].duration > PATTERNS["error"].duration > PATTERNS["ok"].duration


def test_a_beeper_without_a_pin_still_records_what_it_played(mock_factory):
    beeper = Beeper(None)
    beeper.play("timer")
    assert beeper.played == ["timer"]


def test_status_leds_follow_set(mock_factory):
    leds = StatusLeds({"ready": 23, "error": 24})
    leds.set("ready", True)
    assert mock_factory.pin(23).state and not mock_factory.pin(24).state
    assert leds.state() == {"ready": True, "error": False}
    leds.set("ready", False)
    assert not mock_factory.pin(23).state
    leds.close()
