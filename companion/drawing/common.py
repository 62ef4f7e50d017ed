"""What every game's screens share: who must act, the round's label, the scores screen.

Beside the canvas rather than with the board's own screens (:mod:`companion.board.screens.common`:
the prompt, the question, the QR, the error) because the game packages draw with them too, and a
game must never import the board.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from companion.drawing.canvas import HEADER_H, WIDTH, Canvas
from companion.drawing.context import ScreenContext
from companion.engine import texts


def round_label(state: dict[str, Any]) -> str:
    rnd = state.get("round")
    return f"R{rnd}" if isinstance(rnd, int) else ""


def who(state: dict[str, Any], lang: str = "en", fits: Callable[[str], bool] | None = None) -> str:
    """Who must act: names, or the whole table for a table-wide action.

    Three or more at once (a simultaneous plan, a vote) read « Ann, Bob & Cleo » when that fits,
    else « Ann & 2 others » (« Ann et 2 autres »), else « 3 players »: words, never a bare « +2 ».
    ``fits(text)`` says whether a line fits the screen (without it, the second form).
    """
    if state.get("over"):
        return texts.gettext_("Game over", lang)
    exp = state.get("expected") or {}
    names = list(exp.get("players") or [])
    if not names:
        return texts.gettext_("Table" if exp.get("actions") else "Wait", lang)
    if len(names) <= 2:
        return " & ".join(names)
    others = texts.render("{name} & {n} others", {"name": names[0], "n": len(names) - 1}, lang)
    if fits is None:
        return others
    for line in (", ".join(names[:-1]) + " & " + names[-1], others):
        if fits(line):
            return line
    return texts.render("{n} players", {"n": len(names)}, lang)


def scores(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """Scores, best first; winners drawn inverted once the game is over. Up to 12 players."""
    over = bool(s.get("over"))
    c.header(texts.gettext_("Final scores" if over else "Scores", ctx.lang), round_label(s))
    winners = set(s.get("winners") or [])
    rows = sorted((s.get("scores") or {}).items(), key=lambda kv: -kv[1])
    if not rows:
        return
    big = len(rows) <= 3
    per_col = 3 if big else 4
    cols = math.ceil(len(rows) / per_col)
    col_w = WIDTH // cols
    size, step = ("medium", 17) if big else ("small", 13)
    for i, (name, score) in enumerate(rows):
        x, y = (i // per_col) * col_w, HEADER_H + 2 + (i % per_col) * step
        value = str(score)
        won = over and name in winners
        if won:  # winners are drawn inverted
            c.draw.rectangle((x, y, x + col_w - 2, y + step - 2), fill=1)
        vw = c.width(value, size)
        c.text(x + 2, y, c.fit(name, size, col_w - vw - 7), size, fill=0 if won else 1)
        c.text(0, y, value, size, align="right", right=x + col_w - 3, fill=0 if won else 1)
