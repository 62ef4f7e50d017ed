"""Server-rendered pages: the table view, a seat's (phone) view, its QR code, the language.

The other pages are blueprints of their own: Home (:mod:`web.home`), joining (:mod:`web.join_pages`),
set-up and the island builder (:mod:`web.island_pages`), the exports (:mod:`web.exports`); each renders
through :func:`web.rendering.page`, and none imports another.
"""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import quote, urlsplit

import qrcode
import qrcode.image.svg
from flask import (
    Blueprint,
    Response,
    redirect,
    request,
)
from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader

from companion import games
from web import views
from web.access import require
from web.context import dashboard
from web.game_lookup import open_game
from web.i18n import LANGS, lang
from web.rendering import page
from web.validate import ApiError

bp = Blueprint("pages", __name__)


@bp.record_once
def _game_templates(state: Any) -> None:
    """Each game package's page fragments, loaded under its id (``galapagos/picture.html``)."""
    app = state.app
    prefixes = {pkg.id: FileSystemLoader(pkg.templates()) for pkg in games.packages() if pkg.templates()}
    app.jinja_loader = ChoiceLoader([app.jinja_loader, PrefixLoader(prefixes)])


# -- table and seats ------------------------------------------------------------
@bp.get("/g/<game_id>")
@bp.get("/g/<game_id>/table")
def table(game_id: str):
    who = require(game_id)
    session = open_game(game_id)
    ctx = views.context(session, who, "table", lang())
    base = dashboard().base_url or request.host_url.rstrip("/")
    join_url = f"{base}/join?code={ctx['join_code']}" if ctx.get("join_code") else None
    wifi = dashboard().wifi() if who.is_table and join_url else None  # the hotspot's name: the table's page only
    return page("table.html", who, join_url=join_url, role="table" if who.is_table else "seat",
                wifi_ssid=(wifi or {}).get("ssid"), **ctx)


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
    base = dashboard().base_url or request.host_url.rstrip("/")
    img = qrcode.make(f"{base}/join?code={dashboard().keys.join_code(game_id)}",
                      image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    buf = io.BytesIO()
    img.save(buf)
    return Response(buf.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@bp.get("/wifi.svg")
def wifi_qr():
    """The table's hotspot as a Wi-Fi QR code (its password inside): the table only, while on its hotspot."""
    require(table=True)
    wifi = dashboard().wifi()
    if not wifi:
        raise ApiError(404, "The table is not on its own hotspot.")
    img = qrcode.make(wifi["qr"], image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    buf = io.BytesIO()
    img.save(buf)
    return Response(buf.getvalue(), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


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
