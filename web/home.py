"""Home: the library of games on the table (start, resume, abandon, delete) and the start form.

A blueprint of its own (``home``); the table's and the phones' pages are :mod:`web.pages`.
"""

from __future__ import annotations

import json
from typing import Any

from flask import (
    Blueprint,
    redirect,
    request,
    url_for,
)

from companion import games
from companion.engine import jsoncheck
from companion.engine.rules import RuleError
from companion.table import extras
from companion.table.library import Library
from companion.table.rows import GameRecord, UnknownGame
from web.access import optional, require
from web.context import dashboard
from web.formatting import bgstats_link, when, when_in
from web.i18n import lang, translator
from web.island_builder import builder, island_context, layout_of, read_cells
from web.rendering import page
from web.validate import ApiError, game_header

bp = Blueprint("home", __name__)


# -- home ------------------------------------------------------------------------
@bp.get("/")
def home():
    who = optional()
    if who is None or not who.is_table:
        return redirect(url_for("join.join"))
    return page("home.html", who, **_home_ctx(_prefill(request.args)))


def _prefill(args: Any) -> dict[str, Any]:
    """The start form as a link fills it (``/?game=GAME&options={"layout_seed": 7}`` from /setup)."""
    game = args.get("game", "")
    known = {pkg.id: pkg for pkg in games.packages()}
    if game not in known:
        return {}
    options = args.get("options", "")
    return {"game": game, "players": "\n".join(known[game].example_players), "options": options[:2000]}


def _home_ctx(form: dict[str, Any], error: str | None = None) -> dict[str, Any]:
    """What Home shows; ``form`` is the start form as typed (a refused Start keeps it), ``error`` why it was refused."""
    library = Library(dashboard().hub.journal)
    listed = games.packages()
    game = form.get("game") or (listed[0].id if listed else "")
    examples = {pkg.id: "\n".join(pkg.example_players) for pkg in listed}
    form = {"game": game, "players": form.get("players", examples.get(game, "")),
            "options": form.get("options") or "{}", "opt": form.get("opt") or {}}
    return dict(
        games=extras.game_names(lang()), fx_json=lambda v: json.dumps(v, sort_keys=True),
        titles={pkg.id: pkg.title(lang()) for pkg in listed},
        library=_listed(library.listed()),
        damaged=library.journal.damaged(),
        stats=library.stats(),
        current=dashboard().hub.current,
        when=when, when_long=lambda ts: when_in(ts, lang()),
        bgstats=bgstats_link,
        examples=examples, form=form, start_error=error,
    )


def _listed(entries: list[tuple[GameRecord, str]]) -> list[tuple[GameRecord, str]]:
    """Every game still being played, and the newest of the others."""
    playing = [e for e in entries if e[1] == "playing"]
    rest = [e for e in entries if e[1] != "playing"][:HOME_LIST]
    return sorted(playing + rest, key=lambda e: (e[1] != "playing", -e[0].created))


@bp.post("/games/<game_id>/abandon")
def abandon(game_id: str):
    """The table stops this game: Home says abandoned, the table no longer resumes it (journal untouched)."""
    require(table=True)
    _library_do(game_id, "abandon")
    return redirect(url_for("home.home"))


@bp.post("/games/<game_id>/play-on")
def play_on(game_id: str):
    """An abandoned game taken up again: it goes back on the table."""
    require(table=True)
    _library_do(game_id, "play_on")
    dashboard().hub.set_current(game_id)
    return redirect(url_for("pages.table", game_id=game_id))


@bp.post("/games/<game_id>/delete")
def delete(game_id: str):
    """Home no longer shows this game; the history exports keep it, marked abandoned if it was unfinished."""
    require(table=True)
    _library_do(game_id, "delete")
    return redirect(url_for("home.home"))


def _library_do(game_id: str, what: str) -> None:
    hub = dashboard().hub
    try:
        getattr(Library(hub.journal), what)(game_id)
    except UnknownGame as err:
        raise ApiError(404, err.text(lang())) from None
    except RuleError as err:  # a refusal (a storage failure is the app's 503)
        raise ApiError(409, err.text(lang())) from None
    if hub.current == game_id:
        hub.set_current(None)  # the table shows no game rather than one it was told to stop


@bp.post("/games")
def start_game():
    """Start a game from Home's form or from the island page; a refusal shows the same form again, as typed."""
    who = require(table=True)
    back = request.form.get("back", "")
    players_text = request.form.get("players", "")
    game = request.form.get("game", "")
    chosen = {k[4:]: v for k, v in request.form.items() if k.startswith("opt:")}
    try:
        options = _start_options(game, chosen)
        players = [p.strip() for p in players_text.replace(",", "\n").splitlines() if p.strip()]
        game, names, options = game_header({"game": game, "players": players, "options": options})
        try:
            options = games.package(game).default_options(options)  # e.g. a random island when none is given
            session = dashboard().hub.new(game, names, options)
        except RuleError as err:  # a refusal (a storage failure is the app's 503)
            raise ApiError(400, err.text(lang(), game)) from None
    except ApiError as err:
        if err.status != 400:
            raise
        if back == "island" and builder(game, missing_ok=True):
            ctx = island_context(game, read_cells(request.form.get("cells", "[]"), strict=False), players_text,
                                 chosen, err.message)
            return page("island.html", who, **ctx), 400
        form = {"game": game, "players": players_text, "options": request.form.get("options") or "{}", "opt": chosen}
        return page("home.html", who, **_home_ctx(form, err.message)), 400
    dashboard().hub.set_current(session.id)
    return redirect(url_for("pages.table", game_id=session.id))


def _start_options(game: str, chosen: dict[str, str]) -> dict[str, Any]:
    """The options of a start form: the JSON box, the readings chosen (the box wins where it names one),
    and the island entered by hand (``cells``), each checked as every entry point checks JSON."""
    try:  # the one check of every entry point: finite numbers, bounded depth, valid Unicode
        options = jsoncheck.loads(request.form.get("options") or "{}", "the options")
    except RuleError as err:
        raise ApiError(400, err.text(lang())) from None
    if not isinstance(options, dict):
        return options  # game_header says what is wrong
    try:
        known = {o["name"] for o in games.package(game).option_specs()}
    except RuleError:
        known = set()  # an unknown game: game_header or the hub says so
    for key, raw in chosen.items():
        if key in known and key not in options:  # another game's readings left in the form are not this one's
            try:
                options[key] = jsoncheck.loads(raw, "the options")
            except RuleError:
                raise ApiError(400, f"The option {key!r} is not valid.") from None
    _within_bounds(game, options)
    build = builder(game, missing_ok=True)
    if build and "cells" in request.form:
        options[build["option"]] = layout_of(read_cells(request.form["cells"]))
    return options


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


#: how many games Home lists besides the unfinished ones (the exports hold them all)
HOME_LIST = 50
