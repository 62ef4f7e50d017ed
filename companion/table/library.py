"""Home's library of games: which ones the table abandoned or deleted, and the statistics per player.

A family stops a game half-way (the children went to bed) or started one by mistake: Home must
stop offering it, and the table must stop putting it back on at start-up, yet the journal keeps
every action ever taken (nothing is deleted from it). So the marks live in a table of their own,
``library``, in the journal's file: created when first written, written through
:meth:`Journal.transaction` (a full or read-only card refuses with the journal's one sentence),
read as empty when it is not there yet (a journal from before, a read-only card).

* **abandon** — an unfinished game becomes *abandoned*: listed on Home as such, not resumed, in
  the history exports with the reason ``abandoned``;
* **play on** — an abandoned game (not deleted) is *playing* again;
* **delete** — the game no longer shows on Home (and no longer counts in its statistics); an
  unfinished one is abandoned too. The history exports keep it.

A game's state is *playing*, *over* (it has a result) or *abandoned*.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.engine.rules import RuleError
from companion.table.extras import player_stats
from companion.table.journal import Journal
from companion.table.rows import GameRecord

SCHEMA = """
CREATE TABLE IF NOT EXISTS library (
    game_id    TEXT PRIMARY KEY REFERENCES games(id),
    abandoned  REAL,
    deleted    REAL
)
"""

PLAYING, OVER, ABANDONED = "playing", "over", "abandoned"


@dataclass(frozen=True)
class Mark:
    """What the table decided about one game (the times it did, from the journal's clock)."""

    abandoned: float | None = None
    deleted: float | None = None


class Library:
    """The abandon/delete marks of one journal, and what Home lists from them."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal

    # -- reading ------------------------------------------------------------------------
    def marks(self) -> dict[str, Mark]:
        """Every game's mark; none at all while the table was never written (or on a read-only card)."""
        with self.journal.reading() as db:
            try:
                rows = db.execute("SELECT game_id, abandoned, deleted FROM library").fetchall()
            except sqlite3.OperationalError as exc:
                if "no such table" in str(exc):
                    return {}
                raise
        return {gid: Mark(abandoned, deleted) for gid, abandoned, deleted in rows}

    @staticmethod
    def state(record: GameRecord, mark: Mark | None) -> str:
        """*over* once the game has a result (even one abandoned, then played to its end), else
        *abandoned* if the table said so, else *playing*."""
        if record.finished is not None:
            return OVER
        return ABANDONED if mark is not None and mark.abandoned is not None else PLAYING

    def listed(self) -> list[tuple[GameRecord, str]]:
        """The games Home shows, newest first, each with its state: every game not deleted."""
        marks = self.marks()
        return [(rec, self.state(rec, marks.get(rec.id))) for rec in self.journal.games()
                if marks.get(rec.id, Mark()).deleted is None]

    def history(self) -> list[tuple[GameRecord, str, bool]]:
        """What the exports keep: the finished and the abandoned games, deleted ones included,
        each with its state and whether it was deleted from Home."""
        marks = self.marks()
        out = []
        for rec in self.journal.games():
            mark = marks.get(rec.id)
            state = self.state(rec, mark)
            if state != PLAYING:
                out.append((rec, state, mark is not None and mark.deleted is not None))
        return out

    def resumable(self, records: Iterable[GameRecord]) -> list[GameRecord]:
        """``records`` without the games the table abandoned or deleted (the table never puts them back on)."""
        marks = self.marks()
        return [rec for rec in records if self.state(rec, marks.get(rec.id)) != ABANDONED]

    # -- the table's decisions -------------------------------------------------------------
    def abandon(self, game_id: str) -> None:
        """The game stops here: Home lists it as abandoned and the table no longer resumes it."""
        record = self.journal.game(game_id)  # UnknownGame: one sentence
        if record.finished is not None:
            raise RuleError("This game is over; only an unfinished game can be abandoned.")
        self._mark(game_id, abandoned=True)

    def play_on(self, game_id: str) -> None:
        """An abandoned game is taken up again (a mistaken tap, the children back from the garden):
        *playing* on Home and resumed again. The mark's row stays, its abandon time cleared."""
        self.journal.game(game_id)
        mark = self.marks().get(game_id)
        if mark is None or mark.abandoned is None or mark.deleted is not None:
            raise RuleError("Only a game abandoned on Home, and not deleted, can be played on.")
        with self.journal.transaction() as db:
            db.execute("UPDATE library SET abandoned = NULL WHERE game_id = ?", (game_id,))

    def delete(self, game_id: str) -> None:
        """Home no longer shows the game; an unfinished one is abandoned too. Its actions stay in the journal."""
        record = self.journal.game(game_id)
        self._mark(game_id, abandoned=record.finished is None, deleted=True)

    def _mark(self, game_id: str, abandoned: bool = False, deleted: bool = False) -> None:
        now = self.journal.now()  # the journal's own clock, as its games' times
        with self.journal.transaction() as db:
            db.execute(SCHEMA)
            db.execute("INSERT OR IGNORE INTO library (game_id) VALUES (?)", (game_id,))
            if abandoned:
                db.execute("UPDATE library SET abandoned = COALESCE(abandoned, ?) WHERE game_id = ?", (now, game_id))
            if deleted:
                db.execute("UPDATE library SET deleted = COALESCE(deleted, ?) WHERE game_id = ?", (now, game_id))

    # -- statistics --------------------------------------------------------------------------
    def stats(self) -> list[dict[str, Any]]:
        """Per player, over the finished games Home shows: played, won, the win rate, best and
        average score, and the same per game (``games``: game id -> ``{"played", "won"}``)."""
        marks = self.marks()
        finished = [rec for rec in self.journal.games(finished=True) if marks.get(rec.id, Mark()).deleted is None]
        return player_stats(finished)  # the one count (companion.table.extras)

