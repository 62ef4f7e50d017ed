"""Joining a seat with the table's six-digit code: who may, and how guessing and flooding are held off.

One place for the join page, its form and the API:

- **The code as it is shown**: « 015 746 », « 015-746 » and « 015746 » are the same code
  (spaces, dashes and dots are ignored).
- **Every request counts, before any comparison**: each join request (the page with a code,
  its form, ``POST /api/join``), right code or wrong, real seat or made-up, counts against its
  address (``Dashboard.joins``: 10 a minute) and against the table's budget (:data:`JOINS` per
  :data:`JOIN_WINDOW`). An address past its limit gets 429 whatever it sends, so the lock says
  nothing about the codes it tried. A request whose answer says openly that its code was right
  (a seat taken; before any budget is spent, the page listing the seats) is given back
  (:func:`answered_openly`): it told nothing the counters could add, and a table of phones
  joining spends nothing.
- **Wrong codes are budgeted for the whole table**: :data:`GUESSES` wrong codes from any address
  per :data:`GUESS_WINDOW`. The wrong code that spends it renews the code of every open game (the
  OLED and the tablet show the new ones), so nothing learnt before still opens a game.
- **Past either budget the tablet decides**: no code opens a seat by itself. Every request is
  answered « Ask the table to let you in » (202 with a handle) by the same steps whatever it
  holds; the tablet shows « Someone wants to join as Cleo — allow? » only for a right code, a
  real free seat and a name not already asked for :data:`PER_SEAT` times. Every other request
  waits unseen and ends as a prompt that times out ends (:data:`REQUEST_TTL`). The counters are
  only ever forgotten by their window, never by a renewal (so a renewal a full card refused
  cannot reopen guessing).
- **Waiting requests are bounded**: at most :data:`PER_ADDRESS` per address (its own oldest gives
  way, never another address's), one prompt per seat name on the tablet with the number of
  phones asking, at most :data:`MAX_WAITING` in all (past it a request is not kept; its phone is
  told to type the code again). Refusing a name refuses every phone that asked for it and
  renews that game's code: a refusal is the only answer that tells a code was right.
- **A code expires** once every seat of its game is taken by a phone,
  and when the tablet closes joining (« Close joining »; opening it again gives a new code).
- **A seat the tablet plays is not taken without its consent**: once the tablet has
  entered a move for a seat that no phone held, a phone may join as that seat only after
  the table says « Let a phone take this seat » (``SeatStore.open_seat``); freeing a seat
  is consent too.

The target, computed in ``docs/api.md`` and measured by ``bench/join_guessing.py`` and
``tests/web/test_join_flood.py``: from any number of addresses for six hours against 25 open
games, at most ``GUESSES`` guesses are compared with a chance of a seat without the tablet's
tap, and the codes they were compared with are renewed: the chance is
``1 - (1 - 25/10**6) ** GUESSES`` = 7.5 in 100,000.
"""

from __future__ import annotations

import hmac
import logging
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from flask import request

from companion.table.library import Library
from companion.table.session import Session
from web.context import dashboard
from web.game_lookup import open_game
from web.security import Principal, RateLimiter
from web.validate import ApiError

log = logging.getLogger(__name__)

#: wrong codes at the whole table per window before a join needs the tablet's tap (and the codes change)
GUESSES = 3
GUESS_WINDOW = 6 * 3600.0
#: join requests of any kind at the whole table per window before a join needs the tablet's tap
JOINS = 60
JOIN_WINDOW = 600.0
#: how long a request waits for the tablet's tap
REQUEST_TTL = 600.0
#: requests waiting per address, phones shown asking per seat name, requests waiting in all
PER_ADDRESS = 3
PER_SEAT = 4
MAX_WAITING = 5000
#: what a code may hold besides its six digits (as the screen shows it: « 015 746 »)
_SEPARATORS = re.compile(r"[\s\-.\u00a0\u2007\u2009\u202f\u2010-\u2015]+")

ASK_THE_TABLE = "Ask the table to let you in: the tablet must allow this phone."
NOT_LET_IN = "The table did not let this phone in; type the code again."


class JoinPending(Exception):
    """The join waits for the tablet's tap (``request``: the phone's secret handle on it)."""

    def __init__(self, request: str):
        super().__init__(ASK_THE_TABLE)
        self.request = request
        self.message = ASK_THE_TABLE


@dataclass
class JoinRequest:
    """One phone's request to join, waiting for the tablet (``game_id`` None: the tablet never sees it)."""

    id: str
    game_id: str | None
    seat: str
    at: float
    address: str = ""
    state: str = "pending"  # pending / allowed / declined / used


@dataclass
class Prompt:
    """What the tablet shows for one seat name of one game: the oldest request and how many phones ask."""

    id: str
    seat: str
    count: int


@dataclass
class Requests:
    """The join requests waiting for the tablet, per dashboard (in memory: a restart asks again)."""

    items: dict[str, JoinRequest] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    clock: Any = time.monotonic

    def add(self, game_id: str | None, seat: str, address: str) -> JoinRequest:
        """A new waiting request from ``address``: its own oldest gives way past :data:`PER_ADDRESS`; a
        name already asked :data:`PER_SEAT` times is kept unseen; past :data:`MAX_WAITING` it is not kept."""
        with self.lock:
            self._expire()
            own = sorted((r for r in self.items.values() if r.address == address and r.state == "pending"),
                         key=lambda r: r.at)
            for old in own[:max(0, len(own) - PER_ADDRESS + 1)]:
                del self.items[old.id]  # this address's own oldest, never another's
            if game_id is not None and sum(1 for r in self.items.values() if r.game_id == game_id
                                           and r.seat == seat and r.state == "pending") >= PER_SEAT:
                game_id = None
            req = JoinRequest(secrets.token_urlsafe(18), game_id, seat, self.clock(), address)
            if len(self.items) < MAX_WAITING:
                self.items[req.id] = req
            return req

    def get(self, request_id: str) -> JoinRequest | None:
        with self.lock:
            self._expire()
            return self.items.get(request_id) if isinstance(request_id, str) else None

    def pending(self, game_id: str) -> list[JoinRequest]:
        with self.lock:
            self._expire()
            return sorted((r for r in self.items.values() if r.game_id == game_id and r.state == "pending"),
                          key=lambda r: r.at)

    def prompts(self, game_id: str) -> list[Prompt]:
        """One prompt per seat name asked for, oldest first, with the number of phones asking."""
        shown: dict[str, Prompt] = {}
        for r in self.pending(game_id):
            if r.seat in shown:
                shown[r.seat].count += 1
            else:
                shown[r.seat] = Prompt(r.id, r.seat, 1)
        return list(shown.values())

    def _expire(self) -> None:
        now = self.clock()
        for rid in [rid for rid, r in self.items.items() if now - r.at > REQUEST_TTL]:
            del self.items[rid]


def _limiter(name: str, limit: int, window: float) -> RateLimiter:
    d = dashboard()
    limiter = d.extra.get(name)
    if limiter is None:
        limiter = d.extra[name] = RateLimiter(limit=limit, window=window)
    return limiter


def guesses() -> RateLimiter:
    """The table-wide count of wrong codes (one per dashboard)."""
    return _limiter("join_guesses", GUESSES, GUESS_WINDOW)


def table_joins() -> RateLimiter:
    """The table-wide count of join requests of every kind (one per dashboard)."""
    return _limiter("join_requests_counted", JOINS, JOIN_WINDOW)


def requests() -> Requests:
    d = dashboard()
    found = d.extra.get("join_requests")
    if found is None:
        found = d.extra["join_requests"] = Requests()
    return found


def normalise_code(code: Any) -> str:
    """The six digits of a code as typed or shown (« 015 746 », « 015-746 »); ApiError 400 otherwise."""
    if isinstance(code, str):
        digits = _SEPARATORS.sub("", code)
        if re.fullmatch(r"[0-9]{6}", digits):
            return digits
    raise ApiError(400, "The join code is the six digits on the table's screen.")


def needs_tap() -> bool:
    """True once a table-wide budget is spent (wrong codes, or join requests): no code opens a seat by itself."""
    return guesses().blocked("table") > 0 or table_joins().blocked("table") > 0


def game_for_code(code: Any, address: str | None, seat: str | None = None) -> str:
    """The unfinished game whose join code is ``code``; one sentence (400/403/429) otherwise.

    :class:`JoinPending` once a budget is spent (``seat`` names the seat asked for).
    """
    code = normalise_code(code)
    d = dashboard()
    who = address or "?"
    wait = d.joins.allow(who)  # every request counts, right or wrong: a lock says nothing of the codes
    if wait:
        raise ApiError(429, f"Too many join requests from this device; wait {int(wait) + 1} seconds.",
                       retry_after=int(wait) + 1)
    table_joins().allow("table")
    candidates = joinable()
    found = None
    for rec in candidates:  # every code compared, in constant time
        if hmac.compare_digest(d.keys.join_code(rec.id).encode(), code.encode()) and found is None:
            found = rec.id
    # from here a wrong code takes the same steps as a right one, with the first open game: the time tells nothing
    target = found or (candidates[0].id if candidates else None)
    players, claimed = _seats(target)
    if found is not None and all(p in claimed for p in players):
        found = None  # every seat is taken: the code has expired
    counted = guesses().allow("table") if found is None else guesses().blocked("table")
    if found is None and counted == 0 and guesses().blocked("table"):
        renew_codes([rec.id for rec in candidates])  # that wrong code spent the budget: nothing learnt opens a game
    if needs_tap():  # the same steps and answer for a right and a wrong code: the guesser learns nothing
        if not isinstance(seat, str):
            raise JoinPending("")  # the page asks which seat first
        shown = seat in players and seat not in claimed and found is not None  # a real seat no phone holds
        req = requests().add(target if shown else None, seat[:40], who)
        d.hub.broadcast(target if shown else "")  # « Someone wants to join as Cleo — allow? » on the tablet
        raise JoinPending(req.id)
    if found is None:
        raise ApiError(403, "That code does not open any game at this table.")
    return found


def answered_openly(address: str | None) -> None:
    """Give back the count of a request whose answer itself says its code was right (a seat taken, the join
    page listing the seats before any budget is spent): what it could tell, it told openly, so the counters
    stay the same for a right and a wrong code of every answer that hides it, and a table of phones joining
    spends nothing. Only ever called after such an answer."""
    dashboard().joins.forgive(address or "?")
    table_joins().forgive("table")


def _seats(game_id: str | None) -> tuple[list[str], set[str]]:
    """The players of ``game_id`` and the seats phones hold (none for no game)."""
    if game_id is None:
        return [], set()
    d = dashboard()
    return d.hub.journal.game(game_id).players, set(d.seats.claimed(game_id))


def renew_codes(game_ids: list[str]) -> None:
    """A new code for each of ``game_ids`` (the OLED and the tablet show it); a card that refuses leaves
    the old code, and the budget stays spent."""
    d = dashboard()
    for gid in game_ids:
        try:
            d.seats.new_code(gid)
        except Exception:  # noqa: BLE001 - a full or read-only card: joining still needs the tablet's tap
            log.warning("the join code of game %s could not be renewed", gid)
            continue
        if d.hub.current == gid:
            d.hub.set_current(gid)  # the OLED's code and QR follow
        d.hub.broadcast(gid)
    log.warning("too many wrong join codes at the table: the codes of %d open games were renewed", len(game_ids))


def joinable() -> list[Any]:
    """The games a code may open: unfinished, not abandoned, not damaged, joining not closed."""
    d = dashboard()
    open_games = Library(d.hub.journal).resumable(d.hub.journal.games(finished=False))
    return [rec for rec in open_games if not d.seats.joining_closed(rec.id)]


def claim_request(request_id: Any) -> tuple[str, str, str] | None:
    """``(game, seat, token)`` once the tablet allowed the request; None while it waits.

    ApiError 403 when it was declined, expired or never existed (a wrong code's request
    ends this way too, unseen by the tablet).
    """
    req = requests().get(request_id) if isinstance(request_id, str) else None
    if req is None or req.state in ("declined", "used"):
        raise ApiError(403, NOT_LET_IN)
    if req.state == "pending":
        return None
    d = dashboard()
    token = d.seats.claim(req.game_id, req.seat)  # type: ignore[arg-type]
    if token is None:
        raise ApiError(409, f"{req.seat}'s seat is already taken on another phone; the table can free it.")
    req.state = "used"
    d.hub.broadcast(req.game_id)  # type: ignore[arg-type]
    return req.game_id, req.seat, token  # type: ignore[return-value]


def answer_request(game_id: str, request_id: str, allow: bool) -> JoinRequest:
    """The tablet's tap on one prompt of ``game_id`` (a seat name asked for by one phone or more).

    Allow: the oldest request for that name is let in, and only when it is the only one (several
    phones asking for one name cannot be told apart: 409, refuse them). Refuse: every phone that
    asked for that name is refused, and the game gets a new code (whoever asked had seen it).
    """
    req = requests().get(request_id)
    if req is None or req.game_id != game_id or req.state != "pending":
        raise ApiError(404, "That request is no longer waiting.")
    same = [r for r in requests().pending(game_id) if r.seat == req.seat]
    if allow and len(same) > 1:
        raise ApiError(409, f"{len(same)} phones ask to join as {req.seat}; refuse them, and the right phone "
                            "types the new code.")
    for r in same:
        r.state = "allowed" if allow else "declined"
    if not allow:
        renew_codes([game_id])
    dashboard().hub.broadcast(game_id)
    return req


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


def find_seat(code: Any, seat: Any) -> tuple[str, str]:
    """The unfinished game whose join code is ``code``, and check ``seat`` sits at it and is free to take."""
    game_id = game_for_code(code, request.remote_addr, seat)
    session = open_game(game_id)
    if seat not in session.players:
        raise ApiError(400, f"Choose one of the seats: {', '.join(session.players)}.")
    refuse_if_kept(session, seat)
    return game_id, seat


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
        ctx.setdefault("join_requests", [])
        return
    claimed = set(ctx.get("claimed") or [])
    ctx["kept_seats"] = [p for p in session.players if p not in claimed and kept_by_tablet(session, p)]
    ctx["join_requests"] = [{"id": p.id, "seat": p.seat, "count": p.count} for p in requests().prompts(session.id)]
    ctx["joining_closed"] = dashboard().seats.joining_closed(session.id)
