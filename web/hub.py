"""The web layer's feeds of the table's live games (:class:`companion.table.live.LiveGames`).

The registry of live sessions and « the current game » (the one on the physical
table, which the controller follows) belong to the table; the hub renders them.
Every open page (and every API client on ``/events``) holds a :class:`Feed`.
When a session changes — an action from a phone, a button on the table, a
``companion act`` from a shell picked up by :meth:`LiveGames.poll` — the table's
registry tells the hub, which wakes every feed of that game; each feed then reads
the state *for its own viewer*, so a secret (a vote before the reveal) never
travels to anyone else.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from companion.table.journal import Journal
from companion.table.live import LiveGames
from companion.table.session import Session

log = logging.getLogger(__name__)


class LiveFull(Exception):
    """No live slot for this connection: the whole server (``owner`` False), this pass, or this address is full."""

    def __init__(self, owner: bool, limit: int, sentence: str | None = None):
        super().__init__(f"{limit} live connections")
        self.owner = owner
        self.limit = limit
        #: what the client is told (429)
        self.sentence = sentence or f"This pass already has {limit} live pages open; close one and try again."


class Feed:
    """One live connection's wake-up flag; coalesces bursts into one update.

    ``owner`` names the pass that opened it (``"table"`` or ``"seat:<game>:<seat>"``),
    so freeing a seat can end that seat's open streams at once.
    """

    def __init__(self, hub: Hub, channel: str, owner: str | None = None):
        self.hub = hub
        self.channel = channel
        self.owner = owner
        self._event = threading.Event()
        self._event.set()  # the state is replayed on connect
        self.closed = False
        #: why the stream was ended ("revoked": its pass is no longer valid)
        self.reason: str | None = None
        #: the client's address (a guest's share of the slots is counted by it)
        self.address: str | None = None
        #: called after each wake-up (the server's stream pump, which serves this feed's stream)
        self.notify: Callable[[], None] | None = None

    def wake(self) -> None:
        self._event.set()
        if self.notify is not None:
            self.notify()

    def take(self) -> bool:
        """True (once) when something changed since the last look; never waits."""
        if not self._event.is_set():
            return False
        self._event.clear()
        return True

    def wait(self, timeout: float) -> bool:
        """True when something changed (or on the first call); False on timeout."""
        woke = self._event.wait(timeout)
        self._event.clear()
        return woke

    def end(self, reason: str | None = None) -> None:
        """Ask the stream to finish now (its pass was revoked, or the server stops)."""
        self.reason = reason
        self.closed = True
        self.wake()

    def close(self) -> None:
        self.closed = True
        self.hub._drop_feed(self)


class Hub:
    """The feeds of the live pages over the table's live games (and the limits on them).

    ``games`` is the table's registry; given a :class:`Journal` instead, the hub opens one
    over it (a dashboard without a table: tests, a bench), passing ``session_kwargs`` on.
    """

    def __init__(self, games: LiveGames | Journal, max_feeds: int = 120, per_seat: int = 4,
                 table_reserve: int = 24, table_slots: int = 16, seats_per_address: int = 3,
                 per_address: int = 8, **session_kwargs: Any):
        self.games = games if isinstance(games, LiveGames) else LiveGames(games, **session_kwargs)
        self.max_feeds = max_feeds
        #: live streams one seat's pass may hold (a phone with a few tabs)
        self.per_seat = per_seat
        #: slots the table's pass leaves for the phones (12 seats, two pages each)
        self.table_reserve = table_reserve
        #: slots only the table's pass may take: its own pages always go live, whoever holds the rest
        self.table_slots = table_slots
        #: one address (one guest, however many seats he claimed) holds the streams of this many seats,
        #: and this many streams in all
        self.seats_per_address = seats_per_address
        self.per_address = per_address
        self._feeds: dict[str, list[Feed]] = {}
        self._lock = threading.RLock()
        self.games.on_change(self.broadcast)
        self.games.watch(lambda game_id: bool(self._feeds.get(game_id)))

    # -- the table's registry, as the pages read it ---------------------------
    @property
    def journal(self) -> Journal:
        return self.games.journal

    @property
    def session_kwargs(self) -> dict[str, Any]:
        return self.games.session_kwargs

    @property
    def current(self) -> str | None:
        return self.games.current

    def session(self, game_id: str) -> Session:
        return self.games.session(game_id)

    def new(self, game: str, players: list[str], options: dict[str, Any]) -> Session:
        return self.games.new(game, players, options)

    def set_current(self, game_id: str | None) -> Session | None:
        return self.games.set_current(game_id)

    def on_current(self, fn: Callable[[Session | None], None]) -> None:
        self.games.on_current(fn)

    def current_session(self) -> Session | None:
        return self.games.current_session()

    def poll(self) -> None:
        self.games.poll()

    # -- feeds --------------------------------------------------------------
    def feed(self, channel: str, owner: str | None = None, address: str | None = None) -> Feed | None:
        """A new feed on ``channel`` (a game id, ``games`` or ``sim``); None when the server is full.

        Raises :class:`LiveFull` (``owner=True``) when ``owner``'s pass already holds its
        share, or when ``address`` already holds the streams of :attr:`seats_per_address`
        seats (or :attr:`per_address` streams): one guest who claimed every free seat of every
        open game cannot take every slot. The last :attr:`table_slots` are the table's alone.
        """
        with self._lock:
            feeds = [f for fs in self._feeds.values() for f in fs]
            if len(feeds) >= self.max_feeds:
                return None
            if owner != "table" and sum(1 for f in feeds if f.owner != "table") >= self.max_feeds - self.table_slots:
                return None  # the tablet's reserved slots
            limit = self.owner_limit(owner)
            if limit is not None:
                held = sum(1 for f in feeds if f.owner == owner)
                if held >= limit:
                    raise LiveFull(True, limit)
            if address is not None and owner != "table":
                mine = [f for f in feeds if f.address == address and f.owner != "table"]
                seats = {f.owner for f in mine}
                if len(mine) >= self.per_address:
                    raise LiveFull(True, self.per_address, "This device already has "
                                   f"{self.per_address} live pages open; close one and try again.")
                if owner not in seats and len(seats) >= self.seats_per_address:
                    raise LiveFull(True, self.seats_per_address, "This device already follows "
                                   f"{self.seats_per_address} seats live; close one of their pages and try again.")
            feed = Feed(self, channel, owner)
            feed.address = address
            self._feeds.setdefault(channel, []).append(feed)
            return feed

    def owner_limit(self, owner: str | None) -> int | None:
        """How many live streams ``owner`` may hold (None: no limit of its own)."""
        if owner is None:
            return None
        if owner == "table":
            return max(1, self.max_feeds - self.table_reserve)
        return self.per_seat

    def end_owner(self, owner: str) -> int:
        """End every open stream of ``owner`` now (a seat freed, a pass revoked); how many."""
        with self._lock:
            feeds = [f for fs in self._feeds.values() for f in fs if f.owner == owner]
        for feed in feeds:
            feed.end("revoked")
        return len(feeds)

    def _drop_feed(self, feed: Feed) -> None:
        with self._lock:
            feeds = self._feeds.get(feed.channel, [])
            if feed in feeds:
                feeds.remove(feed)

    def feed_count(self) -> int:
        with self._lock:
            return sum(len(f) for f in self._feeds.values())

    def broadcast(self, channel: str) -> None:
        with self._lock:
            feeds = list(self._feeds.get(channel, ()))
        for feed in feeds:
            feed.wake()

    # -- background work ----------------------------------------------------
    def start(self, interval: float = 0.25) -> None:
        """Poll the table's games on a daemon thread (:meth:`LiveGames.start`)."""
        self.games.start(interval)

    def stop(self) -> None:
        """Stop polling and end every open stream (the server stops)."""
        self.games.stop()
        with self._lock:
            feeds = [f for fs in self._feeds.values() for f in fs]
        for feed in feeds:
            feed.end()
