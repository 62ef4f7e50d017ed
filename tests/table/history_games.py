"""A dozen games recorded into a journal for the history tests: ties, a tie broken, an abandoned
game and a deleted one, each played line by line through a Session (the rules, the real journal).

``EXPECTED`` are the counts worked by hand from the scenarios' results (companion script prints
them): the history must say the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.table.journal import Journal
from companion.table.library import Library
from companion.table.session import Session

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

#: in the order they are recorded (one hour apart on the journal's clock), and what Home did with them
PLAYED = [
    ("auction_full_game", None),             # Ann, Bob, Cid: Bob wins a 33-33 tie on money
    ("auction_table_shared_win", None),      # Dee, Eli: a shared win
    ("auction_table_tie_on_money", None),    # Ann, Bob, Cid: Cid wins a 19-19 tie on money
    ("auction_review_two_players", None),    # Eve, Fay: Eve
    ("dice_review_four_players_tie", None),  # Ann, Bob, Cy, Dee: Ann and Bob share it
    ("dice_two_player_variant", None),       # Ann, Bob: Ann
    ("dice_full_game", None),                # Ann, Bob: Bob
    ("galerapagos_review_3p", None),         # Ann, Bob, Cid: Ann and Cid leave on the raft
    ("galerapagos_full_game", None),         # Ann, Bob, Cid, Dan: all but Dan
    ("pocket_win_ten_turns", None),          # Ann alone: won
    ("pocket_complete_loss_collapse", None),  # Ann alone: lost
    ("dice_early_stop", "abandon"),          # Ann, Bob: stopped half-way
    ("pocket_win_ten_turns", "delete"),      # Ann: won, then deleted from Home
]

#: per player: played to the end, won, of which shared, abandoned, the run of wins at the end, the longest run
EXPECTED = {
    "Ann": {"played": 9, "won": 5, "shared": 3, "abandoned": 1, "streak": 0, "best_streak": 3},
    "Bob": {"played": 7, "won": 4, "shared": 2, "abandoned": 1, "streak": 1, "best_streak": 1},
    "Cid": {"played": 4, "won": 3, "shared": 2, "abandoned": 0, "streak": 3, "best_streak": 3},
    "Dee": {"played": 2, "won": 1, "shared": 1, "abandoned": 0, "streak": 0, "best_streak": 1},
    "Dan": {"played": 1, "won": 0, "shared": 0, "abandoned": 0, "streak": 0, "best_streak": 0},
}


def lines(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    rows = [json.loads(x) for x in (SCENARIOS / f"{name}.jsonl").read_text().splitlines() if x.strip()]
    return rows[0], rows[1:]


def record(db: Path, start: float = 1_790_000_000.0) -> list[str]:
    """Record :data:`PLAYED` into the journal at ``db``; the games' ids, in that order."""
    now = [start]
    journal = Journal(db, clock=lambda: now[0])
    ids = []
    try:
        for name, then in PLAYED:
            head, actions = lines(name)
            session = Session.new(journal, head["game"], head["players"], head.get("options", {}),
                                  clock=lambda: now[0], wall=lambda: now[0])
            for action in actions:
                now[0] += 1.0
                session.act(action, "cli")
            ids.append(session.id)
            if then == "abandon":
                Library(journal).abandon(session.id)
            elif then == "delete":
                Library(journal).delete(session.id)
            session.close()
            now[0] += 3600.0
    finally:
        journal.close()
    return ids
