"""The table session: one live game over the journal.

Data flows one way (docs/design.md): device or phone → :meth:`Session.act` → rules →
journal commit → listeners (OLED, dashboard). The action is committed to
SQLite *before* any listener hears of it, so a screen never shows something
a power cut could take back.

Several processes may work on the same game (the dashboard server and
``companion act`` in a shell). Every write happens in an IMMEDIATE
transaction that first checks the game's revision and replays the journal if
another process moved it, so no process ever acts on a stale state.

A correction from the tablet is the one write that goes back in time: the actions after the
one corrected are played again onto the corrected history (secrets still hidden judged from
public facts only, :mod:`companion.table.secrecy`), and those that no longer apply wait to be
re-entered or dropped. The sand timer is the one part of a game that moves by itself: it reads
the journal's times (a Pi's clock may go back after a power cut), runs a background alarm, and
at the sand's end journals what lies on the table (the phones' drafts, a seat's lanes) before
``timer_expired``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion import games
from companion.engine import jsoncheck
from companion.engine.rules import Action, Event, Expected, RuleError, Rules
from companion.table import authorship, secrecy
from companion.table.authorship import Author
from companion.table.journal import Journal
from companion.table.migrations import upgrade
from companion.table.played import PlayedAction, replay
from companion.table.rows import GameRecord, JournalEntry
from companion.table.timers import Clock, SandTimer

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Change:
    """What listeners are told after the journal moved."""

    session: Session
    kind: str  # "action" | "undo" | "redo" | "sync"
    action: Action | None
    events: list[Event] = field(default_factory=list)
    #: for an accepted action, the states the session computed before and after it (its own
    #: replay: listeners narrate the new entry from them instead of replaying the journal)
    before: Any = None
    after: Any = None


@dataclass(frozen=True)
class Edited:
    """What an edit did to the actions after the one corrected."""

    replayed: int  # still apply: played again onto the corrected history
    aside: list[JournalEntry]  # no longer apply: kept for the table to re-enter or drop
    dropped: list[JournalEntry]  # automatic ones that no longer apply (the companion journals them anew)


def _note(err: RuleError) -> dict[str, Any]:
    """A refusal as the journal keeps it: its message id and parameters (translated when shown)."""
    params = {k: v if isinstance(v, str | int | float | bool) or v is None else str(v) for k, v in err.params.items()}
    return {"msgid": err.msgid, "params": params, "domain": err.domain, "message": err.message}


class _NothingToUndo(Exception):
    """Raised inside :meth:`Session.undo_last`'s transaction to roll it back."""


def is_automatic(entry: JournalEntry, types: tuple[str, ...] = ()) -> bool:
    """Whether the companion journalled ``entry`` by itself (set on the entry when written; ``types``: a
    caller's own list of action types to treat so as well)."""
    return entry.author.auto or entry.action.get("type") in types


class Session:
    """A game being played: its rules, current state, and journal.

    One class over one lock and one replay: the actions, undo and redo; the tablet's corrections
    (an action edited or removed, what an edit set aside), each ONE transaction of the journal; and
    the sand timer, the one part of a game that moves by itself (read from the journal's times, its
    alarm journals the expiry after what lies on the table).
    """

    def __init__(self, journal: Journal, record: GameRecord, rules: Rules,
                 clock: Clock = time.monotonic, wall: Clock = time.time, autotick: bool = False):
        self.journal = journal
        self.record = record
        self.rules = rules
        self.clock = clock
        self._wall = wall
        #: the running sand timer (a game with one, such as the dice game), or None
        self.timer: SandTimer | None = None
        self._timer_turned: tuple[float, float] | None = None  # (journal time, seconds)
        self._timer_key: float | None = None  # the journal time of the turn the running timer is for
        #: when True a background timer journals ``timer_expired`` by itself (the live table);
        #: tests leave it off and call :meth:`tick` with an injected clock.
        self.autotick = autotick
        #: set by the table: ``fn(state) -> [actions]`` to journal just before the sand's expiry
        self.before_expiry: Callable[[Any], list[Action]] | None = None
        #: what each phone has laid in its form but not sent (player → values), in memory only: at the
        #: sand's end it counts as the lanes do (the package's ``at_timer_end``); a seat's own move drops it
        self.drafts: dict[str, list[Any]] = {}
        self._alarm: threading.Timer | None = None
        self._lock = threading.RLock()
        self._listeners: list[Callable[[Change], None]] = []
        self._rev = -1
        self.state: Any = None
        self.entries: list[JournalEntry] = []
        #: what the replay computed for each of ``entries`` (same order, same length)
        self._steps: list[PlayedAction] = []
        #: the undone actions, oldest first (what redo plays again); empty: nothing to redo
        self.undone: list[JournalEntry] = []

    # -- construction -------------------------------------------------------
    @classmethod
    def new(cls, journal: Journal, game: str, players: list[str], options: dict[str, Any] | None = None,
            **kwargs: Any) -> Session:
        """Validate the set-up with the rules first, then record the game."""
        rules = games.get(game)
        options = dict(options or {})
        if not isinstance(players, list):
            raise RuleError("Players must be a list of names.")
        jsoncheck.check(players, "the players")  # replayed for ever: only values JSON can write back
        jsoncheck.check(options, "the options")
        rules.setup(players, options)  # raises RuleError before anything is stored
        record = journal.create_game(game, players, options, rules_version=games.package(game).rules_version)
        session = cls(journal, record, rules, **kwargs)
        session.sync()
        return session

    @classmethod
    def open(cls, journal: Journal, game_id: str, **kwargs: Any) -> Session:
        """Resume a game: its state is the replay of its journal (its lines migrated first when it was
        journalled under an earlier version of its rules: :mod:`companion.table.migrations`)."""
        record = upgrade(journal, journal.game(game_id))
        session = cls(journal, record, games.get(record.game), **kwargs)
        session.sync()
        return session

    # -- properties ---------------------------------------------------------
    @property
    def id(self) -> str:
        return self.record.id

    @property
    def game(self) -> str:
        return self.record.game

    @property
    def players(self) -> list[str]:
        return list(self.record.players)

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.record.options)

    @property
    def version(self) -> int:
        """How many actions are in play (undone ones excluded)."""
        return len(self.entries)

    @property
    def can_redo(self) -> bool:
        """Whether redo has something to play again (the screens show Redo only then)."""
        return bool(self.undone)

    @property
    def lock(self) -> threading.RLock:
        """The session's one lock. A caller that does several things to the game with no sand alarm in
        between takes it; the table controller shares it, since the session tells its listeners holding it."""
        return self._lock

    @property
    def over(self) -> bool:
        return self.rules.outcome(self.state) is not None

    # -- listeners ----------------------------------------------------------
    def subscribe(self, fn: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``fn(change)`` after every committed change; returns the unsubscribe function."""
        with self._lock:
            self._listeners.append(fn)

        def unsubscribe() -> None:
            with self._lock:
                if fn in self._listeners:
                    self._listeners.remove(fn)

        return unsubscribe

    def _notify(self, change: Change) -> None:
        for fn in list(self._listeners):
            try:
                fn(change)
            except Exception:  # a broken screen must never lose the game
                log.exception("listener %r failed on %s", fn, change.kind)

    # -- reading ------------------------------------------------------------
    def public(self, viewer: str | None = None) -> dict[str, Any]:
        with self._lock:
            out = self.rules.public_state(self.state, viewer)
            out["id"] = self.id
            out["version"] = self.version
            if self.timer is not None:
                out["timer_remaining"] = round(self.timer.remaining(), 2)
            return out

    def expected(self) -> Expected:
        with self._lock:
            return self.rules.expected(self.state)

    def history(self, limit: int | None = None) -> list[JournalEntry]:
        """The actions in play, oldest first (the last ``limit`` of them)."""
        with self._lock:
            return list(self.entries if limit is None else self.entries[-limit:])

    def steps(self) -> list[PlayedAction]:
        """Each action in play with the states around it and its events, oldest first: the session's one replay."""
        with self._lock:
            return list(self._steps)

    def state_before(self, index: int) -> Any:
        """The game's state before the action ``history()[index]`` (the current state past the last one)."""
        with self._lock:
            return self._steps[index].before if 0 <= index < len(self._steps) else self.state

    # -- writing ------------------------------------------------------------
    def act(self, action: Action, source: Author | str = "cli", settles: tuple[int, ...] = ()) -> list[Event]:
        """Apply and journal one action; RuleError leaves the game and journal untouched.

        ``source`` is who sent it (an :class:`~companion.table.authorship.Author`, or an older caller's one
        word: ``"table"`` the board, ``"cli"``, ``"terminal"``). ``settles``: actions an edit set aside
        that this one enters again (their author's new choice), settled in the same transaction.

        A sand timer that ran out while nobody ticked (``companion act`` in a shell, the
        terminal table) is journaled first, from the journaled time it was turned: an
        action after the sand's end is judged after it.
        """
        jsoncheck.check(action, "the action")
        if isinstance(action, dict) and action.get("type") != "timer_expired":
            timer = self.timer
            if timer is not None and timer.expired():
                self.tick()
        return self._commit(action, authorship.of(source), settles)

    def _commit(self, action: Action, source: Author, settles: tuple[int, ...] = ()) -> list[Event]:
        with self._lock:
            with self.journal.transaction() as db:
                self._sync_locked(db)
                before = self.state
                state, events = self.rules.apply(before, action)
                for seq in settles:
                    self.journal.settle_aside(db, self.id, seq, "reentered", source.again("reenter", source))
                entry = self.journal.append(db, self.id, action, source)
                self._record_result(db, state)
                rev = self.journal.rev(self.id, db)
            self.state = state
            self._played(entry, before, events, state)
            sender = action.get("player")
            if isinstance(sender, str):  # what he sent replaces what he had laid
                self.drafts.pop(sender, None)
            self.undone = []  # a new action discards the redo branch (Journal.append)
            self._rev = rev
            self._note_timer(entry, events)
            self._refresh_timer()
        self._notify(Change(self, "action", action, events, before, state))
        return events

    def undo(self) -> Action | None:
        """Take back the last action in play; None when there is none."""
        return self._move("undo")

    def redo(self) -> Action | None:
        """Play again the last undone action; None when there is none."""
        return self._move("redo")

    def undo_last(self, automatic: tuple[str, ...] = (), count: int = 1) -> Action | None:
        """Take back the last action a person made, with the ``automatic`` ones after it, in ONE transaction.

        The dice game's sand timer journals ``timer_expired`` by itself; undoing a
        plan means undoing that expiry too. Done as two commits, a power cut between
        them would leave the expiry undone and the plan standing (planning reopened,
        a state nobody acknowledged). Here the journal flips them all or none.
        Returns the person's action (None when there is nothing to undo).
        """
        with self._lock:
            try:
                with self.journal.transaction() as db:
                    self._sync_locked(db)
                    first = None
                    for _ in range(max(1, count)):  # ``count`` people's actions: a whole ballot
                        entry = self.journal.undo(db, self.id)
                        while entry is not None and is_automatic(entry, automatic):
                            entry = self.journal.undo(db, self.id)
                        if entry is None:
                            break
                        first = first or entry
                    if first is None:
                        raise _NothingToUndo  # rolls the transaction back: an expiry alone stays
                    entry = first
                    entries = self.journal.active(self.id, db)
                    state, steps = self._replay(entries)
                    self._record_result(db, state)
                    rev = self.journal.rev(self.id, db)
                    undone = self.journal.undone(self.id, db)
            except _NothingToUndo:
                return None
            self.state, self.entries, self._steps, self._rev, self.undone = state, entries, steps, rev, undone
            self._refresh_timer()
        self._notify(Change(self, "undo", entry.action))
        return entry.action

    def redo_next(self, automatic: tuple[str, ...] = ()) -> Action | None:
        """Play again the oldest undone action a person made, with the ``automatic`` ones after it, in ONE
        transaction: the mirror of :meth:`undo_last` (a plan comes back with its sand's expiry).

        Returns the person's action (None when there is nothing to redo).
        """
        return self._move("redo", automatic, followers=True)

    def _move(self, kind: str, automatic: tuple[str, ...] = (), followers: bool = False) -> Action | None:
        with self._lock:
            with self.journal.transaction() as db:
                self._sync_locked(db)
                entry = self.journal.undo(db, self.id) if kind == "undo" else self.journal.redo(db, self.id)
                if entry is None:
                    return None
                if kind == "redo" and followers:
                    for follower in self.journal.undone(self.id, db):
                        if not is_automatic(follower, automatic):
                            break
                        self.journal.redo(db, self.id)
                entries = self.journal.active(self.id, db)
                state, steps = self._replay(entries)
                self._record_result(db, state)
                rev = self.journal.rev(self.id, db)
                undone = self.journal.undone(self.id, db)
            self.state, self.entries, self._steps, self._rev, self.undone = state, entries, steps, rev, undone
            self._refresh_timer()
        self._notify(Change(self, kind, entry.action))
        return entry.action

    def sync(self) -> bool:
        """Replay the journal if another process changed it; True when it did.

        A read transaction: reading needs no lock on writers, and a read-only card still reads.
        """
        with self._lock:
            with self.journal.reading() as db:
                changed = self._sync_locked(db)
        if changed and self._rev > 0:
            self._notify(Change(self, "sync", None))
        return changed

    # -- the tablet's corrections ---------------------------------------------------------
    def edit(self, seq: int, action: Action | None, source: Author | str = "cli") -> Edited:
        """Correct (``action``) or remove (None) the action ``seq`` in play, in ONE transaction.

        The actions after it are played again onto the corrected history; any that no
        longer applies is set aside with the rules' refusal (a person's, for re-entry) or
        dropped (an automatic one: the companion journals the sand's end again by itself).
        The journal keeps both versions. A RuleError (the correction itself refused, no such
        action, or a replay that would need a secret still hidden) changes nothing. A secret
        action still hidden is judged from public facts only (:mod:`companion.table.secrecy`).
        """
        if action is not None:
            jsoncheck.check(action, "the action")
        by = authorship.of(source)
        with self._lock:
            with self.journal.transaction() as db:
                self._sync_locked(db)
                entries = list(self.entries)
                index = next((i for i, e in enumerate(entries) if e.seq == seq), None)
                if index is None:
                    raise RuleError("There is no action {seq} in play.", seq=seq)
                pkg = games.package(self.game)
                hidden = secrecy.hidden_seqs(pkg, self._steps)
                kept, aside, dropped, after = secrecy.replay_tail(pkg, self.rules, self.state_before(index),
                                                                  entries[index].action, action, entries[index + 1:],
                                                                  hidden, _note)
                told = {"before": self.rules.public_state(self.state, None), "after": self.rules.public_state(after, None),
                        "old": pkg.redact(entries[index].action, None),
                        "new": pkg.redact(action, None) if action is not None else None,
                        "aside": [pkg.redact(e.action, None) for e, _ in aside]}  # public views only
                self.journal.rewrite(db, self.id, entries[index], action, kept, aside, dropped,
                                     entries[index].author.again("edit", by), note=told)
                entries = self.journal.active(self.id, db)
                state, steps = self._replay(entries)
                self._record_result(db, state)
                rev = self.journal.rev(self.id, db)
            self.state, self.entries, self._steps, self._rev, self.undone = state, entries, steps, rev, []
            self._refresh_timer()
        self._notify(Change(self, "edit", action))
        return Edited(len(kept), [e for e, _ in aside], [e for e, _ in dropped])

    def set_aside(self) -> list[tuple[JournalEntry, dict[str, Any]]]:
        """The actions an edit set aside, waiting to be re-entered or dropped, with the rules' refusal."""
        with self.journal.reading() as db:
            return self.journal.set_aside(self.id, db)

    def reenter(self, seq: int, source: Author | str = "cli") -> list[Event]:
        """Play an action that an edit set aside, now; it leaves the aside list in the same transaction.

        Its author is ``source`` entering it again (``as: reenter``): the tablet re-entering a
        phone's move acts for that seat, never as its own.
        """
        with self._lock:
            with self.journal.transaction() as db:
                self._sync_locked(db)
                found = next((e for e, _ in self.journal.set_aside(self.id, db) if e.seq == seq), None)
                if found is None:
                    raise RuleError("No action {seq} is set aside.", seq=seq)
                by = authorship.of(source)
                if secrecy.is_secret(games.package(self.game), found.action) and found.author.is_phone \
                        and not by.phone_of(found.author.seat):
                    raise RuleError("Only {player}'s phone can make this move again.", player=found.author.seat)
                before = self.state
                state, events = self.rules.apply(before, found.action)
                author = found.author.again("reenter", by)
                self.journal.settle_aside(db, self.id, seq, "reentered", author)
                entry = self.journal.append(db, self.id, found.action, author)
                self._record_result(db, state)
                rev = self.journal.rev(self.id, db)
            self.state, self._rev, self.undone = state, rev, []
            self._played(entry, before, events, state)
            self._note_timer(entry, events)
            self._refresh_timer()
        self._notify(Change(self, "action", found.action, events, before, state))
        return events

    def drop(self, seq: int, source: Author | str = "cli") -> bool:
        """Give up an action an edit set aside (it stays in the journal as dropped); False when none."""
        with self._lock:
            with self.journal.transaction() as db:
                done = self.journal.settle_aside(db, self.id, seq, "dropped", source)
                self._sync_locked(db)
                self._rev = self.journal.rev(self.id, db)
        if done:
            self._notify(Change(self, "edit", None))
        return done

    # -- the sand timer -----------------------------------------------------------------
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
                    self._commit(action, authorship.LANES)
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

    # -- internals ----------------------------------------------------------
    def _sync_locked(self, db: Any) -> bool:
        rev = self.journal.rev(self.id, db)
        if rev == self._rev and self.state is not None:
            return False
        entries = self.journal.active(self.id, db)
        self.state, self._steps = self._replay(entries)
        self.entries = entries
        self.undone = self.journal.undone(self.id, db)
        self._rev = rev
        self.record = self.journal.game(self.id)
        self._refresh_timer()
        return True

    def _played(self, entry: JournalEntry, before: Any, events: list[Event], after: Any) -> None:
        """An action just journalled joins those in play, with what it did (no replay needed)."""
        self.entries.append(entry)
        self._steps.append(PlayedAction(entry, before, events, after))

    def _replay(self, entries: list[JournalEntry]) -> tuple[Any, list[PlayedAction]]:
        """The state after ``entries`` and what each of them did (the one replay everything else reads:
        :func:`companion.table.played.replay`); :class:`ReplayError` when the game cannot be played again."""
        first, steps = replay(self.rules, self.record, entries)
        self._timer_turned = None
        for step in steps:
            if step.events:
                self._note_timer(step.entry, step.events)
        return (steps[-1].after if steps else first), steps

    def _record_result(self, db: Any, state: Any) -> None:
        outcome = self.rules.outcome(state)
        result = None
        if outcome is not None:
            result = {
                "reason": outcome.reason,
                "text": outcome.sentence("en"),
                "winners": list(outcome.winners),
                "scores": self.rules.scores(state),
            }
        self.journal.set_result(db, self.id, result)
