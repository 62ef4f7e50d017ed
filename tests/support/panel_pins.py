"""The panel's buttons and encoder driven through gpiozero's mock pins, as a finger and a knob drive them."""

from __future__ import annotations

from typing import Any

from companion.board.config import Config

#: seat1..seat5, ok, back, up, down on the default sim config
PINS = Config().buttons()


def press(factory: Any, name: str) -> None:
    """A short press of button ``name``: its line low, then high again."""
    pin = factory.pin(PINS[name])
    pin.drive_low()
    pin.drive_high()


def turn(factory: Any, detents: int) -> None:
    """``detents`` clicks of the encoder (negative: anticlockwise), its two pins in quadrature."""
    a, b = (factory.pin(p) for p in Config().encoder)
    first, second = (a, b) if detents > 0 else (b, a)
    for _ in range(abs(detents)):
        first.drive_low()
        second.drive_low()
        first.drive_high()
        second.drive_high()
