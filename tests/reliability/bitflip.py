"""A bit-flip fuzz over the journal file: what an SD card's worn cell does to one byte.

:func:`pristine` writes a journal with one game of each kind (and a finished one), folded
into the main file; :func:`targets` names every region worth hitting (the 100-byte header,
the pages of each index, the game rows, the action rows) from SQLite's own ``dbstat``
table and the rows' text; :func:`start_after_flip` flips one bit (or overwrites one byte)
and does what ``companion run`` does at start — :func:`companion.cli.app.build` (the check,
the recovery, the backup), then :meth:`Companion.resume` — and asks every page and API
route of every game for an answer below 500.
"""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.table.journal import Journal
from companion.table.session import Session
from tests.support.dashboard import COMPILED_TEMPLATES

GAMES = [
    ("pocket-galapagos", ["Solo"], [{"type": "population", "species": ("rat", "ant", "finch")[i % 3],
                                     "change": 1 - 2 * (i % 2)} for i in range(12)]),
    ("galerapagos", ["Ann", "Bob", "Cleo"], [{"type": "weather", "water": 1, "hurricane": False},
                                             {"type": "fish", "player": "Ann", "fish": 2},
                                             {"type": "water", "player": "Bob"}]),
    ("galapagos-auction", ["Ann", "Bob"], []),
]


def pristine(db: Path) -> list[str]:
    """A journal of a few games of every kind, checkpointed into the main file; their ids."""
    ids = []
    with Journal(db) as journal:
        for game, players, actions in GAMES:
            session = Session.new(journal, game, players, {})
            for action in actions:
                session.act(action)
            ids.append(session.id)
        finished = Session.new(journal, "pocket-galapagos", ["Done"], {"turns": 1})
        finished.act({"type": "end_turn"})
        ids.append(finished.id)
    conn = sqlite3.connect(str(db))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return ids


@dataclass(frozen=True)
class Region:
    name: str
    start: int
    end: int


def targets(db: Path) -> list[Region]:
    """The header, each table's and index's pages, and the bytes of the game and action rows."""
    conn = sqlite3.connect(str(db))
    try:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("SELECT name, pageno FROM dbstat").fetchall()
        texts = [r[0] for r in conn.execute("SELECT players FROM games")] + \
                [r[0] for r in conn.execute("SELECT options FROM games")]
        actions = [r[0] for r in conn.execute("SELECT action FROM actions")]
    finally:
        conn.close()
    regions = [Region("header", 0, 100)]
    for name, pageno in pages:
        start = (pageno - 1) * page_size + (100 if pageno == 1 else 0)
        kind = "index" if name.startswith(("sqlite_autoindex", "actions_status")) else name
        regions.append(Region(f"{kind}-page", start, pageno * page_size))
    data = db.read_bytes()
    for label, values in (("game-row", texts), ("action-row", actions)):
        for text in set(values):
            raw = text.encode()
            at = data.find(raw)
            while at >= 0:
                regions.append(Region(label, at, at + len(raw)))
                at = data.find(raw, at + 1)
    return regions


def flip(data: bytes, rng: random.Random, region: Region) -> tuple[bytes, str]:
    """``data`` with one bit flipped (or, one time in four, one byte replaced) inside ``region``."""
    at = rng.randrange(region.start, region.end)
    out = bytearray(data)
    if rng.random() < 0.25:
        out[at] = rng.randrange(256)
        how = f"byte {at} := {out[at]:#04x}"
    else:
        bit = rng.randrange(8)
        out[at] ^= 1 << bit
        how = f"bit {bit} of byte {at}"
    return bytes(out), f"{region.name}: {how}"


class _OneApp:
    """``web.create_app`` for the fuzz: the first Flask app is kept and given each new start's dashboard.

    Building the routes costs 0.4 s a start and does not depend on the journal; everything else
    ``companion run`` does at start (the check, the recovery, the backup, the seats, the resume)
    runs for real on every flip. ``full=True`` starts build a new app as well.
    """

    def __init__(self) -> None:
        self.app: Any = None

    def __call__(self, dashboard: Any, **config: Any) -> Any:
        import web

        if self.app is None:
            self.app = _create_app(dashboard, **config)
            self.app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
        self.app.extensions["companion"] = dashboard
        if dashboard.keys.nonces is None:
            dashboard.keys.nonces = dashboard.seats.code_nonce
        assert web.create_app is self
        return self.app


_create_app = None
ONE_APP = _OneApp()
#: every start's notices (what the fuzz found and did), for its summary
NOTICES: list[str] = []


def start_after_flip(db: Path, ids: list[str], routes: bool = True, full: bool = False) -> list[str]:
    """Start the table on ``db`` as ``companion run`` does; the problems found (empty: all well)."""
    global _create_app
    import web
    from companion.board.config import Config
    from companion.cli.app import build

    if _create_app is None:
        _create_app = web.create_app
    problems: list[str] = []
    web.create_app = _create_app if full else ONE_APP
    try:
        companion = build(Config(), db, sim=True, port=0)
    finally:
        web.create_app = _create_app
    try:
        companion.resume()
        NOTICES.extend(companion.notices)
        if not routes:
            return problems
        companion.app.jinja_env.bytecode_cache = COMPILED_TEMPLATES  # speed only: the same templates, compiled once
        client = companion.app.test_client()
        client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {companion.keys.table_token}"
        paths = ["/", "/api/games", "/history.csv", "/history.json"]
        for gid in ids:
            paths += [f"/g/{gid}/table", f"/api/games/{gid}", f"/api/games/{gid}/history", f"/games/{gid}/raw.json"]
        for path in paths:
            status = client.get(path).status_code
            if status >= 500:
                problems.append(f"GET {path} answered {status}")
        for gid in ids:  # a game that opens takes an action, or refuses it in one sentence
            r = client.post(f"/api/games/{gid}/undo", json={})
            if r.status_code >= 500:
                problems.append(f"POST undo of {gid} answered {r.status_code}")
    finally:
        companion.close()
    return problems
