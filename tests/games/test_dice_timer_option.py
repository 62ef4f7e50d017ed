"""The sand timer's length at set-up: a positive, finite number of seconds, at most an hour."""

from __future__ import annotations

import math

import pytest

from companion import games
from companion.engine.rules import RuleError

RULES = games.get("galapagos-dice")


@pytest.mark.parametrize("seconds", [math.nan, math.inf, -math.inf, 0, -5, 1e300, 3601, True, "30"])
def test_a_timer_that_is_not_a_few_seconds_to_an_hour_is_refused_in_one_sentence(seconds) -> None:
    with pytest.raises(RuleError) as err:
        RULES.setup(["Ann", "Bob"], {"timer_seconds": seconds, "layout_seed": 1})
    assert "timer_seconds" in err.value.message and "\n" not in err.value.message


@pytest.mark.parametrize("seconds", [10, 30.5, 3600])
def test_a_timer_of_seconds_up_to_an_hour_is_kept(seconds) -> None:
    state = RULES.setup(["Ann", "Bob"], {"timer_seconds": seconds, "layout_seed": 1})
    assert RULES.view(state)["timer_seconds"] == seconds
