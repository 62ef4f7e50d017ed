"""Shared fixtures: every test runs against simulated devices and a temporary journal."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.dashboard import Table, open_table

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh journal database for one test."""
    return tmp_path / "journal.db"


@pytest.fixture(autouse=True)
def _isolated_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may touch the user's real journal."""
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "default.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    os.environ.pop("COMPANION_CONFIG", None)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The browser tests first, each file's tests still together and in order.

    They are the long ones (a server and Chromium each): begun first, the two workers of
    ``make test`` share them, and the short tests fill in at the end instead of one worker
    finishing a walkthrough alone while the other waits.
    """
    items.sort(key=lambda item: 0 if item.get_closest_marker("browser") else 1)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """The dashboard's test client over a fresh journal (web, games and amend tests share it)."""
    yield from open_table(tmp_path)
