"""Exports of the history: CSV, a game's raw journal, JSON, and a BG Stats link.

A blueprint of its own (``exports``): the finished games as a player takes them elsewhere.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any
from urllib.parse import quote

from flask import (
    Blueprint,
    Response,
    jsonify,
    make_response,
)

from companion import games
from companion.engine import jsoncheck
from companion.engine.rules import RuleError
from companion.table.library import Library
from companion.table.rows import GameRecord, UnknownGame
from web.access import require
from web.context import dashboard
from web.pages import _when
from web.validate import ApiError

bp = Blueprint("exports", __name__)


# -- history exports ----------------------------------------------------------------------
def _rows(history: list[tuple[GameRecord, str, bool]]) -> list[dict[str, Any]]:
    """One row per seat of every finished or abandoned game (those deleted from Home included);
    an abandoned game has no score and the reason ``abandoned``."""
    rows = []
    for rec, state, _deleted in history:
        result = rec.result or {}
        reason = "abandoned" if state == "abandoned" else result.get("reason", "")
        for seat, name in enumerate(rec.players):
            rows.append({
                "game_id": rec.id, "game": rec.game, "created": _when(rec.created), "finished": _when(rec.finished),
                "seat": seat + 1, "player": name, "score": (result.get("scores") or {}).get(name, ""),
                "winner": name in (result.get("winners") or []), "reason": reason,
            })
    return rows


@bp.get("/history.csv")
def export_csv():
    require(table=True)
    rows = _rows(Library(dashboard().hub.journal).history())
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=["game_id", "game", "created", "finished", "seat", "player",
                                             "score", "winner", "reason"], quoting=csv.QUOTE_ALL)
    writer.writeheader()
    writer.writerows({k: csv_cell(v) for k, v in row.items()} for row in rows)
    return Response(buf.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": "attachment; filename=galapagos-history.csv"})


def csv_cell(value: Any) -> Any:
    """A text cell a spreadsheet cannot take for a formula: wherever a ``= + - @`` (or tab, CR) starts
    the cell or follows a separator (``,``, ``;``, tab: a French spreadsheet splits on ``;``), a ``'``
    is put before it. Every cell is quoted as well (the writer's ``QUOTE_ALL``)."""
    if isinstance(value, str):
        return _FORMULA.sub(lambda m: f"{m.group(1)}{m.group(2)}'{m.group(3)}", value)
    return value


@bp.get("/games/<game_id>/raw.json")
def export_raw(game_id: str):
    """One game's rows exactly as stored (a damaged game's evidence, to keep or to send with a bug report)."""
    require(table=True)
    try:
        rows = dashboard().hub.journal.raw_rows(game_id)
    except UnknownGame:
        raise ApiError(404, "There is no game {game}.", params={"game": repr(jsoncheck.clean(game_id))}) from None
    response = make_response(jsonify(rows))
    response.headers["Content-Disposition"] = f"attachment; filename=galapagos-{quote(game_id, safe='')}-rows.json"
    return response


@bp.get("/history.json")
def export_json():
    require(table=True)
    library = Library(dashboard().hub.journal)
    marks = library.marks()
    records = [{**r.to_json(), "state": library.state(r, marks.get(r.id)),
                "deleted": r.id in marks and marks[r.id].deleted is not None} for r in library.journal.games()]
    from companion.table import history

    players = history.figures(library, now=library.journal._clock())["players"]  # the history page's figures
    response = make_response(jsonify({"games": records, "players": players}))
    response.headers["Content-Disposition"] = "attachment; filename=galapagos-history.json"
    return response


def bgstats_link(rec: GameRecord) -> str:
    """A BG Stats "createPlay" link for a finished game (:mod:`companion.table.bgstats`)."""
    from companion.table import bgstats

    return bgstats.link(rec, _title(rec.game))


def _title(game: str) -> str:
    """A game's name for exports (the id itself when the game is no longer installed)."""
    try:
        return games.package(game).title("en")
    except RuleError:
        return game


#: a cell, or a part of it after a separator a spreadsheet may split on, that starts a formula
_FORMULA = re.compile(r"(^|[,;\t\r\n])(\s*)([=+\-@\t\r])")
