"""The course of a game (its charts and their tables) and the players' history across games.

Thin on purpose: the figures come from the game package (:mod:`companion.engine.course`), the drawings
from :mod:`companion.engine.charts` (through :mod:`web.course_charts`), the history from
:mod:`companion.table.history`; this module only finds the game, checks who may look, and hands the
templates what they show.

- ``GET /g/<id>/course`` — the course of a game, one tap from the table and from every phone
  (the table's and the phones' pages carry the link); the results screen shows the same charts.
- ``GET /history`` — per player: games, wins, scores, streaks, head-to-head, scores over time;
  ``?game=`` and ``?period=`` filter it (the table; a joined phone sees the players of its table).
- ``GET /history/players.csv`` / ``.json`` — the same figures to download.
- ``GET /games/<id>/bgstats.json`` — one finished game in BG Stats' import file format.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from flask import Blueprint, Response, make_response, request
from markupsafe import Markup

from companion import games
from companion.engine import charts, texts
from companion.engine import course as shape
from companion.table import bgstats, history
from companion.table.library import Library
from web import access
from web.access import require
from web.context import dashboard
from web.course_charts import drawn
from web.formatting import csv_cell, export_title
from web.game_lookup import open_game
from web.i18n import lang
from web.rendering import page
from web.validate import ApiError

bp = Blueprint("course", __name__)


@bp.get("/g/<game_id>/course")
def course_page(game_id: str):
    who = require(game_id)
    session = open_game(game_id)
    language = lang()
    back = f"/g/{session.id}" if who.is_table or not who.seat else f"/g/{session.id}/seat/{who.seat}"
    return page("course.html", who, session=session, title=games.package(session.game).title(language),
                course=drawn(session, language), back=back, pub=session.public(who.viewer()))


# -- a player's history across games -----------------------------------------------------------
def _filters() -> tuple[str | None, str]:
    game = request.args.get("game") or None
    known = {pkg.id for pkg in games.packages()}
    period = request.args.get("period", "all")
    return (game if game in known else None), (period if period in history.PERIODS else "all")


def _figures() -> tuple[dict[str, Any], str | None, str]:
    game, period = _filters()
    library = Library(dashboard().hub.journal)
    return history.figures(library, game=game, period=period, now=dashboard().hub.journal.now()), game, period


def history_reader() -> tuple[Any, list[str] | None]:
    """Who reads the players' history: the table (every player: None), or a joined phone (the players of
    its table: its game's seats). A phone that opened its seat carries only its game's pass (a cookie
    named after that game), so each such pass is tried; none at all is 401, as before."""
    principal = access.identify(None)  # a token in the header or the link, or the table's cookie
    if principal is not None:
        if principal.is_table:
            return principal, None
        return principal, list(dashboard().hub.journal.game(principal.game_id).players)
    for name in request.cookies:
        if name.startswith("seat-"):
            found = access.optional(name[len("seat-"):])
            if found is not None and not found.is_table and found.game_id:
                return found, list(dashboard().hub.journal.game(found.game_id).players)
    raise ApiError(401, "This needs the table's token or a seat's pass: join with the code on the table's screen.")


@bp.get("/history")
def history_page():
    who, among = history_reader()
    figures, game, period = _figures()
    if among is not None:  # a phone: the players of its table, and nothing to export
        figures = history.among(figures, among)
    language = lang()
    chart = None
    if figures["timeline"]["x"] and game is not None:  # scores of different games do not compare: one game's
        line = history.timeline_course(figures, language)
        chart = {**line["charts"][0], "svg": Markup(charts.svg(line, line["charts"][0], ident="history-scores"))}
        shape.complete(line, language)
        chart["table"] = line["charts"][0]["table"]
    titles = {pkg.id: pkg.title(language) for pkg in games.packages()}
    return page("history.html", who, figures=figures, game=game, period=period, titles=titles, chart=chart,
                periods=history.PERIODS, tn=texts.ntranslator(language),  # « 1 game », « 2 games »
                exports=among is None)


@bp.get("/history/players.json")
def history_json():
    require(table=True)
    figures, _, _ = _figures()
    response = make_response(json.dumps(figures, ensure_ascii=False, indent=1))
    response.headers["Content-Type"] = "application/json"
    response.headers["Content-Disposition"] = "attachment; filename=galapagos-players.json"
    return response


@bp.get("/history/players.csv")
def history_csv():
    require(table=True)
    figures, _, _ = _figures()
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=history.CSV_FIELDS, quoting=csv.QUOTE_ALL)
    writer.writeheader()
    writer.writerows({k: csv_cell(v) for k, v in row.items()} for row in history.rows(figures))
    return Response(buf.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": "attachment; filename=galapagos-players.csv"})


# -- BG Stats: a file of plays beside the link -----------------------------------------------------
def _bgsplay(records: list[Any], filename: str) -> Response:
    body = json.dumps(bgstats.play_file(records, export_title), ensure_ascii=False, indent=1)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f"attachment; filename={filename}"})


@bp.get("/games/<game_id>/bgstats.bgsplay")
def bgstats_game(game_id: str):
    """One finished game as a BG Stats play file (the link on Home hands over the same play)."""
    require(table=True)
    open_game(game_id)
    rec = dashboard().hub.journal.game(game_id)
    if rec.finished is None:
        raise ApiError(409, "This game is not over yet; BG Stats takes finished games.")
    return _bgsplay([rec], f"galapagos-{game_id}.bgsplay")


@bp.get("/history/bgstats.bgsplay")
def bgstats_history():
    """The finished games of the history (its filters applied) as one BG Stats play file."""
    require(table=True)
    game, period = _filters()
    library = Library(dashboard().hub.journal)
    recs = [rec for rec, state in history.records(library, game=game, period=period, now=library.journal.now())
            if state == "over"]
    return _bgsplay(recs, "galapagos-plays.bgsplay")
