"""Random legal playouts of every game: actions per second, the slowest game is the figure.

Each game's ``candidates(state)`` proposes legal actions; a seeded RNG picks one.
The time includes proposing, choosing and applying, as a fuzzer or an AI would.
``per_game_cpu`` is the same rate over the process's CPU time: on a shared machine the
wall-clock figure also counts the time other jobs held the cores.
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench.common import emit, median, metric, size
from companion import games

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def playout(game_id: str, seed: int, max_actions: int = 5000) -> tuple[int, float, float]:
    rules = games.get(game_id)
    count = max(rules.min_players, min(4, rules.max_players))
    rng = random.Random(seed)
    state = rules.setup(PLAYERS[:count], {})
    actions = 0
    start, cpu = time.perf_counter(), time.process_time()
    while actions < max_actions:
        cands = rules.candidates(state)
        if not cands:
            break
        state, _ = rules.apply(state, rng.choice(cands))
        actions += 1
    return actions, time.perf_counter() - start, time.process_time() - cpu


def run(seconds_per_game: float = size(1.5, 0.05)) -> dict[str, Any]:
    rates: dict[str, float] = {}
    cpu_rates: dict[str, float] = {}
    for gid in games.ids():
        samples: list[float] = []
        cpu_samples: list[float] = []
        deadline = time.perf_counter() + seconds_per_game
        seed = 0
        while time.perf_counter() < deadline or len(samples) < 3:
            n, elapsed, cpu = playout(gid, seed)
            seed += 1
            if n:
                samples.append(n / elapsed)
                cpu_samples.append(n / max(cpu, 1e-6))
        rates[gid] = median(samples)
        cpu_rates[gid] = median(cpu_samples)
    slowest = min(rates, key=rates.__getitem__)
    return {
        "playout_actions_per_s": metric(rates[slowest], "actions/s", ">= 20000", game=slowest,
                                        per_game={k: round(v) for k, v in rates.items()},
                                        per_game_cpu={k: round(v) for k, v in cpu_rates.items()}),
    }


if __name__ == "__main__":
    emit(run())
