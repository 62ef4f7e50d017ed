"""galapagos-dice: the end of the game, scoring sets and extras, ties, the two-player variant."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.engine.rules import RuleError
from tests.support.dice import RULES, act, new, plan_all, play, player, ready, refused, view

#: default turtles: 1-6 black, 7-12 white, 13-18 red, 19-24 green, 25-30 yellow, 31-36 blue
ONE_OF_EACH = (1, 7, 13, 19, 25, 31)


def with_hauls(state, *hauls):
    taken = set().union(*map(set, hauls))
    return replace(state, hauls=tuple(hauls), bag=state.bag - taken)


def last_two(**options):
    """Two turtles left, both on the island, the bag empty; Ann on 1, Bob on 30."""
    return ready(pawns=(1, 30), turtles={8: "red", 9: "blue"}, island=(8, 9), **options)


def test_with_the_bag_empty_play_goes_on_without_new_turtles():
    """"If the bag of turtles is empty, continue playing until all of the turtles are collected." """
    state = plan_all(last_two(), ("Ann", ["white"]), ("Bob", []))
    state = play(state, act("move", "Ann", path=[8]), act("move", "Bob", path=[]))
    v = view(state)
    assert (v["over"], v["phase"], v["round"], v["bag"]) == (False, "plan", 2, 0)
    refused(state, act("place_turtles", numbers=[]), "not now")


def test_the_game_ends_when_the_last_turtle_is_collected():
    state = plan_all(last_two(), ("Ann", ["white", "red"]), ("Bob", []))
    state = play(state, act("move", "Ann", path=[8, 9]))
    v = RULES.public_state(state)
    assert v["over"] is True
    assert v["winners"] == ["Ann"]
    assert v["outcome"]["reason"] == "island_empty"
    refused(state, act("move", "Bob", path=[]), "over")


def test_an_empty_island_with_turtles_still_in_the_bag_is_not_the_end():
    state = plan_all(ready(pawns=(1, 30), turtles={8: "red", 9: "blue"}, island=(8,)), ("Ann", ["white"]), ("Bob", []))
    state = play(state, act("move", "Ann", path=[8]), act("move", "Bob", path=[]))
    assert view(state)["over"] is False
    assert view(state)["phase"] == "place"
    state = play(state, act("place_turtles", numbers=[9]))  # fewer than 5 left: all of them
    assert view(state)["island"] == {"9": "blue"}


@pytest.mark.parametrize(
    ("haul", "points"),
    [
        (ONE_OF_EACH, 8),  # "For a set of 6 different-color turtles = 8 points"
        (ONE_OF_EACH + (2, 3), 10),  # "For each additional turtle = 1 point"
        (ONE_OF_EACH + (2, 8, 14, 20, 26, 32), 16),  # two sets
        ((1, 7, 13, 19, 25), 5),  # five colours are no set
        ((1, 2, 3, 4, 5, 6), 6),  # six of one colour are no set either
        ((), 0),
    ],
)
def test_score_sets_of_six_colours_and_extras(haul, points):
    state = with_hauls(ready(), haul, ())
    assert RULES.scores(state)["Ann"] == points


def test_a_set_completing_turtle_is_worth_three():
    """Five colours score 5; a blue sixth makes a set worth 8. Bob on 18 steps to 36 (blue, blue turtle)."""
    state = with_hauls(ready(pawns=(1, 18), island=(36,)), (), (1, 7, 13, 19, 25))
    state = plan_all(state, ("Bob", ["blue"]), ("Ann", []))
    assert RULES.scores(state)["Bob"] == 5
    state = play(state, act("move", "Bob", path=[36]))
    assert RULES.scores(state)["Bob"] == 8


def test_most_points_wins():
    """"The winner is the person with the most points." """
    state = with_hauls(last_two(), (), ())
    state = plan_all(state, ("Bob", []), ("Ann", ["white", "red"]))
    state = play(state, act("move", "Bob", path=[]), act("move", "Ann", path=[8, 9]))
    assert RULES.winners(state) == ["Ann"]
    assert RULES.scores(state) == {"Ann": 2, "Bob": 0}


def test_all_tied_players_win():
    """"In case of a tie, all tied players win!" Ann and Bob each end with one turtle."""
    state = plan_all(ready(("Ann", "Bob", "Cy"), pawns=(1, 2, 30), turtles={8: "red", 9: "blue"}, island=(8, 9)),
                     ("Ann", ["white"]), ("Bob", ["red"]), ("Cy", []))
    state = play(state, act("move", "Ann", path=[8]), act("move", "Bob", path=[9]))
    assert RULES.winners(state) == ["Ann", "Bob"]
    assert RULES.outcome(state).winners == ("Ann", "Bob")


def test_winners_are_empty_while_playing():
    assert RULES.winners(ready()) == []
    assert RULES.outcome(ready()) is None


def variant(on: bool):
    """Ann holds four red turtles; 8 (red) and 9 (red) lie ahead of her, Bob has a set."""
    turtles = {n: "red" for n in (3, 4, 5, 6, 8, 9)} | {20 + k: c for k, c in enumerate(("black", "white", "red", "green", "yellow", "blue"))}
    state = ready(pawns=(1, 30), turtles=turtles, island=(8, 9), two_player_variant=on)
    state = with_hauls(state, (3, 4, 5, 6), tuple(range(20, 26)))
    return plan_all(state, ("Ann", ["white", "red"]), ("Bob", []))


def test_two_player_variant_five_of_a_colour_wins_at_once():
    """"...if a player collects 5 turtles of the same color, he/she immediately wins." """
    state = play(variant(True), act("move", "Ann", path=[8, 9]))
    out = RULES.public_state(state)
    assert out["over"] is True
    assert out["winners"] == ["Ann"]  # although Bob's set scores 8 against Ann's 5
    assert out["scores"] == {"Ann": 5, "Bob": 8}
    assert out["outcome"]["reason"] == "five_of_a_colour"
    assert player(state, "Ann")["field"] == 8  # the game ended on the fifth red: no further step
    assert out["island"] == {"9": "red"}


def test_without_the_variant_five_of_a_colour_is_just_five_points():
    """Here the island empties instead, and Bob's set (8) beats Ann's six reds (6)."""
    state = play(variant(False), act("move", "Ann", path=[8, 9]))
    assert player(state, "Ann")["turtles"]["red"] == 6
    assert RULES.public_state(state)["outcome"]["reason"] == "island_empty"
    assert RULES.winners(state) == ["Bob"]


def test_the_variant_is_for_two_players():
    """"Two-Player Variant" - refused at a larger table."""
    with pytest.raises(RuleError, match="2 players"):
        new(("Ann", "Bob", "Cy"), two_player_variant=True)
