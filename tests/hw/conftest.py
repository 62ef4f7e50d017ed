"""Every hw test runs on gpiozero's MockFactory, reset between tests."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from tests.clock import FakeClock  # noqa: F401  (re-exported to the hw tests)


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
