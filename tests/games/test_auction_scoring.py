"""galapagos-auction game end: education bonus, animals, money, the winner."""

from __future__ import annotations

import pytest

from companion.games.auction.rules import education_bonus
from tests.support.auction import (
    RULES,
    choose,
    finish_turns,
    new,
    player,
    to_round,
    view,
    with_player,
)


def final(education: list[int], points: list[int] | None = None, money: list[int] | None = None,
          animals: list[int] | None = None, names=("Ann", "Bob", "Cid", "Dee")):
    """Play to round 12, give each player the figures, and end the game."""
    state = choose(to_round(new(names[: len(education)]), 12), "N")
    for i, name in enumerate(names[: len(education)]):
        state = with_player(
            state, name, education=education[i],
            points=(points or [0] * 4)[i], money=(money or [0] * 4)[i],
            animals={"sea_lion": (animals or [0] * 4)[i]},
        )
    return finish_turns(state)


def bonuses(education: list[int]) -> list[int]:
    state = final(education)
    return [p["final"]["education_bonus"] for p in view(state)["players"]]


def test_highest_4_second_2() -> None:
    """"The player with the highest education level receives 4 bonus exhibition points, the
    player with the second highest education receives 2 points.\""""
    assert bonuses([10, 7, 3, 0]) == [4, 2, 0, 0]


def test_tie_for_highest_3_each_nobody_else() -> None:
    """"In the case of a tie for the highest education, all tied players receive 3 points (and
    no one else receives any bonus points).\""""
    assert bonuses([9, 9, 8, 0]) == [3, 3, 0, 0]
    assert bonuses([4, 4, 4, 4]) == [3, 3, 3, 3]


def test_tie_for_second_1_each() -> None:
    """"In the case of a tie for the second highest education, all tied players receive 1
    point.\""""
    assert bonuses([12, 5, 5, 1]) == [4, 1, 1, 0]
    assert bonuses([3, 12, 3]) == [1, 4, 1]


@pytest.mark.parametrize(
    ("levels", "expected"),
    [([1, 0], [4, 2]), ([0, 0], [3, 3]), ([2, 5, 5, 5, 0], [0, 3, 3, 3, 0]), ([25, 1, 1, 1, 1], [4, 1, 1, 1, 1])],
)
def test_education_bonus_function(levels: list[int], expected: list[int]) -> None:
    """The same rule as a pure function (2 and 5 players)."""
    assert education_bonus(levels) == expected


def test_one_point_per_two_animals_and_per_1000() -> None:
    """"Finally, each player receives 1 point for each two animal tokens he has (regardless of
    kinds) and 1 point for each £1000." 5 tokens → 2, £2999 → 2."""
    state = final([5, 0], points=[10, 0], money=[2999, 999], animals=[5, 1])
    ann = player(state, "Ann")
    assert ann["final"] == {"exhibitions": 10, "education_bonus": 4, "animals": 2, "money": 2}
    assert ann["points"] == 18
    assert RULES.scores(state) == {"Ann": 18, "Bob": 2}
    assert ann["money"] == 2999


def test_most_points_wins() -> None:
    """"The player with the most exhibition points wins the game.\""""
    state = final([0, 0, 0], points=[10, 12, 11], money=[5000, 0, 0])
    assert RULES.scores(state) == {"Ann": 18, "Bob": 15, "Cid": 14}
    assert RULES.winners(state) == ["Ann"]
    assert RULES.outcome(state).winners == ("Ann",)


def test_tie_goes_to_most_money() -> None:
    """"In the case of a tie, the tied player with the most money wins the game.\""""
    state = final([0, 0, 0], points=[10, 10, 10], money=[1500, 1900, 1200])
    assert set(RULES.scores(state).values()) == {14}
    assert RULES.winners(state) == ["Bob"]


def test_tie_in_points_and_money_is_shared() -> None:
    """The rulebook names no further tie-break: players equal in points and money share the win."""
    state = final([0, 0, 0], points=[10, 10, 3], money=[1500, 1500, 1500])
    assert RULES.winners(state) == ["Ann", "Bob"]


def test_running_score_is_the_exhibition_track() -> None:
    """While playing, the score is the exhibition points track; no winner yet."""
    state = with_player(choose(new(), "N"), "Cid", points=7)
    assert RULES.scores(state)["Cid"] == 7
    assert RULES.winners(state) == []
    assert RULES.outcome(state) is None
