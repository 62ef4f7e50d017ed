"""How long a chart of a game's course takes to draw on this machine (≤ 50 ms for a 12-round game).

The twelve-round auction (tests/scenarios/auction_full_game.jsonl: 3 players, 4 charts, up to 6 lines)
and a complete game of each other package are replayed once through the rules the way the story
replays a journal; then each game's course is built (``GamePackage.course``) and each of its charts
drawn to SVG (``companion.engine.charts.svg``), repeatedly. The figure is the median time of the slowest
chart of the twelve-round game, its course's share included (the course once, divided by its charts).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from bench.common import emit, median, metric, percentile, size
from companion import games
from companion.engine import charts

SCENARIOS = Path(__file__).resolve().parent.parent / "tests" / "scenarios"
GAMES = {"galapagos-auction": "auction_full_game", "galapagos-dice": "dice_full_game",
         "pocket-galapagos": "pocket_win_ten_turns", "galerapagos": "galerapagos_review_5p"}


def entries(name: str) -> tuple[Any, list[dict[str, Any]]]:
    """The story's entries of a scenario (state before and after each line, its round and events)."""
    rows = [json.loads(x) for x in (SCENARIOS / f"{name}.jsonl").read_text().splitlines() if x.strip()]
    pkg = games.package(rows[0]["game"])
    state = pkg.rules.setup(rows[0]["players"], rows[0].get("options", {}))
    out = []
    for action in rows[1:]:
        after, events = pkg.rules.apply(state, action)
        out.append({"before": state, "state": after, "events": events, "action": action,
                    "round": pkg.round_of(state, action, after)})
        state = after
    return pkg, out


def timings(name: str, repeat: int) -> dict[str, Any]:
    pkg, told = entries(name)
    course_ms, chart_ms = [], {}
    course = None
    for _ in range(repeat):
        start = time.perf_counter()
        course = pkg.course(told, "fr")
        course_ms.append((time.perf_counter() - start) * 1000)
        for i, ch in enumerate(course["charts"]):
            start = time.perf_counter()
            charts.svg(course, ch, ident=f"c{i}")
            chart_ms.setdefault(ch["id"], []).append((time.perf_counter() - start) * 1000)
    share = median(course_ms) / len(course["charts"])
    slowest = max(chart_ms, key=lambda k: median(chart_ms[k]))
    return {"rounds": len(course["x"]) - 1, "charts": len(course["charts"]), "course_ms": round(median(course_ms), 3),
            "slowest": slowest, "chart_ms": round(median(chart_ms[slowest]) + share, 3),
            "chart_p95_ms": round(percentile(chart_ms[slowest], 95) + share, 3)}


def run() -> dict[str, Any]:
    repeat = size(30, 2)
    timings(GAMES["galerapagos"], 1)  # pygal imported and warmed, as in a running companion
    per_game = {gid: timings(name, repeat) for gid, name in GAMES.items()}
    twelve = per_game["galapagos-auction"]
    return {"course_chart_ms": metric(twelve["chart_ms"], "ms", "<= 50", game="galapagos-auction",
                                      rounds=twelve["rounds"], p95_ms=twelve["chart_p95_ms"], per_game=per_game)}


if __name__ == "__main__":
    emit(run())
