"""Pocket Galapagos' OLED screen: the three populations and the turn."""

from __future__ import annotations

from typing import Any

from companion.screens.canvas import HEADER_H, WIDTH, Canvas
from companion.screens.context import ScreenContext


def populations(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """pocket-galapagos: the three population trackers and the turn."""
    turn, turns = s.get("turn"), s.get("turns")
    status = (s.get("players") or [{}])[0].get("status", "")
    right = status if status in ("won", "lost") else f"survived {s.get('turns_survived', 0)}"
    c.header(f"Turn {turn}/{turns}" if turns else f"Turn {turn}", right)
    for i, (species, level) in enumerate((s.get("populations") or {}).items()):
        y = HEADER_H + 2 + 17 * i
        c.text(2, y, species.capitalize(), "medium")
        c.pips(46, y + 4, 7, int(level), size=8, gap=2)
        c.text(0, y, str(level), "medium", align="right", right=WIDTH - 1)
