"""One replay for everyone: a game's journalled actions in play, played again under today's rules.

The session replays with it (:meth:`companion.table.session.Session.steps` keeps what it computed), and
so does the club's outbox, which runs inside the journal's transaction where no session is at hand
(:mod:`companion.club.outbox`). One policy: a line today's rules refuse, or that makes them fail, is
a :class:`ReplayError` for that game only (a storage failure: the game's rows cannot be played again;
the other games play on). Nothing here skips a line, so every reader tells the same game or none.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.engine import jsoncheck
from companion.engine.rules import Event, RuleError, Rules
from companion.table.rows import GameRecord, JournalEntry, StorageError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PlayedAction:
    """One journalled action played again: its entry, the state before it, the rules' events and the state
    after. Readers (the story, corrections, extras, the club's messages) read these instead of replaying
    the game themselves; the states are the rules' own values, never changed in place."""

    entry: JournalEntry
    before: Any
    events: list[Event]
    after: Any


class ReplayError(StorageError):
    """A game's journal cannot be played again: its set-up or a line today's rules refuse (written by
    another version), or a value an older version let in. That game only; a storage failure, never a
    refusal of a player's move."""

    one_game = True


def set_up(rules: Rules, record: GameRecord) -> Any:
    """The game's first state from its journalled players and options; :class:`ReplayError` when today's
    rules refuse them."""
    try:
        jsoncheck.check(record.options, "the options")  # an older version let NaN in
        return rules.setup(list(record.players), dict(record.options))
    except RuleError as err:
        raise ReplayError("Game {game} cannot be set up again: {why}", game=record.id, why=err.message) from None
    except Exception as exc:  # options an older version let in (a NaN timer): this game only
        log.exception("setting up game %s again", record.id)
        raise ReplayError("Game {game} cannot be set up again ({what}).", game=record.id,
                          what=type(exc).__name__) from None


def play_onto(rules: Rules, record: GameRecord, state: Any, entries: Iterable[JournalEntry]) -> list[PlayedAction]:
    """``entries`` played in turn from ``state``; :class:`ReplayError` at the first one the rules refuse."""
    played: list[PlayedAction] = []
    for entry in entries:
        try:
            after, events = rules.apply(state, entry.action)
        except RuleError as err:
            raise ReplayError("Game {game} cannot be replayed at journal entry {seq}: {why}",
                              game=record.id, seq=entry.seq, why=err.message) from None
        except Exception as exc:  # a rules bug, or a value an older version let in: this game only
            log.exception("replaying game %s at entry %s", record.id, entry.seq)
            raise ReplayError("Game {game} cannot be replayed at journal entry {seq} ({what}).",
                              game=record.id, seq=entry.seq, what=type(exc).__name__) from None
        played.append(PlayedAction(entry, state, events, after))
        state = after
    return played


def replay(rules: Rules, record: GameRecord, entries: Iterable[JournalEntry]) -> tuple[Any, list[PlayedAction]]:
    """The game's set-up state and each of ``entries`` (its actions in play) played again."""
    first = set_up(rules, record)
    return first, play_onto(rules, record, first, entries)
