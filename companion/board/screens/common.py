"""Screens every game shares: what is expected now, the dashboard QR, a refusal (the scores and the
pieces the games draw with too are :mod:`companion.drawing.common`)."""

from __future__ import annotations

import re
from typing import Any

import qrcode

from companion.drawing.canvas import HEADER_H, HEIGHT, WIDTH, Canvas, scroll_seconds
from companion.drawing.common import round_label, who
from companion.drawing.context import ScreenContext
from companion.engine import texts

DEFAULT_URL = "http://galapagos.local:8080/"


#: the rows of the prompt's text (a toast, what is expected) and of the error screen
PROMPT_ROWS = 3
ERROR_ROWS = 4
#: the top of the dial's preview line: the small font's baseline (its row 9) on row 39, the last of
#: page 4, so the line's changing pixels sit on one display page (see :func:`prompt`)
PREVIEW_Y = 30


def top_line(c: Canvas, y: int, text: str, elapsed: float) -> None:
    """Who must act or the move dialled: big when it fits, smaller, else scrolling (never cut)."""
    for size in ("medium", "small_bold"):
        if c.width(text, size) <= WIDTH - 4:
            c.text(2, y + (2 if size != "medium" else 0), text, size)
            return
    c.marquee(2, y + 2, text, "small_bold", WIDTH - 4, elapsed)


def prompt(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """What the game expects now, from whom, and the entry being dialled in."""
    c.header(ctx.title or str(s.get("game", "")), round_label(s))
    top = ctx.heading or who(s, ctx.lang, fits=lambda line: c.width(line, "small_bold") <= WIDTH - 4)
    top_line(c, HEADER_H + 1, top, ctx.elapsed)
    text = ctx.status or (s.get("expected") or {}).get("prompt", "")
    if ctx.entry and ctx.editing:  # what the choice under the dial does ("£1000", "food 5→8"), or nothing
        text = ctx.preview
    if ctx.entry and (ctx.editing or not ctx.toasting):  # a story told takes the whole text area
        # the preview's cap height and x-height (the font's rows 2-9) fill display page 4 (rows
        # 32-39) alone: only i/j dots reach page 3 and only descenders page 5, so a turn sends
        # page 4's changed columns and a few more; the value fills pages 6-7 (rows 48-63)
        if text:
            c.marquee(2, PREVIEW_Y, text, "small", WIDTH - 4, ctx.elapsed)
        parts = list(ctx.entry)
        wide = sum(c.width(t, "medium") + c.width(" ", "medium") for t, _ in parts)
        if wide > WIDTH - 2 and sum(c.width(t, "small_bold") + c.width(" ", "small_bold") for t, _ in parts) <= WIDTH - 2:
            c.segments(2, 50, parts, "small_bold", room=WIDTH - 4, elapsed=ctx.elapsed)
        else:
            c.segments(2, 48, parts, "medium", room=WIDTH - 4, elapsed=ctx.elapsed)
        return
    c.scrolled(2, 30, text, "small", WIDTH - 4, PROMPT_ROWS, 11, ctx.elapsed)


def confirm(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """The second OK: what will be sent, in words, then which button sends and which cancels."""
    c.header(texts.gettext_("Send this?", ctx.lang), round_label(s))
    c.scrolled(2, HEADER_H + 1, ctx.question, "small", WIDTH - 4, 3, 12, ctx.elapsed)
    parts = [(texts.gettext_("OK", ctx.lang), True), (texts.gettext_("yes", ctx.lang), False),
             (texts.gettext_("Back", ctx.lang), True), (texts.gettext_("no", ctx.lang), False)]
    c.segments(2, 51, parts, "small_bold", room=WIDTH - 4, elapsed=ctx.elapsed)


def reading_seconds(text: str, screen: str = "prompt") -> float:
    """Seconds ``text`` needs on ``screen`` ("prompt": a toast, "error": a refusal) to be read through."""
    rows, size = (ERROR_ROWS, "small") if screen == "error" else (PROMPT_ROWS, "small")
    if screen == "error" and Canvas().fits(text, "medium", WIDTH - 4, 3):
        return 0.0

    lines = len(Canvas().wrap_all(text, size, WIDTH - 4))
    if lines > rows:  # scrolling leaves room for the bar
        lines = len(Canvas().wrap_all(text, size, WIDTH - 7))
    return scroll_seconds(lines, rows)


def qr(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """A QR code of the dashboard address (dark modules on a lit square, as phones expect)."""
    url = ctx.url or DEFAULT_URL
    left = draw_qr(c, url) + 4
    c.text(left, 0, texts.gettext_("Phone", ctx.lang), "medium")
    for i, line in enumerate(address_lines(c, url, WIDTH - left)[:4]):
        c.text(left, 18 + 11 * i, line)


def draw_qr(c: Canvas, payload: str) -> int:
    """``payload`` as a QR code at the left, as large as the height allows; its width in pixels."""
    code = qrcode.QRCode(border=1, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(payload)
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
    return size


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
    """Why the last action was refused, in the biggest font that holds it (longer: it scrolls)."""
    c.header(texts.gettext_("Not accepted", ctx.lang), round_label(s))
    message = ctx.message or ""
    if c.fits(message, "medium", WIDTH - 4, 3):
        for i, line in enumerate(c.wrap_all(message, "medium", WIDTH - 4)):
            c.text(2, HEADER_H + 2 + 17 * i, line, "medium")
        return
    c.scrolled(2, HEADER_H + 2, message, "small", WIDTH - 4, ERROR_ROWS, 12, ctx.elapsed)
