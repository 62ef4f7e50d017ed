"""galapagos-dice: set-up - players, options, the turtle bag, pawns and the first turtles."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.engine.rules import RuleError
from tests.support.dice import RULES, act, new, play, player, refused, view


@pytest.mark.parametrize("count", [2, 3, 4])
def test_two_to_four_players(count):
    state = new(("Ann", "Bob", "Cy", "Dee")[:count])
    assert [p["name"] for p in view(state)["players"]] == ["Ann", "Bob", "Cy", "Dee"][:count]


@pytest.mark.parametrize("names", [("Ann",), ("A", "B", "C", "D", "E")])
def test_other_player_counts_are_refused(names):
    with pytest.raises(RuleError, match="2 to 4 players"):
        new(names)


def test_all_36_turtles_start_in_the_bag_six_of_each_colour():
    """"All turtles are placed in the cloth bag." Default: 36 turtles, 6 per colour (rules-notes)."""
    state = new()
    assert view(state)["bag"] == 36
    assert Counter(state.table.turtles.values()) == {c: 6 for c in ("black", "white", "red", "green", "yellow", "blue")}
    assert view(state)["island"] == {}


def test_turtles_option_sets_the_numbers_and_colours():
    state = new(turtles={"3": "red", "9": "blue", "12": "red"})
    assert view(state)["bag"] == 3
    assert state.table.turtles == {3: "red", 9: "blue", 12: "red"}


@pytest.mark.parametrize(
    ("turtles", "words"),
    [({"40": "red"}, ("Turtle 40", "no field 40")), ({"3": "pink"}, ("pink",)), ({}, ("turtles",)), ({"x": "red"}, ("'x'",))],
)
def test_bad_turtles_option_is_refused(turtles, words):
    with pytest.raises(RuleError) as err:
        new(turtles=turtles)
    for word in words:
        assert word in err.value.message


def test_unknown_option_and_bad_values_are_refused():
    with pytest.raises(RuleError, match="no option \"speed\""):
        new(speed=3)
    with pytest.raises(RuleError, match="two_player_variant"):
        new(two_player_variant="yes")
    with pytest.raises(RuleError, match="timer_seconds"):
        new(timer_seconds=0)


def test_timer_seconds_default_is_the_published_30_and_is_configurable():
    assert view(new())["timer_seconds"] == 30
    assert view(new(timer_seconds=45))["timer_seconds"] == 45


def test_sand_timer_starts_on_the_volcano():
    """"The sand timer is placed on the volcano." - it is not running before anyone plans."""
    assert view(new())["timer"] == "idle"


def test_pawn_goes_on_the_drawn_number_and_the_turtle_back_in_the_bag():
    """"Each player then draws a turtle from the bag and places his/her pawn on that island tile
    (number). Those turtles are then placed back into the bag." """
    state = play(new(), act("start", "Ann", field=17))
    assert player(state, "Ann")["field"] == 17
    assert view(state)["bag"] == 36


def test_two_pawns_cannot_start_on_the_same_number():
    """Both drawn turtles are out of the bag until the pawns are placed, so numbers differ."""
    state = play(new(), act("start", "Ann", field=17))
    refused(state, act("start", "Bob", field=17), "Bob", "17", "Ann")


def test_with_a_short_turtle_set_a_pawn_may_start_where_no_turtle_has_its_number():
    """"Each player then draws a turtle from the bag and places his/her pawn on that island tile
    (number)." The draw assumes all 36 numbers are in the bag; with a shorter ``turtles`` set
    (rules-notes: a short game, a lost turtle) the table places the pawn on any free field, so that
    every short game can be set up. The bag is left as it was."""
    state = new(turtles={"3": "red", "9": "blue"})
    state = play(state, act("start", "Ann", field=17), act("start", "Bob", field=3))
    assert (player(state, "Ann")["field"], player(state, "Bob")["field"]) == (17, 3)
    assert sorted(state.bag) == [3, 9]


def test_a_pawn_is_placed_once():
    state = play(new(), act("start", "Ann", field=17))
    refused(state, act("start", "Ann", field=18), "Ann", "already on field 17")


def test_start_needs_a_field_of_the_island():
    refused(new(), act("start", "Ann", field=37), "37")
    refused(new(), act("start", "Zed", field=3), "Zed")


def test_first_turtles_five_with_two_players():
    """"...five turtles (with 2 players) or 6 turtles (for 3 and 4 players) are drawn from the bag
    and placed with the colored shells up on the island tile with matching numbers." """
    state = new()
    refused(state, act("place_turtles", numbers=[1, 2, 3, 4, 5, 6]), "Draw 5", "not 6")
    refused(state, act("place_turtles", numbers=[1, 2, 3, 4]), "Draw 5", "not 4")
    state = play(state, act("place_turtles", numbers=[4, 8, 15, 16, 23]))
    assert sorted(int(k) for k in view(state)["island"]) == [4, 8, 15, 16, 23]
    assert view(state)["bag"] == 31


@pytest.mark.parametrize("count", [3, 4])
def test_first_turtles_six_with_three_or_four_players(count):
    state = new(("Ann", "Bob", "Cy", "Dee")[:count])
    refused(state, act("place_turtles", numbers=[1, 2, 3, 4, 5]), "Draw 6", "not 5")
    state = play(state, act("place_turtles", numbers=[1, 2, 3, 4, 5, 6]))
    assert view(state)["bag"] == 30


def test_placed_turtles_show_their_shell_colour():
    state = play(new(turtles={"5": "blue", "6": "red", "7": "red", "8": "red", "9": "red", "10": "red"}),
                 act("place_turtles", numbers=[5, 6, 7, 8, 9]))
    assert view(state)["island"] == {"5": "blue", "6": "red", "7": "red", "8": "red", "9": "red"}


def test_fewer_turtles_are_placed_when_the_bag_has_fewer():
    state = new(turtles={"3": "red", "9": "blue", "12": "red"})
    refused(state, act("place_turtles", numbers=[3, 9]), "Draw 3", "only 3 left")
    state = play(state, act("place_turtles", numbers=[3, 9, 12]))
    assert view(state)["bag"] == 0


def test_a_turtle_not_in_the_bag_cannot_be_drawn():
    state = new(turtles={str(n): "red" for n in range(1, 11)})
    refused(state, act("place_turtles", numbers=[1, 2, 3, 4, 11]), "Turtle 11", "not in the bag")
    refused(state, act("place_turtles", numbers=[1, 2, 3, 4, 4]), "twice")


def test_turtles_placed_first_cannot_then_be_drawn_for_a_pawn():
    """In the rulebook's order the island turtles are out of the bag when pawns are drawn."""
    state = play(new(), act("place_turtles", numbers=[1, 2, 3, 4, 5]))
    refused(state, act("start", "Ann", field=3), "Ann", "turtle 3", "island")
    state = play(state, act("start", "Ann", field=6))
    assert player(state, "Ann")["field"] == 6


def test_pawns_first_then_turtles_may_land_under_a_pawn():
    """Start turtles go back in the bag, so a later draw can put a turtle under a pawn."""
    state = play(new(), act("start", "Ann", field=3), act("start", "Bob", field=9))
    state = play(state, act("place_turtles", numbers=[3, 9, 10, 11, 12]))
    assert {"3", "9"} <= set(view(state)["island"])


@pytest.mark.parametrize("pawns_first", [True, False])
def test_planning_begins_once_pawns_and_turtles_are_out(pawns_first):
    pawns = [act("start", "Ann", field=20), act("start", "Bob", field=30)]
    turtles = [act("place_turtles", numbers=[1, 2, 3, 4, 5])]
    steps = pawns + turtles if pawns_first else turtles + pawns
    state = new()
    for action in steps[:-1]:
        state = play(state, action)
        assert view(state)["phase"] == "setup"
        refused(state, act("plan", "Ann", dice=["red"]), "Ann", "set up")
    state = play(state, steps[-1])
    assert view(state)["phase"] == "plan"
    assert view(state)["round"] == 1
    assert RULES.expected(state).actions == ("roll", "plan", "done")


def test_setup_prompt_lists_who_still_needs_a_pawn():
    state = play(new(), act("start", "Ann", field=20))
    exp = RULES.expected(state)
    assert exp.players == ("Bob",)
    assert set(exp.actions) == {"start", "place_turtles"}
    state = play(state, act("place_turtles", numbers=[1, 2, 3, 4, 5]))
    refused(state, act("place_turtles", numbers=[6, 7, 8, 9, 10]), "already on the island")
