"""Server-rendered pages: home, table view, seat (phone) view, joining, set-up helpers, exports."""

from __future__ import annotations

import csv
import io
import json
import random
from datetime import datetime
from typing import Any
from urllib.parse import quote, urlsplit

from flask import (
    Blueprint,
    Response,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)

from companion import extras, games, jsoncheck
from companion.journal import GameRecord, JournalUnavailable
from companion.rules import RuleError
from web import views
from web.access import csrf_for, optional, require
from web.api import find_seat, open_game, set_seat_cookie
from web.context import dashboard
from web.i18n import LANGS, lang, translator
from web.security import Principal
from web.validate import ApiError, game_header

bp = Blueprint("pages", __name__)


def page(template: str, who: Principal | None, **ctx: Any) -> str:
    language = ctx.pop("lang", None) or lang()
    ctx.setdefault("t", translator(language))
    notices = dashboard().extra.get("notices", []) if who is not None and who.is_table else []
    return render_template(template, who=who, csrf=csrf_for(who), lang=language, langs=LANGS,
                           has_sim=dashboard().sim is not None, journal_notices=notices, **ctx)


@bp.record_once
def _game_templates(state: Any) -> None:
    """Each game package's page fragments, loaded under its id (``galapagos/picture.html``)."""
    from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader

    app = state.app
    prefixes = {pkg.id: FileSystemLoader(pkg.templates()) for pkg in games.packages() if pkg.templates()}
    app.jinja_loader = ChoiceLoader([app.jinja_loader, PrefixLoader(prefixes)])


# -- home ------------------------------------------------------------------------
@bp.get("/")
def home():
    who = optional()
    if who is None or not who.is_table:
        return redirect(url_for("pages.join"))
    journal = dashboard().hub.journal
    finished = journal.games(finished=True)
    return page(
        "home.html", who,
        games=extras.game_names(lang()), fx_json=lambda v: json.dumps(v, sort_keys=True),
        titles={pkg.id: pkg.title(lang()) for pkg in games.packages()},
        unfinished=journal.games(finished=False),
        finished=finished[:50],
        stats=extras.player_stats(finished),
        current=dashboard().hub.current,
        when=_when,
        bgstats=bgstats_link,
        examples={pkg.id: "\n".join(pkg.example_players) for pkg in games.packages()},
    )


def _when(ts: float | None) -> str:
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M") if ts else ""


@bp.post("/games")
def start_game():
    who = require(table=True)
    players = [p.strip() for p in request.form.get("players", "").replace(",", "\n").splitlines() if p.strip()]
    try:  # the one check of every entry point: finite numbers, bounded depth, valid Unicode
        options = jsoncheck.loads(request.form.get("options") or "{}", "the options")
    except RuleError as err:
        raise ApiError(400, err.text(lang())) from None
    if isinstance(options, dict):  # the readings chosen in the form; the JSON box wins where it names one
        for key, raw in request.form.items():
            if key.startswith("opt:") and key[4:] not in options:
                try:
                    options[key[4:]] = json.loads(raw)
                except json.JSONDecodeError:
                    raise ApiError(400, f"The option {key[4:]!r} is not valid.") from None
    game, names, options = game_header({"game": request.form.get("game", ""), "players": players, "options": options})
    options = games.package(game).default_options(options)  # e.g. a random island when none is given
    try:
        session = dashboard().hub.new(game, names, options)
    except JournalUnavailable:
        raise  # 503: the card is full or read-only
    except RuleError as err:
        raise ApiError(400, err.text(lang())) from None
    dashboard().hub.set_current(session.id)
    del who
    return redirect(url_for("pages.table", game_id=session.id))


# -- table and seats ------------------------------------------------------------
@bp.get("/g/<game_id>")
@bp.get("/g/<game_id>/table")
def table(game_id: str):
    who = require(game_id)
    session = open_game(game_id)
    ctx = views.context(session, who, "table", lang())
    base = dashboard().base_url or request.host_url.rstrip("/")
    join_url = f"{base}/join?code={ctx['join_code']}" if ctx.get("join_code") else None
    return page("table.html", who, join_url=join_url, role="table" if who.is_table else "seat", **ctx)


@bp.get("/g/<game_id>/seat/<path:seat>")  # a name may hold "/"
def seat(game_id: str, seat: str):
    who = require(game_id)
    session = open_game(game_id)
    if seat not in session.players:
        raise ApiError(404, f"There is no seat {seat!r} in this game.")
    if not who.is_table and who.seat != seat:
        raise ApiError(403, f"This phone holds {who.seat}'s seat, not {seat}'s.")
    ctx = views.context(session, who, "seat", lang(), seat=seat)
    return page("seat.html", who, role="table" if who.is_table else "seat", **ctx)


@bp.get("/g/<game_id>/qr.svg")
def qr(game_id: str):
    require(table=True)
    open_game(game_id)
    import qrcode
    import qrcode.image.svg

    base = dashboard().base_url or request.host_url.rstrip("/")
    img = qrcode.make(f"{base}/join?code={dashboard().keys.join_code(game_id)}",
                      image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    buf = io.BytesIO()
    img.save(buf)
    return Response(buf.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


# -- joining ----------------------------------------------------------------------
@bp.get("/join")
def join():
    code = request.args.get("code", "").strip()
    ctx: dict[str, Any] = {"code": code, "game": None, "seats": [], "error": None}
    if code:
        d = dashboard()
        wait = d.joins.allow(request.remote_addr or "?")
        try:
            if wait:
                raise ApiError(429, f"Too many tries; wait {int(wait) + 1} seconds.")
            game_id = _game_for(code)
            session = open_game(game_id)
            taken = set(d.seats.claimed(game_id))
            holder = optional(game_id)
            d.joins.forgive(request.remote_addr or "?")
            ctx.update(game=session, seats=[(p, p in taken) for p in session.players],
                       title=games.package(session.game).title(lang()),
                       mine=holder.seat if holder and not holder.is_table else None)
        except ApiError as err:
            ctx["error"] = err.message
    return page("join.html", optional(), **ctx)


def _game_for(code: str) -> str:
    d = dashboard()
    for rec in d.hub.journal.games(finished=False):
        if d.keys.join_code(rec.id) == code:
            return rec.id
    raise ApiError(403, "That code does not open any game at this table.")


@bp.post("/join")
def join_post():
    d = dashboard()
    origin = request.headers.get("Origin")
    if origin and origin != "null" and urlsplit(origin).netloc != request.host:
        raise ApiError(403, "Requests from another site are refused.")
    wait = d.joins.allow(request.remote_addr or "?")
    if wait:
        raise ApiError(429, f"Too many tries; wait {int(wait) + 1} seconds.")
    game_id, seat_name = find_seat(request.form.get("code", ""), request.form.get("seat"))
    d.joins.forgive(request.remote_addr or "?")
    token = d.seats.claim(game_id, seat_name)
    if token is None:
        raise ApiError(409, f"{seat_name}'s seat is already taken on another phone; the table can free it.")
    d.hub.broadcast(game_id)
    response = redirect(url_for("pages.seat", game_id=game_id, seat=seat_name))
    set_seat_cookie(response, game_id, token)
    return response


@bp.get("/lang/<code>")
def set_lang(code: str):
    response = redirect(same_origin_path(request.args.get("next", "/")))
    if code in LANGS:
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="Lax")
    return response


def same_origin_path(target: str) -> str:
    """``target`` if it is a path on this site, else ``/``: never an open redirect.

    Browsers drop tabs and newlines from a URL and read ``\\`` as ``/``, so
    ``/\\t/evil.example/`` would become ``//evil.example/``: any control character or
    backslash, and anything with a scheme or a host, gives ``/``. The rest is encoded
    (a seat's name may hold a space or ``#``).
    """
    if not target.startswith("/") or target.startswith("//"):
        return "/"
    if any(ord(c) < 32 or ord(c) == 127 or c == "\\" for c in target):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return quote(target, safe="/?=&%:@!$'()*+,;~")


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


# -- history exports ----------------------------------------------------------------------
def _rows(records: list[GameRecord]) -> list[dict[str, Any]]:
    rows = []
    for rec in records:
        result = rec.result or {}
        for seat, name in enumerate(rec.players):
            rows.append({
                "game_id": rec.id, "game": rec.game, "created": _when(rec.created), "finished": _when(rec.finished),
                "seat": seat + 1, "player": name, "score": (result.get("scores") or {}).get(name, ""),
                "winner": name in (result.get("winners") or []), "reason": result.get("reason", ""),
            })
    return rows


@bp.get("/history.csv")
def export_csv():
    require(table=True)
    rows = _rows(dashboard().hub.journal.games(finished=True))
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=["game_id", "game", "created", "finished", "seat", "player",
                                             "score", "winner", "reason"])
    writer.writeheader()
    writer.writerows({k: csv_cell(v) for k, v in row.items()} for row in rows)
    return Response(buf.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": "attachment; filename=galapagos-history.csv"})


def csv_cell(value: Any) -> Any:
    """A text cell a spreadsheet cannot take for a formula: a leading ``= + - @`` (or tab, CR) is quoted."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


@bp.get("/history.json")
def export_json():
    require(table=True)
    records = [r.to_json() for r in dashboard().hub.journal.games()]
    response = make_response(jsonify({"games": records}))
    response.headers["Content-Disposition"] = "attachment; filename=galapagos-history.json"
    return response


def bgstats_link(rec: GameRecord) -> str:
    """A BG Stats "createPlay" link for a finished game (https://app.bgstatsapp.com/createPlay.html)."""
    result = rec.result or {}
    scores = result.get("scores") or {}
    winners = set(result.get("winners") or [])
    ranked = sorted(rec.players, key=lambda n: -(scores.get(n) or 0))
    players = [{"name": n, "score": scores.get(n, 0), "winner": n in winners, "startPlayer": i == 0,
                "rank": ranked.index(n) + 1, "sourcePlayerId": n} for i, n in enumerate(rec.players)]
    # no BoardGameGeek id: BG Stats matches the game by name and remembers the match
    game: dict[str, Any] = {"name": _title(rec.game), "highestWins": True,
                            "noPoints": False, "sourceGameId": rec.game}
    data = {
        "sourceName": "Galapagos Table Companion", "game": game, "players": players,
        "playDate": _when(rec.created) + ":00",
        "durationMin": max(1, round(((rec.finished or rec.created) - rec.created) / 60)),
        "comments": result.get("text") or "",
    }
    return "https://app.bgstatsapp.com/createPlay.html?data=" + quote(json.dumps(data, separators=(",", ":")))


def _title(game: str) -> str:
    """A game's name for exports (the id itself when the game is no longer installed)."""
    try:
        return games.package(game).title("en")
    except RuleError:
        return game


def _game_t(pkg: Any, language: str) -> Any:
    """A game's translator for its fragments (``gt(msgid, **params)``)."""
    return lambda msgid, **params: pkg.t(msgid, language, **params)
