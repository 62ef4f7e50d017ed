"""Étape 2 and the weather deck: 11 weather cards (or 12) and the hurricane among the bottom six; a card
that does not fit the deck is accepted as seen and corrects it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.engine.rules import RuleError
from companion.games.galerapagos.draws import draw_weather, weather_deck_order
from tests.support.galerapagos import (
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


def test_a_fourth_dry_card_is_accepted_and_corrects_the_deck() -> None:
    """The published deck: water 0 x3, 1 x3, 2 x3, 3 x2. « An observed weather card
    outside the deck accepted with a warning that corrects the deck, never refused. »"""
    s = new(FOUR)
    for _ in range(3):
        s = fed_round(s, 0)
    assert view(s)["deck"] == {"1": 3, "2": 3, "3": 2} and view(s)["weather_left"] == 9
    s, events = RULES.apply(s, weather(0))
    v = view(s)
    assert v["weather"] == 0 and v["phase"] == "actions", "the card on the table is the card"
    assert v["deck_warning"] == {"hurricane": False, "water": 0, "removed": 1}, "the nearest card goes"
    assert v["deck"] == {"1": 2, "2": 3, "3": 2} and v["weather_left"] == 8, "the deck keeps its size"
    assert [e["event"] for e in events][-1] == "deck_warning"


def test_a_third_storm_takes_the_place_of_a_two() -> None:
    s = fed_round(fed_round(new(FOUR), 3), 3)
    s = play(s, weather(3))
    assert view(s)["deck"] == {"0": 3, "1": 3, "2": 2} and view(s)["deck_warning"]["removed"] == 2


def test_a_card_with_four_drops_is_accepted_but_ten_is_no_card() -> None:
    s = play(new(), weather(4))
    assert view(s)["weather"] == 4 and view(s)["deck"]["3"] == 1
    refused(new(), weather(10), "0 to 9 drops")
    assert view(play(s, water("Ann")))["water"] == 10 + 4


def test_the_warning_lasts_until_the_next_card() -> None:
    s = fed_round(new(FOUR), 4)
    assert view(s)["deck_warning"] is not None
    assert view(play(s, weather(1)))["deck_warning"] is None


@pytest.mark.parametrize("rounds_before", range(0, 6))
def test_the_hurricane_before_round_seven_is_accepted_with_a_warning(rounds_before: int) -> None:
    """"tirez-en 5 au hasard ... Mélangez la carte Ouragan et les 5 cartes Météo et placez la pile,
    face cachée ... Placez ensuite le reste des cartes dessus." 11 - 5 = 6 cards lie above it, so
    it should not come before round 7; if it does, the deck was built otherwise: as seen."""
    s = new(FOUR)
    for _ in range(rounds_before):
        s = fed_round(s, 1 if _ % 2 else 2)
    s = play(s, hurricane())
    assert view(s)["hurricane"] and view(s)["round"] == rounds_before + 1
    assert view(s)["deck_warning"] == {"hurricane": True, "water": 2, "notes": ["early"]}


def test_the_hurricane_can_come_in_round_seven_and_shows_two_drops() -> None:
    s = new(FOUR)
    for k in range(6):
        s = fed_round(s, [0, 1, 2, 0, 1, 2][k])
    seen = play(s, weather(3, hurricane=True))
    assert view(seen)["weather"] == 3 and view(seen)["deck_warning"]["notes"] == ["drops"]
    s = play(s, hurricane())
    v = view(s)
    assert v["round"] == 7 and v["hurricane"] and v["weather"] == 2 and v["deck_warning"] is None


def test_in_round_twelve_only_the_hurricane_is_left() -> None:
    s = new(FOUR)
    for drops in [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3]:
        s = fed_round(s, drops)
    assert view(s)["weather_left"] == 1 and view(s)["odds"]["hurricane_next"] == 1.0
    more = play(s, weather(2))  # a twelfth plain card: the deck had twelve
    assert view(more)["deck_warning"] == {"hurricane": False, "water": 2, "removed": None}
    assert view(more)["weather_left"] == 1
    assert view(play(s, hurricane()))["round"] == 12


def test_the_chance_of_the_hurricane_next_round_is_one_in_the_cards_left_of_the_bottom_pile() -> None:
    s = new(FOUR)
    chances = []
    for drops in [0, 0, 0, 1, 1, 1, 2, 2, 2]:
        chances.append(view(s)["odds"]["hurricane_next"])
        s = fed_round(s, drops)
    assert chances[:6] == [0.0] * 6, "six cards lie above the bottom pile"
    assert chances[6:] == pytest.approx([1 / 6, 1 / 5, 1 / 4], abs=1e-3)


def test_twelve_weather_cards_put_the_hurricane_one_round_later() -> None:
    """« 12 cartes Météo », « 1 carte Ouragan »: the reading with twelve plain cards (option ``weather_deck``)."""
    s = new(FOUR, weather_deck=12)
    assert view(s)["deck"] == {"0": 3, "1": 3, "2": 3, "3": 3} and view(s)["weather_left"] == 13
    assert s.opts.hurricane_from == 8
    with pytest.raises(RuleError, match="11 or 12"):
        new(FOUR, weather_deck=13)


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
