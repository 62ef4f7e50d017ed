"""galapagos-dice: path hints (best order and path for rolled dice) and the digital dice."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from companion.engine.rules import RuleError
from companion.games.dice.paths import best_path as hint
from companion.games.dice.rules import roll_dice
from tests.support.dice import (
    COLOURS,
    RULES,
    act,
    colour,
    neighbours_on_paper,
    plan_all,
    play,
    ready,
)


def gain(state, order, path) -> int:
    """Points Ann gains by planning ``order`` and walking ``path``, as the rules engine counts them."""
    before = RULES.scores(state)["Ann"]
    moved = play(plan_all(state, ("Ann", list(order)), ("Bob", [])), act("move", "Ann", path=list(path)))
    return RULES.scores(moved)["Ann"] - before


def brute_force(state, dice):
    """Every order of every subset of the dice, every path it allows: (best points, shortest length)."""
    start = state.pawns[0]
    best = (-1, 0)
    for k in range(len(dice) + 1):
        for order in set(itertools.permutations(dice, k)):
            paths = [[start]]
            for die in order:
                paths = [p + [m] for p in paths for m in neighbours_on_paper(p[-1]) if colour(m) == die]
            for p in paths:
                best = max(best, (gain(state, order, p[1:]), -k))
    return best[0], -best[1]


def position(rng: random.Random):
    numbers = list(range(1, 37))
    rng.shuffle(numbers)
    lying = numbers[2 : 2 + rng.randint(5, 18)] + ([numbers[0]] if rng.random() < 0.3 else [])
    state = ready(pawns=(numbers[0], numbers[1]), island=tuple(sorted(lying)))
    haul = tuple(numbers[-rng.randint(0, 12) :]) if rng.random() < 0.8 else ()
    return replace(state, hauls=(haul, ()), bag=state.bag - set(haul))


@pytest.mark.parametrize("seed", range(16))
def test_hint_matches_an_exhaustive_search(seed):
    """Most points gained (set completion counted), ties on the shortest path."""
    rng = random.Random(seed)
    state = position(rng)
    dice = [rng.choice(COLOURS) for _ in range(rng.choice((3, 4, 5)))]
    got = hint(state, "Ann", dice)
    points, length = brute_force(state, dice)
    assert (got["points"], len(got["path"])) == (points, length)
    assert gain(state, got["order"], got["path"]) == got["points"]


def test_completing_a_set_beats_two_extra_turtles():
    """Ann holds black, white, red, green, yellow. From 7: the blue 36 (+3: a set) or white 8 then red 9 (+2)."""
    turtles = {36: "blue", 8: "white", 9: "red", 3: "black", 4: "white", 5: "red", 6: "green", 10: "yellow"}
    state = ready(pawns=(7, 30), turtles=turtles, island=(36, 8, 9))
    state = replace(state, hauls=((3, 4, 5, 6, 10), ()), bag=frozenset())
    assert hint(state, "Ann", ["blue", "white", "red"]) == {"order": ["blue"], "path": [36], "points": 3}


def test_equal_points_go_to_the_shorter_path():
    """One turtle on 8: reached directly with white, or via 7 with black then white."""
    state = ready(pawns=(1, 30), turtles={8: "red"}, island=(8,))
    assert hint(state, "Ann", ["black", "white", "white"]) == {"order": ["white"], "path": [8], "points": 1}


def test_the_turtle_under_the_pawn_counts_even_without_a_step():
    state = ready(pawns=(1, 30), turtles={1: "red"}, island=(1,))
    assert hint(state, "Ann", ["yellow"]) == {"order": [], "path": [], "points": 1}


def test_nothing_to_gain_means_stay():
    assert hint(ready(), "Ann", ["white", "red", "green", "blue", "black"]) == {"order": [], "path": [], "points": 0}


@pytest.mark.parametrize(("on", "path"), [(False, [2, 3]), (True, [8])])
def test_the_two_player_variant_hint_goes_for_the_fifth_colour(on, path):
    """Ann holds four reds: the red turtle on 8 wins at once, the blue and green on 2 and 3 score more."""
    turtles = {2: "blue", 3: "green", 8: "red", 4: "red", 5: "red", 6: "red", 10: "red"}
    state = ready(pawns=(1, 30), turtles=turtles, island=(2, 3, 8), two_player_variant=on)
    state = replace(state, hauls=((4, 5, 6, 10), ()), bag=frozenset())
    assert hint(state, "Ann", ["white", "red"])["path"] == path


def test_hint_needs_a_pawn_and_real_dice():
    with pytest.raises(RuleError, match="Zed"):
        hint(ready(), "Zed", ["red"])
    with pytest.raises(RuleError, match="dice"):
        hint(ready(), "Ann", ["red"] * 6)
    with pytest.raises(RuleError, match="dice"):
        hint(ready(), "Ann", ["pink"])


def test_digital_dice_are_seeded_and_journalable():
    """When the physical dice are missing the companion rolls five for the player: a ``roll`` action."""
    first = roll_dice(random.Random(42), "Ann")
    assert first == roll_dice(random.Random(42), "Ann")
    assert first["type"] == "roll" and first["player"] == "Ann"
    assert len(first["dice"]) == 5 and set(first["dice"]) <= set(COLOURS)
    rolls = {tuple(roll_dice(random.Random(s), "Ann")["dice"]) for s in range(20)}
    assert len(rolls) > 1
    state = play(ready(), first)
    assert state.rolls[0] == tuple(first["dice"])
