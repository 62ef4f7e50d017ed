"""Galèrapagos' table inputs: a weather card turned on a reader, a wooden ball on the scan pad."""

from __future__ import annotations

import pytest

from companion import games
from companion.engine import moves as M
from hw.tags import make_component
from tests.support.galerapagos import new, play, weather

PKG = games.package("galerapagos")


def ball(fish: int, snake: bool = False):  # noqa: ANN201 - a hw Component
    return make_component("ball", {"fish": fish, "snake": snake})


def card(water: int, hurricane: bool = False):  # noqa: ANN201
    return make_component("weather", {"water": water, "hurricane": hurricane})


def test_a_weather_card_laid_is_the_card_turned_and_is_offered() -> None:
    """« Retournez la première carte Météo de la pile. »"""
    s = new()
    action = PKG.tag_action(card(2), "scan", s)
    assert action == {"type": "weather", "water": 2, "hurricane": False}
    assert M.match(PKG.moves(s), action) is None
    PKG.rules.apply(s, action)


def test_the_hurricane_card_laid_is_the_hurricane_with_the_drops_printed_on_it() -> None:
    """« An observed weather card outside the deck accepted with a warning that corrects the deck »:
    the card on the table is the card, drops included (too early, too many drops: a warning, never a refusal)."""
    s = new()
    action = PKG.tag_action(card(5, hurricane=True), "scan", s)
    assert action == {"type": "weather", "hurricane": True, "water": 5}
    assert M.match(PKG.moves(s), action) is None
    after, _ = PKG.rules.apply(s, action)
    assert PKG.rules.view(after)["deck_warning"]["notes"] == ["early", "drops"]


def test_a_ball_on_the_pad_is_the_acting_castaways_catch() -> None:
    """« Piochez une boule dans le sac ... Le nombre de poissons que vous avez attrapé y est indiqué. »"""
    s = play(new(), weather(1))
    action = PKG.tag_action(ball(3), "scan", s)
    assert action == {"type": "fish", "player": "Ann", "fish": 3}
    assert M.match(PKG.moves(s), action) is None
    assert PKG.tag_action(ball(3), "scan", new()) is None, "nobody fishes before the weather card"


def test_balls_drawn_for_a_wood_gamble_count_extra_balls_and_the_black_one_bites() -> None:
    """« Piochez le nombre de boules correspondant ... Si une des boules est noire, le joueur est mordu. »"""
    s = play(new(), weather(1))
    entry = {"type": "wood", "values": {}}
    assert PKG.tag_action(ball(1), "scan", s, entry) == {"fill": {"extra": 1}}
    entry["values"] = {"extra": 2}
    assert PKG.tag_action(ball(2), "scan", s, entry) == {"fill": {"extra": 3}}
    assert PKG.tag_action(ball(1, snake=True), "scan", s, entry) == {"fill": {"extra": 2, "snake": True}}
    entry["values"] = {"extra": 5}
    assert PKG.tag_action(ball(1), "scan", s, entry) == {"fill": {"extra": 5}}, "at most five extra balls"


def test_table_tags_enter_the_weather_and_the_catch_and_leave_the_rest_to_the_dial() -> None:
    assert PKG.table_tags({"type": "weather", "water": 0}) == [("scan", "weather", {"water": 0, "hurricane": False})]
    assert PKG.table_tags({"type": "weather", "hurricane": True})[0][2]["hurricane"] is True
    assert PKG.table_tags({"type": "fish", "player": "Ann", "fish": 2}) == [
        ("scan", "ball", {"fish": 2, "snake": False})]
    assert PKG.table_tags({"type": "vote", "player": "Ann", "target": "Bob"}) is None
    for _point, kind, value in PKG.table_tags({"type": "weather", "water": 3}) or []:
        assert kind in PKG.component_kinds()
        make_component(kind, value)  # a valid component the registry accepts


def test_the_weather_draw_and_the_deck_helper() -> None:
    import random

    spec = PKG.draws()["weather"]
    s = new()
    action = spec["fn"](s, random.Random(3), None)
    assert spec["action"] == "weather" and not spec["player"]
    assert M.match(PKG.moves(s), action) is None
    deck = PKG.setup_helpers(7)["deck"]
    assert len(deck["cards"]) == 12 and sum(c["hurricane"] for c in deck["cards"]) == 1
    assert sum(c["hurricane"] for c in deck["order"][-deck["bottom"]:]) == 1, "the hurricane lies in the bottom six"
    assert PKG.setup_helpers(7) == PKG.setup_helpers(7)


def test_the_page_gets_the_odds_and_the_open_last_chances() -> None:
    s = new()
    page = PKG.page(s, PKG.rules.public_state(s), None, "fr")
    assert page["odds"]["snake"]["1"] == pytest.approx(1 / 6) and page["chances"] == []
