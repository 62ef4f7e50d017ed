"""A course's charts as SVG, drawn on the Pi with pygal (server-side: no script, no CDN).

pygal (https://www.pygal.org, LGPL, pure Python on lxml-free ElementTree) renders a line chart of a
12-round game in a few milliseconds (``bench/course.py``). The SVG it writes carries a viewBox and no
fixed size, so one drawing fills a 390 px phone and a 1280 px tablet alike; its sizes are chosen for
the phone (labels still 11 px or more at 360 px wide).

Colour is never the only cue: every line has its dash pattern and its dots the shape of its piece or
seat (a triangle, a square…), the legend draws the same shape, and every chart has its table
(:func:`companion.engine.course.table`) for screen readers.
"""

from __future__ import annotations

import math
import re
from typing import Any

#: the drawing's own size (the viewBox); the page scales it to the column
WIDTH, HEIGHT = 400, 290


def svg(course: dict[str, Any], ch: dict[str, Any], *, ident: str = "chart") -> str:
    """One chart of ``course`` (a :mod:`companion.engine.course` description) as an SVG element's text.

    ``ident`` becomes the element's id (pygal scopes its CSS by it): unique in a page.
    """
    # pygal costs about 50 ms at start-up and only a course page draws charts
    import pygal  # late: costly at start-up, see above
    from pygal.style import Style  # late: costly at start-up, see above

    lines = ch["series"]
    colours = [s["colour"] for s in lines] + ["#777777"] * len(ch.get("lines") or [])
    style = Style(colors=tuple(colours), background="#ffffff", plot_background="#ffffff",
                  foreground="#222222", foreground_strong="#111111", foreground_subtle="#8a948f",
                  font_family="system-ui, sans-serif", label_font_size=14, major_label_font_size=14,
                  legend_font_size=16, title_font_size=15, value_font_size=12, tooltip_font_size=13,
                  opacity="1", opacity_hover="1")
    values = [v for s in lines for v in s["values"] if isinstance(v, int | float)]
    values += [r["value"] for r in ch.get("lines") or []]
    low, high = (min(values), max(values)) if values else (0, 1)
    labels = [s["label"] for s in lines] + [r["label"] for r in ch.get("lines") or []]
    keys = len(labels)
    cols = legend_columns(labels)
    legend_rows = -(-keys // cols)  # each row room of its own
    # pygal 3.1 reserves floor(keys / cols) rows for a bottom legend (it draws the ceiling): the missing room
    missing = (legend_rows - keys // cols) * 24
    chart = pygal.Line(width=WIDTH, height=HEIGHT + 24 * (legend_rows - 1), style=style, js=[], css=["file://style.css", "file://graph.css"],
                       disable_xml_declaration=True, legend_at_bottom=True, legend_at_bottom_columns=cols, legend_box_size=14,
                       truncate_legend=-1, truncate_label=-1, show_y_guides=True, show_x_guides=False,
                       dots_size=4.5, stroke_style={"width": 3}, margin=6, margin_right=16, margin_bottom=6 + missing, spacing=8,
                       range=(min(0, low), high + (high - low) * .04 if high > low else low + 1),  # room for a dot on top
                       x_title=ch.get("x_label", course["x_label"]), print_values=False,
                       allow_interruptions=not ch.get("connect"))  # a history joins a player's games
    chart.x_labels = ch.get("x_labels", course["x_labels"])  # a tournament's chart counts manches
    unit = ch.get("unit", "")
    chart.value_formatter = (lambda v: f"{unit}{v:g}") if unit else (lambda v: f"{v:g}")
    if high - low <= 12 and all(float(v).is_integer() for v in values):
        chart.y_labels = list(range(int(min(0, low)), int(high) + 1))  # whole counts, never 2.5 turtles
    for s in lines:
        chart.add(s["label"], s["values"], stroke_style={"width": 3, "dasharray": s.get("dash") or "none"})
    for r in ch.get("lines") or []:
        chart.add(r["label"], [r["value"]] * len(ch.get("x", course["x"])), show_dots=False,
                  stroke_style={"width": 2, "dasharray": "3,3"})
    out = re.sub(r"<script\b.*?</script>", "", chart.render(is_unicode=True), flags=re.S)  # pygal's config: unused
    out = re.sub(r'id="chart-[0-9a-f-]+"', f'id="{ident}"', out, count=1).replace(_pygal_id(out), ident)
    shifts = apart([s["values"] for s in lines])
    ch["apart"] = any(shifts)  # the page says that lines drawn a little apart coincide
    out = _shaped(out, [s.get("shape", "circle") for s in lines] + ["line"] * len(ch.get("lines") or []),
                  ch["title"], shifts)
    return _marked(out, [] if "x" in ch else course.get("marks") or [], course["x"])


def quiet_kinds(marks: list[dict[str, Any]], xs: list[Any]) -> set[str]:
    """The kinds of mark found at every round (the weather card): no event to point at on the chart."""
    rounds = {x for x in xs if x}
    at: dict[str, set[Any]] = {}
    for mark in marks:
        at.setdefault(str(mark.get("kind")), set()).add(mark.get("x"))
    return {kind for kind, seen in at.items() if len(rounds) > 1 and rounds <= seen}


#: how far apart (drawing units, about a pixel each on a phone) lines that coincide are drawn
STEP = 3.5


def apart(values: list[list[Any]]) -> list[float]:
    """A vertical shift per line so that lines sharing a stretch stay visible (0 for a line alone).

    Three identical score lines drew as one; two dice lines that coincide for two rounds hid one
    another. A line that shares a segment (two consecutive equal points) with earlier ones takes the
    first free slot among 0, +1, -1, +2… steps; its dash and shapes still say which it is, and the
    table below the chart has the exact figures.
    """
    def segments(vs: list[Any]) -> set[tuple[int, Any, Any]]:
        return {(i, vs[i], vs[i + 1]) for i in range(len(vs) - 1) if vs[i] is not None and vs[i + 1] is not None}

    segs = [segments(vs) for vs in values]
    slots: list[int] = []
    for i in range(len(values)):
        taken = {slots[j] for j in range(i) if segs[i] & segs[j]}
        slot = next(k for k in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6) if k not in taken or k == -6)
        slots.append(slot)
    return [STEP * k for k in slots]


_PLOT = re.compile(r'(<g transform="translate\([-\d.]+, [-\d.]+\)" class="plot">)'
                   r'<rect x="0" y="0" width="([\d.]+)" height="([\d.]+)" class="background" />')
_X_LABEL = re.compile(r'<g class="guides"><path d="M([-\d.]+) [-\d.]+ v[\d.]+" class="[a-z ]*line" />'
                      r'<text x="[-\d.]+" y="[-\d.]+" class="[^"]*">')


def _marked(text: str, marks: list[dict[str, Any]], xs: list[Any]) -> str:
    """The course's marks (a vote, a death) drawn on the chart where they happened: a dotted upright at
    their round and a numbered badge, the number of the mark in the list « What happened when »;
    a kind of mark that comes every round (the weather) is the time line's rhythm: listed only."""
    found = _PLOT.search(text)
    positions = [float(m.group(1)) for m in _X_LABEL.finditer(text[text.find('class="axis x"'):])]
    if not found or len(positions) != len(xs):
        return text
    height = float(found.group(3))
    drawn: dict[Any, list[tuple[int, dict[str, Any]]]] = {}
    quiet = quiet_kinds(marks, xs)
    for n, mark in enumerate(marks, start=1):
        if mark.get("kind") not in quiet and mark.get("x") in xs:
            drawn.setdefault(mark["x"], []).append((n, mark))
    if not drawn:
        return text
    parts = ['<g class="marks">']
    for x, listed in drawn.items():
        cx = positions[xs.index(x)]
        parts.append(f'<path d="M{cx:.1f} 0 v{height:.1f}" class="mark-line" style="stroke:#555;stroke-width:1.4;'
                     f'stroke-dasharray:2,3;fill:none"/>')
        for k, (n, mark) in enumerate(listed):
            cy = 10 + 19 * k
            colour = "#8b1d1d" if mark.get("kind") == "death" else "#333"
            parts.append(f'<g class="mark mark-{_attr(str(mark.get("kind", "")))}"><title>{_esc(str(mark.get("text", "")))}'
                         f'</title><circle cx="{cx:.1f}" cy="{cy}" r="8.5" style="fill:{colour};stroke:#fff;stroke-width:1.5"/>'
                         f'<text x="{cx:.1f}" y="{cy + 4}" style="fill:#fff;font-size:12px;font-weight:700;'
                         f'text-anchor:middle">{n}</text></g>')
    parts.append("</g>")
    at = found.end()
    return text[:at] + "".join(parts) + text[at:]


#: the legend's text: about this many drawing units a character (16 px system-ui), and the width of a column
#: of the drawing's plot (its key's box and gap left out) with three, two and one columns
CHAR_W, PLOT_W, KEY_W = 8.6, 350, 22


def legend_columns(labels: list[str]) -> int:
    """Three keys a row when the longest label fits a third of the plot, else two, else one: a French
    « Places sur le radeau » or Pocket's loss line would otherwise run over the next key."""
    longest = max((len(label) for label in labels), default=0) * CHAR_W
    return next((cols for cols in (3, 2) if longest <= PLOT_W / cols - KEY_W), 1)


def _pygal_id(text: str) -> str:
    found = re.search(r"#(chart-[0-9a-f-]{36})", text)
    return found.group(1) if found else "\0"


_SERIE = re.compile(r'<g class="series serie-(\d+) color-\d+">')
_DOT = re.compile(r'<circle cx="([-\d.e]+)" cy="([-\d.e]+)" r="[\d.]+" class="dot reactive tooltip-trigger"\s*/>')
_LEGEND = re.compile(r'<rect x="([-\d.e]+)" y="([-\d.e]+)" width="([\d.]+)" height="[\d.]+" class="color-(\d+) reactive"\s*/>')


def _shaped(text: str, shapes: list[str], title: str, shifts: list[float] | None = None) -> str:
    """pygal's round dots and square legend keys replaced by each line's own shape, each line shifted by
    its ``shifts`` (:func:`apart`); the chart titled."""
    parts = _SERIE.split(text)  # [before, n, body, n, body…]
    out = [parts[0]]
    for k in range(1, len(parts), 2):
        n = int(parts[k])
        shape = shapes[n] if n < len(shapes) else "circle"
        dy = (shifts or [])[n] if n < len(shifts or []) else 0
        moved = f' transform="translate(0,{dy:g})"' if dy else ""
        out.append(f'<g class="series serie-{parts[k]} color-{parts[k]}"{moved}>')
        out.append(_DOT.sub(lambda m, shape=shape: _glyph(shape, float(m.group(1)), float(m.group(2)), 5.0,
                                                          'class="dot reactive tooltip-trigger"'), parts[k + 1]))
    text = "".join(out)

    def legend(m: re.Match[str]) -> str:
        n, half = int(m.group(4)), float(m.group(3)) / 2
        shape = shapes[n] if n < len(shapes) else "circle"
        return _glyph(shape, float(m.group(1)) + half, float(m.group(2)) + half, half + .5, f'class="color-{n} reactive"')

    text = _LEGEND.sub(legend, text)
    return text.replace(">", f' role="img" aria-label="{_attr(title)}"><title>{_esc(title)}</title>', 1)


def _glyph(shape: str, cx: float, cy: float, r: float, attrs: str) -> str:
    """One shape as an SVG element (a circle, ring, triangle, square, diamond, hexagon, cross, star…)."""
    if shape == "line":
        return f'<path d="M{cx - r:.1f},{cy:.1f}h{2 * r:.1f}" stroke-width="3" stroke-dasharray="3,2" {attrs}/>'
    if shape == "ring":
        return (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * .75:.1f}" style="fill:#fff;stroke-width:2.6" '
                f'{attrs}/>')
    if shape in ("triangle", "square", "diamond", "hexagon", "star", "cross", "figure"):
        return f'<path d="{_path(shape, cx, cy, r)}" {attrs}/>'
    return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * .85:.1f}" {attrs}/>'


def _path(shape: str, cx: float, cy: float, r: float) -> str:
    if shape == "square":
        pts = [(-.8, -.8), (.8, -.8), (.8, .8), (-.8, .8)]
    elif shape == "diamond":
        pts = [(0, -1.1), (1, 0), (0, 1.1), (-1, 0)]
    elif shape == "triangle":
        pts = [(0, -1.05), (1, .8), (-1, .8)]
    elif shape == "hexagon":
        pts = [(math.cos(a), math.sin(a)) for a in (math.pi / 3 * i + math.pi / 6 for i in range(6))]
    elif shape == "star":
        pts = [((1 if i % 2 == 0 else .45) * math.sin(math.pi / 5 * i), -(1 if i % 2 == 0 else .45) * math.cos(math.pi / 5 * i))
               for i in range(10)]
    elif shape == "figure":  # the game figure: a head on a body
        pts = [(-.35, -.35), (-.35, -.6), (.35, -.6), (.35, -.35), (.8, 1), (-.8, 1)]
    else:  # cross
        a, b = .3, 1
        pts = [(-a, -b), (a, -b), (a, -a), (b, -a), (b, a), (a, a), (a, b), (-a, b), (-a, a), (-b, a), (-b, -a), (-a, -a)]
    return "M" + "L".join(f"{cx + x * r:.1f},{cy + y * r:.1f}" for x, y in pts) + "Z"


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attr(text: str) -> str:
    return _esc(text).replace('"', "&quot;")


def sparkline(values: list[float | int], width: int, height: int) -> list[tuple[int, int]]:
    """The points of a sparkline of ``values`` in a ``width`` × ``height`` box (the OLED's course screen)."""
    if not values:
        return []
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (width - 1) / max(1, len(values) - 1)
    return [(round(i * step), round((height - 1) * (1 - (v - low) / span))) for i, v in enumerate(values)]
