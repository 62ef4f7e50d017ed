"""Shared fixtures: every test runs against simulated devices and a temporary journal."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
