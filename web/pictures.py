"""Numbers for the SVG pictures (the templates only loop over what this returns).

The score chart's polylines and gauge fractions, shared by every game; a game's own
pictures (the dice island, the education track) live in its package. No drawing
library: plain SVG keeps the Pi light.
"""

from __future__ import annotations

import json
import math
from typing import Any

from markupsafe import Markup

from companion.engine import texts
from companion.engine.course import SEAT_COLOURS  # noqa: F401 -- one colour per seat: the companion's one list
from companion.table import story


def score_chart(history: list[dict[str, Any]], players: list[str], width: int = 320, height: int = 140) -> dict[str, Any]:
    """Polylines per player over the rounds of ``history`` (see ``extras.score_history``)."""
    if len(history) < 3:  # nothing to draw before a round has ended
        return {"lines": [], "width": width, "height": height, "max": 0, "rounds": []}
    values = [v for row in history for v in row["scores"].values() if isinstance(v, int | float)]
    if not any(values):  # a game that scores only at its end (Galèrapagos): nothing to chart
        return {"lines": [], "width": width, "height": height, "max": 0, "rounds": []}
    top = max([1] + values)
    left, bottom = 28, height - 18
    step = (width - left - 8) / (len(history) - 1)
    lines = []
    for seat, name in enumerate(players):
        pts = []
        for i, row in enumerate(history):
            v = row["scores"].get(name, 0) or 0
            pts.append(f"{left + i * step:.1f},{bottom - (bottom - 8) * v / top:.1f}")
        lines.append({"name": name, "points": " ".join(pts), "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
                      "last": history[-1]["scores"].get(name, 0)})
    rounds = [{"x": round(left + i * step, 1), "label": row["round"]} for i, row in enumerate(history)]
    return {"lines": lines, "width": width, "height": height, "max": top, "rounds": rounds,
            "left": left, "bottom": bottom}


def fraction(value: float | int | None, full: float | int) -> float:
    if not value or not full:
        return 0.0
    return max(0.0, min(1.0, float(value) / float(full)))


# -- contrast (WCAG 2): text on a coloured chip must reach 4.5:1 --------------------------

def luminance(colour: str) -> float:
    """The relative luminance of ``#rgb``/``#rrggbb`` (WCAG 2.x), 0 for black to 1 for white."""
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    channels = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """The contrast ratio of two colours (1 to 21); text needs 4.5, large text and shapes 3."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def ink_for(fill: str, dark: str = "#111", light: str = "#fff") -> str:
    """The text colour (near-black or white) that reads best on ``fill``: a seat's own colour varies."""
    return dark if contrast(fill, dark) >= contrast(fill, light) else light


# -- initials that never collide (« Ann », « Alex » → « An », « Al ») -------------------------

def initials(names: list[str], longest: int = 3) -> dict[str, str]:
    """Each name's shortest prefix that no other name starts with (case-blind), at most ``longest`` letters.

    A pawn or a figure is too small for a whole name, and one letter makes Ann and
    Alex the same pawn. Names that still collide within ``longest`` letters (« Alexa »,
    « Alexi ») take their words' initials when they have several, else their first
    letter and their seat number (« A1 », « A2 »).
    """
    folded = [n.strip().casefold() for n in names]
    out: dict[str, str] = {}
    for i, name in enumerate(names):
        clean = name.strip() or "?"
        others = [f for j, f in enumerate(folded) if j != i]
        pick = None
        for k in range(1, min(longest, len(clean)) + 1):
            prefix = folded[i][:k]
            if prefix.strip() == prefix and not any(o.startswith(prefix) for o in others):
                pick = clean[:k]
                break
        if pick is None and len(clean) <= longest and clean.casefold() not in others:
            pick = clean  # « Jo » next to « Joe »: the whole short name
        if pick is None:
            words = clean.split()
            acronym = "".join(w[0] for w in words)[:longest]
            taken = {v.casefold() for v in out.values()}
            if len(words) > 1 and acronym.casefold() not in taken and acronym.casefold() not in others:
                pick = acronym
            else:
                pick = f"{clean[0]}{i + 1}"
        out[name] = pick
    return out


# -- a linear track (the auction's education track): cells, tokens above, figures below ----------

#: widths of characters in em, for estimating a label's width in the SVG (no font metrics on the server)
_NARROW, _WIDE = set("ijlrtfI.,;:'!| "), set("mwMWÆŒ@%")


def text_width(text: str, size: float, weight: float = 1.08) -> float:
    """A generous estimate of ``text``'s width in px at ``size`` px (semi-bold DejaVu Sans, the Pi's font)."""
    em = 0.0
    for ch in text:
        if ch in _NARROW:
            em += 0.38
        elif ch in _WIDE:
            em += 1.0
        elif ch.isupper() or ch.isdigit():
            em += 0.76
        else:
            em += 0.66
    return em * size * weight


def lanes(items: list[dict[str, Any]], width: float, gap: float = 3.0) -> list[dict[str, Any]]:
    """Give each item (``x``: wanted centre, ``w``: width) a row and an ``x`` so no two overlap in a row.

    First fit, left to right: an item goes into the first row where its box, kept
    inside ``0..width``, clears every box already there by ``gap``. Items on one
    field therefore stack, and items on neighbouring fields step down only when
    their labels would touch.
    """
    rows: list[list[tuple[float, float]]] = []
    out = []
    for it in sorted(items, key=lambda i: (i["x"], i.get("order", 0))):
        w = it["w"]
        left = min(max(0.0, it["x"] - w / 2), max(0.0, width - w))
        placed = None
        for r, taken in enumerate(rows):
            if all(left + w + gap <= a or left >= b + gap for a, b in taken):
                placed = r
                break
        if placed is None:
            rows.append([])
            placed = len(rows) - 1
        rows[placed].append((left, left + w))
        out.append({**it, "row": placed, "left": round(left, 1)})
    return out


def linear_track(cells: int, above: list[dict[str, Any]], below: list[dict[str, Any]], *, first: int = 0,
                 cell_w: float = 20.0, cell_h: float = 26.0, size: float = 10.0) -> dict[str, Any]:
    """A numbered track, fields ``first..first+cells-1``, with chips above it (tokens) and below it (figures).

    Each item: ``pos`` (its field), ``label`` (its full short name), ``fill`` and
    optionally ``ink``, ``shape`` and ``title``; items on other fields are left out
    (a phone draws the track in two halves). A chip is a box with a glyph (the
    item's shape) and its label, on the first row nearest the track where it
    touches no other chip (:func:`lanes`), with a leader line to its field; the
    field carries a coloured notch per item standing there, so a stack still says
    whose it is.
    """
    pad = 4.0
    width = cells * cell_w + 2 * pad
    chip_h, row_h = size + 6, size + 9
    glyph_r = (size + 1) / 2

    def inside(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**it, "pos": int(it["pos"])} for it in items if first <= int(it["pos"]) < first + cells]

    def centre(pos: int) -> float:
        return pad + (pos - first) * cell_w + cell_w / 2

    above, below = inside(above), inside(below)

    def chips(items: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
        wanted = [{**it, "x": centre(it["pos"]), "w": round(text_width(it["label"], size) + 2 * glyph_r + 10, 1),
                   "order": k} for k, it in enumerate(items)]
        placed = lanes(wanted, width)
        return placed, max([p["row"] for p in placed], default=-1) + 1

    top, n_top = chips(above)
    bottom, n_bottom = chips(below)
    track_y = 6 + n_top * row_h + (4 if n_top else 0)
    bottom_y = track_y + cell_h + 8
    height = bottom_y + n_bottom * row_h + 2
    out_cells = [{"n": first + i, "x": pad + i * cell_w, "y": track_y, "w": cell_w - 1, "h": cell_h,
                  "five": (first + i) % 5 == 0, "tx": pad + i * cell_w + cell_w / 2, "ty": track_y + cell_h / 2 + 3.5}
                 for i in range(cells)]

    def finish(placed: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
        out = []
        for p in placed:
            if side == "above":
                y = track_y - 4 - (p["row"] + 1) * row_h + (row_h - chip_h)
                anchor_y, end_y = track_y, y + chip_h
            else:
                y = bottom_y + p["row"] * row_h
                anchor_y, end_y = track_y + cell_h, y
            out.append({**p, "x": p["left"], "y": round(y, 1), "h": chip_h, "ink": p.get("ink") or ink_for(p["fill"]),
                        "cx": p["x"], "anchor_y": anchor_y, "end_x": round(p["left"] + p["w"] / 2, 1), "end_y": end_y,
                        "gx": round(p["left"] + 4 + glyph_r, 1), "gy": round(y + chip_h / 2, 1), "gr": glyph_r,
                        "tx": round(p["left"] + 2 * glyph_r + 7, 1), "ty": round(y + chip_h / 2 + size * 0.36, 1)})
        return out

    notches = []
    for side, items in (("above", above), ("below", below)):
        by_pos: dict[int, list[dict[str, Any]]] = {}
        for it in items:
            by_pos.setdefault(it["pos"], []).append(it)
        for pos, group in by_pos.items():
            seg = (cell_w - 1) / len(group)
            y = track_y if side == "above" else track_y + cell_h - 5
            for k, it in enumerate(group):
                notches.append({"x": round(pad + (pos - first) * cell_w + k * seg, 2), "y": y, "w": round(seg, 2),
                                "h": 5, "fill": it["fill"]})
    return {"width": round(width, 1), "height": round(height, 1), "cells": out_cells, "size": size,
            "above": finish(top, "above"), "below": finish(bottom, "below"), "notches": notches,
            "track_y": track_y, "cell_h": cell_h}


# -- picks: the places a picture lets a player tap to fill a field of a move offered now -------------

def _value_json(value: Any) -> str:
    """A value as the move forms carry it (web/forms.py's ``value_json``: compact JSON)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Picks:
    """The legal values of every field of the forms offered to the viewer, for ``data-pick`` attributes.

    Built from the forms the page already shows (``forms_now``, ``forms_more``,
    ``forms_act_for``), so a picture never offers a value those forms would refuse:
    a disabled choice (a field whose turtle lies on the island, a step the money
    does not reach) is not pickable.
    """

    def __init__(self, forms: list[dict[str, Any]] | None) -> None:
        self.values: dict[str, dict[str, dict[str, Any]]] = {}
        for f in forms or []:
            self._fields(f.get("fields") or [], f)

    def _fields(self, fields: list[dict[str, Any]], form: dict[str, Any]) -> None:
        for fld in fields:
            name = fld.get("name")
            choices = fld.get("choices")
            if choices is None and isinstance(fld.get("items"), dict):
                choices = fld["items"].get("choices")
            if name and choices:
                for c in choices:
                    if c.get("disabled") or c.get("alias"):
                        continue
                    label = str(c.get("label", ""))
                    more = str((c.get("preview") or {}).get("text") or "")
                    if more and more.casefold() not in label.casefold():  # « North — sea lion, iguana · £300 bid »
                        label = f"{label} — {more}"
                    slot = self.values.setdefault(name, {})
                    slot.setdefault(_value_json(c["value"]), {"value": c["value"], "label": label,
                                                             "player": form.get("player"), "type": form.get("type")})
                    self._fields(c.get("fields") or [], form)

    def __bool__(self) -> bool:
        return bool(self.values)

    def get(self, field: str, value: Any) -> dict[str, Any] | None:
        """The legal choice ``value`` of ``field`` (None: not offered now)."""
        if value is None:
            return None
        return (self.values.get(field) or {}).get(_value_json(value))

    def player(self, field: str) -> str | None:
        """Whose form offers ``field`` (the first one): the education steps count from that player's figure."""
        for c in (self.values.get(field) or {}).values():
            return c["player"]
        return None

    def ending(self, field: str, last: Any, start: Any = None) -> Any:
        """The first legal list value of ``field`` that ends on ``last`` (a path); ``[]`` if ``last`` is ``start``.

        The forms list the walks best first, so tapping a field picks the walk
        that takes most there.
        """
        for c in (self.values.get(field) or {}).values():
            v = c["value"]
            if isinstance(v, list) and v and v[-1] == last:
                return v
        if start is not None and last == start and self.get(field, []):
            return []
        return None

    def attrs(self, *candidates: tuple[str, Any]) -> Markup:
        """``data-pick``/``data-value`` and what makes the element a button, for the first legal candidate."""
        for field, value in candidates:
            c = self.get(field, value)
            if c is not None:
                label = c["label"]
                return Markup(' data-pick="{}" data-value="{}" data-pick-label="{}" tabindex="0" role="button"'
                              ' aria-label="{}"').format(field, _value_json(value), label, label)
        return Markup("")


def picks(*form_lists: list[dict[str, Any]] | None) -> Picks:
    """:class:`Picks` over the forms of the page (the table's own first, then those it may act for)."""
    forms: list[dict[str, Any]] = []
    for fl in form_lists:
        forms += list(fl or [])
    forms.sort(key=lambda f: 0 if f.get("player") is None else 1)  # the table's own form wins a shared place
    return Picks(forms)


# -- glyphs: one shape per animal or colour, so a piece reads in grey and for colour-blind eyes ----------

#: the shapes a palette may name (``palette()["shape"]``), each readable at 10 px
SHAPES = ("circle", "ring", "diamond", "triangle", "square", "hexagon", "cross", "star", "figure")


def _polygon(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in points)


def glyph(shape: str | None, cx: float, cy: float, r: float, fill: str, stroke: str = "none",
          width: float = 0.8) -> Markup:
    """One SVG shape of radius ``r`` centred on ``cx, cy`` (an unknown shape: a circle)."""
    st = f' stroke="{stroke}" stroke-width="{width}"' if stroke != "none" else ""
    if shape == "ring":
        return Markup(f'<circle cx="{cx}" cy="{cy}" r="{r * 0.72:.2f}" fill="none" stroke="{fill}" '
                      f'stroke-width="{r * 0.45:.2f}"/>')
    if shape == "diamond":
        pts = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    elif shape == "triangle":
        pts = [(cx, cy - r), (cx + r * 0.98, cy + r * 0.8), (cx - r * 0.98, cy + r * 0.8)]
    elif shape == "square":
        pts = [(cx - r * 0.8, cy - r * 0.8), (cx + r * 0.8, cy - r * 0.8), (cx + r * 0.8, cy + r * 0.8),
               (cx - r * 0.8, cy + r * 0.8)]
    elif shape == "hexagon":
        pts = [(cx + r * math.cos(math.radians(60 * i)), cy + r * math.sin(math.radians(60 * i))) for i in range(6)]
    elif shape == "star":
        pts = [(cx + (r if i % 2 == 0 else r * 0.45) * math.sin(math.radians(36 * i)),
                cy - (r if i % 2 == 0 else r * 0.45) * math.cos(math.radians(36 * i))) for i in range(10)]
    elif shape == "cross":
        a, b = r * 0.34, r
        pts = [(cx - a, cy - b), (cx + a, cy - b), (cx + a, cy - a), (cx + b, cy - a), (cx + b, cy + a),
               (cx + a, cy + a), (cx + a, cy + b), (cx - a, cy + b), (cx - a, cy + a), (cx - b, cy + a),
               (cx - b, cy - a), (cx - a, cy - a)]
    elif shape == "figure":  # the game figure: a head on a body, one path
        h, top = r * 0.42, cy - r * 0.5
        return Markup(f'<path d="M{cx - h:.2f},{top:.2f} a{h:.2f},{h:.2f} 0 1,0 {2 * h:.2f},0 '
                      f'a{h:.2f},{h:.2f} 0 1,0 {-2 * h:.2f},0 Z M{cx - r * 0.75:.2f},{cy + r:.2f} '
                      f'L{cx - r * 0.35:.2f},{cy - r * 0.05:.2f} L{cx + r * 0.35:.2f},{cy - r * 0.05:.2f} '
                      f'L{cx + r * 0.75:.2f},{cy + r:.2f} Z" fill="{fill}"{st}/>')
    else:
        return Markup(f'<circle cx="{cx}" cy="{cy}" r="{r * 0.85:.2f}" fill="{fill}"{st}/>')
    return Markup(f'<polygon points="{_polygon(pts)}" fill="{fill}"{st}/>')


def glyph_svg(shape: str | None, ink: str) -> Markup:
    """A chip's glyph as a small inline SVG for HTML (the chip says the name; the glyph is decoration)."""
    return Markup('<svg class="glyph" viewBox="-6 -6 12 12" width="0.95em" height="0.95em" aria-hidden="true">'
                  f'{glyph(shape, 0, 0, 5.4, ink)}</svg>')


# -- words and the last action, for a picture that marks what just happened ---------------------------------

def agreed(word: str, form: str) -> texts.Agreed:
    """A game word that agrees with the noun it follows (« tortue » → « noire »), as a message parameter."""
    return texts.Agreed(word, form)


def last_told(session: Any, lang: str = "en") -> dict[str, Any] | None:
    """The newest action in play with what the rules said it did (``action``, ``events``, ``sentences``).

    For a picture that marks the last move (the dice island: a turtle taken from
    under another pawn). The events are the rules' own, secrets included: a
    template reads only the public facts it needs, never prints them whole.
    """
    try:
        told = story.told(session, lang)
    except Exception:  # a picture never takes the page down
        return None
    return told[-1] if told else None
