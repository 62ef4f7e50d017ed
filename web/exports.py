"""Exports of the history: CSV, a game's raw journal, JSON, and a BG Stats link.

A blueprint of its own (``exports``): the finished games as a player takes them elsewhere.
"""

from __future__ import annotations

import csv
import io
import json
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
from companion.table import history
from companion.table.library import Library
from companion.table.rows import GameDamaged, GameRecord, UnknownGame, json_or_none
from web.access import require
from web.context import dashboard
from web.formatting import csv_cell, when
from web.validate import ApiError

bp = Blueprint("exports", __name__)


# -- history exports ----------------------------------------------------------------------
def _rows(played: list[tuple[GameRecord, str, bool]]) -> list[dict[str, Any]]:
    """One row per seat of every finished or abandoned game (those deleted from Home included);
    an abandoned game has no score and the reason ``abandoned``."""
    rows = []
    for rec, state, _deleted in played:
        result = rec.result or {}
        reason = "abandoned" if state == "abandoned" else result.get("reason", "")
        for seat, name in enumerate(rec.players):
            rows.append({
                "game_id": rec.id, "game": rec.game, "created": when(rec.created), "finished": when(rec.finished),
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


@bp.get("/games/<game_id>/raw.json")
def export_raw(game_id: str):
    """One game's rows as stored, for a game set aside as damaged only (its evidence, to keep or to send with a
    bug report), every field its package keeps secret hidden as the story hides it. A sound game plays, lists
    and exports through its story: its raw rows are refused in one sentence."""
    require(table=True)
    journal = dashboard().hub.journal
    try:
        journal.game(game_id)
    except UnknownGame:
        raise ApiError(404, "There is no game {game}.", params={"game": repr(jsoncheck.clean(game_id))}) from None
    except GameDamaged:
        pass
    else:
        raise ApiError(404, "Game {game} is not damaged: only a damaged game's rows are exported as stored.",
                       params={"game": repr(jsoncheck.clean(game_id))})
    rows = journal.raw_rows(game_id)
    response = make_response(jsonify(redact_raw(rows)))
    response.headers["Content-Disposition"] = f"attachment; filename=galapagos-{quote(game_id, safe='')}-rows.json"
    return response


def redact_raw(rows: dict[str, Any]) -> dict[str, Any]:
    """A damaged game's raw rows with every secret hidden as the story hides it (the table's view).

    The game's package says what is secret (``secret_fields``); when the game's own name cannot be
    read, every installed package's secrets count. A flipped bit may have changed any byte, so what
    cannot be shown to be public is hidden: an action of a secret type keeps ``type`` and its
    vocabulary's public fields, the rest is ``hidden``; an action whose type the package does not know
    keeps ``type`` and the fields no secret type names; a cell that is not a JSON object keeps its
    punctuation, numbers, the package's field and action names and its undecodable bytes (``\\xNN``),
    every other word shown as ``…``.
    """
    try:
        packages = [games.package(rows["game"].get("game"))]
    except RuleError:
        packages = games.packages()
    secret_types = {kind: set(fields) for pkg in packages for kind, fields in pkg.secret_fields.items()}
    if not secret_types:
        return rows
    secret_names = set().union(*secret_types.values())
    vocabulary = {kind: set(fields) for pkg in packages for kind, fields in pkg.rules.actions.items()}
    public_names = set().union(*vocabulary.values()) - secret_names
    words = public_names | set(vocabulary) | {"type", "true", "false", "null"}
    actions = []
    for row in rows["actions"]:
        action = json_or_none(row.get("action"))
        if isinstance(action, dict):
            kind = action.get("type")
            if not isinstance(kind, str) or kind not in vocabulary:
                shown_names = public_names
            elif kind in secret_types:
                shown_names = vocabulary[kind] - secret_types[kind]
            else:
                shown_names = None
            shown: Any = row.get("action") if shown_names is None else json.dumps(
                {k: (v if k == "type" or k in shown_names else "hidden") for k, v in action.items()}, ensure_ascii=False)
        else:
            shown = _WORD.sub(lambda m: m.group(0) if m.group(0) in words or m.group(0).startswith("\\x") else "…",
                              str(row.get("action")))
        actions.append({**row, "action": shown})
    return {**rows, "actions": actions}


#: in an unreadable cell: an undecodable byte as the journal shows it, or a word (what may be a name)
_WORD = re.compile(r"\\x[0-9a-fA-F]{2}|[^\\\s\d{}\[\]:,\"'.+\-]+")


@bp.get("/history.json")
def export_json():
    require(table=True)
    library = Library(dashboard().hub.journal)
    marks = library.marks()
    records = [{**r.to_json(), "state": library.state(r, marks.get(r.id)),
                "deleted": r.id in marks and marks[r.id].deleted is not None} for r in library.journal.games()]
    players = history.figures(library, now=library.journal.now())["players"]  # the history page's figures
    response = make_response(jsonify({"games": records, "players": players}))
    response.headers["Content-Disposition"] = "attachment; filename=galapagos-history.json"
    return response
