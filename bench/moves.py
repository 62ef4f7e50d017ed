"""How long a game package takes to list its moves, the cost every screen pays on every change.

The dial, every phone page and the tablet call ``GamePackage.moves(state, lang)``
after each action; the audit calls it before each line. Random playouts of every
game (seeded) visit its states; each state's moves are listed in French (the longer
texts) and timed. The figure is the 99th percentile of the slowest game.

A move sent by a phone, the dial or a script is matched against those forms before the
rules see it (``moves.match``); the second figure times that match for every action the
rules would accept at each state, 99th percentile of the slowest game.
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench.common import emit, median, metric, size
from companion import games
from companion.engine import moves

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def timings(game_id: str, games_played: int = size(8, 1), max_actions: int = size(400, 10)) -> tuple[list[float], list[float]]:
    """Milliseconds to list each state's moves, and to match each accepted action against them."""
    pkg = games.package(game_id)
    rules = pkg.rules
    listing: list[float] = []
    matching: list[float] = []
    for seed in range(games_played):
        rng = random.Random(seed)
        state = rules.setup(PLAYERS[: max(rules.min_players, min(4, rules.max_players))], {})
        for _ in range(max_actions):
            start = time.perf_counter()
            forms = pkg.moves(state, "fr")
            listing.append((time.perf_counter() - start) * 1000)
            candidates = rules.candidates(state)
            if not candidates:
                break
            for action in candidates[:50]:
                start = time.perf_counter()
                moves.match(forms, action)
                matching.append((time.perf_counter() - start) * 1000)
            state, _ = rules.apply(state, rng.choice(candidates))
    return listing, matching


def run() -> dict[str, Any]:
    both = {gid: timings(gid) for gid in games.ids()}
    per_game = {gid: listing for gid, (listing, _) in both.items()}
    p99 = {gid: round(percentile(ms, 99), 3) for gid, ms in per_game.items()}
    slowest = max(p99, key=p99.get)
    matched = {gid: matching for gid, (_, matching) in both.items() if matching}
    match_p99 = {gid: round(percentile(ms, 99), 4) for gid, ms in matched.items()}
    match_slowest = max(match_p99, key=match_p99.get)
    return {"moves_p99_ms": metric(p99[slowest], "ms", "<= 20", slowest=slowest, per_game_p99_ms=p99,
                                   per_game_median_ms={g: round(median(ms), 3) for g, ms in per_game.items()},
                                   states={g: len(ms) for g, ms in per_game.items()}),
            "move_match_p99_ms": metric(match_p99[match_slowest], "ms", "<= 2", slowest=match_slowest,
                                        per_game_p99_ms=match_p99,
                                        per_game_median_ms={g: round(median(ms), 4) for g, ms in matched.items()},
                                        actions={g: len(ms) for g, ms in matched.items()})}


if __name__ == "__main__":
    emit(run())
