"""The dice island as numbers for the page's SVG (the templates only loop over what this returns).

Pointy-top hexes in axial coordinates, the volcano at the centre; each cell
carries its colour (fill and ink), its number, the turtle lying on it and the
pawns standing there. Copied from the web layer's picture helpers so the game
package draws its own board (the web layer names no game).
"""

from __future__ import annotations

import math
from typing import Any

from companion.engine import texts
from companion.games.dice.words import DOMAIN

#: fill colours of the island's fields, the dice and the turtles, and an ink that reads on each at 4.5:1 or better
COLOUR_FILL = {
    "black": "#2b2b2b", "white": "#f4f1e8", "red": "#c62f2f", "green": "#3f9b4b",
    "yellow": "#f2c230", "blue": "#2f6fbf",
}
COLOUR_INK = {"black": "#fff", "white": "#222", "red": "#fff", "green": "#111", "yellow": "#222", "blue": "#fff"}
#: a shape per colour, drawn on fields, dice and shells: red, green and blue are one grey, and red and green one
#: colour for many colour-blind players
COLOUR_SHAPE = {"black": "circle", "white": "ring", "red": "triangle", "green": "square", "yellow": "star",
                "blue": "diamond"}
#: one colour per seat (pawns), as the web layer's seat colours
SEAT_COLOURS = ["#e4572e", "#17bebb", "#ffc914", "#76b041", "#7d5ba6", "#2e86ab",
                "#f18f01", "#c73e1d", "#3b1f2b", "#6c8ead", "#a23b72", "#5f0f40"]
HEX_SIZE = 26.0


def hex_corners(cx: float, cy: float, size: float = HEX_SIZE) -> str:
    pts = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        pts.append(f"{cx + size * math.cos(angle):.1f},{cy + size * math.sin(angle):.1f}")
    return " ".join(pts)


def hex_center(q: int, r: int, size: float = HEX_SIZE) -> tuple[float, float]:
    return size * math.sqrt(3) * (q + r / 2), size * 1.5 * r


def pawn_spots(cx: float, cy: float, count: int) -> list[dict[str, float]]:
    """Where ``count`` pawns stand on the field centred on ``cx, cy``: apart, under the number and the turtle.

    One to three pawns in a row along the field's lower half, four in a row of
    smaller pawns; the pawns are drawn above every field, so a fourth one may
    reach past the edge without hiding under a neighbour.
    """
    if count <= 0:
        return []
    r = 7.5 if count <= 2 else 6.5 if count == 3 else 5.6
    step = 2 * r + 1.5
    left = cx - step * (count - 1) / 2
    return [{"x": round(left + i * step, 1), "y": round(cy + 15.0, 1), "r": r} for i in range(count)]


def island(layout: dict[str, Any], turtles: dict[str, str] | None = None,
           pawns: dict[int, list[tuple[int, str]]] | None = None, lang: str = "en") -> dict[str, Any]:
    """Cells of the island: polygon, centre, colour (and its word in ``lang``), number, turtle, pawns; the viewBox."""
    turtles = turtles or {}
    pawns = pawns or {}
    cells = []
    xs, ys = [0.0], [0.0]
    for number, spec in layout.items():
        q, r = spec["hex"]
        cx, cy = hex_center(q, r)
        xs.append(cx)
        ys.append(cy)
        colour = spec["colour"]
        turtle = turtles.get(str(number))
        cells.append({
            "number": int(number), "x": round(cx, 1), "y": round(cy, 1), "points": hex_corners(cx, cy),
            "fill": COLOUR_FILL.get(colour, "#ccc"), "ink": COLOUR_INK.get(colour, "#000"), "colour": colour,
            "colour_word": texts.gettext_(colour, lang, DOMAIN),
            "shape": COLOUR_SHAPE.get(colour),
            "turtle": turtle,
            "turtle_fill": COLOUR_FILL.get(turtle or "", "#ccc"),
            "turtle_ink": COLOUR_INK.get(turtle or "", "#000"),
            "turtle_shape": COLOUR_SHAPE.get(turtle or ""),
            "turtle_word": texts.gettext_(turtle, lang, DOMAIN) if turtle else None,
            "pawns": [{"seat": s, "name": n, "fill": SEAT_COLOURS[s % len(SEAT_COLOURS)], **spot}
                      for (s, n), spot in zip(pawns.get(int(number), []),
                                              pawn_spots(cx, cy, len(pawns.get(int(number), []))), strict=True)],
        })
        # "A player who starts movement with a turtle on his island spot can collect that turtle. However, a
        # player who moves before him could move to that island spot and collect that turtle" - say whose it is
        cells[-1]["under"] = [p["name"] for p in cells[-1]["pawns"]] if turtle else []
    pad = HEX_SIZE * 1.2
    box = (min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad)
    return {"cells": sorted(cells, key=lambda c: c["number"]), "volcano": hex_corners(0, 0),
            "viewbox": " ".join(f"{v:.0f}" for v in box), "names": []}


def of_public(public: dict[str, Any], lang: str = "en") -> dict[str, Any] | None:
    """The island picture of a public state, pawns included (None before there is a layout)."""
    if not public.get("layout"):
        return None
    pawns: dict[int, list[tuple[int, str]]] = {}
    for seat, p in enumerate(public.get("players", [])):
        if p.get("field") is not None:
            pawns.setdefault(int(p["field"]), []).append((seat, p["name"]))
    out = island(public["layout"], public.get("island"), pawns, lang)
    out["names"] = [p["name"] for p in public.get("players", [])]
    return out
