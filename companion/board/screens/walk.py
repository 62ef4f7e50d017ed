"""The first-boot walk's screen (:mod:`companion.board.walk`): which part to try now, on which pin,
the seconds left, and what the last one did; at the end how many answered and what did not.

Drawn from ``ctx.data["walk"]`` (:meth:`companion.board.walk.FirstBootWalk.data`).
"""

from __future__ import annotations

from typing import Any

from companion.board.screens.network import DOMAIN
from companion.drawing.canvas import HEADER_H, WIDTH, Canvas
from companion.drawing.context import ScreenContext
from companion.engine import texts

WALK_SCREEN = "walk"


def ask(step: dict[str, Any], lang: str) -> str:
    """What to do for this step, in the table's words."""
    if step["kind"] == "button":
        return texts.render("Press {button}", {"button": step["name"]}, lang, DOMAIN)
    if step["kind"] == "dial":
        return texts.gettext_("Turn the dial clockwise", lang, DOMAIN)
    return texts.render("A tag on reader {point}", {"point": step["name"]}, lang, DOMAIN)


def walk(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    w = ctx.data.get("walk") or {}
    lang = ctx.lang
    if w.get("done"):
        c.header(texts.gettext_("Parts checked", lang, DOMAIN), f"{w.get('ok', 0)}/{w.get('total', 0)}")
        problems = w.get("problems") or []
        text = "; ".join(problems) if problems else texts.gettext_("Every part answered.", lang, DOMAIN)
        c.scrolled(2, HEADER_H + 2, text, "small", WIDTH - 4, 4, 11, ctx.elapsed)
        return
    c.header(texts.gettext_("First boot", lang, DOMAIN), f"{w.get('index', 0)}/{w.get('total', 0)}")
    c.marquee(2, HEADER_H + 1, ask(w, lang), "small_bold", WIDTH - 4, ctx.elapsed)
    c.text(2, HEADER_H + 14, f"{w.get('where', '')}  {w.get('seconds', 0)} s", "small")
    if w.get("last"):
        c.marquee(2, 52, str(w["last"]), "small", WIDTH - 4, ctx.elapsed)
