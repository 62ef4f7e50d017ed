"""The course of a game: figures round by round, drawn from the journal by its game package.

What a table asks after a game (« when did Cleo overtake me? », « how close were we to dying of
thirst? ») needs the figures at the end of every round. They come from the rules' own states: the
story (:func:`companion.table.story.told`) already replays the journal once and keeps, for every action,
the state before and after it; :func:`rounds` groups those by the round the package says each
action belongs to and keeps the state after each round's last action. A package's part ``course(entries, lang)``
(its ``course.py``, listed in its ``__init__``) reads its figures there, never recomputing a rule. Reading a live game's
course (its session, a tournament's other manches) is :mod:`companion.table.course`'s.

A course is neutral data, the same for the tablet's charts, the screen readers' tables and the
OLED's sparkline::

    {"x_label": "Round", "x": [0, 1, 2], "x_labels": ["Start", "1", "2"],
     "charts": [{"id", "title", "unit", "series": [{"key", "label", "values", "colour", "shape", "dash"}],
                 "lines": [{"value", "label"}], "table": {...}}],
     "marks": [{"x", "kind", "text"}], "spark": {"label", "values"}}

``table`` (the text alternative: the same figures, a row per round) is added by :func:`complete`,
so that every package's alternative is built the one way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from companion.engine import texts

#: one colour per seat (pawns, chart lines; ``web.pictures`` reads it too)
SEAT_COLOURS = ["#e4572e", "#17bebb", "#ffc914", "#76b041", "#7d5ba6", "#2e86ab",
                "#f18f01", "#c73e1d", "#3b1f2b", "#6c8ead", "#a23b72", "#5f0f40"]
#: one shape per seat, in the pictures' shapes (``web.pictures.SHAPES``): lines part in grey too
SEAT_SHAPES = ["circle", "triangle", "square", "diamond", "hexagon", "cross", "star", "ring",
               "circle", "triangle", "square", "diamond"]
#: one dash pattern per seat (SVG ``stroke-dasharray``; "" is a full line)
SEAT_DASHES = ["", "8,4", "2,3", "10,3,2,3", "14,4", "4,4", "1,5", "10,2,2,2,2,2",
               "6,2", "3,6", "12,6", "2,8"]


def seat_style(seat: int) -> dict[str, str]:
    """The colour, shape and dash of the seat ``seat`` (0-based) in every chart."""
    return {"colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)], "shape": SEAT_SHAPES[seat % len(SEAT_SHAPES)],
            "dash": SEAT_DASHES[seat % len(SEAT_DASHES)]}


def rounds(entries: list[dict[str, Any]]) -> tuple[Any, list[tuple[int, Any, list[dict[str, Any]]]]]:
    """(the state at set-up, ``[(round, state after the round's last action, the round's events)]``).

    ``entries`` are the story's (:func:`companion.table.story.told`), oldest first, each with its
    ``round``, ``events``, ``before`` and ``state``. Actions before the first round (set-up lines,
    a round 0 or None) belong to the start.
    """
    if not entries:
        return None, []
    start = entries[0]["before"]
    out: list[tuple[int, Any, list[dict[str, Any]]]] = []
    for e in entries:
        rnd = e.get("round")
        if not isinstance(rnd, int) or isinstance(rnd, bool) or rnd <= 0:
            if not out:
                start = e["state"]
                continue
            rnd = out[-1][0]
        if out and out[-1][0] == rnd:
            out[-1] = (rnd, e["state"], out[-1][2] + list(e["events"]))
        else:
            out.append((rnd, e["state"], list(e["events"])))
    return start, out


def entries(pkg: Any, steps: Iterable[tuple[Any, Any, list[dict[str, Any]], Any]]) -> list[dict[str, Any]]:
    """Story-shaped entries (``round``, ``action``, ``events``, ``before``, ``state``) from replayed steps
    ``(before, action, events, after)``: what a package's ``course`` reads, for the readers that replay
    without a session (the club's results, ``companion oled --screen course``). A round the package
    cannot tell goes with the one before, as in the story."""
    out: list[dict[str, Any]] = []
    for before, action, events, after in steps:
        try:
            rnd = pkg.round_of(before, action, after)
        except Exception:  # noqa: BLE001 - as the story does: the round before
            rnd = out[-1]["round"] if out else None
        out.append({"round": rnd, "action": action, "events": list(events), "before": before, "state": after})
    return out


def neutral(course: dict[str, Any]) -> dict[str, Any]:
    """``course`` without the parts a reader rebuilds (each chart's ``table``, its ``svg``): what travels."""
    return {**course, "charts": [{k: v for k, v in ch.items() if k not in ("table", "svg")}
                                 for ch in course.get("charts", [])]}


def read(entries: list[dict[str, Any]], view: Callable[[Any], dict[str, Any]]
         ) -> tuple[list[int], list[dict[str, Any]], list[tuple[int, Any, list[dict[str, Any]]]]] | None:
    """(x: 0 then each round, ``view(state)`` at the start and at each round's end, :func:`rounds`' rounds),
    or None before anything was played: how every package's ``course`` begins."""
    start, played = rounds(entries)
    if start is None:
        return None
    return [0] + [r for r, _, _ in played], [view(s) for s in [start] + [s for _, s, _ in played]], played


def words(domain: str) -> Callable[..., str]:
    """``t(lang, msgid, **params)``: a game's texts (its catalog, then the interface's)."""
    return lambda lang, msgid, **params: texts.render(msgid, params, lang, domain)


def series(key: str, label: str, values: list[Any], style: dict[str, str]) -> dict[str, Any]:
    """One line of a chart: its key (a player's name, a piece), label, one value per x, and style."""
    return {"key": key, "label": label, "values": list(values), **style}


def chart(ident: str, title: str, lines: list[dict[str, Any]], unit: str = "",
          rules: Iterable[dict[str, Any]] = ()) -> dict[str, Any]:
    """A chart: ``rules`` are horizontal lines drawn across it (Pocket's loss line)."""
    return {"id": ident, "title": title, "unit": unit, "series": lines, "lines": list(rules)}


def description(x: list[int], charts: list[dict[str, Any]], lang: str, *, marks: list[dict[str, Any]] | None = None,
                spark: dict[str, Any] | None = None, heading: str = "Round") -> dict[str, Any]:
    """The course as every reader takes it; ``heading`` is the x axis' message id (« Round », « Turn »)."""
    t = texts.translator(lang)
    labels = [texts.pgettext_("chart axis", "Start", lang) if n == 0 else str(n) for n in x]
    return {"x_label": t(heading), "x": list(x), "x_labels": labels, "charts": charts,
            "marks": list(marks or []), "spark": spark}


def complete(course: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """``course`` with each chart's text alternative (``table``: the same figures, one row per x)."""
    for ch in course.get("charts", []):
        ch["table"] = table(course, ch, lang)
    return course


def table(course: dict[str, Any], ch: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """The figures of one chart as a table: a column per line, a row per round, and the marks of each round."""
    t = texts.translator(lang)
    marks: dict[int, list[str]] = {}
    for m in course.get("marks", []) if "x" not in ch else []:  # a chart with its own x has no round marks
        marks.setdefault(m["x"], []).append(m["text"])
    xs, labels = ch.get("x", course["x"]), ch.get("x_labels", course["x_labels"])
    head = [ch.get("x_label", course["x_label"])] + [s["label"] for s in ch["series"]] + ([t("Events")] if marks else [])
    rows = []
    for i, x in enumerate(xs):
        cells = [_cell(s["values"][i] if i < len(s["values"]) else None, ch.get("unit", "")) for s in ch["series"]]
        rows.append([labels[i]] + cells + (["; ".join(marks.get(x, []))] if marks else []))
    return {"caption": ch["title"], "head": head, "rows": rows}


def _cell(value: Any, unit: str) -> str:
    if value is None:
        return "–"
    return f"{unit}{value}" if unit else str(value)


def leader_margin(names: list[str], scores: list[dict[str, int]]) -> list[int]:
    """Per round, how far the leader is ahead of the second (0 when tied): the OLED's sparkline."""
    out = []
    for row in scores:
        top = sorted((row.get(n, 0) or 0 for n in names), reverse=True)
        out.append(top[0] - top[1] if len(top) > 1 else (top[0] if top else 0))
    return out
