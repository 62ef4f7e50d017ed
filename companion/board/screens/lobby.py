"""The screens of a table with no game on it: which game to start, and how many play.

Drawn from a small dict the lobby (:mod:`companion.board.lobby`) fills in, never from a
game's state: ``{"stage", "title", "index", "games", "players_range", "count",
"names", "hint"}``. Long names scroll (never cut), like every other line.
"""

from __future__ import annotations

from typing import Any

from companion.board.screens.common import top_line
from companion.drawing.canvas import HEADER_H, WIDTH, Canvas
from companion.drawing.context import ScreenContext
from companion.engine import texts


def lobby(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """Choosing the game (its name and how many may play) or the players (how many, their seats)."""
    lang = ctx.lang
    lob = ctx.data.get("lobby") or {}
    if lob.get("stage") == "players":
        c.header(lob.get("title", ""), "")
        c.text(2, HEADER_H + 1, texts.render_n("{n} player", "{n} players", int(lob.get("count", 0)), lang=lang),
               "medium")
        c.scrolled(2, 30, ", ".join(lob.get("names") or []), "small", WIDTH - 4, 2, 11, ctx.elapsed)
    else:
        c.header(texts.gettext_("New game", lang), f"{lob.get('index', 0) + 1}/{lob.get('games', 0)}")
        top_line(c, HEADER_H + 1, lob.get("title", ""), ctx.elapsed)
        lo, hi = lob.get("players_range") or (0, 0)
        if lo == hi:
            size = texts.render_n("{n} player", "{n} players", int(lo), lang=lang)
        else:
            size = texts.render("{lo} to {hi} players", {"lo": lo, "hi": hi}, lang)
        c.text(2, HEADER_H + 20, size, "small")
    c.marquee(2, 52, lob.get("hint", ""), "small", WIDTH - 4, ctx.elapsed)
