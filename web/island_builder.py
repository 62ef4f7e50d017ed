"""The hex island entered by hand: the game's board to build, the cells as the page sends them, the
layout they make, the rules' verdict on it, and what the island page shows.

Shared by the island builder's pages (:mod:`web.island_pages`) and Home's start form (:mod:`web.home`),
which shows the island page again, as entered, when the rules refuse the start.
"""

from __future__ import annotations

import json
from typing import Any

from companion import games
from companion.engine import jsoncheck
from companion.engine.rules import RuleError
from web import pictures
from web.i18n import lang, translator
from web.rendering import game_t
from web.validate import ApiError

#: at most this many cells in an entered board (the dice island has 36)
MAX_CELLS = 64


def builder(game: str, missing_ok: bool = False) -> dict[str, Any] | None:
    """The game's board to enter by hand (``setup_helpers(seed)["build"]``), or a 404."""
    try:
        build = games.package(game).setup_helpers(0).get("build") if game else None
    except RuleError:
        build = None
    if build is None and not missing_ok:
        raise ApiError(404, "This game has no board to enter by hand.")
    return build


def read_cells(raw: str, strict: bool = True) -> list[dict[str, Any]]:
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


def island_context(game: str, cells: list[dict[str, Any]], players: str | None = None,
                   chosen: dict[str, str] | None = None, error: str | None = None) -> dict[str, Any]:
    """The island page: the board, the cells entered (``cells``), the players and readings as typed."""
    pkg = games.package(game)
    build = builder(game)
    assert build is not None
    entered = {tuple(c["hex"]): c for c in cells}
    shown = [{**cell, "colour": entered.get(tuple(cell["hex"]), {}).get("colour"),
              "number": entered.get(tuple(cell["hex"]), {}).get("number")} for cell in build["cells"]]
    specs = [o for o in pkg.option_specs(lang()) if o["name"] != build["option"]]
    return dict(
        game=pkg.id, title=pkg.title(lang()), build=build, cells=shown, gt=game_t(pkg, lang()), pics=pictures,
        cells_json=json.dumps([{"hex": c["hex"], "colour": c["colour"], "number": c["number"]} for c in shown]),
        players=players if players is not None else "\n".join(pkg.example_players),
        specs=specs, chosen=chosen or {}, fx_json=lambda v: json.dumps(v, sort_keys=True),
        start_error=error, check=check(pkg, cells),
    )


def check(pkg: Any, cells: list[dict[str, Any]]) -> dict[str, Any]:
    """The rules' own verdict on the island entered so far: ``ok``, one sentence, how many fields are entered."""
    build = builder(pkg.id)
    assert build is not None
    layout = layout_of(cells)
    try:
        pkg.rules.setup(list(pkg.example_players), {build["option"]: layout})
    except RuleError as err:
        return {"ok": False, "text": err.text(lang(), pkg.id), "entered": len(layout)}
    return {"ok": True, "text": translator(lang())("The island is complete: {count} fields.", count=len(layout)),
            "entered": len(layout)}
