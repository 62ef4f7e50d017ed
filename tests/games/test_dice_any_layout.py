"""galapagos-dice: the island's geometry on ANY valid layout, not only the spiral island.

The corners and sea links must come from where the fields lie, never from their
numbers: a table can build its island with any tile anywhere. Expected values are
worked here from axial coordinates alone (a corner is a hex three steps out with a
zero coordinate; two corners are linked by sea when they are three steps apart),
independently of ``dice_island``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.dice.island import parse_layout
from tests.support.dice import COLOURS, SPIRAL_HEXES, act, plan_all, play, player, ready, refused

SETTINGS = settings(max_examples=40, deadline=None)


def steps_apart(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def is_corner(h: tuple[int, int]) -> bool:
    return steps_apart(h, (0, 0)) == 3 and 0 in (h[0], h[1], h[0] + h[1])


def corner_ring(layout: dict[str, dict]) -> list[int]:
    """The six corner fields going round the coast (by angle), worked from coordinates."""
    corners = [int(n) for n, spec in layout.items() if is_corner(tuple(spec["hex"]))]
    ring = [corners[0]]
    while len(ring) < 6:
        here = tuple(layout[str(ring[-1])]["hex"])
        nxt = [c for c in corners if c not in ring and steps_apart(here, tuple(layout[str(c)]["hex"])) == 3]
        ring.append(nxt[0])
    return ring


layouts = st.tuples(st.permutations(range(1, 37)), st.lists(st.sampled_from(COLOURS), min_size=36, max_size=36)).map(
    lambda pc: {str(n): {"colour": c, "hex": list(h)} for n, c, h in zip(pc[0], pc[1], SPIRAL_HEXES, strict=True)}
)


@SETTINGS
@given(layouts)
def test_neighbours_corners_and_sea_links_follow_the_hexes_of_any_layout(layout):
    """"If a player moves to one of the six corner sections of the island, he can move from there to
    one of the two adjacent corner spots." - whichever numbers lie on the corners."""
    isl = parse_layout(layout)
    hexes = {int(n): tuple(spec["hex"]) for n, spec in layout.items()}
    ring = corner_ring(layout)
    assert set(isl.corners) == set(ring)
    for n, h in hexes.items():
        land = {m for m, g in hexes.items() if steps_apart(h, g) == 1}
        sea = set()
        if n in ring:
            i = ring.index(n)
            sea = {ring[i - 1], ring[(i + 1) % 6]}
        assert set(isl.neighbours[n]) == land | sea, n
        assert set(isl.sea.get(n, ())) == sea
        assert all(hexes[m] != (0, 0) for m in isl.neighbours[n])


@SETTINGS
@given(layouts, st.booleans())
def test_a_pawn_sails_round_the_corners_of_any_layout(layout, clockwise):
    """Five dice of the next five corners' colours take a pawn round the coast by sea, in either
    direction; sailing past a corner to the one beyond is refused."""
    ring = corner_ring(layout)
    if not clockwise:
        ring = ring[:1] + ring[:0:-1]
    other = next(int(n) for n in layout if int(n) not in ring)
    state = ready(pawns=(ring[0], other), layout=layout)
    dice = [layout[str(c)]["colour"] for c in ring[1:]]
    state = plan_all(state, ("Ann", dice), ("Bob", []))
    moved = play(state, act("move", "Ann", path=ring[1:]))
    assert player(moved, "Ann")["field"] == ring[5]
    skip = plan_all(ready(pawns=(ring[0], other), layout=layout), ("Ann", [layout[str(ring[2])]["colour"]]), ("Bob", []))
    refused(skip, act("move", "Ann", path=[ring[2]]), "Ann", f"field {ring[2]}", "not neighbours")
