"""pocket-galapagos POPULATION trackers: changes, the 0..7 track, the end-of-turn decrease
and the collapse of two populations.

Each test quotes the sentence of seed 003 it checks (see docs/rules-coverage.md).
"""

from __future__ import annotations

import pytest

from companion.engine.rules import RuleError
from tests.support.pocket import END, RULES, change, new, play, pops


def test_populations_increase_and_decrease() -> None:
    """"Throughout the game, all POPULATIONS (Rat, Finch, and Ant) will increase, and sometimes decrease."

    An ability's or effect's change is the observed ``population`` action.
    """
    state = play(new(), change("finch", 2), change("ant", -1))
    assert pops(state) == {"rat": 3, "ant": 2, "finch": 5}


def test_the_tracker_follows_the_population() -> None:
    """"As a POPULATION changes, move the corresponding POPULATION TRACKER up or down."

    The view (the screens' tracker) and the per-player entry show the new level.
    """
    state = play(new(), change("rat", 3))
    view = RULES.view(state)
    assert view["populations"]["rat"] == 6
    assert view["players"][0]["populations"]["rat"] == 6


@pytest.mark.parametrize(("start", "amount", "level"), [(2, -5, 0), (6, 4, 7), (0, -1, 0), (7, 1, 7)])
def test_population_never_leaves_zero_to_seven(start, amount, level) -> None:
    """"A POPULATION can never go below 0 or above 7.\""""
    state = play(new(start={"ant": start}), change("ant", amount))
    assert pops(state)["ant"] == level


def test_decrease_at_zero_stays_at_zero() -> None:
    """"A POPULATION can never go below 0" — the end-of-turn decrease too."""
    state = play(new(start={"rat": 0, "ant": 4, "finch": 4}), END)
    assert pops(state) == {"rat": 0, "ant": 3, "finch": 3}


def test_zero_change_is_refused() -> None:
    """A population change of 0 is a mistake at the table, refused with a sentence."""
    with pytest.raises(RuleError, match="must not be 0"):
        RULES.apply(new(), change("rat", 0))


def test_every_population_decreases_at_end_of_turn() -> None:
    """"At the end of each of your turns, all POPULATIONS decrease by one.\""""
    state = play(new(start={"rat": 5, "ant": 2, "finch": 7}), END)
    assert pops(state) == {"rat": 4, "ant": 1, "finch": 6}
    state = play(state, END)
    assert pops(state) == {"rat": 3, "ant": 0, "finch": 5}


def test_two_populations_at_zero_after_the_decrease_lose() -> None:
    """"After decreasing POPULATIONS, if two or more POPULATIONS are at 0, the game ends and you lose.\""""
    state = play(new(start={"rat": 1, "ant": 1, "finch": 5}), END)
    assert RULES.view(state)["over"] is True
    assert RULES.outcome(state).reason == "populations_collapsed"
    assert RULES.winners(state) == []


def test_one_population_at_zero_does_not_lose() -> None:
    """"if two or more POPULATIONS are at 0" — one empty population is survivable."""
    state = play(new(start={"rat": 1, "ant": 2, "finch": 5}), END)
    assert RULES.view(state)["over"] is False
    assert pops(state)["rat"] == 0


def test_three_populations_at_zero_lose() -> None:
    """"two or more POPULATIONS" — three at 0 is a loss as well."""
    state = play(new(start={"rat": 1, "ant": 0, "finch": 1}), END)
    assert RULES.outcome(state).reason == "populations_collapsed"


def test_zero_during_the_turn_is_checked_only_after_the_decrease() -> None:
    """"After decreasing POPULATIONS, if two or more POPULATIONS are at 0 ..." — populations
    at 0 in the middle of a turn do not end the game if they are raised before it ends.
    """
    state = play(new(start={"rat": 0, "ant": 0, "finch": 5}))
    assert RULES.view(state)["over"] is False
    state = play(state, {"type": "ocean", "species": "rat", "icons": 2, "mode": "migrate"},
                 {"type": "ocean", "species": "ant", "icons": 2, "mode": "migrate"}, END)
    assert RULES.view(state)["over"] is False
    assert pops(state) == {"rat": 1, "ant": 1, "finch": 4}
