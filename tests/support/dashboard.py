"""A dashboard over a fresh journal, as the tests drive it (the ``table`` fixture of tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from flask import Flask
from flask.testing import FlaskClient
from jinja2.bccache import Bucket, BytecodeCache

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


class CompiledTemplates(BytecodeCache):
    """The dashboard's templates compiled once per test process, not once per app.

    Every ``table`` is a fresh app, whose Jinja environment would parse and compile each template it
    renders again (a few seconds of CPU over the web tests). Jinja's own bytecode cache keeps the
    compiled code per template and checks it against the source's checksum, so an edited template is
    compiled afresh; what is rendered, and the app itself, are unchanged.
    """

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


#: shared by every app a test process makes through :func:`open_table` (and the bit-flip fuzz's starts)
COMPILED_TEMPLATES = CompiledTemplates()


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
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    yield Table(app, dashboard, db)
    dashboard.hub.stop()
    dashboard.seats.close()
    journal.close()
