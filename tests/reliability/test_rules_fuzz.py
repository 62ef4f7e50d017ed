"""Every game's ``apply`` against random JSON actions, interleaved with legal play.

Whatever arrives — a legal move, a plausible but wrong one, or junk — the engine
either accepts it or raises RuleError; a rejection leaves the state exactly as it
was, and the public state stays JSON. ``make test`` runs a short version; the soak
profile (``make soak``) runs many more examples.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import games
from companion.engine.rules import RuleError

EXAMPLES = 40
SOAK_EXAMPLES = 2000
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 40), st.sampled_from(PLAYERS + ["Zed", "N", "E", "S", "W"]),
    st.text(max_size=5), st.floats(allow_nan=False, allow_infinity=False, width=16),
)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6)


def vocabulary_actions(rules):
    """Actions with a known type and plausible field names, but random values."""
    def build(kind: str, values: dict) -> dict:
        return {"type": kind, **values}

    return st.sampled_from(sorted(rules.actions)).flatmap(
        lambda kind: st.fixed_dictionaries(
            {}, optional={name: json_values for name in sorted(rules.actions[kind])}
        ).map(lambda values, kind=kind: build(kind, values))
    )


class Pick(int):
    """Play the candidate at this index (modulo the number of candidates)."""


picks = st.integers(0, 1000).map(Pick)


def moves(rules):
    """Either 'play candidate #i' (an int) or a random action (a dict or junk)."""
    return st.lists(
        st.one_of(picks, picks, vocabulary_actions(rules), json_values),
        min_size=1, max_size=60,
    )


def check_game(game_id: str, data: st.DataObject) -> None:
    rules = games.get(game_id)
    count = max(rules.min_players, min(4, rules.max_players))
    state = rules.setup(PLAYERS[:count], {})
    for move in data.draw(moves(rules)):
        if isinstance(move, Pick):
            candidates = rules.candidates(state)
            if not candidates:
                continue
            action = candidates[move % len(candidates)]
        else:
            action = move
        before = rules.fingerprint(state)
        try:
            new_state, events = rules.apply(state, action)
        except RuleError as err:
            assert err.message and "\n" not in err.message
            assert rules.fingerprint(state) == before, f"rejected {action!r} changed the state"
            if isinstance(move, Pick):
                raise AssertionError(f"candidate {action!r} was refused: {err.message}") from None
            continue
        assert rules.fingerprint(state) == before, f"apply mutated the state it was given on {action!r}"
        json.dumps(rules.public_state(new_state))
        assert isinstance(events, list)
        state = new_state


@pytest.mark.parametrize("game_id", games.ids())
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_apply_never_crashes_and_rejections_change_nothing(game_id: str, data: st.DataObject) -> None:
    check_game(game_id, data)


@pytest.mark.soak
@pytest.mark.parametrize("game_id", games.ids())
@settings(max_examples=SOAK_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_soak_apply_fuzzed_at_length(game_id: str, data: st.DataObject) -> None:
    check_game(game_id, data)


@pytest.mark.parametrize("game_id", games.ids())
def test_a_list_or_an_object_in_any_field_is_refused_in_one_sentence(game_id: str) -> None:
    """Every field of every action type, given a list or an object where a name or number belongs
    (a Galèrapagos card given as ``[]`` once raised TypeError), from the first state and after a few
    legal moves: accepted or refused with a RuleError, never another exception, the state unchanged."""
    rules = games.get(game_id)
    count = max(rules.min_players, min(4, rules.max_players))
    states = [rules.setup(PLAYERS[:count], {})]
    for _ in range(6):
        candidates = rules.candidates(states[-1])
        if not candidates:
            break
        states.append(rules.apply(states[-1], candidates[0])[0])
    player = PLAYERS[0]
    for state in states:
        for kind, fields in sorted(rules.actions.items()):
            for name in sorted(fields):
                for junk in ([], {}, [player], {"a": 1}):
                    action = {"type": kind, **{f: player if f == "player" else 1 for f in fields}, name: junk}
                    before = rules.fingerprint(state)
                    try:
                        rules.apply(state, action)
                    except RuleError as err:
                        assert err.message and "\n" not in err.message
                    assert rules.fingerprint(state) == before, f"{action!r} changed the state"
