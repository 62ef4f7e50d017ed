"""Galèrapagos: a stale « go to survival » is refused in one sentence; a hurricane card with drops replays at the table.

A note on the moves: the hidden ``survival`` alias was accepted as a no-op during a
tie-break (it now says why nothing happens), and a weather line carrying both
``hurricane: true`` and ``water: N`` must reach the same state through the simulated table.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from companion import games
from companion.board.replay import replay_via_table
from companion.engine.rules import RuleError
from companion.games.galerapagos import rules as R
from tests.games.test_galerapagos_moves import starving_playout

PKG = games.package("galerapagos")
RULES = PKG.rules


def lines_of(*rows: dict) -> list[str]:
    return [json.dumps(r) for r in rows]


def tie_state() -> R.State:
    """The full game's round 4: Ann and Dan tie at two votes, Bob (the first player) must choose."""
    with open("tests/scenarios/galerapagos_full_game.jsonl", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    s = RULES.setup(rows[0]["players"], rows[0].get("options", {}))
    for action in rows[1:]:
        s = RULES.apply(s, action)[0]
        if s.tie:
            return s
    raise AssertionError("the full game has no tie")


def test_a_survival_press_during_a_tie_break_is_refused_and_changes_nothing() -> None:
    s = tie_state()
    first = s.names[s.first]
    with pytest.raises(RuleError) as info:
        RULES.apply(s, {"type": "survival", "player": first})
    err = info.value
    assert err.message == f"The survival step is already under way: {first}, the first player, must break the tie."
    assert PKG.error_text(err, "fr").startswith("L'étape de survie est déjà en cours : ")
    assert "{" not in PKG.error_text(err, "fr")
    assert RULES.view(s) == RULES.view(tie_state())  # nothing changed: the state is a value


def first_state(found: Callable[[R.State], bool]) -> R.State:
    for seed in range(40):
        for s in starving_playout(seed):
            if found(s):
                return s
    raise AssertionError("no such state in 40 playouts")


def test_the_moot_confirmation_is_still_accepted_when_the_step_began_by_itself() -> None:
    """« Go to survival » right after a token on 0 opened the step: accepted, nothing changes."""
    s = first_state(R.survival_moot)
    after, events = RULES.apply(s, {"type": "survival", "player": s.names[s.first]})
    assert after._replace(done=s.done) == s and events == []  # ``done`` counts the journal's lines


def test_during_a_ballot_the_press_is_refused_too() -> None:
    s = first_state(lambda s: s.phase in (R.WATER, R.FOOD) and s.ballot is not None and not s.tie)
    with pytest.raises(RuleError) as info:
        RULES.apply(s, {"type": "survival"})
    assert info.value.message.startswith("The survival step is already under way: the castaways are voting")


def test_the_alias_is_offered_exactly_when_the_rules_take_it() -> None:
    """Every move offered is accepted: the hidden « go to survival » only while it is moot."""
    from companion.games.galerapagos import moves as M

    s = tie_state()
    assert not any(f["type"] == "survival" for f in M.moves(s))
    s = first_state(R.survival_moot)
    assert any(f["type"] == "survival" for f in M.moves(s))


HURRICANE_GAME = lines_of(
    {"game": "galerapagos", "players": ["Ann", "Bob", "Cid"], "options": {}},
    {"type": "weather", "water": 2, "hurricane": False},
    {"type": "water", "player": "Ann"},
    {"type": "fish", "player": "Bob", "fish": 2},
    {"type": "search", "player": "Cid"},
    {"type": "survival", "player": "Ann"},
    {"type": "weather", "hurricane": True, "water": 3},
    {"type": "water", "player": "Cid"},
)


def test_a_hurricane_card_with_its_drops_replays_the_same_through_the_table() -> None:
    """The hurricane is a weather card: its drops are what « Collecter de l'eau » reads."""
    report = replay_via_table(HURRICANE_GAME)
    assert report.get("ok") is True, report
    assert report["lines"] == len(HURRICANE_GAME) - 1


def test_the_hurricane_s_drops_are_the_water_collected() -> None:
    s = RULES.setup(["Ann", "Bob", "Cid"], {})
    for line in HURRICANE_GAME[1:7]:
        s = RULES.apply(s, json.loads(line))[0]
    assert s.hurricane and s.weather == 3
    after, _ = RULES.apply(s, {"type": "water", "player": "Cid"})
    assert after.water == s.water + 3


def test_a_hurricane_both_early_and_with_other_drops_is_told_both() -> None:
    """The table checks the very card it laid: round 2 (the deck allows round 7) and 3 drops (the card shows 2)."""
    s = RULES.setup(["Ann", "Bob", "Cid"], {})
    for line in HURRICANE_GAME[1:6]:
        s = RULES.apply(s, json.loads(line))[0]
    action = json.loads(HURRICANE_GAME[6])
    after, events = RULES.apply(s, action)
    lines = PKG.narrate(s, action, events, after, "en")
    assert "The hurricane comes up in round 2, earlier than the deck allows (round 7), and shows 3 drops, not 2: " \
           "accepted as seen." in lines
    assert any("et montre 3 gouttes, pas 2" in line for line in PKG.narrate(s, action, events, after, "fr"))
