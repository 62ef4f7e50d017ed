"""Drawing helpers for 128×64 one-bit OLED frames.

Text uses the Terminus bitmap font (SIL OFL, shipped unmodified in
``fonts/``): crisp on a 1-bit panel, legible at arm's length at 16 px and
up, and rendered pixel-identically by every Pillow version, which keeps the
golden PNGs stable. Glyphs cover Latin-1 (£ and French accents).
"""

from __future__ import annotations

import gzip
import unicodedata
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, PcfFontFile

WIDTH, HEIGHT = 128, 64
FONT_DIR = Path(__file__).with_name("fonts")
#: size name -> Terminus file; heights in pixels are the numbers
FONTS = {"small": "ter-u12n", "small_bold": "ter-u12b", "medium": "ter-u16b", "large": "ter-u24b", "huge": "ter-u32b"}
HEADER_H = 12

_REPLACE = {"→": "->", "←": "<", "…": "...", "–": "-", "—": "-", "’": "'", "‘": "'", "“": '"', "”": '"', "×": "x"}


@cache
def font(size: str) -> ImageFont.ImageFont:
    with gzip.open(FONT_DIR / f"{FONTS[size]}_iso-8859-1.pcf.gz") as fp:
        return PcfFontFile.PcfFontFile(fp, "iso8859-1").to_imagefont()


def latin1(text: str) -> str:
    """Text the Latin-1 bitmap fonts can draw: arrows and ellipses spelled out, other marks stripped."""
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

    def __init__(self) -> None:
        self.image = Image.new("1", (WIDTH, HEIGHT), 0)
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
        """Greedy word wrap into as many lines as it takes (a too-long word overflows)."""
        lines: list[str] = []
        line = ""
        for word in latin1(text).split():
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

    def segments(self, x: int, y: int, parts: list[tuple[str, bool]], size: str = "medium") -> None:
        """Text pieces side by side; a selected piece is drawn inverted (the encoder's cursor)."""
        for text, selected in parts:
            w = self.width(text, size)
            h = font(size).getbbox("Ag")[3]
            if selected:
                self.draw.rectangle((x - 1, y, x + w, y + h - 1), fill=1)
            self.text(x, y, text, size, fill=0 if selected else 1)
            x += w + self.width(" ", size)
