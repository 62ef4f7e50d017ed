"""pocket-galapagos narration: one sentence per event, as the table would tell it.

Written from seed 003's sentences: the ocean raises a population "by the number
of ICONS ... regardless of whether it MIGRATES or INHABITS" and only an
inhabiting card uses its ability; "all POPULATIONS decrease by one" at the end of
the turn; the two losses and the win.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games import package
from tests.games.test_pocket_moves import random_options
from tests.support.pocket import END, RULES, change, move, new, ocean, play, put

GAME = package("pocket-galapagos")


def story(state: Any, *actions: dict[str, Any], lang: str = "en") -> list[str]:
    lines: list[str] = []
    for action in actions:
        after, events = RULES.apply(state, action)
        lines += GAME.narrate(state, action, events, after, lang)
        state = after
    return lines


def test_an_ocean_card_tells_the_icons_the_mode_and_the_tracker() -> None:
    assert story(new(), ocean("rat", 2, "inhabit")) == [
        "Ann plays a rat card (2 icons) to the ocean; it inhabits and its ability applies: rat 3→5."]
    assert story(new(), ocean("ant", 1, "migrate")) == [
        "Ann plays an ant card (1 icon) to the ocean; it migrates, without its ability: ant 3→4."]


def test_a_tracker_stopped_at_seven_says_so() -> None:
    """"A POPULATION can never go below 0 or above 7.\""""
    assert story(new(start={"finch": 6}), ocean("finch", 3)) == [
        "Ann plays a finch card (3 icons) to the ocean; it inhabits and its ability applies: "
        "finch 6→7 (the tracker stops at 7)."]


def test_face_down_cards_name_the_space_and_count_the_invasive_ones() -> None:
    assert story(new(), put("biome", "ant"), put("dominant", "rat"), put("invasive", "ant")) == [
        "Ann plays a face-down ant to the island biome.",
        "Ann plays a face-down rat to the dominant species.",
        "Ann plays a face-down ant to the invasive species (1 ant there).",
    ]


def test_a_population_change_rises_falls_or_stays_at_the_end_of_the_track() -> None:
    assert story(new(), change("ant", 2), change("ant", -4), change("ant", -1)) == [
        "The ant population rises from 3 to 5.",
        "The ant population falls from 5 to 1.",
        "The ant population falls from 1 to 0.",
    ]
    assert story(new(start={"rat": 7, "finch": 0}), change("rat", 1), change("finch", -2)) == [
        "The rat population stays at 7: the tracker cannot go higher.",
        "The finch population stays at 0: the tracker cannot go lower.",
    ]


def test_a_moved_card_says_from_where_to_where() -> None:
    state = play(new(), put("biome", "rat"))
    assert story(state, move("rat", "biome", "invasive"), move("rat", "invasive", "elsewhere"),
                 move("finch", "elsewhere", "dominant")) == [
        "Ann moves a rat from the island biome to the invasive species.",
        "Ann moves a rat off the invasive species.",
        "Ann moves a finch onto the dominant species.",
    ]


def test_the_end_of_a_turn_tells_every_tracker_and_the_next_turn() -> None:
    """"At the end of each of your turns, all POPULATIONS decrease by one.\""""
    state = new(start={"rat": 5, "ant": 1, "finch": 0})
    assert story(state, END) == [
        "End of turn 1: every population falls by one (rat 5→4, ant 1→0, finch 0→0).",
        "Two populations are at 0 (ant and finch): Ann loses.",
    ]
    assert story(new(), END) == [
        "End of turn 1: every population falls by one (rat 3→2, ant 3→2, finch 3→2).",
        "Turn 2 of 10 begins.",
    ]


def test_every_ending_is_told_with_its_reason() -> None:
    assert story(new(turns=1), END)[-1] == "Ann survives the only turn and wins!"
    assert story(new(turns=2), END, END)[-1] == "Ann survives all 2 turns and wins!"
    assert story(new(start={"rat": 1, "ant": 1, "finch": 1}), END)[-1] == "Every population is at 0: Ann loses."
    invaded = play(new(invasive_play="free"), put("invasive", "finch"), put("invasive", "finch"),
                   put("invasive", "finch"))
    assert story(invaded, END)[-1] == "Three finches sit on the invasive species: Ann loses."
    four = play(invaded, put("invasive", "finch"))
    assert story(four, END)[-1] == "4 finches sit on the invasive species: Ann loses."


def test_describe_gives_a_short_line_for_each_action() -> None:
    assert GAME.describe(ocean("rat", 2)) == "Rat card to the ocean (2 icons, inhabits)"
    assert GAME.describe(ocean("Ant", 1, "migrate")) == "Ant card to the ocean (1 icon, migrates)"
    assert GAME.describe(put("invasive", "finch")) == "Face-down finch to the invasive species"
    assert GAME.describe(change("rat", -3)) == "Rat population -3"
    assert GAME.describe(move("rat", "invasive", "elsewhere")) == "Rat moved: invasive → elsewhere"
    assert GAME.describe(END) == "End of the turn"
    assert GAME.describe(put("biome", "rat"), "fr") == "Carte rat face cachée sur le biome de l'île"


def test_every_event_of_random_games_is_told_in_both_languages() -> None:
    rng = random.Random(5)
    for _ in range(40):
        state = RULES.setup(["Ann"], random_options(rng))
        while state.result is None:
            action = rng.choice(RULES.candidates(state))
            after, events = RULES.apply(state, action)
            for lang in ("en", "fr"):
                lines = GAME.narrate(state, action, events, after, lang)
                assert len(lines) == len(events) and all(line.endswith((".", "!")) for line in lines)
                assert GAME.describe(action, lang)
            state = after
