"""Screens every game shares: what is expected now, scores, the dashboard QR, a refusal."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import qrcode

from companion import texts
from companion.screens.canvas import HEADER_H, HEIGHT, WIDTH, Canvas
from companion.screens.context import ScreenContext

DEFAULT_URL = "http://galapagos.local:8080/"


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


def prompt(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """What the game expects now, from whom, and the entry being dialled in."""
    c.header(ctx.title or str(s.get("game", "")), round_label(s))
    top = ctx.heading or who(s, ctx.lang, fits=lambda line: c.width(line, "small_bold") <= WIDTH - 4)
    size = "medium" if c.width(top, "medium") <= WIDTH - 4 else "small_bold"  # a long move's name still reads
    c.text(2, HEADER_H + 1 + (2 if size != "medium" else 0), c.fit(top, size, WIDTH - 4), size)
    text = ctx.status or (s.get("expected") or {}).get("prompt", "")
    if ctx.entry and ctx.editing:  # what the choice under the dial does ("£1000", "food 5→8"), or nothing
        text = ctx.preview
    if ctx.entry:
        # the preview and the value sit on whole display pages (rows 32-47 and 48-63), so a
        # turn or a press sends only those pages' changed columns over the bus
        c.text(2, 33, c.wrap(text, "small", WIDTH - 4, 1)[0] if text else "")
        c.segments(2, 48, list(ctx.entry), "medium")
        return
    for i, line in enumerate(c.wrap(text, "small", WIDTH - 4, 3)):
        c.text(2, 30 + 11 * i, line)


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


def qr(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """A QR code of the dashboard address (dark modules on a lit square, as phones expect)."""
    url = ctx.url or DEFAULT_URL
    code = qrcode.QRCode(border=1, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(url)
    code.make(fit=True)
    matrix = code.get_matrix()
    n = len(matrix)
    scale = max(1, HEIGHT // n)
    size = n * scale
    top = (HEIGHT - size) // 2
    c.draw.rectangle((0, top, size - 1, top + size - 1), fill=1)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                c.draw.rectangle((x * scale, top + y * scale, x * scale + scale - 1, top + y * scale + scale - 1), fill=0)
    left = size + 4
    c.text(left, 0, texts.gettext_("Phone", ctx.lang), "medium")
    for i, line in enumerate(address_lines(c, url, WIDTH - left)[:4]):
        c.text(left, 18 + 11 * i, line)


def address_lines(c: Canvas, url: str, width: int) -> list[str]:
    """The address without its scheme, broken before '.', ':' and '/' to fit ``width``."""
    host = url.split("://", 1)[-1].rstrip("/")
    lines: list[str] = []
    for token in re.split(r"(?=[.:/])", host):
        while c.width(token) > width:  # a part longer than a line: hard split
            cut = max(1, width // c.width("M"))
            lines.append(token[:cut])
            token = token[cut:]
        if lines and c.width(lines[-1] + token) <= width:
            lines[-1] += token
        else:
            lines.append(token)
    return lines


def error(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """Why the last action was refused, in the biggest font that holds it."""
    c.header(texts.gettext_("Not accepted", ctx.lang), round_label(s))
    message = ctx.message or ""
    size, step, count = ("medium", 17, 3) if c.fits(message, "medium", WIDTH - 4, 3) else ("small", 12, 4)
    lines = c.wrap(message, size, WIDTH - 4, count)
    for i, line in enumerate(lines):
        c.text(2, HEADER_H + 2 + step * i, line, size)
