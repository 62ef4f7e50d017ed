"""The course of a dice game: each player's turtles by colour round by round, and the sets completed.

The figures are the rules' own state after each round's last move (:func:`companion.engine.course.rounds`).
"""

from __future__ import annotations

from typing import Any

from companion.engine import course as engine_course
from companion.engine import texts
from companion.games.dice import pictures
from companion.games.dice import rules as R
from companion.games.dice.island import COLOURS

_RULES = R.DiceRules()
DOMAIN = R.DiceRules.id
#: a dash per turtle colour, beside its fill and shape, so the lines part in grey too
DASHES = {"black": "", "white": "8,4", "red": "2,3", "green": "10,3,2,3", "yellow": "14,4", "blue": "4,4"}


_t = engine_course.words(DOMAIN)


def course(entries: list[dict[str, Any]], lang: str = "en") -> dict[str, Any] | None:
    """Sets and turtles per player, then each player's turtles colour by colour."""
    got = engine_course.read(entries, _RULES.public_state)
    if got is None:
        return None
    x, views, played = got
    names = [p["name"] for p in views[0]["players"]]

    def counts(v: dict[str, Any], i: int) -> dict[str, int]:
        return v["players"][i]["turtles"]

    sets = [engine_course.series(n, n, [min(counts(v, i).values()) for v in views], engine_course.seat_style(i)) for i, n in enumerate(names)]
    total = [engine_course.series(n, n, [sum(counts(v, i).values()) for v in views], engine_course.seat_style(i)) for i, n in enumerate(names)]
    charts = [engine_course.chart("sets", _t(lang, "Sets completed"), sets), engine_course.chart("turtles", _t(lang, "Turtles"), total)]
    for i, n in enumerate(names):
        lines = [engine_course.series(c, texts.gettext_(c, lang, DOMAIN).capitalize(), [counts(v, i)[c] for v in views],
                          {"colour": pictures.COLOUR_FILL[c], "shape": pictures.COLOUR_SHAPE[c], "dash": DASHES[c]})
                 for c in COLOURS]
        charts.append(engine_course.chart(f"turtles-{i + 1}", _t(lang, "{p}'s turtles by colour", p=n), lines))
    marks = [{"x": x[k], "kind": "set", "player": line["key"],
              "text": _t(lang, "{p} completes a set", p=line["key"])}
             for line in sets for k in range(1, len(x)) if line["values"][k] > line["values"][k - 1]]
    spark = {"label": texts.render("Leader's margin", {}, lang),
             "values": engine_course.leader_margin(names, [v["scores"] for v in views])}
    return engine_course.description(x, charts, lang, marks=marks, spark=spark)
