"""How long a game package takes to list its moves, the cost every screen pays on every change.

The dial, every phone page and the tablet call ``GamePackage.moves(state, lang)``
after each action; the audit calls it before each line. Random playouts of every
game (seeded) visit its states; each state's moves are listed in French (the longer
texts) and timed. The figure is the 99th percentile of the slowest game.
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench.common import emit, median, metric, size
from companion import games

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def timings(game_id: str, games_played: int = size(8, 1), max_actions: int = size(400, 10)) -> list[float]:
    pkg = games.package(game_id)
    rules = pkg.rules
    out: list[float] = []
    for seed in range(games_played):
        rng = random.Random(seed)
        state = rules.setup(PLAYERS[: max(rules.min_players, min(4, rules.max_players))], {})
        for _ in range(max_actions):
            start = time.perf_counter()
            pkg.moves(state, "fr")
            out.append((time.perf_counter() - start) * 1000)
            candidates = rules.candidates(state)
            if not candidates:
                break
            state, _ = rules.apply(state, rng.choice(candidates))
    return out


def run() -> dict[str, Any]:
    per_game = {gid: timings(gid) for gid in games.ids()}
    p99 = {gid: round(percentile(ms, 99), 3) for gid, ms in per_game.items()}
    slowest = max(p99, key=p99.get)
    return {"moves_p99_ms": metric(p99[slowest], "ms", "<= 20", slowest=slowest, per_game_p99_ms=p99,
                                   per_game_median_ms={g: round(median(ms), 3) for g, ms in per_game.items()},
                                   states={g: len(ms) for g, ms in per_game.items()})}


if __name__ == "__main__":
    emit(run())
