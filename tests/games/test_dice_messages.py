"""galapagos-dice: every refusal is one sentence a player understands, naming the player and the move.

(docs/design.md: "raises RuleError with a sentence a player understands".) The cases
cover each kind of refused action; the words each sentence must carry are the
player and what they tried (the field, the die, the turtle).
"""

from __future__ import annotations

import re

import pytest

from tests.support.dice import act, new, plan_all, play, ready, refused


def moving():
    """Ann (on 1) planned white, red first; Bob (on 30) planned nothing; Ann is to move."""
    return plan_all(ready(pawns=(1, 30)), ("Ann", ["white", "red"]), ("Bob", []))


def finished():
    """Ann took the last turtle (8, white field next to 1): the game is over."""
    state = plan_all(ready(pawns=(1, 30), turtles={8: "red"}, island=(8,)), ("Ann", ["white"]), ("Bob", []))
    return play(state, act("move", "Ann", path=[8]))


def first_finished():
    """Ann (on 1) planned first: the sand timer runs; Bob and Cy (on 30, 2) are still planning."""
    return play(ready(("Ann", "Bob", "Cy"), pawns=(1, 30, 2)), act("plan", "Ann", dice=["white"]))


def bob_done():
    """After Ann's first plan, Bob said he is done; Cy is still planning."""
    return play(first_finished(), act("done", "Bob", dice=["red"]))


def unplanned():
    """Ann planned and the sand ran out before Bob (on 30) planned; Ann moved: Bob's turn, with no dice."""
    state = play(ready(pawns=(1, 30)), act("plan", "Ann", dice=["white"]), act("timer_expired"))
    return play(state, act("move", "Ann", path=[8]))


def round_over():
    """Everyone has moved in round 1: the turtles for round 2 are to be drawn."""
    return play(moving(), act("move", "Ann", path=[]), act("move", "Bob", path=[]))


CASES = [
    (moving, act("move", "Ann", path=[8, 20]), ("Ann", "2nd die is red", "field 20 is white")),
    (moving, act("move", "Ann", path=[9]), ("Ann", "field 1", "field 9", "not neighbours")),
    (moving, act("move", "Bob", path=[]), ("Ann's turn", "not Bob's")),
    (moving, act("move", "Ann", path="8"), ("Ann", "path")),
    (moving, act("plan", "Bob", dice=["red"]), ("Bob", "planning is over")),
    (first_finished, act("plan", "Ann", dice=["red"]), ("Ann", "first to finish", "re-order")),
    (first_finished, act("done", "Ann"), ("Ann", "first to finish")),
    (bob_done, act("done", "Bob"), ("Bob", "already said done")),
    (moving, act("timer_expired"), ("Everyone said done", "sand timer")),
    (unplanned, act("move", "Bob", path=[2]), ("Bob", "no plan", "turtle under the pawn")),
    (round_over, act("move", "Ann", path=[]), ("Ann", "round 1", "round 2")),
    (ready, act("plan", "Ann", dice=["purple"]), ("Ann", "purple")),
    (ready, act("roll", "Ann", dice="red"), ("Ann", "roll", "list of colours")),
    (ready, act("move", "Ann", path=[]), ("Ann", "cannot move yet", "planning")),
    (new, act("place_turtles", numbers=[3, 3, 4, 5, 6]), ("Turtle 3", "twice")),
    (new, act("place_turtles", numbers=[1, 2, 3]), ("Draw 5", "not 3")),
    (finished, act("move", "Bob", path=[]), ("over", "Bob", "move")),
    (finished, act("plan", "Bob", dice=[]), ("over", "Bob", "plan")),
    (finished, act("place_turtles", numbers=[]), ("over", "turtles")),
    (finished, act("timer_expired"), ("over", "sand timer")),
]


@pytest.mark.parametrize(("position", "action", "words"), CASES, ids=[f"{c[1]['type']}-{i}" for i, c in enumerate(CASES)])
def test_a_refusal_is_one_sentence_naming_the_player_and_the_move(position, action, words):
    message = refused(position(), action, *words)
    assert message[0].isupper() and message.endswith(".")
    assert not re.search(r"[.!?] [A-Z]", message), f"more than one sentence: {message}"
