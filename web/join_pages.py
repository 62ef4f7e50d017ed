"""Joining from a phone: the code page, a seat's claim, requests the table answers, and closing joins.

A blueprint of its own (``join``); what a join *is* (codes, requests, the rate limit) is :mod:`web.joining`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    jsonify,
    make_response,
    redirect,
    request,
    url_for,
)

from companion import games
from web import joining
from web.access import optional, require, set_seat_cookie
from web.context import dashboard
from web.game_lookup import open_game
from web.i18n import lang, translator
from web.rendering import page
from web.validate import ApiError, parse_body

bp = Blueprint("join", __name__)


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
            joining.answered_openly(request.remote_addr)  # the page lists the seats: the code was right, openly
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
    game_id, seat_name = joining.find_seat(request.form.get("code", ""), request.form.get("seat"))
    token = d.seats.claim(game_id, seat_name)
    if token is None:
        raise ApiError(409, f"{seat_name}'s seat is already taken on another phone; the table can free it.")
    joining.answered_openly(request.remote_addr)
    d.hub.broadcast(game_id)
    response = redirect(url_for("pages.seat", game_id=game_id, seat=joining.seat_param(seat_name)))
    set_seat_cookie(response, game_id, token)
    return response


@bp.app_errorhandler(joining.JoinPending)
def join_pending(err: joining.JoinPending):
    """The join waits for the tablet's tap: 202 with the request's handle, or the page that waits."""
    if request.path.startswith("/api/"):
        return jsonify({"pending": err.request, "message": translator(lang())(err.message)}), 202
    return redirect(url_for("join.join", request=err.request))


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
    return jsonify({"requests": [{"id": p.id, "seat": p.seat, "count": p.count} for p in joining.requests().prompts(game_id)],
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
