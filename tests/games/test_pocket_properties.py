"""pocket-galapagos properties (hypothesis): any sequence of actions, legal or not, never
crashes, a refused action leaves the state byte-identical, and the invariants hold.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.rules import RuleError
from companion.games.pocket.rules import SPACES, SPECIES, PocketRules

RULES = PocketRules()

species = st.sampled_from([*SPECIES, "bird", 3, None])
space = st.sampled_from([*SPACES, "ocean", "elsewhere", ""])
number = st.integers(min_value=-9, max_value=9) | st.sampled_from([True, "2", None])

actions = st.one_of(
    st.fixed_dictionaries({"type": st.just("ocean"), "species": species, "icons": number,
                           "mode": st.sampled_from(["inhabit", "migrate", "fly"])}),
    st.fixed_dictionaries({"type": st.just("species"), "space": space, "species": species}),
    st.fixed_dictionaries({"type": st.just("population"), "species": species, "change": number}),
    st.fixed_dictionaries({"type": st.just("move"), "species": species, "from": space, "to": space}),
    st.fixed_dictionaries({"type": st.just("end_turn")}),
    st.fixed_dictionaries({"type": st.sampled_from(["end_turn", "pass", ""]),
                           "player": st.sampled_from(["Ann", "Bob"])}),
)

options = st.fixed_dictionaries(
    {},
    optional={
        "start": st.dictionaries(st.sampled_from(SPECIES), st.integers(0, 7)),
        "turns": st.integers(1, 12),
        "spaces": st.dictionaries(st.sampled_from(SPACES), st.integers(1, 4) | st.none()),
        "eagle_ray": st.fixed_dictionaries({s: st.sampled_from(SPECIES) for s in SPACES}),
        "invasive_play": st.sampled_from(["forced", "free"]),
        "dominant_first": st.sampled_from(["empty", "played"]),
    },
)


def check_invariants(state) -> None:
    view = RULES.view(state)
    assert all(0 <= level <= 7 for level in view["populations"].values())
    for kind, cards in view["spaces"].items():
        room = view["space_counts"][kind]
        assert room is None or len(cards) <= room
    assert 1 <= view["turn"] <= view["turns"]
    assert view["turns_survived"] <= view["turns"]
    assert view["over"] == (RULES.outcome(state) is not None)
    assert RULES.winners(state) in ([], ["Ann"])
    if not view["over"]:
        assert RULES.candidates(state)


@settings(max_examples=300, deadline=None)
@given(options, st.lists(actions, max_size=60))
def test_random_actions_never_crash_and_refusals_change_nothing(opts, sequence) -> None:
    state = RULES.setup(["Ann"], opts)
    check_invariants(state)
    for action in sequence:
        before = RULES.fingerprint(state)
        try:
            state, _ = RULES.apply(state, action)
        except RuleError as err:
            assert err.message and err.message.endswith(".")
            assert RULES.fingerprint(state) == before
        check_invariants(state)


@settings(max_examples=60, deadline=None)
@given(options, st.lists(st.integers(min_value=0, max_value=10_000), max_size=80))
def test_candidates_are_always_accepted(opts, picks) -> None:
    """Every action ``candidates`` proposes is legal (the random playouts rely on it)."""
    state = RULES.setup(["Ann"], opts)
    for pick in picks:
        choices = RULES.candidates(state)
        if not choices:
            assert RULES.view(state)["over"]
            break
        state, _ = RULES.apply(state, choices[pick % len(choices)])
        check_invariants(state)
