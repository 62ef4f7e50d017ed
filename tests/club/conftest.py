"""Fixtures of the club tests: a real Mosquitto on a free loopback port, plain or with TLS and passwords."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.club.broker import Broker, make_certs


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """An anonymous broker (mqtt://127.0.0.1:PORT), stopped after the test."""
    b = Broker(tmp_path / "broker").start()
    yield b
    b.stop()


@pytest.fixture(scope="session")
def club_certs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A CA and a server certificate for 127.0.0.1, made once per session (two RSA keys cost a second)."""
    return make_certs(tmp_path_factory.mktemp("club-certs"))


@pytest.fixture
def tls_broker(tmp_path: Path, club_certs: dict[str, Path]) -> Iterator[Broker]:
    """A TLS broker (mqtts://) of its own with one user, t1 / right-horse, and its CA in ``certs['ca']``."""
    b = Broker(tmp_path / "tls-broker", users={"t1": "right-horse"}, tls=True, certs=club_certs).start()
    yield b
    b.stop()
