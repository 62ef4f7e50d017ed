"""galapagos-dice: the island - neighbours, the sea between corners, the volcano, layouts."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.engine.rules import RuleError
from companion.games.dice.island import layout_from_colours, parse_layout
from companion.games.dice.rules import generate_layout, render_island
from tests.support.dice import (
    AXIAL_STEPS,
    CORNERS,
    SPIRAL,
    SPIRAL_HEXES,
    act,
    colour,
    neighbours_on_paper,
    new,
    ready,
    refused,
)


def island():
    return new().table.island


def touching(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return (b[0] - a[0], b[1] - a[1]) in AXIAL_STEPS


def test_island_has_36_fields_around_an_empty_volcano():
    """"The island is built ... from the 37 island fields ...; the volcano forms the center." """
    isl = island()
    assert len(isl.colour) == 36
    assert (0, 0) not in isl.hex.values()
    assert set(isl.hex.values()) == set(SPIRAL_HEXES)


def test_neighbour_counts_by_ring():
    """Fields by the volcano have 5 neighbours (the 6th side is the volcano), the middle ring 6,
    the coast 4, and a corner 3 by land plus 2 by sea."""
    isl = island()
    counts = {n: len(isl.neighbours[n]) for n in isl.colour}
    assert all(counts[n] == 5 for n in range(1, 7))
    assert all(counts[n] == 6 for n in range(7, 19))
    assert all(counts[n] == (5 if n in CORNERS else 4) for n in range(19, 37))
    assert Counter(counts.values()) == {5: 12, 6: 12, 4: 12}


def test_land_neighbours_are_the_touching_hexes():
    isl = island()
    for n, h in isl.hex.items():
        land = {m for m, g in isl.hex.items() if touching(h, g)}
        assert set(isl.neighbours[n]) - set(isl.sea.get(n, ())) == land


def test_engine_neighbours_match_the_paper_geometry():
    isl = island()
    for n in range(1, 37):
        assert set(isl.neighbours[n]) == neighbours_on_paper(n)


def test_worked_neighbours_of_the_spiral_island():
    isl = island()
    assert isl.neighbours[1] == (2, 6, 7, 8, 18)
    assert isl.neighbours[7] == (1, 8, 18, 19, 20, 36)
    assert isl.neighbours[19] == (7, 20, 22, 34, 36)
    assert isl.neighbours[22] == (9, 19, 21, 23, 25)


def test_each_corner_is_linked_by_sea_to_its_two_neighbouring_corners():
    """"If a player moves to one of the six corner sections of the island, he can move from there
    to one of the two adjacent corner spots." """
    isl = island()
    ring = list(CORNERS)
    for i, c in enumerate(ring):
        assert set(isl.sea[c]) == {ring[i - 1], ring[(i + 1) % 6]}
        assert ring[(i + 3) % 6] not in isl.neighbours[c]  # the opposite corner is too far
    assert set(isl.sea) == set(CORNERS)
    assert 23 not in isl.neighbours[20]  # coast fields that are not corners have no sea link


def test_corners_are_found_by_position_not_by_number():
    """On a randomly laid island the corners are whatever tiles lie at the six corner positions."""
    layout = generate_layout(7)
    isl = parse_layout(layout)
    corner_hexes = {(3, 0), (3, -3), (0, -3), (-3, 0), (-3, 3), (0, 3)}
    assert {isl.hex[n] for n in isl.sea} == corner_hexes


def test_no_field_neighbours_the_volcano():
    """"Note: You cannot enter the volcano spot." No field lists it, so no path can reach it."""
    isl = island()
    for n in isl.colour:
        assert all(isl.hex[m] != (0, 0) for m in isl.neighbours[n])
    assert 0 not in isl.colour


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda lay: lay["1"].update(hex=[0, 0]), ("volcano",)),
        (lambda lay: lay["1"].update(hex=[4, 0]), ("off the island",)),
        (lambda lay: lay["1"].update(hex=[1, -1]), ("Fields 1 and 2", "both")),
        (lambda lay: lay["1"].update(colour="purple"), ("purple",)),
        (lambda lay: lay.pop("36"), ("36 fields", "35")),
        (lambda lay: lay["1"].update(hex="north"), ("hex",)),
    ],
)
def test_bad_layouts_are_refused(change, words):
    layout = {k: dict(v) for k, v in SPIRAL.items()}
    change(layout)
    with pytest.raises(RuleError) as err:
        new(layout=layout)
    for word in words:
        assert word in err.value.message


def test_layout_from_colours_numbers_the_fields_ring_by_ring():
    layout = layout_from_colours([colour(n) for n in range(1, 37)])
    assert layout == SPIRAL


def test_generated_layout_is_seeded_and_lays_the_printed_tiles_at_random():
    """The generator shuffles where tiles lie; a tile keeps its number and colour."""
    a, b, c = generate_layout(1), generate_layout(1), generate_layout(2)
    assert a == b
    assert a != c
    assert {k: v["colour"] for k, v in a.items()} == {k: v["colour"] for k, v in c.items()}
    assert sorted(a, key=int) == [str(n) for n in range(1, 37)]
    assert {tuple(v["hex"]) for v in a.values()} == set(SPIRAL_HEXES)
    assert Counter(v["colour"] for v in a.values()) == {c: 6 for c in ("black", "white", "red", "green", "yellow", "blue")}
    parse_layout(a)  # a valid island


def test_layout_seed_option_builds_the_generated_island():
    state = new(layout=generate_layout(5))
    other = new(layout_seed=5)  # no explicit layout: generated from the seed
    assert state.table.island.to_json() == other.table.island.to_json()


def test_render_island_draws_every_field_turtle_and_pawn():
    state = ready(pawns=(7, 19), turtles={8: "red"}, island=(8,))
    text = render_island(state)
    rows = text.splitlines()
    assert len([r for r in rows[:7] if r.strip()]) == 7  # seven rows of hexes
    assert "(^^)" in rows[3]  # the volcano in the middle row
    for n in range(1, 37):
        assert f"{n:>2}" in text
    assert " 8Wr" in text  # field 8 is white and carries a red turtle
    assert " 7K.1" in text and "19K.2" in text  # Ann (seat 1) on 7, Bob (seat 2) on 19
    assert "1=Ann" in text and "2=Bob" in text


def test_start_refuses_the_volcano():
    refused(new(), act("start", "Ann", field=0), "volcano")
