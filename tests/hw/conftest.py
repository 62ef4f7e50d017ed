"""Every hw test runs on gpiozero's MockFactory, reset between tests."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from tests.support.clock import FakeClock  # noqa: F401  (re-exported to the hw tests)


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    yield factory
    factory.reset()
    factory.close()
    Device.pin_factory = previous




@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def wait_until(cond: Callable[[], bool], timeout: float = 2.0) -> bool:
    """Poll ``cond`` (background gpiozero threads: blink, hold) until true or timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.005)
    return cond()


@pytest.fixture
def lgpio_kernel(monkeypatch) -> Iterator[object]:
    """gpiozero's real LGPIOFactory on emulated gpiochips (tests/hw/kernel_gpio.py), on a Pi 4's header."""
    import sys

    from gpiozero.pins.local import LocalPiFactory

    from tests.hw.kernel_gpio import GpioKernel

    kernel = GpioKernel({0: "pinctrl-bcm2711", 1: "raspberrypi-exp-gpio"})
    monkeypatch.setitem(sys.modules, "lgpio", kernel.module())
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    monkeypatch.setattr(LocalPiFactory, "_get_revision", lambda self: 0xC03111)  # Pi 4 Model B
    monkeypatch.setenv("LG_WD", "/tmp")
    previous = Device.pin_factory
    from hw.pins import make_factory

    factory = make_factory("lgpio", 0)
    Device.pin_factory = factory
    kernel.factory = factory  # type: ignore[attr-defined]
    yield kernel
    Device.pin_factory = previous
    factory.close()
    kernel.stop()
    sys.modules.pop("gpiozero.pins.lgpio", None)  # bound to this kernel's lgpio: not for the next test
