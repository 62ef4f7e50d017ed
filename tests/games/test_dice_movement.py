"""galapagos-dice: movement - die by die to neighbouring fields, sailing between corners, early stops.

Positions use the spiral island (see tests/support/dice.py): field 1 black touches
2 white, 6 blue, 7 black, 8 white and 18 blue; 8 white touches 1, 2, 7, 9 red,
20 white and 21 red; 9 red touches 22, the green north-east corner.
"""

from __future__ import annotations

from tests.support.dice import RULES, act, plan_all, play, player, ready, refused, view

THREE = ("Ann", "Bob", "Cy")


def moving(dice: list[str], pawns=(1, 30), **kw):
    """Ann planned ``dice`` first, Bob planned nothing; Ann is to move."""
    return plan_all(ready(pawns=pawns, **kw), ("Ann", dice), ("Bob", []))


def test_each_die_moves_to_a_neighbouring_field_of_its_colour():
    """"With each die in his line he can move to a neighboring island space." """
    state = play(moving(["white", "red", "green"]), act("move", "Ann", path=[8, 9, 22]))
    assert player(state, "Ann")["field"] == 22


def test_a_field_that_is_not_a_neighbour_is_refused():
    state = moving(["red"])
    refused(state, act("move", "Ann", path=[9]), "Ann", "field 1", "field 9", "not neighbours")


def test_the_dice_are_used_left_to_right():
    """"It is important that he follow the sequence of dice, using first the left-most die and so on." """
    state = moving(["red", "white"])
    refused(state, act("move", "Ann", path=[8, 9]), "Ann", "1st die is red", "field 8 is white")
    state = moving(["white", "red"])
    refused(state, act("move", "Ann", path=[8, 20]), "Ann", "2nd die is red", "field 20 is white")
    assert player(play(state, act("move", "Ann", path=[8, 9])), "Ann")["field"] == 9


def test_one_field_per_die():
    """"The player may enter multiple island spaces, one for each die." """
    state = moving(["white"])
    refused(state, act("move", "Ann", path=[8, 9]), "Ann", "1 die", "2 steps")


def test_the_volcano_cannot_be_entered():
    """"Note: You cannot enter the volcano spot." """
    refused(moving(["black"]), act("move", "Ann", path=[0]), "Ann", "volcano")


def test_a_player_may_stop_early():
    """"Also, a player may voluntarily stop moving, not using all of his dice." """
    state = play(moving(["white", "red", "green"]), act("move", "Ann", path=[8]))
    assert player(state, "Ann")["field"] == 8
    state = play(moving(["white", "red", "green"]), act("move", "Ann", path=[]))
    assert player(state, "Ann")["field"] == 1


def test_movement_is_over_when_the_next_die_matches_no_neighbour():
    """"If a player's next die in his plan does not match the color of one of the island spaces
    around his pawn, his movement is done." Field 8 has no yellow neighbour."""
    state = moving(["white", "yellow", "red"])
    for nxt in (1, 2, 7, 9, 20, 21):
        refused(state, act("move", "Ann", path=[8, nxt]), "Ann", "2nd die is yellow")
    assert player(play(state, act("move", "Ann", path=[8])), "Ann")["field"] == 8


def test_entering_a_field_takes_its_turtle():
    """"If a player moves onto an island space with a turtle, he takes the turtle and places it in front of him." """
    state = moving(["white", "red"], turtles={8: "green", 9: "blue", 20: "red"}, island=(8, 9, 20))
    state, events = RULES.apply(state, act("move", "Ann", path=[8, 9]))
    assert player(state, "Ann")["turtles"] == {"black": 0, "white": 0, "red": 0, "green": 1, "yellow": 0, "blue": 1}
    assert view(state)["island"] == {"20": "red"}
    assert [e["turtle"] for e in events if e["event"] == "collected"] == [8, 9]


def test_the_turtle_under_your_own_pawn_is_yours_when_your_move_begins():
    """"Note: A player who starts movement with a turtle on his island spot can collect that turtle." """
    state = moving(["white"], turtles={1: "yellow", 8: "red"}, island=(1,))
    state = play(state, act("move", "Ann", path=[]))
    assert player(state, "Ann")["turtles"]["yellow"] == 1
    assert view(state)["island"] == {}


def test_an_earlier_mover_can_take_the_turtle_under_your_pawn():
    """"However, a player who moves before him could move to that island spot and collect that
    turtle before he has a chance to move." Bob stands on 8 with a turtle; Ann moves first."""
    state = plan_all(ready(pawns=(1, 8), turtles={8: "red", 3: "red"}, island=(8,)), ("Ann", ["white"]), ("Bob", ["black"]))
    state = play(state, act("move", "Ann", path=[8]))
    assert player(state, "Ann")["turtles"]["red"] == 1
    state = play(state, act("move", "Bob", path=[]))
    assert player(state, "Bob")["turtles"]["red"] == 0


def test_a_later_mover_whose_turtle_was_left_collects_it():
    state = plan_all(ready(pawns=(1, 8), turtles={8: "red", 3: "red"}, island=(8,)), ("Ann", ["blue"]), ("Bob", ["black"]))
    state = play(state, act("move", "Ann", path=[6]), act("move", "Bob", path=[7]))
    assert player(state, "Bob")["turtles"]["red"] == 1
    assert player(state, "Bob")["field"] == 7


def test_moves_come_in_order_and_once():
    """"Once a player finishes moving, the person sitting to his left moves." """
    state = plan_all(ready(THREE, pawns=(1, 2, 3)), ("Bob", []), ("Ann", []), ("Cy", []))
    refused(state, act("move", "Cy", path=[]), "Bob's turn", "not Cy's")
    state = play(state, act("move", "Bob", path=[]))
    assert view(state)["mover"] == "Cy"
    refused(state, act("move", "Bob", path=[]), "Bob", "already moved")
    refused(state, act("move", "Ann", path=[]), "Cy's turn", "not Ann's")


def test_pawns_may_share_a_field():
    """The rulebook never forbids it; only the volcano is closed (rules-notes)."""
    state = plan_all(ready(pawns=(1, 8)), ("Bob", ["black"]), ("Ann", []))
    state = play(state, act("move", "Bob", path=[1]))
    assert player(state, "Bob")["field"] == player(state, "Ann")["field"] == 1


def test_a_path_may_repeat_the_start_field_first():
    """``path`` lists the fields entered; the pawn's own field at its head is read as the start."""
    state = play(moving(["white", "red"]), act("move", "Ann", path=[1, 8, 9]))
    assert player(state, "Ann")["field"] == 9


def test_from_a_corner_a_pawn_sails_to_either_neighbouring_corner():
    """"If a player moves to one of the six corner sections of the island, he can move from there
    to one of the two adjacent corner spots." Corner 19 (black) sails to 22 and 34 (both green)."""
    for target in (22, 34):
        state = play(moving(["green"], pawns=(19, 30)), act("move", "Ann", path=[target]))
        assert player(state, "Ann")["field"] == target


def test_sailing_reaches_only_the_adjacent_corners():
    refused(moving(["black"], pawns=(19, 30)), act("move", "Ann", path=[25]), "Ann", "not neighbours")
    refused(moving(["black"], pawns=(19, 30)), act("move", "Ann", path=[28]), "Ann", "not neighbours")


def test_only_corners_sail():
    """Field 20 is on the coast but not a corner: no sea link to 23."""
    refused(moving(["yellow"], pawns=(20, 30)), act("move", "Ann", path=[23]), "Ann", "not neighbours")


def test_move_onto_a_corner_then_sail_on_and_collect_there():
    state = moving(["black", "green", "black", "green"], pawns=(7, 30), turtles={22: "white", 28: "red"}, island=(22, 28))
    state = play(state, act("move", "Ann", path=[19, 22, 25, 28]))
    assert player(state, "Ann")["field"] == 28
    assert player(state, "Ann")["turtles"]["white"] == player(state, "Ann")["turtles"]["red"] == 1


def test_after_everyone_moved_the_round_ends_and_turtles_are_replenished():
    """"Once everyone has finished his/her movement, return the sand timer to the volcano tile and remove
    the dice" and "Replenish ... by drawing 5 (2 players) or 6 (3-4 players)". """
    state = play(moving(["white"]), act("move", "Ann", path=[8]))
    assert view(state)["phase"] == "move"
    state = play(state, act("move", "Bob", path=[]))
    v = view(state)
    assert (v["round"], v["phase"], v["timer"], v["plans"], v["order"]) == (2, "place", "idle", [], [])
    refused(state, act("plan", "Ann", dice=[]), "Ann", "turtles are drawn for the next one")
    refused(state, act("place_turtles", numbers=[2, 3, 4, 5, 6, 7]), "Draw 5")
    state = play(state, act("place_turtles", numbers=[2, 3, 4, 5, 6]))
    assert view(state)["phase"] == "plan"


def test_three_players_replenish_six():
    state = plan_all(ready(THREE, pawns=(1, 2, 3)), ("Ann", []), ("Bob", []), ("Cy", []))
    state = play(state, *(act("move", p, path=[]) for p in THREE))
    refused(state, act("place_turtles", numbers=[4, 5, 6, 7, 8]), "Draw 6")
    state = play(state, act("place_turtles", numbers=[4, 5, 6, 7, 8, 9]))
    assert len(view(state)["island"]) == 6


def test_path_must_be_field_numbers():
    refused(moving(["white"]), act("move", "Ann", path="8"), "path")
    refused(moving(["white"]), act("move", "Ann", path=[40]), "Ann", "field 40")
