"""Fixtures for the dashboard: a Flask test client over a fresh journal, and helpers."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.table.journal import Journal
from web import create_app
from web.context import Dashboard
from web.hub import Hub
from web.security import Keys, RateLimiter, SeatStore, load_secret

#: the actions that bring a three-player Galèrapagos to its first vote (food runs short in round 2)
TO_THE_VOTE = [
    {"type": "weather", "water": 0, "hurricane": False},
    {"type": "search", "player": "Ann"}, {"type": "search", "player": "Bob"}, {"type": "search", "player": "Cleo"},
    {"type": "weather", "water": 0, "hurricane": False},
    {"type": "search", "player": "Cleo"}, {"type": "search", "player": "Ann"}, {"type": "search", "player": "Bob"},
]

#: Debian's Chromium, driven by Playwright (its own browser download cannot work here)
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def sim_server(tmp_path_factory):
    """One real ``companion run --sim`` for a browser test module (tests/web/runner.py), stopped after it."""
    from tests.web.runner import start_server

    srv = start_server(tmp_path_factory.mktemp("sim") / "journal.db", 0)
    yield srv
    srv.stop()


@dataclass
class Table:
    """The app under test plus what a test needs to drive it."""

    app: Flask
    dashboard: Dashboard
    db: Path

    @property
    def token(self) -> str:
        return self.dashboard.keys.table_token

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def client(self) -> FlaskClient:
        return self.app.test_client()

    def new_game(self, game: str, players: list[str], options: dict[str, Any] | None = None) -> str:
        r = self.client().post("/api/games", json={"game": game, "players": players, "options": options or {}},
                               headers=self.auth())
        assert r.status_code == 201, r.json
        return r.json["id"]

    def act(self, game_id: str, action: dict[str, Any], headers: dict[str, str] | None = None):
        return self.client().post(f"/api/games/{game_id}/actions", json=action, headers=headers or self.auth())

    def join(self, client: FlaskClient, game_id: str, seat: str, consent: bool = True) -> str:
        """``client`` claims ``seat`` with the game's join code; returns the seat token.

        With ``consent`` the table first lets a phone take the seat, as it must once the
        tablet has played it (tests/web/test_joining.py checks the refusal without it).
        """
        code = self.dashboard.keys.join_code(game_id)
        if consent:
            r = self.client().post(f"/api/games/{game_id}/seats/{quote(seat, safe='')}/open", headers=self.auth())
            assert r.status_code == 200, r.json
        r = client.post("/api/join", json={"code": code, "seat": seat})
        assert r.status_code == 201, r.json
        return r.json["token"]

    def csrf(self, credential: str) -> str:
        return self.dashboard.keys.csrf(credential)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    db = tmp_path / "journal.db"
    journal = Journal(db)
    dashboard = Dashboard(
        hub=Hub(journal), keys=Keys(load_secret(tmp_path / "secret")), seats=SeatStore(db),
        joins=RateLimiter(limit=30, window=60), keepalive=0.2,
    )
    app = create_app(dashboard)
    yield Table(app, dashboard, db)
    dashboard.hub.stop()
    dashboard.seats.close()
    journal.close()
