"""Buttons on gpiozero's real lgpio pin factory, over an lgpio that behaves as lg 0.2 does.

lgpio delivers every edge from one notification thread that an exception kills for good, it
filters nothing when gpiozero hands it ``bounce_time=None``, and a line held by another process
refuses every claim with « GPIO busy ». gpiozero's ``MockFactory`` does none of these (edges
on the caller's thread, no glitches, no other process), so these run on tests/hw/kernel_gpio.py.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from gpiozero import Button
from packaging.requirements import Requirement

from hw.events import ButtonEvent
from hw.inputs import Panel
from tests.hw.conftest import wait_until

ROOT = Path(__file__).resolve().parents[2]


def test_a_microsecond_glitch_is_no_press_and_a_press_is_one(lgpio_kernel) -> None:
    events: list[object] = []
    panel = Panel({"seat1": 16, "seat2": 20}, None, events.append)
    try:
        lgpio_kernel.glitch(16)  # the buzzer's transistor switching, a spike on a long wire
        assert lgpio_kernel.wait_idle()
        assert events == [] and panel.glitches == 1
        lgpio_kernel.press(16)
        assert wait_until(lambda: events == [ButtonEvent("seat1")])
        lgpio_kernel.release(16)
        lgpio_kernel.press(20)  # a press on another seat right after the glitch is not taken for bounce
        assert wait_until(lambda: events == [ButtonEvent("seat1"), ButtonEvent("seat2")])
    finally:
        panel.close()


def test_a_press_right_after_a_glitch_on_the_same_button_counts(lgpio_kernel) -> None:
    events: list[object] = []
    panel = Panel({"seat1": 16}, None, events.append)
    try:
        lgpio_kernel.glitch(16)
        lgpio_kernel.press(16)  # within the 20 ms bounce window of the glitch's rising edge
        assert wait_until(lambda: events == [ButtonEvent("seat1")])
    finally:
        panel.close()


def test_an_exception_in_a_callback_ends_lgpios_thread_but_never_a_panels(lgpio_kernel) -> None:
    """The double does what lgpio does (a raising callback stops every later edge); the panel's
    callbacks never let the listener's exception out, so its buttons keep working."""
    calls: list[int] = []

    def listener(event: object) -> None:
        calls.append(1)
        raise RuntimeError("a game bug")

    panel = Panel({"seat1": 16}, None, listener)
    try:
        for _ in range(3):
            lgpio_kernel.press(16)
            assert lgpio_kernel.wait_idle()
            lgpio_kernel.release(16)
            assert lgpio_kernel.wait_idle()
            panel._accepted.clear()
            panel._released_at.clear()
        assert len(calls) == 3 and panel.errors == 3 and lgpio_kernel.thread.is_alive()
    finally:
        panel.close()
    raw = Button(21, bounce_time=None)
    raw.when_pressed = lambda: 1 / 0
    lgpio_kernel.press(21)
    assert wait_until(lambda: not lgpio_kernel.thread.is_alive())  # lgpio's thread is gone for good
    raw.close()


def test_a_pin_another_process_holds_is_named_with_its_holder_and_claimed_when_free(lgpio_kernel) -> None:
    lgpio_kernel.busy[(0, 16)] = "pigpiod"
    events: list[object] = []
    panel = Panel({"seat1": 16, "seat2": 20}, None, events.append)
    try:
        pins, message = panel.missing["seat1"]
        assert pins == (16,) and "GPIO16 (button seat1) is busy, held by « pigpiod »" in message
        lgpio_kernel.press(20)
        assert wait_until(lambda: events == [ButtonEvent("seat2")])  # the others work
        del lgpio_kernel.busy[(0, 16)]
        assert panel.retry() and not panel.missing
        lgpio_kernel.press(16)
        assert wait_until(lambda: ButtonEvent("seat1") in events)
    finally:
        panel.close()


def test_the_lgpio_factory_opens_the_chip_it_is_given(lgpio_kernel) -> None:
    """gpiozero 2.0 and 2.0.1 ignore ``chip=`` (a Pi 5 on a 6.6.45+ kernel has its header on
    gpiochip0, not 4); the release the project requires honours it."""
    from gpiozero.pins.lgpio import LGPIOFactory

    factory = LGPIOFactory(chip=1)
    try:
        assert lgpio_kernel.opened_chips[-1] == 1 and factory.chip == 1
    finally:
        factory.close()


@pytest.mark.parametrize("release", ["2.0", "2.0.1"])
def test_pyproject_refuses_the_gpiozero_releases_that_ignore_chip(release: str) -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (gpiozero,) = [Requirement(d) for d in deps if Requirement(d).name == "gpiozero"]
    assert not gpiozero.specifier.contains(release)
    assert gpiozero.specifier.contains("2.0.1.post3")


def test_a_spike_still_low_when_handled_is_dropped_once_it_ends(lgpio_kernel, monkeypatch) -> None:
    """A longer disturbance may still hold the line low when the callback reads it: the line is
    read again once the edge is ``glitch_time`` old. Here the spike ends just after that first
    read, whatever the machine's load."""
    import sys

    lgpio = sys.modules["lgpio"]
    read = lgpio.gpio_read
    spike = {"on": False}

    def gpio_read(handle, gpio):
        level = read(handle, gpio)
        if spike["on"] and gpio == 16:
            spike["on"] = False
            lgpio_kernel.release(16)  # the spike ends right after the callback's first look
        return level

    monkeypatch.setattr(lgpio, "gpio_read", gpio_read)
    events: list[object] = []
    panel = Panel({"seat1": 16}, None, events.append, glitch_time=0.3)
    try:
        spike["on"] = True
        lgpio_kernel.press(16)
        assert lgpio_kernel.wait_idle(5.0)
        assert events == [] and panel.glitches == 1
        lgpio_kernel.press(16)  # a finger: held well past the confirmation
        assert wait_until(lambda: events == [ButtonEvent("seat1")], 5.0)
    finally:
        panel.close()
