"""The buzzer and the status LEDs (gpiozero ``Buzzer`` and ``LED``).

Beeps are named patterns so the controller says *what* happened ("error",
"timer") and the rhythm lives here, in one table a builder can tune.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gpiozero import LED, Buzzer


@dataclass(frozen=True)
class Pattern:
    """``count`` beeps of ``on`` seconds separated by ``off`` seconds."""

    on: float
    off: float
    count: int

    @property
    def duration(self) -> float:
        return self.count * self.on + (self.count - 1) * self.off


PATTERNS: dict[str, Pattern] = {
    "ok": Pattern(0.04, 0.0, 1),  # an action was accepted
    "error": Pattern(0.12, 0.08, 2),  # an action was refused
    "warn": Pattern(0.08, 0.0, 1),  # the sand timer is about to run out
    "timer": Pattern(0.35, 0.15, 3),  # the sand timer ran out
    "tag": Pattern(0.02, 0.0, 1),  # a tag was read
}


class Beeper:
    """An active buzzer on one pin, playing :data:`PATTERNS` in the background.

    ``played`` keeps the names played, newest last, for the dashboard's panel
    and for tests; ``pin`` None gives a silent beeper (no buzzer fitted).
    """

    def __init__(self, pin: int | None, *, active_high: bool = True) -> None:
        self.buzzer = Buzzer(pin, active_high=active_high) if pin is not None else None
        self.played: list[str] = []

    def play(self, name: str) -> None:
        pattern = PATTERNS[name]
        self.played.append(name)
        if self.buzzer is not None:
            self.buzzer.beep(pattern.on, pattern.off or pattern.on, pattern.count, background=True)

    def close(self) -> None:
        if self.buzzer is not None:
            self.buzzer.close()


class StatusLeds:
    """Named LEDs (``ready``, ``error``, ``link``...) on their pins."""

    def __init__(self, pins: Mapping[str, int]) -> None:
        self.leds = {name: LED(pin) for name, pin in pins.items()}

    def add(self, name: str, pin: int) -> None:
        """One more LED (a pin that was busy at start and is free now)."""
        self.leds[name] = LED(pin)

    def set(self, name: str, on: bool) -> None:
        led = self.leds.get(name)
        if led is not None:
            led.value = on

    def flash(self, name: str, seconds: float = 0.5) -> None:
        led = self.leds.get(name)
        if led is not None:
            led.blink(on_time=seconds, off_time=0.0, n=1, background=True)

    def state(self) -> dict[str, bool]:
        return {name: bool(led.value) for name, led in self.leds.items()}

    def close(self) -> None:
        for led in self.leds.values():
            led.close()
