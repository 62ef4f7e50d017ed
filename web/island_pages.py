"""Setting up a board before the game: the set-up helpers and the hex-island builder's pages.

A blueprint of its own (``island``); the island's parser, layout and check are :mod:`web.island_builder`,
and what a layout must satisfy is the game package's (``island_check``).
"""

from __future__ import annotations

import json
import random
from typing import Any

from flask import (
    Blueprint,
    jsonify,
    request,
)

from companion import games
from web.access import require
from web.context import dashboard
from web.i18n import lang
from web.island_builder import builder, check, island_context, read_cells
from web.rendering import game_t, page
from web.validate import parse_body

bp = Blueprint("island", __name__)


# -- set-up helpers -------------------------------------------------------------------
@bp.get("/setup")
def setup():
    who = require(table=True)
    seed_text = request.args.get("seed", "")
    seed = int(seed_text) if seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 9 else random.SystemRandom().randrange(1, 1_000_000)
    tags = dashboard().tags
    return page(
        "setup.html", who,
        helpers=[(pkg.id, pkg.setup_helpers(seed), game_t(pkg, lang())) for pkg in games.packages()], tags=tags,
        tag_kinds=tags.kinds() if tags else {}, enrolled=tags.enrolled() if tags else [],
        last_uid=tags.last_scanned() if tags else None,
    )


@bp.get("/setup/<game>/island")
def island(game: str):
    """Enter the island built by hand: tap a hex, then its colour and its number (``?seed=N``: start from
    the island /setup drew with that seed, to correct it)."""
    who = require(table=True)
    build = builder(game)
    assert build is not None
    seed_text = request.args.get("seed", "")
    cells: list[dict[str, Any]] = []
    if seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 9:
        seeded = games.package(game).setup_helpers(int(seed_text))["build"]["cells"]
        cells = [{"hex": c["hex"], **c["seeded"]} for c in seeded]
    return page("island.html", who, **island_context(game, cells))


@bp.post("/setup/<game>/island/check")
def island_check(game: str):
    """The rules' verdict on the island as entered so far (the page asks after every tap)."""
    require(table=True)
    build = builder(game)
    assert build is not None
    body = parse_body(request.get_data(cache=False), ISLAND_LIMIT)  # the shared check: depth, size, numbers
    raw = json.dumps(body.get("cells") if isinstance(body, dict) else None)
    return jsonify(check(games.package(game), read_cells(raw)))


# -- the board as built (the dice island entered hex by hex) ------------------------------
#: the largest island check body (36 cells fit in 3 KB; anything up to the server's limit gets the JSON check's sentence)
ISLAND_LIMIT = 64 * 1024

