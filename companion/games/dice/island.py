"""The island of Galapagos (dice game): hex geometry, sea links, layouts and a text drawing.

Kept apart from the rules so the dashboard and ``companion show`` can draw an
island, and the path hints can walk it, without a game state. Pure standard
library; the only randomness is an explicit seed handed to :func:`generate_layout`.

Geometry: axial coordinates ``(q, r)`` with the volcano at ``(0, 0)``; the 37
hexes within distance 3 of it are the volcano and the 36 numbered fields. The
six corners (distance 3, straight out from the volcano) are linked by sea, each
to its two neighbouring corners.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.dice.words import ALL_COLOURS, refuse

COLOURS: tuple[str, ...] = ("black", "white", "red", "green", "yellow", "blue")
RADIUS = 3
FIELDS = 36
VOLCANO = (0, 0)
#: the six axial directions, counter-clockwise starting east.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
#: one letter per colour for the text drawing (K for black, as printers do).
LETTERS = {"black": "K", "white": "W", "red": "R", "green": "G", "yellow": "Y", "blue": "B"}

Hex = tuple[int, int]


def distance(h: Hex) -> int:
    """Steps from the volcano to ``h``."""
    q, r = h
    return max(abs(q), abs(r), abs(q + r))


def spiral_hexes() -> list[Hex]:
    """The 36 field positions ring by ring, each ring counter-clockwise from its east end.

    This is the numbering of :func:`layout_from_colours`: fields 1-6 touch the
    volcano, 7-18 form the middle ring, 19-36 the coast (corners 19, 22, 25, 28, 31, 34).
    """
    walk = ((0, -1), (-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1))
    out: list[Hex] = []
    for ring in range(1, RADIUS + 1):
        q, r = ring, 0
        for dq, dr in walk:
            for _ in range(ring):
                out.append((q, r))
                q, r = q + dq, r + dr
    return out


CORNER_HEXES: tuple[Hex, ...] = tuple((RADIUS * dq, RADIUS * dr) for dq, dr in DIRECTIONS)


@dataclass(frozen=True, eq=False)
class Island:
    """A validated island: colour and position per field, land neighbours and sea links.

    Shared (never copied) by every state of a game; treat its dicts as read-only.
    ``by_colour[f][c]`` lists the fields reachable from ``f`` with a die of colour
    index ``c`` - the question both move validation and the hints ask.
    """

    colour: dict[int, str]
    hex: dict[int, Hex]
    neighbours: dict[int, tuple[int, ...]]
    sea: dict[int, tuple[int, ...]]
    corners: tuple[int, ...]
    by_colour: dict[int, tuple[tuple[int, ...], ...]] = field(repr=False)

    @property
    def numbers(self) -> list[int]:
        return sorted(self.colour)

    def reachable(self, start: int, colour: str) -> tuple[int, ...]:
        """Fields one step from ``start`` (by land or sea) of ``colour``."""
        return self.by_colour[start][COLOURS.index(colour)]

    def to_json(self) -> dict[str, dict[str, Any]]:
        return {str(n): {"colour": self.colour[n], "hex": list(self.hex[n])} for n in self.numbers}


def build_island(colour: Mapping[int, str], position: Mapping[int, Hex]) -> Island:
    """Derive neighbours and sea links from colours and positions (already validated)."""
    at = {h: n for n, h in position.items()}
    sea: dict[int, tuple[int, ...]] = {}
    corners = tuple(at[h] for h in CORNER_HEXES)
    for i, n in enumerate(corners):
        sea[n] = tuple(sorted((corners[i - 1], corners[(i + 1) % 6])))
    neighbours: dict[int, tuple[int, ...]] = {}
    for n, (q, r) in position.items():
        land = [at[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in at]
        neighbours[n] = tuple(sorted(land + list(sea.get(n, ()))))
    by_colour = {
        n: tuple(tuple(m for m in neighbours[n] if colour[m] == c) for c in COLOURS) for n in position
    }
    return Island(dict(colour), dict(position), neighbours, sea, corners, by_colour)


def parse_layout(layout: Any) -> Island:
    """Validate the ``layout`` option (field number -> {"colour", "hex": [q, r]})."""
    if not isinstance(layout, dict):
        raise refuse("The \"layout\" option must be an object: field number -> {\"colour\", \"hex\"}.")
    colour: dict[int, str] = {}
    position: dict[int, Hex] = {}
    for key, spec in layout.items():
        number = field_number(key)
        if number in colour:
            raise refuse("Field {number} appears twice in the layout.", number=number)
        if not isinstance(spec, dict):
            raise refuse("Field {number} must be an object with \"colour\" and \"hex\".", number=number)
        col = spec.get("colour")
        if col not in COLOURS:
            raise refuse("Field {number} has colour {colour}; the colours are {colours}.", number=number, colour=repr(col),
                         colours=ALL_COLOURS)
        h = spec.get("hex")
        if not (isinstance(h, list | tuple) and len(h) == 2 and all(type(v) is int for v in h)):
            raise refuse("Field {number} needs \"hex\": [q, r], two whole numbers.", number=number)
        hx = (h[0], h[1])
        if hx == VOLCANO:
            raise refuse("Field {number} cannot lie on the volcano at [0, 0]; nobody can enter the volcano.", number=number)
        if distance(hx) > RADIUS:
            raise refuse("Field {number} at [{q}, {r}] is off the island (at most 3 steps from the volcano).", number=number,
                         q=hx[0], r=hx[1])
        if hx in position.values():
            other = next(n for n, p in position.items() if p == hx)
            raise refuse("Fields {other} and {number} both lie at [{q}, {r}].", other=other, number=number, q=hx[0], r=hx[1])
        colour[number], position[number] = col, hx
    if len(colour) != FIELDS:
        raise refuse("The island has {fields} fields around the volcano, but the layout gives {count}.", fields=FIELDS,
                     count=len(colour))
    return build_island(colour, position)


def field_number(key: Any) -> int:
    """A field or turtle number from a JSON key ("12") or an int."""
    if isinstance(key, bool):
        raise refuse("{key} is not a field number.", key=repr(key))
    if isinstance(key, int):
        number = key
    elif isinstance(key, str) and key.strip().isdigit():
        number = int(key)
    else:
        raise refuse("{key} is not a field number.", key=repr(key))
    if number < 1:
        raise refuse("Field numbers start at 1, not {number}.", number=number)
    return number


def layout_from_colours(colours: Sequence[str]) -> dict[str, dict[str, Any]]:
    """A layout numbering the fields 1-36 in :func:`spiral_hexes` order with the given colours.

    Lets a table (or a test) type an island ring by ring instead of coordinates.
    """
    if len(colours) != FIELDS:
        raise ValueError(f"need {FIELDS} colours, got {len(colours)}")
    return {str(i + 1): {"colour": c, "hex": list(h)} for i, (c, h) in enumerate(zip(colours, spiral_hexes(), strict=True))}


def tile_colour(number: int) -> str:
    """The printed colour of island tile ``number`` (assumed: colours cycle 1 black, 2 white...)."""
    return COLOURS[(number - 1) % len(COLOURS)]


def generate_layout(seed: int) -> dict[str, dict[str, Any]]:
    """Lay the 36 island tiles at random around the volcano, as the rulebook's set-up does.

    "The island is built randomly from the 37 island fields set into the frames;
    the volcano forms the center." Each tile keeps its printed number and colour
    (:func:`tile_colour`); only the positions are shuffled. Same seed, same island.
    """
    tiles = list(range(1, FIELDS + 1))
    random.Random(seed).shuffle(tiles)
    placed = dict(zip(tiles, spiral_hexes(), strict=True))
    return {str(n): {"colour": tile_colour(n), "hex": list(placed[n])} for n in sorted(placed)}


def render(island: Island, turtles: Mapping[int, str], pawns: Mapping[int, Sequence[int]]) -> list[str]:
    """Rows of a text drawing: each field as number, colour letter, turtle, pawn seats.

    ``turtles`` maps a field to the colour of the turtle lying on it; ``pawns``
    maps a field to the 1-based seats of the pawns standing there.
    """
    at = {h: n for n, h in island.hex.items()}
    rows = []
    for r in range(-RADIUS, RADIUS + 1):
        cells = []
        for q in range(max(-RADIUS, -RADIUS - r), min(RADIUS, RADIUS - r) + 1):
            if (q, r) == VOLCANO:
                cells.append(" (^^)  ")
                continue
            n = at[(q, r)]
            shell = LETTERS[turtles[n]].lower() if n in turtles else "."
            seats = "".join(str(s) for s in pawns.get(n, ()))
            cells.append(f"{n:>2}{LETTERS[island.colour[n]]}{shell}{seats:<3}")
        rows.append(" " * (4 * abs(r)) + " ".join(cells).rstrip())
    return rows
