"""galapagos-dice: planning - rolling, laying out the dice, the sand timer and the movement order."""

from __future__ import annotations

import pytest
from test_dice_support import RULES, act, plan_all, play, ready, refused, view

THREE = ("Ann", "Bob", "Cy")


def test_moving_waits_until_planning_is_over():
    """"First all players plan their moves." """
    state = ready()
    refused(state, act("move", "Ann", path=[]), "Ann", "planning")
    state = play(state, act("plan", "Ann", dice=["white"]))
    refused(state, act("move", "Ann", path=[8]), "Ann", "planning")


def test_the_first_plan_turns_the_sand_timer():
    """"The first to finish turns over the timer signalling how long everyone else has to plan." """
    state = ready()
    assert view(state)["timer"] == "idle"
    state, events = RULES.apply(state, act("plan", "Bob", dice=["red"]))
    assert view(state)["timer"] == "running"
    assert {"event": "timer_started", "player": "Bob", "seconds": 30.0} in events
    assert "timer_expired" in RULES.expected(state).actions


def test_only_the_first_plan_turns_the_timer():
    state = ready(THREE, pawns=(1, 2, 3))
    _, events = RULES.apply(play(state, act("plan", "Bob", dice=["red"])), act("plan", "Ann", dice=[]))
    assert not any(e["event"] == "timer_started" for e in events)


def test_first_planner_moves_first_then_clockwise():
    """"The first to finish planning moves first, then play follows clockwise." """
    state = plan_all(ready(THREE, pawns=(1, 2, 3)), ("Bob", []), ("Ann", []), ("Cy", []))
    assert view(state)["order"] == ["Bob", "Cy", "Ann"]
    assert view(state)["mover"] == "Bob"


def test_order_is_clockwise_from_the_first_planner_not_by_planning_speed():
    state = plan_all(ready(("Ann", "Bob", "Cy", "Dee"), pawns=(1, 2, 3, 4)), ("Cy", []), ("Bob", []), ("Ann", []), ("Dee", []))
    assert view(state)["order"] == ["Cy", "Dee", "Ann", "Bob"]


def test_the_order_is_shown_as_soon_as_the_first_plan_is_in():
    state = plan_all(ready(THREE, pawns=(1, 2, 3)), ("Cy", ["red"]))
    assert view(state)["order"] == ["Cy", "Ann", "Bob"]
    assert view(state)["plans"] == ["Cy"]
    assert view(state)["dice"] == {"Cy": ["red"]}


def test_dice_are_planned_left_to_right_and_kept_in_that_order():
    """"...sort them into the order they want to use them for movement, placing the dice from left to right" """
    state = plan_all(ready(), ("Ann", ["white", "red", "blue"]))
    assert state.plans[0] == ("white", "red", "blue")


def test_a_plan_need_not_use_all_dice():
    """"You do not need to use all of your dice." """
    state = plan_all(ready(), ("Ann", ["white"]), ("Bob", []))
    assert view(state)["phase"] == "move"


def test_five_dice_at_most():
    """"Each player receives 5 dice." """
    refused(ready(), act("plan", "Ann", dice=["red"] * 6), "Ann", "5 dice")
    refused(ready(), act("roll", "Ann", dice=["red"] * 4), "Ann", "5 dice")


def test_dice_must_be_colours_of_the_game():
    refused(ready(), act("plan", "Ann", dice=["purple"]), "purple")
    refused(ready(), act("plan", "Ann", dice="red"), "list of colours")


def test_a_plan_may_not_be_reordered():
    """"He may NOT re-order his dice." """
    state = plan_all(ready(THREE, pawns=(1, 2, 3)), ("Ann", ["white", "red"]))
    refused(state, act("plan", "Ann", dice=["red", "white"]), "Ann", "already planned")


def test_the_plan_uses_the_dice_rolled():
    """"All players roll their 5 dice, then sort them" - the plan can only use what was rolled."""
    state = play(ready(), act("roll", "Ann", dice=["white", "red", "red", "blue", "black"]))
    refused(state, act("plan", "Ann", dice=["green"]), "Ann", "green")
    refused(state, act("plan", "Ann", dice=["blue", "blue"]), "Ann", "blue")
    state = play(state, act("plan", "Ann", dice=["red", "white", "red"]))
    assert state.plans[0] == ("red", "white", "red")


def test_a_roll_is_once_a_round_and_before_the_plan():
    state = play(ready(), act("roll", "Ann", dice=["red"] * 5))
    refused(state, act("roll", "Ann", dice=["blue"] * 5), "Ann", "already rolled")
    state = play(state, act("plan", "Ann", dice=["red"]))
    refused(state, act("roll", "Ann", dice=["blue"] * 5), "Ann", "already planned")
    state = play(state, act("roll", "Bob", dice=["blue"] * 5))  # others still roll and plan
    assert view(state)["rolls"] == {"Ann": ["red"] * 5, "Bob": ["blue"] * 5}


def test_the_timer_cannot_expire_before_it_is_turned():
    refused(ready(), act("timer_expired"), "not been turned")


def test_when_the_timer_expires_planning_ends_for_everyone():
    """"When the timer expires, the planning phase ends for all players." """
    state = plan_all(ready(THREE, pawns=(1, 2, 3)), ("Bob", ["red"]))
    state = play(state, act("timer_expired"))
    assert view(state)["phase"] == "move"
    assert view(state)["timer"] == "expired"
    refused(state, act("plan", "Cy", dice=["red"]), "sand timer has run out", "Cy")
    refused(state, act("roll", "Ann", dice=["red"] * 5), "sand timer has run out", "Ann")


def test_a_player_without_a_plan_has_no_move():
    """"Any dice not on a player's set up area cannot be used for the movement phase." """
    state = plan_all(ready(THREE, pawns=(1, 2, 3)), ("Bob", ["red"]), ("Ann", []))
    state = play(state, act("timer_expired"))
    assert view(state)["order"] == ["Bob", "Ann"]
    refused(state, act("move", "Cy", path=[]), "Cy", "no plan")


def test_planning_also_ends_when_everyone_has_planned():
    """Nobody waits for the sand when all dice are laid out; the timer's later expiry is harmless."""
    state = plan_all(ready(), ("Ann", ["white"]), ("Bob", ["red"]))
    assert view(state)["phase"] == "move"
    assert RULES.expected(state).actions == ("move", "timer_expired")
    state = play(state, act("timer_expired"))
    assert view(state)["timer"] == "expired"
    assert view(state)["mover"] == "Ann"
    refused(state, act("timer_expired"), "already run out")


@pytest.mark.parametrize("kind", ["plan", "roll"])
def test_a_stranger_cannot_plan(kind):
    refused(ready(), act(kind, "Zed", dice=["red"] * 5), "Zed")


def test_expected_lists_the_players_still_planning():
    state = plan_all(ready(THREE, pawns=(1, 2, 3)), ("Bob", []))
    exp = RULES.expected(state)
    assert exp.players == ("Ann", "Cy")
    assert exp.actions == ("roll", "plan", "timer_expired")
