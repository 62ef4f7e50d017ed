"""The course of a Galèrapagos game: water, food, wood and rafts against the survivors round by
round, the weather drawn, the votes and the deaths marked on the time line; in a tournament the
points manche by manche so far.

A round opens with its weather card (``results.round_of``); its figures are the rules' own state
after its last action, the survival step and any death included (:func:`companion.engine.course.rounds`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.engine import course as engine_course
from companion.games.galerapagos import rules as R
from companion.games.galerapagos.state import DOMAIN

_RULES = R.GalerapagosRules()
#: water blue drops, food orange fish, wood brown, rafts green, survivors black: each its shape and dash
STYLE = {"water": {"colour": "#2f6fbf", "shape": "diamond", "dash": ""},
         "food": {"colour": "#e07b00", "shape": "triangle", "dash": "8,4"},
         "wood": {"colour": "#8b5a2b", "shape": "square", "dash": "2,3"},
         "rafts": {"colour": "#3f9b4b", "shape": "hexagon", "dash": "10,3,2,3"},
         "survivors": {"colour": "#222222", "shape": "figure", "dash": "14,4"}}


_t = engine_course.words(DOMAIN)


def course(entries: list[dict[str, Any]], lang: str = "en") -> dict[str, Any] | None:
    """The supplies and the survivors per round; weather, votes and deaths as marks."""
    got = engine_course.read(entries, _RULES.view)
    if got is None:
        return None
    x, views, played = got
    label = {"water": _t(lang, "Water"), "food": _t(lang, "Food"), "wood": _t(lang, "Wood"),
             "rafts": _t(lang, "Raft places"), "survivors": _t(lang, "Survivors")}

    def figure(v: dict[str, Any], key: str) -> int:
        return sum(1 for p in v["players"] if p["alive"]) if key == "survivors" else v[key]

    supplies = [engine_course.series(k, label[k], [figure(v, k) for v in views], STYLE[k])
                for k in ("water", "food", "survivors")]
    wood = [engine_course.series(k, label[k], [figure(v, k) for v in views], STYLE[k]) for k in ("wood", "rafts", "survivors")]
    charts = [engine_course.chart("rations", _t(lang, "Rations and survivors"), supplies),
              engine_course.chart("raft", _t(lang, "Wood and raft against survivors"), wood)]
    marks = []
    for rnd, _, events in played:
        for e in events:
            kind = e.get("event")
            if kind == "weather":
                text = (_t(lang, "Hurricane ({n} water)", n=e["water"]) if e.get("hurricane")
                        else _t(lang, "Weather: {n} water", n=e["water"]))
                marks.append({"x": rnd, "kind": "weather", "text": text})
            elif kind == "reveal":
                counts = Counter(v for v in (e.get("votes") or {}).values() if v)
                said = ", ".join(f"{name} {n}" for name, n in counts.most_common())
                marks.append({"x": rnd, "kind": "vote", "text": _t(lang, "Vote: {counts}", counts=said)})
            elif kind == "death":
                marks.append({"x": rnd, "kind": "death", "player": e["player"],
                              "text": _t(lang, "{p} dies", p=e["player"])})
    match = views[-1].get("match")
    if match:
        marks.append({"x": x[-1], "kind": "match",
                      "text": _t(lang, "Tournament after manche {n}: {totals}", n=match["manche"],
                                 totals=", ".join(f"{k} {v}" for k, v in match["totals"].items()))})
    spark = {"label": _t(lang, "Rations"), "values": [min(v["water"], v["food"]) for v in views]}
    return engine_course.description(x, charts, lang, marks=marks, spark=spark)
