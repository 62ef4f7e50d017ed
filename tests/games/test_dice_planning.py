"""galapagos-dice: planning - rolling, laying out the dice, the sand timer and the movement order."""

from __future__ import annotations

import pytest

from tests.support.dice import RULES, act, plan_all, play, player, ready, refused, view

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


def test_the_first_finisher_may_not_reorder_his_dice():
    """"Once the first player has completed his planning, he grabs the sand timer, flips it over and puts
    it in front of him. He may NOT re-order his dice." """
    state = play(ready(THREE, pawns=(1, 2, 3)), act("plan", "Ann", dice=["white", "red"]), act("plan", "Bob", dice=[]))
    refused(state, act("plan", "Ann", dice=["red", "white"]), "Ann", "already planned", "first to finish")
    refused(state, act("done", "Ann", dice=["red", "white"]), "Ann", "first to finish")
    refused(state, act("roll", "Ann", dice=["red"] * 5), "Ann", "already planned")


def test_the_others_may_plan_again_until_the_sand_runs_out_and_move_with_the_last_plan():
    """Only the first finisher is barred from re-ordering; "When the timer expires, the planning phase ends
    for all players", so until then the others keep arranging. Bob (on 2) plans red, then white, red: from 2
    (white) the red die reaches 3 or 9, the white one 1 or 8 - only the second plan allows [8, 9]."""
    state = play(ready(THREE, pawns=(1, 2, 3)), act("plan", "Ann", dice=[]), act("plan", "Bob", dice=["red"]))
    state, events = RULES.apply(state, act("plan", "Bob", dice=["white", "red"]))
    assert events == [{"event": "planned", "player": "Bob", "dice": ["white", "red"], "again": True}]
    assert view(state)["phase"] == "plan" and view(state)["timer"] == "running"
    state = play(state, act("timer_expired"), act("move", "Ann", path=[]))
    state = play(state, act("move", "Bob", path=[8, 9]))
    assert player(state, "Bob")["field"] == 9


def test_everyone_having_planned_does_not_end_planning():
    """The sand decides ("When the timer expires, the planning phase ends for all players"): with every
    plan in, the others may still change theirs, so movement waits."""
    state = play(ready(), act("plan", "Ann", dice=["white"]), act("plan", "Bob", dice=["red"]))
    assert view(state)["phase"] == "plan" and view(state)["timer"] == "running"
    refused(state, act("move", "Ann", path=[]), "Ann", "planning")


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


def test_a_player_without_a_plan_moves_with_no_dice_and_takes_the_turtle_under_his_pawn():
    """"Any dice not on a player's set up area cannot be used for the movement phase", yet "A player who
    starts movement with a turtle on his island spot can collect that turtle": Cy (on 3, turtle 3 under
    him, black as 1-6 are) made no plan; his turn comes clockwise, with no dice."""
    state = play(ready(THREE, pawns=(1, 2, 3), island=(3,)), act("plan", "Bob", dice=["red"]),
                 act("plan", "Ann", dice=[]), act("timer_expired"))
    assert view(state)["order"] == ["Bob", "Cy", "Ann"]
    state = play(state, act("move", "Bob", path=[]))
    assert RULES.expected(state).players == ("Cy",)
    refused(state, act("move", "Cy", path=[4]), "Cy", "no plan", "turtle under the pawn")
    refused(state, act("move", "Ann", path=[]), "Cy's turn")
    state = play(state, act("move", "Cy", path=[]))
    assert player(state, "Cy")["turtles"]["black"] == 1 and "3" not in view(state)["island"]


def test_planning_ends_before_the_sand_once_everyone_has_said_done():
    """Nobody waits for the sand once every player has said « I am done »; the sand then no longer counts."""
    state = play(ready(), act("plan", "Ann", dice=["white"]), act("plan", "Bob", dice=["red"]))
    state, events = RULES.apply(state, act("done", "Bob"))
    assert events == [{"event": "done", "player": "Bob"},
                      {"event": "planning_closed", "order": ["Ann", "Bob"], "by": "done"}]
    assert (view(state)["phase"], view(state)["timer"], view(state)["mover"]) == ("move", "stopped", "Ann")
    assert RULES.expected(state).actions == ("move",)
    refused(state, act("timer_expired"), "Everyone said done", "no longer counts")
    refused(state, act("plan", "Bob", dice=[]), "Bob", "planning is over")


def test_done_with_the_dice_in_the_lanes_is_the_plan_and_without_them_keeps_it():
    """The seat button says « I am done » with the dice lying in the seat's lanes ("placing the dice from
    left to right on their segment of the board"); said on a phone, it keeps the plan made; with no plan,
    no dice. The first to say it has finished first and turns the timer."""
    state, events = RULES.apply(ready(THREE, pawns=(1, 2, 3)), act("done", "Cy", dice=["red", "blue"]))
    assert [e["event"] for e in events] == ["planned", "timer_started"] and view(state)["done"] == ["Cy"]
    assert view(state)["timer_turned_by"] == "Cy" and view(state)["order"] == ["Cy", "Ann", "Bob"]
    state = play(state, act("plan", "Ann", dice=["white"]), act("done", "Ann"))
    assert view(state)["dice"]["Ann"] == ["white"]
    refused(state, act("done", "Ann"), "Ann", "already said done")
    state = play(state, act("done", "Ann", dice=["black"]))  # changed in the lanes, the button again
    assert view(state)["dice"]["Ann"] == ["black"] and view(state)["done"] == ["Ann", "Cy"]
    state = play(state, act("plan", "Ann", dice=["red"]))  # arranging again: no longer done
    assert view(state)["done"] == ["Cy"]
    state = play(state, act("done", "Bob"), act("done", "Ann"))
    assert view(state)["phase"] == "move" and view(state)["dice"]["Bob"] == []


@pytest.mark.parametrize("kind", ["plan", "roll"])
def test_a_stranger_cannot_plan(kind):
    refused(ready(), act(kind, "Zed", dice=["red"] * 5), "Zed")


def test_expected_lists_the_players_still_planning_and_who_turned_the_timer():
    exp = RULES.expected(ready(THREE, pawns=(1, 2, 3)))
    assert exp.actions == ("roll", "plan", "done") and exp.text() == "Roll and plan your dice."
    state = plan_all(ready(THREE, pawns=(1, 2, 3)), ("Bob", []))
    state = play(state, act("plan", "Ann", dice=["red"]))  # a plan, not yet « done »
    exp = RULES.expected(state)
    assert exp.players == ("Ann", "Cy")
    assert exp.actions == ("roll", "plan", "done", "timer_expired")
    assert exp.text() == "Bob turned the sand timer: plan your dice and say done before it runs out."
