"""Joining a seat with the table's six-digit code: who may, and how guessing is held off.

Three rules, one place for the join page, its form and the API:

- **A correct code always joins**, even from an address that typed wrong codes before
  (a family behind one router, a child who mistyped): only wrong codes are counted and
  locked out, per address (``Dashboard.joins``).
- **Guessing stays hopeless**: a correct code from a locked address would tell a guesser
  which codes are wrong, so every wrong code at the table, from any address, also counts
  towards ``GUESSES`` per window; past it every open game gets a new code at once (the
  table's screen and QR follow), so no code value ever sees more than that many guesses.
- **A seat the tablet plays is not taken without its consent**: once the tablet has
  entered a move for a seat that no phone held, a phone may join as that seat only after
  the table says « Let a phone take this seat » (``SeatStore.open_seat``); freeing a seat
  is consent too.
"""

from __future__ import annotations

import hmac
import logging
import re
from typing import Any
from urllib.parse import quote

from companion.library import Library
from companion.session import Session
from web.context import dashboard
from web.security import Principal, RateLimiter
from web.validate import ApiError

log = logging.getLogger(__name__)

#: wrong codes at the whole table per window before every open game's code is renewed
GUESSES = 60
GUESS_WINDOW = 600.0


def guesses() -> RateLimiter:
    """The table-wide count of wrong codes (one per dashboard)."""
    d = dashboard()
    limiter = d.extra.get("join_guesses")
    if limiter is None:
        limiter = d.extra["join_guesses"] = RateLimiter(limit=GUESSES - 1, window=GUESS_WINDOW)
    return limiter


def game_for_code(code: Any, address: str | None) -> str:
    """The unfinished game whose join code is ``code``; one sentence (400/403/429) otherwise."""
    if not isinstance(code, str) or not re.fullmatch(r"\s*\d{6}\s*", code):
        raise ApiError(400, "The join code is the six digits on the table's screen.")
    code = code.strip()
    d = dashboard()
    found = None
    open_games = Library(d.hub.journal).resumable(d.hub.journal.games(finished=False))  # not abandoned
    for rec in open_games:  # every code compared, in constant time
        if hmac.compare_digest(d.keys.join_code(rec.id).encode(), code.encode()) and found is None:
            found = rec.id
    if found is not None:
        return found
    _wrong_code()
    wait = d.joins.allow(address or "?")
    if wait:
        raise ApiError(429, f"Too many wrong codes from this device; wait {int(wait) + 1} seconds.",
                       retry_after=int(wait) + 1)
    raise ApiError(403, "That code does not open any game at this table.")


def _wrong_code() -> None:
    """Count a wrong code table-wide; past ``GUESSES`` every open game gets a new code."""
    if not guesses().allow("table"):
        return
    d = dashboard()
    log.warning("%d wrong join codes in %d s: every open game gets a new code", GUESSES, GUESS_WINDOW)
    guesses().clear("table")
    for rec in d.hub.journal.games(finished=False):
        d.seats.new_code(rec.id)
        if d.hub.current == rec.id:
            d.hub.set_current(rec.id)  # the OLED's code and QR follow
        d.hub.broadcast(rec.id)


def played_by_tablet(session: Session, seat: str) -> bool:
    """The tablet has entered a move for ``seat`` while no phone held it (its author, ``tablet_played``:
    a new move, an edit or a re-entry, not one made for a phone-held seat)."""
    alone = session.players == [seat]  # a solo game's moves name no player
    for entry in session.history():
        if entry.action.get("player", seat if alone else None) == seat and entry.author.tablet_played:
            return True
    return False


def kept_by_tablet(session: Session, seat: str) -> bool:
    """``seat`` is the tablet's: it played it, and it has not let a phone take it."""
    return played_by_tablet(session, seat) and not dashboard().seats.is_open(session.id, seat)


def refuse_if_kept(session: Session, seat: str) -> None:
    if kept_by_tablet(session, seat):
        raise ApiError(409, f"{seat}'s seat is played on the tablet; the table can let a phone take it.")


def seat_segment(name: Any) -> str:
    """``name`` as one URL path segment: « . » and « .. » would be eaten by every browser, so a
    name made only of dots is written ``~N`` (N dots); every other name is percent-encoded."""
    return quote(seat_param(str(name)), safe="/")


def seat_param(name: str) -> str:
    """``name`` for ``url_for(..., seat=...)`` (which encodes it): a name of dots is ``~N``, and a
    name that starts with « ~ » gets one more, so that every name has its own segment."""
    if name and set(name) == {"."}:
        return f"~{len(name)}"
    return "~" + name if name.startswith("~") else name


def seat_from_segment(segment: str, players: list[str]) -> str:
    """The seat a path segment names (the inverse of :func:`seat_segment`)."""
    if segment.startswith("~~"):
        return segment[1:]
    m = re.fullmatch(r"~(\d{1,3})", segment)
    if m and "." * int(m.group(1)) in players:
        return "." * int(m.group(1))
    return segment


def resolve_seat_values(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """A route's ``seat`` segment back to the seat's name (``~2`` → « .. »), for every route."""
    if not values or "seat" not in values or "game_id" not in values:
        return
    try:
        players = dashboard().hub.journal.game(values["game_id"]).players
    except Exception:  # an unknown game: the route itself says so in one sentence
        return
    values["seat"] = seat_from_segment(values["seat"], players)


def extend(ctx: dict[str, Any], session: Session, who: Principal | None, view: str, language: str) -> None:
    """The seats the tablet keeps (« Let a phone take this seat » on the table page)."""
    if view != "table" or not ctx.get("is_table") or session.over:  # nobody joins a finished game
        ctx.setdefault("kept_seats", [])
        return
    claimed = set(ctx.get("claimed") or [])
    ctx["kept_seats"] = [p for p in session.players if p not in claimed and kept_by_tablet(session, p)]
