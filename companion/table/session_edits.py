"""The tablet's corrections of a session: an action edited or removed, and what an edit set aside.

Kept apart from :mod:`companion.table.session` because a correction is the one write that goes
back in time: the actions after the one corrected are played again onto the corrected history
(secrets still hidden judged from public facts only, :mod:`companion.table.secrecy`), and those
that no longer apply wait to be re-entered or dropped. :class:`~companion.table.session.Session`
is made with it; each correction is ONE transaction of the journal.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion import games
from companion.engine import jsoncheck
from companion.engine.rules import Action, Event, RuleError, Rules
from companion.table import authorship, secrecy
from companion.table.authorship import Author
from companion.table.journal import Journal
from companion.table.played import PlayedAction
from companion.table.rows import JournalEntry


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


class Corrections:
    """Edits, removals and the actions set aside, for a :class:`~companion.table.session.Session`."""

    journal: Journal
    rules: Rules
    state: Any
    entries: list[JournalEntry]
    _steps: list[PlayedAction]
    undone: list[JournalEntry]
    _rev: int
    _lock: threading.RLock

    if TYPE_CHECKING:  # what the session it is part of provides
        @property
        def id(self) -> str: ...

        @property
        def game(self) -> str: ...

        @property
        def players(self) -> list[str]: ...

        @property
        def options(self) -> dict[str, Any]: ...

        def _sync_locked(self, db: Any) -> bool: ...

        def _replay(self, entries: list[JournalEntry]) -> tuple[Any, list[PlayedAction]]: ...

        def state_before(self, index: int) -> Any: ...

        def _record_result(self, db: Any, state: Any) -> None: ...

        def _refresh_timer(self) -> None: ...

        def _played(self, entry: JournalEntry, before: Any, events: list[Event], after: Any) -> None: ...

        def _note_timer(self, entry: JournalEntry, events: list[Event]) -> None: ...

        def _changed(self, kind: str, action: Action | None, events: list[Event] | None = None,
                     before: Any = None, after: Any = None) -> None: ...

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
        self._changed("edit", action)
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
        self._changed("action", found.action, events, before, state)
        return events

    def drop(self, seq: int, source: Author | str = "cli") -> bool:
        """Give up an action an edit set aside (it stays in the journal as dropped); False when none."""
        with self._lock:
            with self.journal.transaction() as db:
                done = self.journal.settle_aside(db, self.id, seq, "dropped", source)
                self._sync_locked(db)
                self._rev = self.journal.rev(self.id, db)
        if done:
            self._changed("edit", None)
        return done
