"""Étape 2 and the weather deck: 11 weather cards and the hurricane among the bottom six."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.games.galerapagos import draw_weather, weather_deck_order
from tests.games.test_galerapagos_support import (
    FOUR,
    RULES,
    fed_round,
    hurricane,
    new,
    play,
    refused,
    view,
    water,
    weather,
)


def test_turning_the_weather_card_starts_the_actions() -> None:
    """"Étape 2 : tirage de la carte Météo - Retournez la première carte Météo de la pile." """
    s = play(new(), weather(2))
    v = view(s)
    assert v["weather"] == 2 and v["phase"] == "actions" and v["turn"] == "Ann"


def test_no_action_before_the_weather_card() -> None:
    refused(new(), water("Ann"), "Ann", "weather card")


def test_the_deck_holds_three_dry_cards_only() -> None:
    """The published deck (issue 5): water 0 x3, 1 x3, 2 x3, 3 x2."""
    s = new(FOUR)
    for _ in range(3):
        s = fed_round(s, 0)
    refused(s, weather(0), "No weather card with 0 drops")
    play(s, weather(1))  # other values are still there


def test_the_deck_holds_two_storms_only() -> None:
    s = fed_round(fed_round(new(FOUR), 3), 3)
    refused(s, weather(3), "No weather card with 3 drops")


def test_a_weather_card_with_four_drops_does_not_exist() -> None:
    refused(new(), weather(4), "4 drops")


@pytest.mark.parametrize("rounds_before", range(0, 6))
def test_the_hurricane_cannot_come_before_round_seven(rounds_before: int) -> None:
    """"tirez-en 5 au hasard ... Mélangez la carte Ouragan et les 5 cartes Météo et placez la pile,
    face cachée ... Placez ensuite le reste des cartes dessus." 11 - 5 = 6 cards lie above it."""
    s = new(FOUR)
    for _ in range(rounds_before):
        s = fed_round(s, 1 if _ % 2 else 2)
    refused(s, hurricane(), "round 7")


def test_the_hurricane_can_come_in_round_seven_and_shows_two_drops() -> None:
    s = new(FOUR)
    for k in range(6):
        s = fed_round(s, [0, 1, 2, 0, 1, 2][k])
    refused(s, weather(3, hurricane=True), "2 drops")
    s = play(s, hurricane())
    v = view(s)
    assert v["round"] == 7 and v["hurricane"] and v["weather"] == 2


def test_in_round_twelve_only_the_hurricane_is_left() -> None:
    s = new(FOUR)
    for drops in [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3]:
        s = fed_round(s, drops)
    assert view(s)["weather_left"] == 1
    refused(s, weather(2), "No weather card with 2 drops")
    assert view(play(s, hurricane()))["round"] == 12


def test_the_hurricane_comes_once() -> None:
    s = new(FOUR)
    for drops in [0, 0, 0, 1, 1, 1]:
        s = fed_round(s, drops)
    s = play(s, hurricane())
    assert RULES.expected(s).actions == ("fish", "water", "wood", "search")


def test_the_digital_deck_has_the_hurricane_in_rounds_seven_to_twelve() -> None:
    seen = Counter()
    for seed in range(600):
        deck = weather_deck_order(random.Random(seed))
        assert len(deck) == 12
        assert Counter(a["water"] for a in deck if not a["hurricane"]) == Counter(
            {0: 3, 1: 3, 2: 3, 3: 2})
        rounds = [i + 1 for i, a in enumerate(deck) if a["hurricane"]]
        assert len(rounds) == 1 and 7 <= rounds[0] <= 12
        seen[rounds[0]] += 1
    assert set(seen) == set(range(7, 13))
    assert min(seen.values()) > 600 / 6 / 2  # roughly uniform over the bottom six


def test_the_digital_deck_is_a_pure_function_of_the_random_generator() -> None:
    assert weather_deck_order(random.Random(7)) == weather_deck_order(random.Random(7))


def test_a_digital_deck_plays_through_the_engine() -> None:
    s = new(FOUR)
    for action in weather_deck_order(random.Random(3))[:6]:
        s = fed_round(s, action["water"], action["hurricane"])
    assert view(s)["round"] == 6


def test_the_digital_draw_respects_what_is_left() -> None:
    """A table without its deck: each draw is a legal ``weather`` action for the journal."""
    rng = random.Random(11)
    for _ in range(40):
        s = new(FOUR)
        for _round in range(12):
            action = draw_weather(s, rng)
            if view(s)["round"] < 6 or view(s)["phase"] == "weather":
                assert not action["hurricane"]
            s = fed_round(s, action["water"], action["hurricane"])
            if action["hurricane"]:
                assert 7 <= view(s)["round"] <= 12
                break
        else:
            pytest.fail("twelve rounds without the hurricane")
