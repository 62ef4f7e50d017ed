"""The course of a Pocket Galapagos game: the three populations and the species spaces turn by
turn, with the loss lines (two populations at 0; three of one species on the invasive spaces).

The figures are the rules' own state after each turn's last action (:func:`companion.engine.course.rounds`).
"""

from __future__ import annotations

from typing import Any

from companion.engine import course as engine_course
from companion.engine import texts
from companion.games.pocket import rules as R

_RULES = R.PocketRules()
#: a colour, shape and dash per species and per space: the lines part in grey and for colour-blind eyes
SPECIES_STYLE = {"rat": {"colour": "#5b5b5b", "shape": "circle", "dash": ""},
                 "ant": {"colour": "#b5442c", "shape": "triangle", "dash": "8,4"},
                 "finch": {"colour": "#2f6fbf", "shape": "diamond", "dash": "2,3"}}
SPACE_STYLE = {"dominant": {"colour": "#3f9b4b", "shape": "square", "dash": ""},
               "biome": {"colour": "#8b5a2b", "shape": "hexagon", "dash": "8,4"},
               "invasive": {"colour": "#c62f2f", "shape": "cross", "dash": "2,3"}}


_t = engine_course.words(R.DOMAIN)


def course(entries: list[dict[str, Any]], lang: str = "en") -> dict[str, Any] | None:
    """Populations, cards on each kind of space, and each species on the invasive spaces."""
    got = engine_course.read(entries, _RULES.view)
    if got is None:
        return None
    x, views, played = got
    word = {s: texts.gettext_(s, lang, R.DOMAIN).capitalize() for s in R.SPECIES + R.SPACES}
    pops = [engine_course.series(s, word[s], [v["populations"][s] for v in views], SPECIES_STYLE[s]) for s in R.SPECIES]
    spaces = [engine_course.series(p, word[p], [len(v["spaces"][p]) for v in views], SPACE_STYLE[p]) for p in R.SPACES]
    invasive = [engine_course.series(s, word[s], [v["spaces"]["invasive"].count(s) for v in views], SPECIES_STYLE[s])
                for s in R.SPECIES]
    charts = [
        engine_course.chart("populations", _t(lang, "Populations"), pops,
                rules=[{"value": 0, "label": _t(lang, "Loss line: two populations at 0")}]),
        engine_course.chart("spaces", _t(lang, "Species spaces"), spaces),
        engine_course.chart("invasive", _t(lang, "On the invasive species spaces"), invasive,
                rules=[{"value": R.INVASIVE_LIMIT, "label": _t(lang, "Loss line: three of one species")}]),
    ]
    marks = [{"x": x[k], "kind": "zero", "text": _t(lang, "{species} at 0", species=word[line["key"]])}
             for line in pops for k in range(1, len(x)) if line["values"][k] == 0 < line["values"][k - 1]]
    outcome = _RULES.outcome(played[-1][1]) if played else None
    if outcome is not None:
        marks.append({"x": x[-1], "kind": "end", "text": outcome.sentence(lang, R.DOMAIN)})
    spark = {"label": _t(lang, "Lowest population"),
             "values": [min(v["populations"].values()) for v in views]}
    return engine_course.description(x, charts, lang, marks=marks, spark=spark, heading="Turn")
