"""galapagos-dice: the story of a game, one sentence per event, in English and French.

Each test takes its sentence from the rulebook (seeds/002) and checks that the
narration tells it: who turned the sand timer, each move with the turtles taken
and from under whose pawn, who has no move, the new round's draw, and the set
scoring at the end.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from companion.games.dice import GAME
from tests.support.dice import RULES, act, new, plan_all, play, ready


def told(state, action, lang="en"):
    """(new state, the sentences narrating ``action``)."""
    after, events = RULES.apply(state, action)
    return after, GAME.narrate(state, action, events, after, lang)


def test_the_first_to_finish_planning_flips_the_sand_timer():
    """"Once the first player has completed his planning, he grabs the sand timer, flips it over"."""
    _, lines = told(ready(), act("plan", "Bob", dice=["red", "blue"]))
    assert lines == [
        "Bob plans red, blue.",
        "Bob finished first and flips the sand timer: 30 seconds for the others to plan.",
    ]
    _, fr = told(ready(), act("plan", "Bob", dice=["red", "blue"]), "fr")
    assert fr == ["Bob planifie rouge, bleu.",
                  "Bob a fini le premier et retourne le sablier : 30 secondes pour que les autres planifient."]


def test_when_the_timer_runs_out_the_order_is_told_with_who_turned_it_and_who_moves_with_no_dice():
    """"When the timer expires, the planning phase ends for all players" - "Any dice not on a player's
    set up area cannot be used": a player with no plan moves with no dice, clockwise in his turn."""
    state = plan_all(ready(("Ann", "Bob", "Cy"), pawns=(1, 2, 3)), ("Bob", ["red"]))
    _, lines = told(state, act("timer_expired"))
    assert lines == [
        "The sand timer Bob turned runs out: planning is over; moving order: Bob, Cy, Ann.",
        "Ann and Cy made no plans and move with no dice: only a turtle under the pawn can be taken.",
    ]
    _, fr = told(state, act("timer_expired"), "fr")
    assert fr == [
        "Le sablier retourné par Bob est écoulé : la planification est finie ; ordre de déplacement : Bob, Cy, Ann.",
        "Ann et Cy n'ont rien planifié et se déplacent sans dé : seule une tortue sous leur pion peut être prise.",
    ]


def test_everyone_done_gives_the_order_clockwise_from_the_first():
    """"The first to finish planning moves first, then play follows clockwise.\""""
    state = plan_all(ready(("Ann", "Bob", "Cy"), pawns=(1, 2, 3)), ("Bob", []), ("Ann", []))
    _, lines = told(state, act("done", "Cy"))
    assert lines == ["Cy plans no dice.", "Cy is done.",
                     "Everyone is done before the sand runs out; moving order: Bob, Cy, Ann."]


def test_a_changed_plan_and_a_done_are_told():
    """Until the sand runs out the others may re-arrange their dice; « I am done » is said aloud."""
    state = play(ready(("Ann", "Bob", "Cy"), pawns=(1, 2, 3)), act("plan", "Ann", dice=[]),
                 act("plan", "Bob", dice=["red"]))
    state, lines = told(state, act("plan", "Bob", dice=["blue", "red"]))
    assert lines == ["Bob changes the plan: blue, red."]
    _, lines = told(state, act("done", "Bob"))
    assert lines == ["Bob is done."]
    _, fr = told(state, act("done", "Bob", dice=["green"]), "fr")
    assert fr == ["Bob change son plan : vert.", "Bob a fini."]
    assert GAME.describe(act("done", "Bob", dice=["green"])) == "Bob is done: green"
    assert GAME.describe(act("done", "Bob"), "fr") == "Bob a fini"


def test_a_player_without_a_plan_takes_the_turtle_under_his_pawn_on_his_turn():
    """"A player who starts movement with a turtle on his island spot can collect that turtle" - with no
    plan too. Bob (on 30, turtle 30 under him, yellow as 25-30 are) made no plan."""
    state = play(ready(pawns=(1, 30), island=(30,)), act("plan", "Ann", dice=[]), act("timer_expired"),
                 act("move", "Ann", path=[]))
    _, lines = told(state, act("move", "Bob", path=[]))
    assert lines[:2] == ["Bob has no plan and stays on field 30.",
                         "Bob takes turtle 30 (yellow) from the field the move started on."]


def test_a_move_names_its_path_and_each_turtle_taken():
    """"If a player moves onto an island space with a turtle, he takes the turtle.\""""
    state = plan_all(ready(pawns=(1, 30), island=(8, 21), turtles={8: "red", 21: "blue", 30: "green"}),
                     ("Ann", ["white", "red"]), ("Bob", []))
    _, lines = told(state, act("move", "Ann", path=[8, 21]))
    assert lines == ["Ann moves 1 → 8 → 21.", "Ann takes turtle 8 (red).", "Ann takes turtle 21 (blue)."]
    _, fr = told(state, act("move", "Ann", path=[1, 8, 21]), "fr")  # the start spelt out: the same walk
    assert fr == ["Ann se déplace : 1 → 8 → 21.", "Ann prend la tortue 8 (rouge).", "Ann prend la tortue 21 (bleue)."]


def test_a_turtle_taken_from_under_another_pawn_says_whose():
    """"A player who starts movement with a turtle on his island spot can collect that turtle. However, a
    player who moves before him could move to that island spot and collect that turtle before he has a
    chance to move." Bob stands on 8 with turtle 8 (white, as 7-12 are); Ann moves first and takes it."""
    state = plan_all(ready(pawns=(1, 8), island=(8,)), ("Ann", ["white"]), ("Bob", []))
    _, lines = told(state, act("move", "Ann", path=[8]))
    assert lines[1] == "Ann takes turtle 8 (white) from under Bob's pawn."
    _, fr = told(state, act("move", "Ann", path=[8]), "fr")
    assert fr[1] == "Ann prend la tortue 8 (blanche) sous le pion de Bob."


def test_the_turtle_under_ones_own_pawn_is_taken_as_the_move_begins():
    state = plan_all(ready(pawns=(1, 30), island=(1, 9)), ("Ann", []), ("Bob", []))
    after, lines = told(state, act("move", "Ann", path=[]))
    assert lines == ["Ann stays on field 1.", "Ann takes turtle 1 (black) from the field the move started on."]


def test_the_end_of_a_round_says_how_many_turtles_to_draw():
    """"Replenish the number of turtles on the island by drawing 5 (2 players) or 6 (3-4 players)."."""
    state = plan_all(ready(pawns=(1, 30), island=(9,)), ("Ann", []), ("Bob", []))
    state, _ = told(state, act("move", "Ann", path=[]))
    _, lines = told(state, act("move", "Bob", path=[]))
    assert lines[-1] == "Round 2 begins: draw 5 turtles from the bag."


def test_the_final_scoring_tells_each_players_sets_and_the_winner():
    """"For a set of 6 different-color turtles = 8 points / For each additional turtle = 1 point";
    "The winner is the person with the most points." Ann holds one of each colour plus a red, and takes
    the last turtle (8, red); Bob holds two turtles."""
    turtles = {1: "black", 2: "white", 3: "red", 4: "green", 5: "yellow", 6: "blue", 8: "red", 30: "red", 31: "blue",
               10: "red"}
    state = ready(pawns=(1, 30), turtles=turtles, island=(8,))
    state = replace(state, hauls=((1, 2, 3, 4, 5, 6, 10), (30, 31)), bag=frozenset())
    state = plan_all(state, ("Ann", ["white"]), ("Bob", []))
    after, lines = told(state, act("move", "Ann", path=[8]))
    assert RULES.view(after)["over"]
    assert lines[2:] == [
        "Ann: 1 set of six colours (8 points) and 2 more turtles: 10 points.",
        "Bob: no full set of six colours, 2 turtles: 2 points.",
        "Every turtle has been collected.",
        "Ann wins with 10 points.",
    ]
    assert RULES.scores(after) == {"Ann": 10, "Bob": 2}


def test_a_tie_is_told_as_everyone_tied_winning():
    """"In case of a tie, all tied players win!\""""
    state = replace(ready(pawns=(1, 30), turtles={8: "red", 9: "red"}, island=(8,)), hauls=((), (9,)), bag=frozenset())
    state = plan_all(state, ("Ann", ["white"]), ("Bob", []))
    _, lines = told(state, act("move", "Ann", path=[8]))
    assert lines[-1] == "Ann and Bob tie with 1 point and all win."


def test_the_two_player_variant_win_is_told():
    """"if a player collects 5 turtles of the same color, he/she immediately wins.\""""
    turtles = {n: "red" for n in (8, 21, 31, 32, 33)} | {30: "blue"}
    state = ready(pawns=(1, 30), turtles=turtles, island=(8,), two_player_variant=True)
    state = replace(state, hauls=((21, 31, 32, 33), ()), bag=frozenset({30}))
    state = plan_all(state, ("Ann", ["white"]), ("Bob", []))
    _, lines = told(state, act("move", "Ann", path=[8]))
    assert lines[-1] == "Ann has five red turtles and wins at once."
    _, fr = told(state, act("move", "Ann", path=[8]), "fr")
    assert fr[-1] == "Ann a cinq tortues de la même couleur (rouge) et gagne aussitôt."


def test_set_up_is_told_pawn_by_pawn_then_planning_begins():
    state, lines = told(new(), act("start", "Ann", field=1))
    assert lines == ["Ann's pawn starts on field 1 (black)."]
    state, lines = told(state, act("start", "Bob", field=30))
    _, lines = told(state, act("place_turtles", numbers=[2, 3, 4, 5, 6]))
    assert lines == ["Turtles 2, 3, 4, 5, 6 are placed on the island; 31 left in the bag.",
                     "Every pawn and the first turtles are out: planning begins."]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_event_of_random_games_is_told_in_sentences(lang):
    rng = random.Random(12)
    for _ in range(8):
        count = rng.randint(2, 4)
        turtles = {str(n): rng.choice(["red", "blue", "black"]) for n in rng.sample(range(1, 37), 8)}
        state = new(("Ann", "Bob", "Cy", "Dee")[:count], turtles=turtles)
        for _ in range(400):
            if RULES.view(state)["over"]:
                break
            action = rng.choice(RULES.candidates(state))
            after, events = RULES.apply(state, action)
            lines = GAME.narrate(state, action, events, after, lang)
            assert len(lines) >= len(events), (action, events, lines)
            for line in lines:
                assert line[0].isupper() and line.endswith("."), line
            assert GAME.describe(action, lang)
            state = after
        assert RULES.view(state)["over"]


def test_describe_is_a_short_line_in_the_games_words():
    assert GAME.describe(act("plan", "Ann", dice=["red", "blue"])) == "Ann plans red, blue"
    assert GAME.describe(act("plan", "Ann", dice=[]), "fr") == "Ann ne planifie aucun dé"
    assert GAME.describe(act("move", "Bob", path=[8, 9])) == "Bob moves to 8 → 9"
    assert GAME.describe(act("move", "Bob", path=[])) == "Bob stays put"
    assert GAME.describe(act("place_turtles", numbers=[3, 4])) == "Turtles 3, 4 placed"
    assert GAME.describe(act("timer_expired"), "fr") == "Le sablier s'est écoulé"
    assert GAME.describe(act("roll", "Cy", dice=["black", "white"]), "fr") == "Cy obtient noir, blanc"
    assert GAME.describe(act("start", "Cy", field=7)) == "Cy starts on field 7"


def test_the_full_game_scenario_is_told_from_start_to_end():
    path = Path(__file__).parent.parent / "scenarios" / "dice_full_game.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    state = RULES.setup(lines[0]["players"], lines[0]["options"])
    story = []
    for action in lines[1:]:
        state, told_ = told(state, action)
        story += told_
    assert story[-1] == "Bob wins with 8 points."
    assert "Bob finished first and flips the sand timer: 30 seconds for the others to plan." in story
    assert "Ann made no plan and moves with no dice: only a turtle under the pawn can be taken." in story
    assert "Ann has no plan and stays on field 23." in story
    assert "Everyone is done before the sand runs out; moving order: Bob, Ann." in story
