"""Upgrades lose nothing: a game journalled under an earlier version of its rules is brought up to date.

Each game's journal records the version of its game's rules it was played under
(``games.rules_version``; a package declares its version in ``migrate.py``, 1 by default). When
a game is opened under a newer version, its package's ``migrate`` translates its lines to
today's vocabulary (the dice game's planning rules changed: see
``companion/games/dice/migrate.py``), and the journal keeps both (:meth:`Journal.migrate_lines`:
the old rows ``replaced``, the translated ones active), so the table finishes the game.

A game from before versions were recorded (NULL) is replayed as it is first: if today's rules
take it, it is stamped with today's version; if not, it is migrated from version 1. A game that
cannot be migrated is left as it was: the replay then says, in one sentence, where it stops.
"""

from __future__ import annotations

import logging
from typing import Any

from companion import games
from companion.engine.rules import RuleError
from companion.table.journal import Journal
from companion.table.rows import GameRecord, JournalUnavailable

log = logging.getLogger(__name__)


def _replays(rules: Any, record: GameRecord, actions: list[dict[str, Any]]) -> bool:
    try:
        state = rules.setup(list(record.players), dict(record.options))
        for action in actions:
            state, _ = rules.apply(state, action)
    except Exception:  # noqa: BLE001 - a refusal or a rules bug: not replayable as it is
        return False
    return True


def upgrade(journal: Journal, record: GameRecord) -> GameRecord:
    """``record`` with its lines in today's version of its rules (migrated in the journal when needed)."""
    try:
        pkg = games.package(record.game)
    except RuleError:
        return record  # a game no longer installed: opening it says so
    current = pkg.rules_version
    if record.rules_version is not None and record.rules_version >= current:
        return record
    entries = journal.active(record.id)
    actions = [dict(e.action) for e in entries]
    try:
        if record.rules_version is None and _replays(pkg.rules, record, actions):
            journal.set_rules_version(record.id, current)  # played under today's rules: say so
            return journal.game(record.id)
        version = record.rules_version or 1
        lines = pkg.migrate(actions, version, list(record.players), dict(record.options))
        if lines is None or not _replays(pkg.rules, record, [a for _, a in lines]):
            return record
        journal.migrate_lines(record.id, entries, lines, current)
    except JournalUnavailable:
        return record  # a read-only card: replayed as it is (and refused in one sentence if it must be)
    except RuleError as err:
        log.warning("game %s (%s, rules version %s) cannot be migrated: %s", record.id, record.game, version, err)
        return record
    log.info("game %s (%s) migrated from rules version %s to %s", record.id, record.game, version, current)
    return journal.game(record.id)
