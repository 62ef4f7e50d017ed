"""Fixtures of the club tests: a real Mosquitto on a free loopback port, plain or with TLS and passwords."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.club.broker import Broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """An anonymous broker (mqtt://127.0.0.1:PORT), stopped after the test."""
    b = Broker(tmp_path / "broker").start()
    yield b
    b.stop()


@pytest.fixture
def tls_broker(tmp_path: Path) -> Iterator[Broker]:
    """A TLS broker (mqtts://) with one user, t1 / right-horse, and its CA in ``certs['ca']``."""
    b = Broker(tmp_path / "tls-broker", users={"t1": "right-horse"}, tls=True).start()
    yield b
    b.stop()
