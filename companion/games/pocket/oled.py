"""Pocket Galapagos' OLED screen: the three populations and the turn, in the reader's language."""

from __future__ import annotations

from typing import Any

from companion.drawing.canvas import HEADER_H, WIDTH, Canvas
from companion.drawing.context import ScreenContext
from companion.games.pocket import words

#: the pips start here; a species name wider than this (« Fourmi ») drops to the small font
PIPS_X = 46


def populations(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """pocket-galapagos: the three population trackers and the turn."""
    lang = ctx.lang
    turn, turns = s.get("turn"), s.get("turns")
    status = (s.get("players") or [{}])[0].get("status", "")
    if status in ("won", "lost"):
        right = words.t(status, lang)
    else:
        right = words.t("survived {count}", lang, count=s.get("turns_survived", 0))
    left = words.t("Turn {turn}/{turns}", lang, turn=turn, turns=turns) if turns else words.t(
        "Turn {turn}", lang, turn=turn)
    c.header(left, right)
    levels = list((s.get("populations") or {}).items())
    names = [words.label(species, lang) if species in words.SPECIES_LABEL else str(species).capitalize()
             for species, _ in levels]
    # one size for the three names: the small font when one of them is too wide for the big one
    big = all(c.width(name, "medium") <= PIPS_X - 3 for name in names)
    for i, ((_species, level), name) in enumerate(zip(levels, names, strict=True)):
        y = HEADER_H + 2 + 17 * i
        if big:
            c.text(2, y, name, "medium")
        else:
            c.text(2, y + 2, c.fit(name, "small_bold", PIPS_X - 4), "small_bold")
        c.pips(PIPS_X, y + 4, 7, int(level), size=8, gap=2)
        c.text(0, y, str(level), "medium", align="right", right=WIDTH - 1)
