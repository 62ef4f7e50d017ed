"""galerapagos properties (hypothesis): any sequence of actions, legal or not, never crashes; a
refused action leaves the state byte-identical; food and water never go negative; the dead never
act; candidates are always accepted and exist while the game goes on."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.rules import RuleError
from companion.games.galerapagos.moves import confirmed
from companion.games.galerapagos.rules import IMPLIED, GalerapagosRules

RULES = GalerapagosRules()
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
ACTS = {"fish", "water", "wood", "search"}
CARD_PLAYS = {"resource", "shoot", "place"}

who = st.sampled_from([*NAMES, "Zed", None, 3])
number = st.integers(min_value=-2, max_value=10) | st.sampled_from([True, "2", None])
garbage = st.one_of(
    st.fixed_dictionaries({"type": st.just("weather"), "water": number},
                          optional={"hurricane": st.booleans()}),
    st.fixed_dictionaries({"type": st.sampled_from(sorted(ACTS)), "player": who},
                          optional={"fish": number}),
    st.fixed_dictionaries({"type": st.just("wood"), "player": who, "extra": number,
                           "snake": st.booleans()}),
    st.fixed_dictionaries({"type": st.just("resource"), "player": who,
                           "resource": st.sampled_from(["water", "food", "wood"]), "amount": number},
                          optional={"basket": st.booleans()}),
    st.fixed_dictionaries({"type": st.sampled_from(["vote", "tiebreak", "shoot", "give"]),
                           "player": who, "target": who}),
    st.fixed_dictionaries({"type": st.sampled_from(["sick", "heal", "revive"]), "player": who},
                          optional={"by": who}),
    st.fixed_dictionaries({"type": st.just("place"), "player": who,
                           "card": st.sampled_from(["revolver", "axe", "slip"])}),
    st.fixed_dictionaries({"type": st.sampled_from(["embark", "pass", "", "close", "survival", "debate"])}),
    st.fixed_dictionaries({"type": st.sampled_from(["no_card", "close", "survival", "debate"]), "player": who}),
)
#: each step: maybe an arbitrary action (mostly refused), then a legal candidate chosen by index,
#: so that the game goes deep (votes, deaths, the hurricane) while garbage probes every moment.
steps = st.lists(st.tuples(st.none() | garbage, st.integers(min_value=0, max_value=10_000)),
                 min_size=10, max_size=200)


def check_invariants(state) -> None:
    v = RULES.view(state)
    assert v["food"] >= 0 and v["water"] >= 0
    assert 0 <= v["wood"] <= 5 and 0 <= v["rafts"] <= 12
    assert all(p["cards"] >= 0 for p in v["players"])
    assert all(p["alive"] or not p["sick"] for p in v["players"])
    assert 0 <= v["basket"] <= v["food"]
    assert v["over"] == (RULES.outcome(state) is not None)
    assert not (v["over"] and v["show_cards"]), "never over while a moment to show cards is open"
    assert set(RULES.winners(state)) <= {p["name"] for p in v["players"] if p["alive"]}
    if not v["over"]:
        assert RULES.candidates(state)
        alive = {p["name"] for p in v["players"] if p["alive"]}
        assert set(v["waiting"]) <= alive | ({p["name"] for p in v["players"]} if v["options"]["dead_vote"] else set())


def may_act(state, action) -> bool:
    """Who acts must be alive now; « I have none » only from a castaway the moment asks.

    A line of the survival step during the pause implies its start: judged on the state after it."""
    if state.phase == "acted" and action["type"] in IMPLIED:
        state = confirmed(state)
    v = RULES.view(state)
    name = action.get("player")
    living = {p["name"] for p in v["players"] if p["alive"]}
    if action["type"] in ACTS:
        return name == v["turn"] and name in living
    if action["type"] == "vote":
        return name in living or v["options"]["dead_vote"]
    if action["type"] in CARD_PLAYS:
        return name in living
    if action["type"] == "no_card":  # asked (holding a card), or at risk holding none; at the raft, anyone alive
        moment = v["show_cards"] or {}
        if not moment or name in moment.get("answered", []) or name not in living:
            return False
        return (name in moment.get("players", []) or name in moment.get("at_risk", [])
                or moment.get("kind") == "raft")
    return True


@pytest.mark.slow(reason="250 random Galèrapagos games (hypothesis) of up to 200 actions, "
                         "the state compared before and after each refusal")
@settings(max_examples=250, deadline=None)
@given(st.integers(min_value=3, max_value=8), st.booleans(), steps)
def test_random_actions_never_crash_and_refusals_change_nothing(count, dead_vote, sequence) -> None:
    state = RULES.setup(NAMES[:count], {"dead_vote": dead_vote})
    check_invariants(state)
    for probe, pick in sequence:
        if probe is not None:
            state = attempt(state, probe, legal=False)
        cands = RULES.candidates(state)
        if cands:
            state = attempt(state, cands[pick % len(cands)], legal=True)


def attempt(state, action, legal: bool):
    """Apply one action, checking refusals change nothing and accepted moves keep the invariants."""
    before = RULES.fingerprint(state)
    try:
        new, _ = RULES.apply(state, action)
    except RuleError:
        assert not legal, f"candidate {action} refused"
        assert RULES.fingerprint(state) == before
        return state
    assert may_act(state, action), action
    check_invariants(new)
    return new


def test_random_playouts_always_end() -> None:
    """Seeded playouts from the candidates finish within the twelve weather cards."""
    rng = random.Random(2024)
    reasons = set()
    for game in range(300):
        state = RULES.setup(NAMES[: 3 + game % 6], {"dead_vote": game % 2 == 0})
        for _ in range(2000):
            if RULES.view(state)["over"]:
                break
            state, _ = RULES.apply(state, rng.choice(RULES.candidates(state)))
            check_invariants(state)
        assert RULES.view(state)["over"] and RULES.view(state)["round"] <= 12
        reasons.add(RULES.outcome(state).reason)
    assert reasons == {"embark", "hurricane", "hecatomb"}
