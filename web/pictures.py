"""Numbers for the SVG pictures (the templates only loop over what this returns).

Hex island in axial coordinates (pointy-top), the score chart's polylines,
gauge fractions. No drawing library: plain SVG keeps the Pi light.
"""

from __future__ import annotations

import math
from typing import Any

#: fill colours of the dice island's fields and of turtles
COLOUR_FILL = {
    "black": "#2b2b2b", "white": "#f4f1e8", "red": "#d64541", "green": "#3f9b4b",
    "yellow": "#f2c230", "blue": "#3b7dd8",
}
#: ink for text on each colour
COLOUR_INK = {"black": "#fff", "white": "#222", "red": "#fff", "green": "#fff", "yellow": "#222", "blue": "#fff"}
#: one colour per seat (pawns, chart lines)
SEAT_COLOURS = ["#e4572e", "#17bebb", "#ffc914", "#76b041", "#7d5ba6", "#2e86ab",
                "#f18f01", "#c73e1d", "#3b1f2b", "#6c8ead", "#a23b72", "#5f0f40"]
#: the six animals of the auction game
ANIMAL_FILL = {"sea_lion": "#8d6e63", "iguana": "#7cb342", "tortoise": "#5d4037",
               "booby": "#29b6f6", "penguin": "#37474f", "crab": "#e53935"}

HEX_SIZE = 26.0


def hex_corners(cx: float, cy: float, size: float = HEX_SIZE) -> str:
    pts = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        pts.append(f"{cx + size * math.cos(angle):.1f},{cy + size * math.sin(angle):.1f}")
    return " ".join(pts)


def hex_center(q: int, r: int, size: float = HEX_SIZE) -> tuple[float, float]:
    return size * math.sqrt(3) * (q + r / 2), size * 1.5 * r


def island(layout: dict[str, Any], turtles: dict[str, str] | None = None,
           pawns: dict[int, list[tuple[int, str]]] | None = None) -> dict[str, Any]:
    """Cells of the dice island: polygon, centre, colour, number, turtle, pawns; plus the viewBox."""
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
        cells.append({
            "number": int(number), "x": round(cx, 1), "y": round(cy, 1), "points": hex_corners(cx, cy),
            "fill": COLOUR_FILL.get(colour, "#ccc"), "ink": COLOUR_INK.get(colour, "#000"), "colour": colour,
            "turtle": turtles.get(str(number)),
            "turtle_fill": COLOUR_FILL.get(turtles.get(str(number), ""), "#ccc"),
            "pawns": [{"seat": s, "name": n, "fill": SEAT_COLOURS[s % len(SEAT_COLOURS)]}
                      for s, n in pawns.get(int(number), [])],
        })
    pad = HEX_SIZE * 1.2
    box = (min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad)
    return {"cells": sorted(cells, key=lambda c: c["number"]), "volcano": hex_corners(0, 0),
            "viewbox": " ".join(f"{v:.0f}" for v in box)}


def score_chart(history: list[dict[str, Any]], players: list[str], width: int = 320, height: int = 140) -> dict[str, Any]:
    """Polylines per player over the rounds of ``history`` (see ``extras.score_history``)."""
    if len(history) < 3:  # nothing to draw before a round has ended
        return {"lines": [], "width": width, "height": height, "max": 0, "rounds": []}
    values = [v for row in history for v in row["scores"].values() if isinstance(v, int | float)]
    if not any(values):  # a game that scores only at its end (Galèrapagos): nothing to chart
        return {"lines": [], "width": width, "height": height, "max": 0, "rounds": []}
    top = max([1] + values)
    left, bottom = 28, height - 18
    step = (width - left - 8) / (len(history) - 1)
    lines = []
    for seat, name in enumerate(players):
        pts = []
        for i, row in enumerate(history):
            v = row["scores"].get(name, 0) or 0
            pts.append(f"{left + i * step:.1f},{bottom - (bottom - 8) * v / top:.1f}")
        lines.append({"name": name, "points": " ".join(pts), "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
                      "last": history[-1]["scores"].get(name, 0)})
    rounds = [{"x": round(left + i * step, 1), "label": row["round"]} for i, row in enumerate(history)]
    return {"lines": lines, "width": width, "height": height, "max": top, "rounds": rounds,
            "left": left, "bottom": bottom}


def fraction(value: float | int | None, full: float | int) -> float:
    if not value or not full:
        return 0.0
    return max(0.0, min(1.0, float(value) / float(full)))
