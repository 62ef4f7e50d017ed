"""The phone dashboard: a Flask app over the session API (see docs/api.md).

``create_app(dashboard)`` is the factory; ``companion/cli/app.py`` builds the
:class:`web.context.Dashboard` (journal, hub, tokens, simulated devices) and
serves the app with waitress. Pages are server-rendered templates with a
little plain JavaScript (``static/live.js``): no build step.
"""

from __future__ import annotations

import sqlite3
from typing import Any
from urllib.parse import quote, urlencode

from flask import Flask, redirect, render_template, request
from werkzeug.exceptions import HTTPException

from companion.engine.jsoncheck import clean
from companion.table.rows import StorageError, UnknownGame
from hw.errors import DeviceError
from web import (
    api,
    course_view,
    drafts,
    exports,
    home,
    island_pages,
    join_pages,
    joining,
    pages,
    simpanel,
)
from web.access import set_seat_cookie, set_table_cookie
from web.context import Dashboard
from web.i18n import LANGS, lang, translator
from web.validate import MAX_BODY, ApiError

CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
       "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")


def create_app(dashboard: Dashboard, **config: Any) -> Flask:
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY, JSON_SORT_KEYS=False, DEBUG=False, PROPAGATE_EXCEPTIONS=False)
    app.config.update(config)
    app.extensions["companion"] = dashboard
    if dashboard.keys.nonces is None:  # a join code can be renewed (on request, or after too many guesses)
        dashboard.keys.nonces = dashboard.seats.code_nonce

    app.register_blueprint(api.bp)
    app.register_blueprint(drafts.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(home.bp)
    app.register_blueprint(join_pages.bp)
    app.register_blueprint(island_pages.bp)
    app.register_blueprint(exports.bp)
    app.register_blueprint(simpanel.bp)
    app.register_blueprint(course_view.bp)
    # seats in URLs: « .. » is written ~2 (browsers eat dot segments), read back on every route
    app.url_value_preprocessor(joining.resolve_seat_values)
    quote_filter = app.jinja_env.filters["urlencode"]
    app.jinja_env.filters["urlencode"] = lambda v: quote_filter(joining.seat_param(v) if isinstance(v, str) else v)

    @app.before_request
    def token_link():
        """``?token=T`` (the printed URL, a seat's link): keep the token in a cookie, drop it from the URL.

        A seat's token goes into that game's seat cookie, so the page's live stream
        (which cannot send the token itself) carries it too and the page goes live.
        """
        token = request.args.get("token")
        if request.method != "GET" or not token or request.path.startswith("/api/"):
            return None
        seat = None if dashboard.keys.is_table(token) else dashboard.seats.seat_of(token)
        if seat is None and not dashboard.keys.is_table(token):
            return None
        rest = [(k, v) for k, v in request.args.items(multi=True) if k != "token"]
        path = "/" + request.path.lstrip("/")  # "//host/?token=..." must not become a redirect elsewhere
        response = redirect(quote(path) + ("?" + urlencode(rest) if rest else ""))
        if seat is None:
            set_table_cookie(response, token)
        else:
            set_seat_cookie(response, seat[0], token)
        return response

    @app.after_request
    def headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("Content-Security-Policy", CSP)
        if response.mimetype in ("application/json", "text/html"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    @app.errorhandler(ApiError)
    def api_error(err: ApiError):
        if _wants_json():
            return api.error_response(err)
        return _page_error(err.status, err.msgid, **err.params)

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        message = {
            404: "There is no such page.",
            405: "That method is not allowed here.",
            413: f"The request is larger than {MAX_BODY} bytes.",
        }.get(err.code or 500, err.description or "The request failed.")
        if _wants_json():
            return api.error_response(ApiError(err.code or 500, message))
        return _page_error(err.code or 500, message)

    # one answer per trade's root, whatever the route (Flask picks the handler by the error's class, never
    # by the order written here): a refusal of the rules is answered where it is caught (400 or 409);
    # a storage failure is its one sentence, a 503 (the card full or read-only, the journal damaged) or a
    # 409 (one game's rows damaged or not replayable: the others play on); a device down is a 503 with
    # its sentence; a game not found is a 404.
    @app.errorhandler(StorageError)
    def storage_failed(err: StorageError):
        """The card or the journal's rows failed: the one sentence, on every route; nothing changed."""
        app.logger.warning("storage: %s", getattr(err, "detail", "") or err.message)
        status = 409 if err.one_game else 503
        extra = {} if err.retry_after is None else {"retry_after": err.retry_after}
        if _wants_json():
            return api.error_response(ApiError(status, err.msgid, params=err.params, **extra))
        return _page_error(status, err.msgid, **err.params)

    @app.errorhandler(DeviceError)
    def device_down(err: DeviceError):
        """A part of the table down (the network, a reader…) under a route: 503 with its sentence, in the log too."""
        app.logger.warning("device down: %s", err)
        error = ApiError(503, str(err))
        return api.error_response(error) if _wants_json() else _page_error(503, error.message)

    @app.errorhandler(UnknownGame)
    def unknown_game(err: UnknownGame):
        error = ApiError(404, "There is no game {game}.", params={"game": repr(clean(err.game_id))})
        return api.error_response(error) if _wants_json() else _page_error(404, error.msgid, **error.params)

    @app.errorhandler(sqlite3.DatabaseError)
    def unreadable(err: sqlite3.DatabaseError):
        app.logger.error("journal error: %s", err)
        message = "The journal cannot be read; restart the companion to check and recover it."
        if _wants_json():
            return api.error_response(ApiError(503, message))
        return _page_error(503, message)

    @app.errorhandler(Exception)
    def crash(err: Exception):
        app.logger.exception("unexpected error")
        message = "The companion hit an unexpected error; the game is safe in the journal."
        if _wants_json():
            return api.error_response(ApiError(500, message))
        return _page_error(500, message)

    return app


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path.startswith("/sim/") or request.mimetype == "application/json"


def _page_error(status: int, message: str, **params: object):
    t = translator(lang())
    return render_template("error.html", status=status, message=t(message, **params), t=t, lang=lang(),
                           langs=LANGS), status
