"""Server-rendered pages: home, table view, seat (phone) view, joining, set-up helpers, exports."""

from __future__ import annotations

import csv
import io
import json
import random
import re
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

from companion import games
from companion.engine import jsoncheck
from companion.engine.rules import RuleError
from companion.table import extras
from companion.table.journal import GameRecord, JournalUnavailable, UnknownGame
from companion.table.library import Library
from web import joining, pictures, views
from web.access import csrf_for, optional, require
from web.api import find_seat, open_game, set_seat_cookie
from web.context import dashboard
from web.i18n import LANGS, lang, translator
from web.security import Principal
from web.validate import ApiError, game_header, parse_body

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
        when=_when, when_long=lambda ts: when_in(ts, lang()),
        bgstats=bgstats_link,
        examples=examples, form=form, start_error=error,
    )


def _when(ts: float | None) -> str:
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M") if ts else ""


#: the months as message ids: a date on Home reads « 1 December 2026, 20:15 », « 1 décembre 2026, 20:15 »
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
#: how many games Home lists besides the unfinished ones (the exports hold them all)
HOME_LIST = 50


def when_in(ts: float | None, language: str) -> str:
    """A date and time as the reader says it (day, month's name, year, 24-hour time)."""
    if not ts:
        return ""
    at = datetime.fromtimestamp(ts)
    month = translator(language)(MONTHS[at.month - 1])
    if language == "fr":
        month = month.lower()
    return f"{at.day} {month} {at.year}, {at:%H:%M}"


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
    return redirect(url_for("pages.home"))


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
    return redirect(url_for("pages.home"))


def _library_do(game_id: str, what: str) -> None:
    hub = dashboard().hub
    try:
        getattr(Library(hub.journal), what)(game_id)
    except RuleError as err:
        if isinstance(err, JournalUnavailable):
            raise  # 503: the card is full or read-only
        raise ApiError(404 if isinstance(err, UnknownGame) else 409, err.text(lang())) from None
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
        except RuleError as err:
            if isinstance(err, JournalUnavailable):
                raise  # 503: the card is full or read-only
            raise ApiError(400, err.text(lang(), game)) from None
    except ApiError as err:
        if err.status != 400:
            raise
        if back == "island" and _builder(game, missing_ok=True):
            ctx = _island_ctx(game, _cells(request.form.get("cells", "[]"), strict=False), players_text, chosen,
                              err.message)
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
    build = _builder(game, missing_ok=True)
    if build and "cells" in request.form:
        options[build["option"]] = layout_of(_cells(request.form["cells"]))
    return options


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
    ctx: dict[str, Any] = {"code": code, "game": None, "seats": [], "error": None, "ask": False, "waiting": None}
    d = dashboard()
    request_id = request.args.get("request")
    if request_id:  # a phone waiting for the tablet's tap
        try:
            claimed = joining.claim_request(request_id)
        except ApiError as err:
            ctx["error"] = err.message
        else:
            if claimed is not None:
                game_id, seat_name, token = claimed
                response = redirect(url_for("pages.seat", game_id=game_id, seat=joining.seat_param(seat_name)))
                set_seat_cookie(response, game_id, token)
                return response
            ctx["waiting"] = request_id
        return page("join.html", optional(), **ctx)
    if code:
        try:
            game_id = joining.game_for_code(code, request.remote_addr)
            session = open_game(game_id)
            taken = set(d.seats.claimed(game_id))
            holder = optional(game_id)
            ctx.update(game=session, seats=[(p, _why_taken(session, p, taken)) for p in session.players],
                       title=games.package(session.game).title(lang()),
                       mine=holder.seat if holder and not holder.is_table else None,
                       code=joining.normalise_code(code))
        except joining.JoinPending:
            ctx["ask"] = True  # name the seat: the tablet is asked (the same page for a right and a wrong code)
        except ApiError as err:
            ctx["error"] = err.message
    return page("join.html", optional(), **ctx)


def _why_taken(session: Any, seat: str, claimed: set[str]) -> str | None:
    """Why a phone cannot take ``seat`` now (shown beside it on the join page), or None."""
    if seat in claimed:
        return "taken"
    return "played on the tablet" if joining.kept_by_tablet(session, seat) else None


@bp.post("/join")
def join_post():
    d = dashboard()
    origin = request.headers.get("Origin")
    if origin and origin != "null" and urlsplit(origin).netloc != request.host:
        raise ApiError(403, "Requests from another site are refused.")
    game_id, seat_name = find_seat(request.form.get("code", ""), request.form.get("seat"))
    token = d.seats.claim(game_id, seat_name)
    if token is None:
        raise ApiError(409, f"{seat_name}'s seat is already taken on another phone; the table can free it.")
    d.hub.broadcast(game_id)
    response = redirect(url_for("pages.seat", game_id=game_id, seat=joining.seat_param(seat_name)))
    set_seat_cookie(response, game_id, token)
    return response


@bp.app_errorhandler(joining.JoinPending)
def join_pending(err: joining.JoinPending):
    """The join waits for the tablet's tap: 202 with the request's handle, or the page that waits."""
    if request.path.startswith("/api/"):
        return jsonify({"pending": err.request, "message": translator(lang())(err.message)}), 202
    return redirect(url_for("pages.join", request=err.request))


@bp.post("/api/join/requests/<request_id>")
def join_request_status(request_id: str):
    """A phone asks whether the tablet let it in: 201 with its seat token, 202 while it waits."""
    claimed = joining.claim_request(request_id)
    if claimed is None:
        return jsonify({"pending": request_id, "message": translator(lang())(joining.ASK_THE_TABLE)}), 202
    game_id, seat_name, token = claimed
    response = make_response(jsonify({"game": game_id, "seat": seat_name, "token": token}), 201)
    set_seat_cookie(response, game_id, token)
    return response


@bp.get("/api/games/<game_id>/join-requests")
def join_requests(game_id: str):
    require(table=True)
    open_game(game_id)
    return jsonify({"requests": [{"id": r.id, "seat": r.seat} for r in joining.requests().pending(game_id)],
                    "joining_closed": dashboard().seats.joining_closed(game_id)})


@bp.post("/games/<game_id>/join-requests/<request_id>")
@bp.post("/api/games/<game_id>/join-requests/<request_id>")
def answer_join_request(game_id: str, request_id: str):
    """The tablet's tap: « Someone wants to join as Cleo — allow? » (``allow`` 1/0, or JSON true/false)."""
    require(table=True)
    allow = _flag("allow")
    req = joining.answer_request(game_id, request_id, allow)
    if request.path.startswith("/api/"):
        return jsonify({"seat": req.seat, "allowed": allow})
    return redirect(url_for("pages.table", game_id=game_id))


@bp.post("/games/<game_id>/joining")
@bp.post("/api/games/<game_id>/joining")
def set_joining(game_id: str):
    """The tablet closes joining (the code opens nothing) or opens it again with a new code."""
    require(table=True)
    session = open_game(game_id)
    d = dashboard()
    if _flag("open"):
        d.seats.new_code(game_id)
    else:
        d.seats.close_joining(game_id)
    if d.hub.current == game_id:
        d.hub.set_current(game_id)  # the OLED's code and QR follow
    d.hub.broadcast(session.id)
    if request.path.startswith("/api/"):
        closed = d.seats.joining_closed(game_id)
        return jsonify({"joining_closed": closed, "join_code": None if closed else d.keys.join_code(game_id)})
    return redirect(url_for("pages.table", game_id=game_id))


def _flag(name: str) -> bool:
    """A yes/no of a form (``1``/``0``) or of a JSON body (true/false); 400 otherwise."""
    if request.mimetype == "application/json":
        data = parse_body(request.get_data(cache=False), 1024)  # the shared check of every JSON body
        value = data.get(name) if isinstance(data, dict) else None
    else:
        value = {"1": True, "0": False}.get(request.form.get(name, ""))
    if not isinstance(value, bool):
        raise ApiError(400, f"Say {name} with 1 or 0 (true or false).")
    return value


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


# -- the board as built (the dice island entered hex by hex) ------------------------------
#: the largest island check body (36 cells fit in 3 KB; anything up to the server's limit gets the JSON check's sentence)
ISLAND_LIMIT = 64 * 1024
#: at most this many cells in an entered board (the dice island has 36)
MAX_CELLS = 64


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


#: a cell, or a part of it after a separator a spreadsheet may split on, that starts a formula
_FORMULA = re.compile(r"(^|[,;\t\r\n])(\s*)([=+\-@\t\r])")


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
        raise ApiError(404, f"There is no game {jsoncheck.clean(game_id)!r}.") from None
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


def _game_t(pkg: Any, language: str) -> Any:
    """A game's translator for its fragments (``gt(msgid, **params)``)."""
    return lambda msgid, **params: pkg.t(msgid, language, **params)
