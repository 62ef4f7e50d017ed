"""Drawing helpers for 128×64 one-bit OLED frames.

Text uses the Terminus bitmap font (SIL OFL, shipped unmodified in
``fonts/``): crisp on a 1-bit panel, legible at arm's length at 16 px and
up, and rendered pixel-identically by every Pillow version, which keeps the
golden PNGs stable. Glyphs cover Latin-1 (£ and French accents).
"""

from __future__ import annotations

import gzip
import unicodedata
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont, PcfFontFile

WIDTH, HEIGHT = 128, 64
FONT_DIR = Path(__file__).with_name("fonts")
#: size name -> Terminus file; heights in pixels are the numbers
FONTS = {"small": "ter-u12n", "small_bold": "ter-u12b", "medium": "ter-u16b", "large": "ter-u24b", "huge": "ter-u32b"}
HEADER_H = 12

#: how text that does not fit moves: a pause before it starts, then steps, a pause at the end, again
PAUSE_SECONDS = 1.5
END_PAUSE_SECONDS = 1.5
#: a vertical scroll moves one line at a time (time to read it), a marquee a character's width
LINE_SECONDS = 1.5
STEP_PX = 6
STEP_SECONDS = 0.25
#: text that does not fit goes through this many times, then rests at its beginning until what is shown
#: changes: read three times is read, the panel is not worn by a line nobody looks at, and a table at rest
#: draws nothing
SCROLL_PASSES = 3

_REPLACE = {"→": "->", "←": "<", "…": "...", "–": "-", "—": "-", "’": "'", "‘": "'", "“": '"', "”": '"', "×": "x"}


@cache
def font(size: str) -> ImageFont.ImageFont:
    with gzip.open(FONT_DIR / f"{FONTS[size]}_iso-8859-1.pcf.gz") as fp:
        return PcfFontFile.PcfFontFile(fp, "iso8859-1").to_imagefont()


@lru_cache(maxsize=4096)
def latin1(text: str) -> str:
    """Text the Latin-1 bitmap fonts can draw: arrows and ellipses spelled out, other marks stripped.

    Cached: a frame asks it a dozen times per line (widths, fits, the draw), and on the press
    path it was a fifth of the render (the button-to-photons figure).
    """
    out = []
    for ch in str(text):
        ch = _REPLACE.get(ch, ch)
        try:
            ch.encode("latin-1")
        except UnicodeEncodeError:
            ch = unicodedata.normalize("NFKD", ch).encode("latin-1", "ignore").decode("latin-1") or "?"
        out.append(ch)
    return "".join(out)


class Canvas:
    """A blank frame plus the few primitives the screens share."""

    def __init__(self, width: int = WIDTH, height: int = HEIGHT) -> None:
        self.image = Image.new("1", (width, height), 0)
        self.draw = ImageDraw.Draw(self.image)

    # -- text ---------------------------------------------------------------
    @staticmethod
    def width(text: str, size: str = "small") -> int:
        return int(font(size).getlength(latin1(text)))

    def text(self, x: int, y: int, text: str, size: str = "small", fill: int = 1, align: str = "left", right: int = WIDTH) -> int:
        """Draw ``text`` at ``y``; ``align`` right/centre uses ``right`` as the edge. Returns its width."""
        text = latin1(text)
        w = self.width(text, size)
        if align == "right":
            x = right - w
        elif align == "centre":
            x = x + (right - x - w) // 2
        self.draw.text((x, y), text, font=font(size), fill=fill)
        return w

    def fit(self, text: str, size: str, max_width: int) -> str:
        """``text`` cut to ``max_width`` pixels, ending in '.' when cut."""
        text = latin1(text)
        if self.width(text, size) <= max_width:
            return text
        while text and self.width(text + ".", size) > max_width:
            text = text[:-1]
        return text.rstrip() + "."

    def wrap_all(self, text: str, size: str, max_width: int) -> list[str]:
        """Greedy word wrap into as many lines as it takes (a word longer than a line is split)."""
        lines: list[str] = []
        line = ""
        for word in _split_long(latin1(text).split(), size, max_width):
            trial = f"{line} {word}".strip()
            if self.width(trial, size) <= max_width:
                line = trial
                continue
            if line:
                lines.append(line)
            line = word
        if line:
            lines.append(line)
        return lines

    def fits(self, text: str, size: str, max_width: int, max_lines: int) -> bool:
        lines = self.wrap_all(text, size, max_width)
        return len(lines) <= max_lines and all(self.width(ln, size) <= max_width for ln in lines)

    def wrap(self, text: str, size: str, max_width: int, max_lines: int) -> list[str]:
        """Word wrap into ``max_lines``; the last line is cut with '.' when the text is longer."""
        lines = self.wrap_all(text, size, max_width)
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            words = lines[-1].split()
            while len(words) > 1 and self.width(" ".join(words) + " ...", size) > max_width:
                words.pop()
            lines[-1] = " ".join(words) + " ..."
        return [self.fit(ln, size, max_width) for ln in lines]

    # -- text that does not fit: it moves, never cut ---------------------------------
    def marquee(self, x: int, y: int, text: str, size: str, room: int, elapsed: float, fill: int = 1) -> None:
        """One line in ``room`` pixels; longer, it scrolls left a character at a time and starts again.

        Where a line is cut the key fact is usually at its end (« Ann bids £300 on North »),
        so a line that does not fit is never cut: it moves (``elapsed``: seconds it has been shown).
        """
        self.strip(x, y, room, font_height(size), self.width(text, size), elapsed,
                   lambda c, dx, dy: c.text(dx, dy, text, size, fill=fill))

    def strip(self, x: int, y: int, room: int, height: int, total: int, elapsed: float, draw_at: Any) -> None:
        """Draw ``draw_at(canvas, dx, dy)`` (``total`` pixels wide) into a window of ``room`` pixels at
        (x, y), scrolled by :func:`marquee_offset`; the window is a canvas of its own, so that
        everything is drawn through :meth:`text`."""
        if total <= room:
            draw_at(self, x, y)
            return
        window = Canvas(room, height)
        draw_at(window, -marquee_offset(total - room, elapsed), 0)
        self.image.paste(window.image, (x, y))

    def scrolled(self, x: int, y: int, text: str, size: str, room: int, rows: int, step: int, elapsed: float) -> None:
        """``text`` wrapped into ``rows`` lines of ``room`` pixels; more lines scroll up one at a time,
        with a thin bar at the right edge saying how far the reading is."""
        lines = self.wrap_all(text, size, room)
        if len(lines) > rows:
            lines = self.wrap_all(text, size, room - 3)  # room for the bar
            first = scroll_index(len(lines), rows, elapsed)
            top, height = y, rows * step
            self.draw.line((WIDTH - 1, top, WIDTH - 1, top + height - 1), fill=1)
            knob = max(3, height * rows // len(lines))
            at = top + (height - knob) * first // max(1, len(lines) - rows)
            self.draw.rectangle((WIDTH - 2, at, WIDTH - 1, at + knob - 1), fill=1)
            lines = lines[first:first + rows]
        for i, line in enumerate(lines):
            self.text(x, y + step * i, line, size)

    # -- shapes ---------------------------------------------------------------
    def header(self, left: str, right: str = "") -> None:
        """An inverted title bar: white band, black text."""
        self.draw.rectangle((0, 0, WIDTH - 1, HEADER_H - 1), fill=1)
        rw = self.width(right, "small_bold") if right else 0
        self.text(2, 0, self.fit(left, "small_bold", WIDTH - rw - 8), "small_bold", fill=0)
        if right:
            self.text(0, 0, right, "small_bold", fill=0, align="right", right=WIDTH - 2)

    def bar(self, x: int, y: int, w: int, h: int, fraction: float) -> None:
        """An outlined bar filled from the left by ``fraction`` (0..1)."""
        fraction = min(1.0, max(0.0, fraction))
        self.draw.rectangle((x, y, x + w - 1, y + h - 1), outline=1, fill=0)
        inner = round((w - 4) * fraction)
        if inner > 0:
            self.draw.rectangle((x + 2, y + 2, x + 1 + inner, y + h - 3), fill=1)

    def pips(self, x: int, y: int, count: int, filled: int, size: int = 7, gap: int = 2) -> None:
        """``count`` squares, the first ``filled`` solid (a population track)."""
        for i in range(count):
            left = x + i * (size + gap)
            box = (left, y, left + size - 1, y + size - 1)
            self.draw.rectangle(box, outline=1, fill=1 if i < filled else 0)

    def segments(self, x: int, y: int, parts: list[tuple[str, bool]], size: str = "medium",
                 room: int | None = None, elapsed: float = 0.0) -> None:
        """Text pieces side by side; a selected piece is drawn inverted (the encoder's cursor).

        With ``room``: pieces wider than it scroll (:meth:`marquee`), never cut."""
        parts = [(latin1(t), sel) for t, sel in parts]
        gap = self.width(" ", size)
        total = sum(self.width(t, size) + gap for t, _ in parts) - gap + 1
        h = font_height(size)

        def draw_at(c: Canvas, dx: int, dy: int) -> None:
            at = dx + 1
            for text, selected in parts:
                w = self.width(text, size)
                if selected:
                    c.draw.rectangle((at - 1, dy, at + w, dy + h - 1), fill=1)
                c.text(at, dy, text, size, fill=0 if selected else 1)
                at += w + gap

        if room is None:
            draw_at(self, x - 1, y)
            return
        self.strip(x - 1, y, room + 1, h, total + 1, elapsed, draw_at)


def font_height(size: str) -> int:
    return font(size).getbbox("Ag")[3]


def marquee_offset(over: int, elapsed: float) -> int:
    """How far a line ``over`` pixels too long has scrolled after ``elapsed`` seconds (0: at rest, as it is
    again after :data:`SCROLL_PASSES` passes)."""
    if over <= 0:
        return 0
    steps = -(-over // STEP_PX)
    cycle = PAUSE_SECONDS + steps * STEP_SECONDS + END_PAUSE_SECONDS
    if elapsed >= SCROLL_PASSES * cycle:
        return 0  # read often enough: at rest at its beginning
    t = elapsed % cycle
    if t < PAUSE_SECONDS:
        return 0
    return min(over, STEP_PX * (1 + int((t - PAUSE_SECONDS) / STEP_SECONDS)))


def scroll_index(lines: int, rows: int, elapsed: float) -> int:
    """The first line shown of ``lines`` in ``rows`` after ``elapsed`` seconds (the first again after
    :data:`SCROLL_PASSES` passes)."""
    steps = lines - rows
    if steps <= 0:
        return 0
    cycle = PAUSE_SECONDS + steps * LINE_SECONDS + END_PAUSE_SECONDS
    if elapsed >= SCROLL_PASSES * cycle:
        return 0  # read often enough: at rest on its first lines
    t = elapsed % cycle
    if t < PAUSE_SECONDS:
        return 0
    return min(steps, 1 + int((t - PAUSE_SECONDS) / LINE_SECONDS))


def scroll_seconds(lines: int, rows: int) -> float:
    """Seconds for ``lines`` in ``rows`` to be read through once (0 when they fit)."""
    steps = lines - rows
    return 0.0 if steps <= 0 else PAUSE_SECONDS + steps * LINE_SECONDS + END_PAUSE_SECONDS


def _split_long(words: list[str], size: str, max_width: int) -> list[str]:
    """Words wider than a line split into pieces that fit (a long address, a compound)."""
    out = []
    for word in words:
        while Canvas.width(word, size) > max_width and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and Canvas.width(word[:cut], size) > max_width:
                cut -= 1
            out.append(word[:cut])
            word = word[cut:]
        out.append(word)
    return out
