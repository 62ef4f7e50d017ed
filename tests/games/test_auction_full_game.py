"""The scripted 12-round game, checked round by round against the hand working in
tests/scenarios/auction_full_game.md (the scenario test checks only the final state)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.auction import RULES

SCRIPT = Path(__file__).resolve().parents[1] / "scenarios" / "auction_full_game.jsonl"

#: After each round's upkeep (round 12: at the end): (money, education, points) for Ann, Bob,
#: Cid, then the bank, copied from the "End:" lines of the .md working.
LEDGER = {
    1: ([(700, 4, 0), (900, 2, 0), (1700, 0, 0)], 1200),
    2: ([(1500, 4, 0), (1100, 2, 6), (1900, 0, 3)], 0),
    3: ([(600, 4, 4), (300, 3, 6), (900, 3, 3)], 2700),
    4: ([(800, 4, 4), (300, 3, 6), (500, 3, 3)], 2900),
    5: ([(700, 5, 4), (500, 3, 15), (700, 3, 7)], 2600),
    6: ([(500, 5, 10), (400, 5, 15), (700, 3, 7)], 2900),
    7: ([(600, 5, 13), (1200, 5, 15), (800, 4, 7)], 1900),
    8: ([(200, 8, 13), (500, 5, 24), (600, 4, 13)], 3200),
    9: ([(800, 8, 19), (400, 7, 24), (900, 4, 13)], 2400),
    10: ([(600, 8, 19), (600, 7, 24), (400, 4, 17)], 2900),
    11: ([(600, 8, 28), (600, 7, 30), (1000, 4, 17)], 2300),
    12: ([(400, 8, 28), (600, 7, 30), (600, 4, 21)], 2900),
}
DIRECTIONS = {1: "S", 2: "N", 3: "W", 4: "E", 5: "S", 6: "N", 7: "S", 8: "N", 9: "W", 10: "S", 11: "N", 12: "E"}
START = {1: "Bob", 2: "Bob", 3: "Bob", 4: "Cid", 5: "Cid", 6: "Cid", 7: "Ann", 8: "Bob", 9: "Ann", 10: "Cid", 11: "Ann", 12: "Ann"}


def test_every_round_matches_the_hand_working() -> None:
    lines = [json.loads(line) for line in SCRIPT.read_text().splitlines() if line.strip()]
    header, actions = lines[0], lines[1:]
    state = RULES.setup(header["players"], header["options"])
    seen = {}
    for action in actions:
        before = state
        state, _ = RULES.apply(state, action)
        if state.round != before.round or (state.phase == "over" and before.phase != "over"):
            number = before.round
            seen[number] = (
                [(p.money, p.education, p.points) for p in state.players],
                state.bank,
            )
            assert (RULES.view(before)["direction"], RULES.view(before)["start_player"]) == (DIRECTIONS[number], START[number]), number
    assert seen == LEDGER
