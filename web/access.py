"""Authorisation for every request: who is asking, and may they?

Credentials, in the order they are looked at:

1. ``Authorization: Bearer TOKEN`` — the table token or a seat token;
2. ``?token=TOKEN`` — the same, for links (the URL printed at start);
3. cookies — ``seat-<game id>`` (set by joining) and ``table`` (set by opening
   the printed URL). A page says which one it means with ``X-Companion-Role``.

No credential at all is 401; a credential that is wrong, or right but not
allowed to do this, is 403. Cookie-carried credentials must come with the
page's CSRF token on every unsafe request, and with an ``Origin`` (when the
browser sends one) matching the host.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import request

from web.context import dashboard
from web.security import Principal
from web.validate import ApiError

TABLE_COOKIE = "table"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def seat_cookie(game_id: str) -> str:
    return f"seat-{game_id}"


def _resolve(token: str, via: str) -> Principal | None:
    d = dashboard()
    if d.keys.is_table(token):
        return Principal("table", via, token)
    found = d.seats.seat_of(token)
    if found:
        return Principal("seat", via, token, found[0], found[1])
    return None


def identify(game_id: str | None = None) -> Principal | None:
    """The caller, or None when no credential was sent; ApiError(403) for a wrong one."""
    header = request.headers.get("Authorization", "")
    if header:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError(401, "Send the token as \"Authorization: Bearer TOKEN\".")
        return _must(_resolve(token.strip(), "header"))
    query = request.args.get("token")
    if query:
        return _must(_resolve(query, "query"))
    role = request.headers.get("X-Companion-Role") or request.args.get("role")
    seat = request.cookies.get(seat_cookie(game_id)) if game_id else None
    table = request.cookies.get(TABLE_COOKIE)
    order = [table, seat] if role == "table" else [seat, table]
    sent = [c for c in order if c]
    for credential in sent:
        principal = _resolve(credential, "cookie")
        if principal and (principal.is_table or principal.game_id == game_id):
            _check_csrf(principal)
            return principal
    if sent:
        raise ApiError(403, "This device's pass is no longer valid here; join the table again.")
    return None


def _must(principal: Principal | None) -> Principal:
    if principal is None:
        raise ApiError(403, "That token is not valid for this table.")
    return principal


def _check_csrf(principal: Principal) -> None:
    if request.method not in UNSAFE:
        return
    origin = request.headers.get("Origin")
    if origin and origin != "null" and urlsplit(origin).netloc != request.host:
        raise ApiError(403, "Requests from another site are refused.")
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf")
    if not dashboard().keys.check_csrf(principal.credential, sent):
        raise ApiError(403, "The page's security token is missing or stale; reload the page.")


def require(game_id: str | None = None, *, table: bool = False) -> Principal:
    """The caller, who must be the table (``table=True``) or hold a pass for ``game_id``."""
    principal = identify(game_id)
    if principal is None:
        raise ApiError(401, "This needs the table's token or a seat's pass: join with the code on the table's screen.")
    if table and not principal.is_table:
        raise ApiError(403, "Only the table (the token printed when the companion started) may do this.")
    if not principal.is_table and principal.game_id != game_id:
        raise ApiError(403, "Your pass is for another game.")
    return principal


def optional(game_id: str | None = None) -> Principal | None:
    """Like :func:`identify` but a stale cookie counts as no credential (for pages)."""
    try:
        return identify(game_id)
    except ApiError:
        return None


def set_seat_cookie(response: Any, game_id: str, token: str) -> None:
    response.set_cookie(seat_cookie(game_id), token, max_age=30 * 24 * 3600, httponly=True, samesite="Lax")


def set_table_cookie(response: Any, token: str) -> None:
    response.set_cookie(TABLE_COOKIE, token, max_age=30 * 24 * 3600, httponly=True, samesite="Lax")


def csrf_for(principal: Principal | None) -> str:
    return dashboard().keys.csrf(principal.credential) if principal else ""
