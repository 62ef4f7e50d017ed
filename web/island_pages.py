"""Setting up a board before the game: the set-up helpers and the hex-island builder, with its parser and check.

A blueprint of its own (``island``); what a layout must satisfy is the game package's (``island_check``).
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
from companion.engine import jsoncheck
from companion.engine.rules import RuleError
from web import pictures
from web.access import require
from web.context import dashboard
from web.i18n import lang, translator
from web.pages import _game_t, page
from web.validate import ApiError, parse_body

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
        helpers=[(pkg.id, pkg.setup_helpers(seed), _game_t(pkg, lang())) for pkg in games.packages()], tags=tags,
        tag_kinds=tags.kinds() if tags else {}, enrolled=tags.enrolled() if tags else [],
        last_uid=tags.last_scanned() if tags else None,
    )


def _within_bounds(game: str, options: dict[str, Any]) -> None:
    """A reading with a range in the game's option specs (the sand timer's seconds) is a number in it,
    whether chosen in the form or typed in the JSON box: one sentence otherwise."""
    try:
        specs = games.package(game).option_specs(lang())
    except RuleError:
        return
    for spec in specs:
        if "min" not in spec or spec["name"] not in options:
            continue
        value = options[spec["name"]]
        if isinstance(value, bool) or not isinstance(value, int | float) or not spec["min"] <= value <= spec["max"]:
            raise ApiError(400, translator(lang())("{option}: a number from {min} to {max}, not {value}.",
                                                   option=spec["label"], min=spec["min"], max=spec["max"],
                                                   value=json.dumps(value)[:40]))


def _builder(game: str, missing_ok: bool = False) -> dict[str, Any] | None:
    """The game's board to enter by hand (``setup_helpers(seed)["build"]``), or a 404."""
    try:
        build = games.package(game).setup_helpers(0).get("build") if game else None
    except RuleError:
        build = None
    if build is None and not missing_ok:
        raise ApiError(404, "This game has no board to enter by hand.")
    return build


def _cells(raw: str, strict: bool = True) -> list[dict[str, Any]]:
    """The hexes as the page sends them: ``[{"hex": [q, r], "colour", "number"}]``; a cell may still lack
    its colour or number (``None``). Anything else is one sentence (or, not ``strict``, nothing)."""
    try:
        cells = jsoncheck.loads(raw or "[]", "the island")
        ok = isinstance(cells, list) and len(cells) <= MAX_CELLS and all(
            isinstance(c, dict) and set(c) <= {"hex", "colour", "number"}
            and isinstance(c.get("hex"), list) and len(c["hex"]) == 2 and all(type(v) is int for v in c["hex"])
            and (c.get("colour") is None or isinstance(c["colour"], str))
            and (c.get("number") is None or type(c["number"]) is int) for c in cells)
    except RuleError:
        ok = False
    if not ok:
        if strict:
            raise ApiError(400, "The island could not be read; reload the page.")
        return []
    return [{"hex": c["hex"], "colour": c.get("colour"), "number": c.get("number")} for c in cells]


def layout_of(cells: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The ``layout`` option of the cells entered so far (number -> ``{"colour", "hex"}``).

    A cell still without its colour or its number is left out. A number given on two hexes is
    kept twice (``"12"`` and ``" 12"``), so that the rules' own check says so (« Field 12 appears
    twice ») rather than the page silently keeping one of them.
    """
    layout: dict[str, dict[str, Any]] = {}
    for cell in cells:
        if cell["colour"] is None or cell["number"] is None:
            continue
        key = str(cell["number"])
        while key in layout:
            key = " " + key
        layout[key] = {"colour": cell["colour"], "hex": list(cell["hex"])}
    return layout


def _island_ctx(game: str, cells: list[dict[str, Any]], players: str | None = None,
                chosen: dict[str, str] | None = None, error: str | None = None) -> dict[str, Any]:
    """The island page: the board, the cells entered (``cells``), the players and readings as typed."""
    pkg = games.package(game)
    build = _builder(game)
    assert build is not None
    entered = {tuple(c["hex"]): c for c in cells}
    shown = [{**cell, "colour": entered.get(tuple(cell["hex"]), {}).get("colour"),
              "number": entered.get(tuple(cell["hex"]), {}).get("number")} for cell in build["cells"]]
    specs = [o for o in pkg.option_specs(lang()) if o["name"] != build["option"]]
    return dict(
        game=pkg.id, title=pkg.title(lang()), build=build, cells=shown, gt=_game_t(pkg, lang()), pics=pictures,
        cells_json=json.dumps([{"hex": c["hex"], "colour": c["colour"], "number": c["number"]} for c in shown]),
        players=players if players is not None else "\n".join(pkg.example_players),
        specs=specs, chosen=chosen or {}, fx_json=lambda v: json.dumps(v, sort_keys=True),
        start_error=error, check=_check(pkg, cells),
    )


def _check(pkg: Any, cells: list[dict[str, Any]]) -> dict[str, Any]:
    """The rules' own verdict on the island entered so far: ``ok``, one sentence, how many fields are entered."""
    build = _builder(pkg.id)
    assert build is not None
    layout = layout_of(cells)
    try:
        pkg.rules.setup(list(pkg.example_players), {build["option"]: layout})
    except RuleError as err:
        return {"ok": False, "text": err.text(lang(), pkg.id), "entered": len(layout)}
    return {"ok": True, "text": translator(lang())("The island is complete: {count} fields.", count=len(layout)),
            "entered": len(layout)}


@bp.get("/setup/<game>/island")
def island(game: str):
    """Enter the island built by hand: tap a hex, then its colour and its number (``?seed=N``: start from
    the island /setup drew with that seed, to correct it)."""
    who = require(table=True)
    build = _builder(game)
    assert build is not None
    seed_text = request.args.get("seed", "")
    cells: list[dict[str, Any]] = []
    if seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 9:
        seeded = games.package(game).setup_helpers(int(seed_text))["build"]["cells"]
        cells = [{"hex": c["hex"], **c["seeded"]} for c in seeded]
    return page("island.html", who, **_island_ctx(game, cells))


@bp.post("/setup/<game>/island/check")
def island_check(game: str):
    """The rules' verdict on the island as entered so far (the page asks after every tap)."""
    require(table=True)
    build = _builder(game)
    assert build is not None
    body = parse_body(request.get_data(cache=False), ISLAND_LIMIT)  # the shared check: depth, size, numbers
    raw = json.dumps(body.get("cells") if isinstance(body, dict) else None)
    return jsonify(_check(games.package(game), _cells(raw)))


# -- the board as built (the dice island entered hex by hex) ------------------------------
#: the largest island check body (36 cells fit in 3 KB; anything up to the server's limit gets the JSON check's sentence)
ISLAND_LIMIT = 64 * 1024


#: at most this many cells in an entered board (the dice island has 36)
MAX_CELLS = 64
