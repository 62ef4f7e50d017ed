"""The course of an auction game: money, points and education at the end of every round,
the animals' fields on the education track, and when each bonus tile changed hands.

Every figure is read from the rules' own state after a round's last action (the upkeep
included), through :func:`companion.engine.course.rounds`; nothing is recomputed here.
"""

from __future__ import annotations

from typing import Any

from companion.engine import course as engine_course
from companion.engine import texts
from companion.games.auction import palette
from companion.games.auction import rules as R
from companion.games.auction.words import animal, bonus_tile

_RULES = R.AuctionRules()
ANIMALS = ("sea_lion", "iguana", "tortoise", "booby", "penguin", "crab")
#: the tokens' colours and shapes (the package's palette), with a dash each so the lines part in grey
DASHES = {"sea_lion": "", "iguana": "8,4", "tortoise": "2,3", "booby": "10,3,2,3", "penguin": "14,4", "crab": "4,4"}


_t = engine_course.words(R.DOMAIN)


def course(entries: list[dict[str, Any]], lang: str = "en") -> dict[str, Any] | None:
    """Money, points and education per player, the track per animal, the bonus tiles marked."""
    got = engine_course.read(entries, _RULES.public_state)
    if got is None:
        return None
    x, views, played = got
    names = [p["name"] for p in views[0]["players"]]

    def per_player(field: str) -> list[dict[str, Any]]:
        return [engine_course.series(n, n, [v["players"][i][field] for v in views], engine_course.seat_style(i)) for i, n in enumerate(names)]

    track = [engine_course.series(a, animal(a, lang).capitalize(), [v["education_track"][a] for v in views],
                      {"colour": palette.FILL[a], "shape": palette.SHAPE[a], "dash": DASHES[a]})
             for a in ANIMALS]
    marks = []
    for rnd, _, events in played:
        for e in events:
            if e.get("type") == "exhibition" and e.get("bonus"):
                marks.append({"x": rnd, "kind": "bonus", "player": e["player"],
                              "text": _t(lang, "{p} takes bonus tile {tile}", p=e["player"], tile=bonus_tile(e["bonus"], lang))})
    points = [v["scores"] for v in views]  # exhibitions, and the end bonuses once the game is over
    scored = [engine_course.series(n, n, [p[n] for p in points], engine_course.seat_style(i)) for i, n in enumerate(names)]
    charts = [
        engine_course.chart("points", _t(lang, "Points"), scored),
        engine_course.chart("money", _t(lang, "Money"), per_player("money"), unit="£"),
        engine_course.chart("education", _t(lang, "Education"), per_player("education")),
        engine_course.chart("track", _t(lang, "Education track"), track),
    ]
    spark = {"label": texts.render("Leader's margin", {}, lang), "values": engine_course.leader_margin(names, points)}
    return engine_course.description(x, charts, lang, marks=marks, spark=spark)
