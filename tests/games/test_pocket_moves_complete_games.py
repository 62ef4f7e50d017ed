"""pocket-galapagos complete games (``tests/scenarios/pocket_complete_*``), worked out by hand.

After each end of turn the trackers, rows and turn track are the hand working's
(``NAME.checkpoints.json``, explained in ``pocket_complete_games.md``); every line was offered
before it was played (``companion script --audit``); and the story ends with the win or the
loss and why, in English and French. That the simulated table alone (dial and buttons) reaches
the same final state (``companion replay --via table``) is checked for every scenario, these
included, in tests/engine/test_interfaces_contract.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.engine import audit
from companion.games import package

GAME = package("pocket-galapagos")
RULES = GAME.rules
SCENARIOS = Path(__file__).parents[1] / "scenarios"
GAMES = sorted(SCENARIOS.glob("pocket_complete_*.jsonl"))


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_there_is_a_won_and_a_lost_complete_game() -> None:
    outcomes = set()
    for path in GAMES:
        lines = lines_of(path)
        head = json.loads(lines[0])
        state = RULES.setup(head["players"], head["options"])
        for text in lines[1:]:
            state, _ = RULES.apply(state, json.loads(text))
        outcomes.add(state.result)
    assert {"survived", "populations_collapsed"} <= outcomes


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_end_of_turn_matches_the_hand_working(path: Path) -> None:
    working = path.parent / f"{path.stem}.checkpoints.json"
    checkpoints = {c["after_line"]: c for c in json.loads(working.read_text())}
    lines = lines_of(path)
    head = json.loads(lines[0])
    state = RULES.setup(head["players"], head["options"])
    ends = 0
    for number, text in enumerate(lines[1:], start=2):
        action = json.loads(text)
        state, _ = RULES.apply(state, action)
        if action["type"] == "end_turn":
            ends += 1
            assert number in checkpoints, f"line {number} ends a turn without a checkpoint"
        if number in checkpoints:
            view = RULES.view(state)
            for key, want in checkpoints[number]["expect"].items():
                assert view[key] == want, f"line {number} ({checkpoints[number]['why']}): {key}"
    assert ends == len(checkpoints)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_line_was_offered_and_every_move_offered_is_accepted(path: Path) -> None:
    report = audit.audit(lines_of(path))
    assert report["ok"] and report["actions"] == len(lines_of(path)) - 1, report["gaps"]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_the_story_ends_with_the_outcome_and_why(path: Path) -> None:
    story: dict[str, list[str]] = {"en": [], "fr": []}
    lines = lines_of(path)
    head = json.loads(lines[0])
    state: Any = RULES.setup(head["players"], head["options"])
    for text in lines[1:]:
        action = json.loads(text)
        after, events = RULES.apply(state, action)
        for lang in story:
            story[lang] += GAME.narrate(state, action, events, after, lang)
        state = after
    if state.result == "survived":
        assert story["en"][-1] == "Ann survives all 10 turns and wins!"
        assert story["fr"][-1] == "Ann survit aux 10 tours et gagne !"
    else:
        assert story["en"][-2:] == ["End of turn 8: every population falls by one (rat 1→0, ant 1→0, finch 3→2).",
                                    "Two populations are at 0 (rat and ant): Ann loses."]
        assert story["fr"][-1] == "Deux populations sont à 0 (rat et fourmi) : Ann perd."
    assert sum(line.startswith("End of turn") for line in story["en"]) == state.survived + (state.result != "survived")
