"""Numbers for the SVG pictures (the templates only loop over what this returns).

The score chart's polylines and gauge fractions, shared by every game; a game's own
pictures (the dice island, the education track) live in its package. No drawing
library: plain SVG keeps the Pi light.
"""

from __future__ import annotations

from typing import Any

#: one colour per seat (pawns, chart lines)
SEAT_COLOURS = ["#e4572e", "#17bebb", "#ffc914", "#76b041", "#7d5ba6", "#2e86ab",
                "#f18f01", "#c73e1d", "#3b1f2b", "#6c8ead", "#a23b72", "#5f0f40"]

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
