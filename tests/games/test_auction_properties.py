"""galapagos-auction property tests: random legal playouts and random refused actions.

Invariants from the components list: the bank is the only other holder of money ("The
remaining money forms the bank"), and the 63 animal tokens are always somewhere — the supply,
the education track (one of each kind) or a player's hand.
"""

from __future__ import annotations

from random import Random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.rules import RuleError
from companion.games.auction.rules import ANIMALS, AuctionState
from tests.support.auction import RULES

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")
STEPS = st.integers(0, 900)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

garbage = st.fixed_dictionaries(
    {"type": st.sampled_from(sorted(RULES.actions))},
    optional={
        "player": st.sampled_from(NAMES + ("Zed",)),
        "direction": st.sampled_from(["N", "E", "S", "W", "X"]),
        "amount": st.integers(-200, 4000),
        "steps": st.integers(-1, 6),
        "animal": st.sampled_from(ANIMALS + ("dodo",)),
        "animals": st.lists(st.sampled_from(ANIMALS), max_size=7),
        "give": st.lists(st.sampled_from(ANIMALS), max_size=3),
        "take": st.sampled_from(ANIMALS),
        "count": st.integers(-1, 9),
        "bonus": st.sampled_from(["1", "3", "6", "crab", 2, None]),
        "wildcard": st.booleans(),
    },
)


def playout(players: int, rng: Random, steps: int) -> tuple[AuctionState, list[dict[str, Any]], list[AuctionState]]:
    """Play ``steps`` random candidates (a whole game is 300-700); return end state, events, states."""
    state = RULES.setup(list(NAMES[:players]), {})
    events: list[dict[str, Any]] = []
    states = [state]
    for _ in range(steps):
        options = RULES.candidates(state)
        if not options:
            break
        state, produced = RULES.apply(state, rng.choice(options))
        events += produced
        states.append(state)
    return state, events, states


@SETTINGS
@given(st.integers(2, 5), st.randoms(use_true_random=False), STEPS)
def test_money_is_conserved(players: int, rng: Random, steps: int) -> None:
    """Every pound a player gains or loses is a payment to or from the bank."""
    state, events, _ = playout(players, rng, steps)
    flows = sum(e["amount"] for e in events if e["type"] == "money")
    total = sum(p.money for p in state.players)
    assert total == 1500 * players + flows
    assert total + state.bank == 1500 * players
    assert all(p.money >= 0 for p in state.players)


@SETTINGS
@given(st.integers(2, 5), st.randoms(use_true_random=False), STEPS)
def test_63_animal_tokens_are_conserved(players: int, rng: Random, steps: int) -> None:
    """"63 Animal Tokens": supply + the six on the track + the players' tokens, kind by kind."""
    _, _, states = playout(players, rng, steps)
    for state in states:
        for kind, total in enumerate((13, 12, 11, 10, 9, 8)):
            held = sum(p.animals[kind] for p in state.players)
            assert state.supply[kind] + 1 + held == total
            assert state.supply[kind] >= 0 and held >= 0
        assert all(0 <= f <= 25 for f in state.track)
        assert all(0 <= p.education <= 25 for p in state.players)


@SETTINGS
@given(st.integers(2, 5), st.randoms(use_true_random=False), STEPS, st.lists(garbage, min_size=1, max_size=8))
def test_rejected_actions_leave_the_state_identical(players: int, rng: Random, steps: int, tries: list[dict]) -> None:
    """A refused action (a RuleError) never changes the state it was given."""
    state, _, _ = playout(players, rng, steps)
    for action in tries:
        before = RULES.fingerprint(state)
        try:
            after, _ = RULES.apply(state, action)
        except RuleError as err:
            assert err.message and err.message.endswith((".", "!"))
            assert RULES.fingerprint(state) == before
        else:
            assert RULES.fingerprint(state) == before
            state = after


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 5), st.randoms(use_true_random=False))
def test_playouts_end_after_twelve_rounds(players: int, rng) -> None:
    """Candidates never run dry before the end; the game ends after round 12 with a winner."""
    state = RULES.setup(list(NAMES[:players]), {})
    for _ in range(5000):
        options = RULES.candidates(state)
        if not options:
            break
        state, _ = RULES.apply(state, rng.choice(options))
    view = RULES.view(state)
    assert view["over"] and view["round"] == 12 and view["bonus_face_down"] == []
    assert RULES.winners(state)
    assert len(state.used_tiles) == 15
