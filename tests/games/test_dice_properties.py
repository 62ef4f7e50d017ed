"""galapagos-dice: properties over random games - legal paths only, turtles conserved, honest hints."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.engine.rules import RuleError
from companion.games.dice.paths import best_path as hint
from tests.support.dice import (
    COLOURS,
    RULES,
    act,
    colour,
    neighbours_on_paper,
    new,
    plan_all,
    play,
    ready,
)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def conserved(state) -> None:
    """Every turtle is in exactly one place: the bag, the island, or one player's haul."""
    places = [set(state.bag), set(state.island), *map(set, state.hauls)]
    assert sum(map(len, places)) == len(state.table.turtles)
    assert set().union(*places) == set(state.table.turtles)
    for n in state.island:
        assert 1 <= n <= 36  # a turtle lies on its own numbered field


def legal_on_paper(state, player: str, path: list[int]) -> bool:
    """Worked from the spiral island's coordinates: each step a neighbour of the next die's colour."""
    i = state.table.players.index(player)
    here, dice = state.pawns[i], state.plans[i] or ()
    steps = path[1:] if path and path[0] == here else path
    if len(steps) > len(dice):
        return False
    for die, nxt in zip(dice, steps, strict=False):
        if nxt not in neighbours_on_paper(here) or colour(nxt) != die:
            return False
        here = nxt
    return True


def wild_action(data, state) -> dict:
    """An action that may or may not be legal: a random path, plan, roll, draw or start."""
    players = list(state.table.players)
    who = data.draw(st.sampled_from(players))
    kind = data.draw(st.sampled_from(["move", "move", "plan", "roll", "timer_expired", "place_turtles", "start"]))
    if kind == "move":
        here = state.pawns[players.index(who)] or 1
        path = []
        for _ in range(data.draw(st.integers(0, 5))):
            nxt = data.draw(st.sampled_from(sorted(neighbours_on_paper(here)) + [here, 0, 37]))
            path.append(nxt)
            here = nxt if 1 <= nxt <= 36 else here
        return act("move", who, path=path)
    if kind in ("plan", "roll"):
        return act(kind, who, dice=data.draw(st.lists(st.sampled_from(COLOURS), min_size=0, max_size=6)))
    if kind == "place_turtles":
        return act(kind, numbers=data.draw(st.lists(st.integers(0, 37), max_size=7)))
    if kind == "start":
        return act(kind, who, field=data.draw(st.integers(0, 37)))
    return act(kind)


FEW_TURTLES = st.dictionaries(st.integers(1, 36).map(str), st.sampled_from(COLOURS), min_size=1, max_size=14)


@pytest.mark.slow(reason="60 random dice games (hypothesis) of up to 120 actions, "
                         "the paths and the turtles' count checked after each")
@SETTINGS
@given(st.data(), st.integers(2, 4), st.booleans(), st.none() | FEW_TURTLES)
def test_random_games_accept_only_legal_paths_and_conserve_turtles(data, count, variant, turtles):
    """Few turtles (sometimes) so that random games also reach their end."""
    names = ("Ann", "Bob", "Cy", "Dee")[:count]
    options = {"turtles": turtles} if turtles else {}
    state = new(names, two_player_variant=variant and count == 2, **options)
    for _ in range(data.draw(st.integers(10, 120))):
        if RULES.view(state)["over"]:
            event("the game ended")
            break
        if data.draw(st.booleans()):
            options = RULES.candidates(state)
            assert options, RULES.view(state)
            action = data.draw(st.sampled_from(options))
        else:
            action = wild_action(data, state)
        before = RULES.fingerprint(state)
        try:
            after, _ = RULES.apply(state, action)
        except RuleError:
            assert RULES.fingerprint(state) == before
            continue
        if action["type"] == "move":
            event("a move was accepted")
            assert legal_on_paper(state, action["player"], action["path"]), action
        assert RULES.fingerprint(state) == before  # the old state is never touched
        state = after
        conserved(state)


@SETTINGS
@given(
    st.permutations(range(1, 37)),
    st.integers(0, 20),
    st.integers(0, 12),
    st.lists(st.sampled_from(COLOURS), min_size=0, max_size=5),
    st.booleans(),
)
def test_the_hint_never_proposes_an_illegal_path(numbers, lying, held, dice, variant):
    """Whatever the island and the dice, the hinted order is a valid plan and the path a valid move
    that gains exactly the points announced."""
    state = ready(pawns=(numbers[0], numbers[1]), island=tuple(numbers[: lying]), two_player_variant=variant)
    haul = tuple(numbers[36 - held :]) if held else ()
    state = replace(state, hauls=(haul, ()), bag=state.bag - set(haul) - set(numbers[:lying]))
    conserved(state)
    got = hint(state, "Ann", dice)
    assert all(got["order"].count(c) <= dice.count(c) for c in COLOURS)
    planned = play(state, act("roll", "Ann", dice=dice + ["black"] * (5 - len(dice))))
    planned = plan_all(planned, ("Ann", got["order"]), ("Bob", []))
    assert legal_on_paper(planned, "Ann", got["path"])
    moved = play(planned, act("move", "Ann", path=got["path"]))
    assert RULES.scores(moved)["Ann"] - RULES.scores(state)["Ann"] == got["points"]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.booleans(), FEW_TURTLES)
def test_playouts_end_when_every_turtle_is_collected(seed, count, variant, turtles):
    """"If the bag of turtles is empty, continue playing until all of the turtles are collected."
    Random legal play (the candidates) reaches that end; then someone has won."""
    rng = random.Random(seed)
    state = new(("Ann", "Bob", "Cy", "Dee")[:count], turtles=turtles, two_player_variant=variant and count == 2)
    for _ in range(2000):
        if RULES.view(state)["over"]:
            break
        state, _ = RULES.apply(state, rng.choice(RULES.candidates(state)))
        conserved(state)
    out = RULES.public_state(state)
    assert out["over"], "a random game did not end in 2000 actions"
    assert out["winners"]
    if out["outcome"]["reason"] == "island_empty":
        assert not state.bag and not state.island
        assert set(out["winners"]) == {p for p, v in out["scores"].items() if v == max(out["scores"].values())}
    else:
        assert out["outcome"]["reason"] == "five_of_a_colour" and variant
        (winner,) = out["winners"]
        assert max(next(p for p in out["players"] if p["name"] == winner)["turtles"].values()) == 5
