"""Figures for the screens and the tournament: snake odds, expected catch, rations ahead, scoring."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.games.galerapagos.chances import expected_fish, snake_chance
from companion.games.galerapagos.rules import odds
from companion.games.galerapagos.tournament import (
    game_points,
    tournament_scores,
    tournament_winners,
)
from tests.support.galerapagos import (
    food_vote_round_two,
    new,
    play,
    search,
    view,
    vote,
    weather,
)


@pytest.mark.parametrize("k", range(1, 6))
def test_the_snake_chance_is_k_in_six(k: int) -> None:
    """One black ball among six: drawing k together finds it with probability k/6."""
    assert snake_chance(k) == pytest.approx(k / 6)


def test_no_extra_ball_no_snake() -> None:
    assert snake_chance(0) == 0


def test_the_snake_chance_by_counting_draws() -> None:
    """Independent check: enumerate all k-subsets of six balls, one of them black."""
    from itertools import combinations

    for k in range(1, 6):
        draws = list(combinations(range(6), k))
        assert snake_chance(k) == pytest.approx(Fraction(sum(0 in d for d in draws), len(draws)))


def test_expected_fish_is_the_mean_of_the_balls() -> None:
    assert expected_fish([1, 1, 1, 2, 2, 3]) == pytest.approx(10 / 6)
    assert expected_fish([2, 2]) == 2


def test_odds_show_the_rations_after_this_round_and_the_rounds_left() -> None:
    v = view(new())  # five castaways, food 9, water 10
    o = v["odds"]
    assert o["water_after"] == 5 and o["food_after"] == 4
    assert o["water_rounds"] == 2 and o["food_rounds"] == 1
    assert o["snake"]["1"] == pytest.approx(1 / 6) and o["snake"]["5"] == pytest.approx(5 / 6)


def test_odds_follow_the_state() -> None:
    s = play(new(), weather(0), *[search(p) for p in ["Ann", "Bob", "Cid", "Dan", "Eve"]])
    o = odds(s)
    assert (o["water_after"], o["food_after"]) == (10 - 5, 9 - 5)  # everyone has acted: this round's rations
    s = play(s, {"type": "survival", "player": "Ann"})
    o = odds(s)
    assert (o["water_after"], o["food_after"]) == (0, -1)  # the next round: food 4 for five, one missing


def test_a_ration_already_shared_this_round_is_not_taken_twice() -> None:
    """"Le pion recule d'une case pour chaque ration donnée": during the food vote the water has
    been shared already (5 for five, on 0), so the screen shows 0 water after the round, not -5."""
    s = food_vote_round_two()
    s = play(s, {"type": "survival", "player": "Eve"})
    assert view(s)["vote"] == "food" and view(s)["water"] == 0
    assert (odds(s)["water_after"], odds(s)["food_after"]) == (0, -1)
    s = play(s, *[vote(p, "Dan") for p in ["Ann", "Bob", "Cid", "Eve"]], vote("Dan", "Ann"),
             {"type": "no_card", "player": "Dan"})
    assert view(s)["phase"] == "end"  # the round is over: the figures look at the next one
    assert (odds(s)["water_after"], odds(s)["food_after"]) == (0 - 4, 0 - 4)


def test_the_bag_option_changes_the_expected_catch() -> None:
    assert view(new(bag=[3, 3, 3]))["odds"]["expected_fish"] == 3
    assert view(new(bag=[3, 3, 3]))["odds"]["snake"]["1"] == pytest.approx(1 / 3)


def test_solidaire_each_embarked_player_scores_one_point() -> None:
    """"Mode de jeu solidaire - Les joueurs qui embarquent sur le radeau marquent un point. Une fois
    toutes les manches jouées, le joueur qui totalise le plus de points remporte la partie." """
    games = [
        {"players": ["Ann", "Bob", "Cid"], "winners": ["Ann", "Bob"]},
        {"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}], "winners": ["Bob"]},
        {"players": ["Ann", "Bob", "Cid"], "winners": []},
    ]
    totals = tournament_scores(games, "solidaire")
    assert totals == {"Ann": 1, "Bob": 2, "Cid": 0}
    assert tournament_winners(totals) == ["Bob"]


def test_solitaire_fewer_survivors_more_points() -> None:
    """"Moins il y a de survivants, plus vous marquerez des points. ... Vous perdez 1 point par
    survivant sur le radeau." """
    assert game_points(5, 1, "solitaire") > game_points(5, 2, "solitaire") > game_points(5, 5, "solitaire")
    games = [
        {"players": ["Ann", "Bob", "Cid", "Dan"], "winners": ["Ann"]},
        {"players": ["Ann", "Bob", "Cid", "Dan"], "winners": ["Bob", "Cid", "Dan"]},
    ]
    totals = tournament_scores(games, "solitaire")
    assert totals["Ann"] == 4 and totals["Bob"] == 4 - 2
    assert tournament_winners(totals) == ["Ann"]


def test_a_tournament_tie_names_every_leader() -> None:
    assert tournament_winners({"Ann": 2, "Bob": 2, "Cid": 1}) == ["Ann", "Bob"]


def test_unknown_tournament_mode() -> None:
    with pytest.raises(ValueError):
        game_points(3, 1, "cooperatif")


def test_the_balls_go_back_in_the_bag_so_the_odds_never_change() -> None:
    """"Les boules sont remises dans le sac." -- after a snake the bag holds six balls again."""
    before = view(new())["odds"]["snake"]
    s = play(new(), weather(0), {"type": "wood", "player": "Ann", "extra": 3, "snake": True})
    assert view(s)["odds"]["snake"] == before
