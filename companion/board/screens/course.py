"""The OLED's « course » screen: a sparkline of the game so far.

The game package's course (:mod:`companion.engine.course`) carries one series for the small screen, its
``spark``: the leader's margin over the second in a competitive game, the lower of water and food
in Galèrapagos, the lowest population in Pocket Galapagos. It reaches the screen in
``ctx.data["course"]`` (``{"label", "values"}``); the screen draws the line over the rounds, the
last value in figures and the lowest and highest at the left, so it reads without the dashboard.
"""

from __future__ import annotations

from typing import Any

from companion.drawing.canvas import HEADER_H, HEIGHT, WIDTH, Canvas
from companion.drawing.context import ScreenContext
from companion.engine import texts
from companion.engine.charts import sparkline

#: the room left of the line for the lowest and highest values
AXIS_W = 18


def course(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """The sparkline of ``ctx.data["course"]``, with its label and last value in the header."""
    spark = (ctx.data or {}).get("course") or {}
    values = [v for v in spark.get("values") or [] if isinstance(v, int | float)]
    label = spark.get("label") or texts.gettext_("Course", ctx.lang)
    last = f"{values[-1]:g}" if values else ""
    c.header(c.fit(label, "small", WIDTH - c.width(last, "small") - 6), last)
    if len(values) < 2:
        for i, line in enumerate(c.wrap(texts.gettext_("The course starts after the first round.", ctx.lang),
                                         "small", WIDTH - 4, 3)):
            c.text(2, HEADER_H + 6 + 13 * i, line, "small")
        return
    top, bottom = HEADER_H + 4, HEIGHT - 2
    low, high = min(values), max(values)
    c.text(0, top - 2, f"{high:g}", "small", align="right", right=AXIS_W - 3)
    c.text(0, bottom - 10, f"{low:g}", "small", align="right", right=AXIS_W - 3)
    c.draw.line((AXIS_W - 1, top, AXIS_W - 1, bottom), fill=1)
    points = [(AXIS_W + 1 + x, top + y) for x, y in sparkline(values, WIDTH - AXIS_W - 2, bottom - top + 1)]
    c.draw.line(points, fill=1, width=1)
    for x, y in points[-1:]:
        c.draw.rectangle((x - 1, y - 1, x + 1, y + 1), fill=1)  # where the game is now
