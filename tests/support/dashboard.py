"""A dashboard over a fresh journal, as the tests drive it (the ``table`` fixture of tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

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


def open_table(tmp_path: Path) -> Iterator[Table]:
    """A :class:`Table` over ``tmp_path``; closed when the generator is closed."""
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
