"""The session's sand timer: the moment it was turned, the sand that has run, its alarm, the expiry.

Kept apart from :mod:`companion.table.session` because the timer is the one part of a game that
moves by itself: it reads the journal's times (a Pi's clock may go back after a power cut),
runs a background alarm, and at the sand's end journals what lies on the table (the phones'
drafts, a seat's lanes) before ``timer_expired``. :class:`~companion.table.session.Session`
is made with it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion import games
from companion.engine.rules import Action, Event, RuleError, Rules
from companion.table import authorship
from companion.table.authorship import Author
from companion.table.rows import JournalEntry
from companion.table.timers import Clock, SandTimer

log = logging.getLogger("companion.table.session")

#: the author of the actions the table sends by itself at the sand's end (dice lying in a seat's lanes);
#: automatic, so an undo takes them back with the expiry that follows them
LANES = authorship.LANES


class SandClock:
    """The sand timer of a :class:`~companion.table.session.Session` (a game with one, such as the dice game)."""

    rules: Rules
    state: Any
    entries: list[JournalEntry]
    clock: Clock
    _wall: Clock
    timer: SandTimer | None
    autotick: bool
    before_expiry: Callable[[Any], list[Action]] | None
    drafts: dict[str, list[Any]]
    _alarm: threading.Timer | None
    _lock: threading.RLock
    _timer_turned: tuple[float, float] | None
    _timer_key: float | None = None

    if TYPE_CHECKING:  # what the session it is part of provides
        @property
        def game(self) -> str: ...

        def _commit(self, action: Action, source: Author, settles: tuple[int, ...] = ()) -> list[Event]: ...

    def tick(self) -> list[Event] | None:
        """Journal ``timer_expired`` once the sand timer has run out; call it a few times a second."""
        with self._lock:
            if self.timer is None or not self.timer.expired():
                return None
        # act outside the check's lock: listeners must never be called with it held
        # what lies on the table counts at the sand's end: the phones' drafts, then a seat's lanes
        # (what lies on the board has the last word)
        for hook in (self._drafts_at_expiry, self.before_expiry):
            if hook is None:
                continue
            try:
                early = list(hook(self.state) or [])
            except Exception:
                log.exception("the table's actions at the sand's end could not be read")
                early = []
            for action in early:
                try:
                    self._commit(action, LANES)
                except RuleError:
                    continue
        try:
            return self._commit({"type": "timer_expired"}, authorship.TIMER)
        except RuleError:  # another ticker, or someone, closed planning meanwhile
            with self._lock:
                self._refresh_timer()
            return None

    def set_draft(self, player: str, values: list[Any]) -> None:
        """Keep what ``player``'s phone has laid but not sent; it counts if the sand runs out first."""
        with self._lock:
            self.drafts[player] = list(values)

    def _drafts_at_expiry(self, state: Any) -> list[Action]:
        """The phones' drafts as the game turns them into actions at the sand's end (then forgotten)."""
        with self._lock:
            drafts, self.drafts = dict(self.drafts), {}
        return games.package(self.game).at_timer_end(state, drafts) if drafts else []


    def _note_timer(self, entry: JournalEntry, events: list[Event]) -> None:
        for event in events:
            if event.get("event", event.get("type")) == "timer_started":
                self._timer_turned = (entry.at, float(event.get("seconds", 30)))

    def _refresh_timer(self) -> None:
        """Run a sand timer exactly while the game says one is running.

        Its start is the journaled moment the timer was turned, so a game resumed
        after a power cut keeps the sand that had already run through.
        """
        running = self._timer_turned is not None and self.rules.view(self.state).get("timer") == "running"
        if not running:
            self.timer = None
            self._set_alarm(None)
            return
        at, seconds = self._timer_turned  # type: ignore[misc]
        if self.timer is None or self.timer.seconds != seconds or self._timer_key != at:
            self.timer = SandTimer(seconds, clock=self.clock)
            self.timer.start(elapsed=self._sand_run(at, seconds))
            self._timer_key = at
            self._set_alarm(self.timer.remaining())

    def _sand_run(self, turned: float, seconds: float) -> float:
        """How much sand had run when this process took the game over, from the journaled times.

        A Pi has no battery-backed clock: after a power cut its wall clock may start
        behind the journal. Time never runs backwards past the newest journaled
        moment (an action was journaled then, so "now" is at least that), and the
        answer is bounded to [0, seconds]: a clock gone back cannot give sand back,
        one gone forward cannot run out more than the whole timer.
        """
        newest = max((e.at for e in self.entries), default=turned)
        now = max(self._wall(), newest)
        return min(max(0.0, now - turned), max(0.0, seconds))

    def _set_alarm(self, delay: float | None) -> None:
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        if delay is not None and self.autotick:
            # bounded: a timer of 10**12 s must not overflow the thread's wait (the ring re-arms)
            self._alarm = threading.Timer(min(max(0.0, delay), 3600.0), self._ring)
            self._alarm.daemon = True
            self._alarm.start()

    def _ring(self) -> None:
        """The alarm went off: journal the expiry (re-arming if the clock says it is early)."""
        try:
            if self.tick() is None and self.timer is not None:
                self._set_alarm(max(0.001, self.timer.remaining()))
        except Exception:
            log.exception("sand timer expiry could not be journaled")

    def close(self) -> None:
        """Stop background timers (the journal stays open for others)."""
        with self._lock:
            self.autotick = False
            self._set_alarm(None)
