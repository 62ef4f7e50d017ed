"""The table's live games: one :class:`Session` per game id, and « the current game ».

The current game is the one on the physical table, which the controller (buttons,
readers, OLED) follows. It belongs to the table, not to any interface: the
dashboard (``web/hub.py``) renders it and wakes its pages when it changes, the
board follows it, and both hear of it through the listeners here.

Several processes may work on one journal (the dashboard and ``companion act``
from a shell): :meth:`LiveGames.poll` picks up what another process journalled,
and lets the sand timers of the games being watched run out.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from companion.table import journal_watch
from companion.table.journal import Journal
from companion.table.session import Change, Session

log = logging.getLogger(__name__)

#: the channel a change of the list of games (a new one, one finished, the current one) is told on
GAMES = "games"


class LiveGames:
    """Live sessions over one journal, and the game on the table."""

    def __init__(self, journal: Journal, **session_kwargs: Any):
        self.journal = journal
        #: passed to Session.open/new (the live server sets ``autotick=True``)
        self.session_kwargs = session_kwargs
        self._sessions: dict[str, Session] = {}
        self._lock = threading.RLock()
        self.current: str | None = None
        self._on_current: list[Callable[[Session | None], None]] = []
        self._on_change: list[Callable[[str], None]] = []
        self._watched: list[Callable[[str], bool]] = []
        self._revs: dict[str, int] = {}
        self._ticker: threading.Thread | None = None
        self._watch: journal_watch.JournalWatch | None = None
        self._stop = threading.Event()

    # -- sessions -----------------------------------------------------------
    def session(self, game_id: str) -> Session:
        """The live session of ``game_id`` (opened from the journal on first use)."""
        with self._lock:
            session = self._sessions.get(game_id)
            if session is None:
                session = Session.open(self.journal, game_id, **self.session_kwargs)
                self._adopt(session)
            return session

    def new(self, game: str, players: list[str], options: dict[str, Any]) -> Session:
        session = Session.new(self.journal, game, players, options, **self.session_kwargs)
        with self._lock:
            self._adopt(session)
        self.notify(GAMES)
        return session

    def _adopt(self, session: Session) -> None:
        self._sessions[session.id] = session
        session.subscribe(self._changed)

    def _changed(self, change: Change) -> None:
        self.notify(change.session.id)
        if change.session.over or change.kind in ("undo", "sync", "edit"):
            self.notify(GAMES)

    # -- listeners ----------------------------------------------------------
    def on_change(self, fn: Callable[[str], None]) -> None:
        """``fn(channel)`` after a game changed (its id) or the list of games did (:data:`GAMES`)."""
        with self._lock:
            self._on_change.append(fn)

    def watch(self, fn: Callable[[str], bool]) -> None:
        """``fn(game_id)`` says whether someone follows that game, so :meth:`poll` keeps it fresh."""
        with self._lock:
            self._watched.append(fn)

    def notify(self, channel: str) -> None:
        with self._lock:
            listeners = list(self._on_change)
        for fn in listeners:
            fn(channel)

    # -- the game on the table ----------------------------------------------
    def set_current(self, game_id: str | None) -> Session | None:
        session = self.session(game_id) if game_id else None
        with self._lock:
            self.current = game_id
            listeners = list(self._on_current)
        for fn in listeners:
            try:
                fn(session)
            except Exception:
                log.exception("current-game listener failed")
        self.notify(GAMES)
        return session

    def on_current(self, fn: Callable[[Session | None], None]) -> None:
        with self._lock:
            self._on_current.append(fn)

    def current_session(self) -> Session | None:
        return self.session(self.current) if self.current else None

    # -- background work ----------------------------------------------------
    def _is_watched(self, game_id: str) -> bool:
        return game_id == self.current or any(fn(game_id) for fn in self._watched)

    def poll(self) -> None:
        """Pick up changes made by other processes, and let sand timers run out."""
        with self._lock:
            sessions = [s for gid, s in self._sessions.items() if self._is_watched(gid)]
        for session in sessions:
            try:
                rev = self.journal.rev(session.id)  # a cheap read; sync() only when it moved
                if rev != self._revs.get(session.id):
                    session.sync()
                    self._revs[session.id] = rev
                tick = getattr(session, "tick", None)
                if callable(tick):
                    tick()
            except Exception:
                log.exception("polling game %s failed", session.id)

    def _wait(self, watch: journal_watch.JournalWatch | None, interval: float) -> bool:
        """Sleep until the journal is written (another process, or this one), a watched game's sand
        timer without its own alarm runs out, or :meth:`stop`; True when :meth:`poll` has work. Without
        inotify, every ``interval`` seconds as before."""
        if watch is None:
            return not self._stop.wait(interval)
        timeout = None
        with self._lock:
            sessions = [s for gid, s in self._sessions.items() if self._is_watched(gid)]
        for session in sessions:  # a session made without autotick has no alarm of its own
            timer = getattr(session, "timer", None)
            if timer is not None and timer.running and not getattr(session, "autotick", True):
                timeout = min(interval, timeout or interval, max(0.0, timer.remaining()))
        written = watch.wait(timeout)
        return not self._stop.is_set() and (written or timeout is not None)

    def start(self, interval: float = 0.25) -> None:
        """Run :meth:`poll` on a daemon thread each time the journal is written (Linux inotify: no wake-up
        while nothing is), or every ``interval`` seconds where that cannot be watched."""
        if self._ticker is not None:
            return
        watch = journal_watch.watch(self.journal.path) if self.journal.path.name else None
        self._watch = watch

        def loop() -> None:
            try:
                while not self._stop.is_set():
                    if self._wait(watch, interval):
                        self.poll()
            finally:
                if watch is not None:
                    watch.close()

        self._ticker = threading.Thread(target=loop, name="hub-poll", daemon=True)
        self._ticker.start()

    def stop(self) -> None:
        self._stop.set()
        watch = self._watch
        if watch is not None:
            watch.interrupt()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the polling thread to end after :meth:`stop` (its last poll may still read the journal)."""
        ticker = self._ticker
        if ticker is not None and ticker is not threading.current_thread():
            ticker.join(timeout)
