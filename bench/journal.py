"""Journal append with fsync (SQLite WAL, synchronous=FULL) against a JSON file rewritten per action.

Also the resume of a 1,000-action game: open the journal and replay it.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import emit, median, metric, size
from companion import games
from companion.table.journal import Journal
from companion.table.session import Session

APPENDS = size(300, 5)


def journal_append_ms(folder: Path) -> list[float]:
    journal = Journal(folder / "bench.db")
    record = journal.create_game("pocket-galapagos", ["Ann"], {})
    samples = []
    for i in range(APPENDS):
        start = time.perf_counter()
        with journal.transaction() as db:
            journal.append(db, record.id, {"type": "end_turn", "n": i}, "bench")
        samples.append((time.perf_counter() - start) * 1000)
    journal.close()
    return samples


def json_rewrite_ms(folder: Path) -> list[float]:
    """The naive alternative: the whole game rewritten to a JSON file, fsynced, per action."""
    path = folder / "game.json"
    actions: list[dict[str, Any]] = []
    samples = []
    for i in range(APPENDS):
        start = time.perf_counter()
        actions.append({"type": "end_turn", "n": i})
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w") as handle:
            json.dump({"game": "pocket-galapagos", "actions": actions}, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def long_game(journal: Journal, length: int = 1000) -> str:
    """A 1,000-action pocket-galapagos game, journaled.

    No game reaches 1,000 actions with uniform random play (the longest run
    about 450), so the player here lingers in each turn: ability effects and card
    moves (legal any number of times) are taken far more often than ``end_turn``.
    """
    rules = games.get("pocket-galapagos")
    for seed in range(200):
        rng = random.Random(seed)
        state = rules.setup(["Ann"], {})
        actions: list[dict[str, Any]] = []
        while len(actions) < length:
            cands = rules.candidates(state)
            if not cands:
                break
            lingering = [a for a in cands if a["type"] != "end_turn"]
            action = rng.choice(lingering if lingering and rng.random() < 0.97 else cands)
            state, _ = rules.apply(state, action)
            actions.append(action)
        if len(actions) == length:
            session = Session.new(journal, "pocket-galapagos", ["Ann"], {})
            with journal.transaction() as db:
                for action in actions:
                    journal.append(db, session.id, action, "bench")
            return session.id
    raise RuntimeError("no 1,000-action game found")


def resume_ms(folder: Path, repeats: int = size(7, 1)) -> tuple[list[float], str]:
    path = folder / "resume.db"
    game_id = long_game(Journal(path))
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        journal = Journal(path)
        session = Session.open(journal, game_id)
        samples.append((time.perf_counter() - start) * 1000)
        assert session.version == 1000
        journal.close()
    return samples, session.game


def slowest_replay_per_1000_ms() -> dict[str, float]:
    """Replay cost of each game's longest random game, scaled to 1,000 actions (no game gets that long)."""
    out = {}
    for gid in games.ids():
        rules = games.get(gid)
        players = ["Ann", "Bob", "Cy", "Dee"][: max(rules.min_players, min(4, rules.max_players))]
        longest: list[dict[str, Any]] = []
        for seed in range(size(20, 1)):
            rng, state, actions = random.Random(seed), rules.setup(players, {}), []
            while (cands := rules.candidates(state)) and len(actions) < 1000:
                action = rng.choice(cands)
                state, _ = rules.apply(state, action)
                actions.append(action)
            longest = max(longest, actions, key=len)
        times = []
        for _ in range(size(5, 1)):
            start = time.perf_counter()
            state = rules.setup(players, {})
            for action in longest:
                state, _ = rules.apply(state, action)
            times.append((time.perf_counter() - start) * 1000 * 1000 / len(longest))
        out[gid] = round(median(times), 2)
    return out


def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as tmp:
        folder = Path(tmp)
        sqlite_p50 = median(journal_append_ms(folder))
        json_p50 = median(json_rewrite_ms(folder))
        resume, game = resume_ms(folder)
    return {
        "journal_append_p50_ms": metric(sqlite_p50, "ms", "<= 3", alternative="JSON file rewritten and fsynced per action",
                                        alternative_p50_ms=round(json_p50, 4), ratio=round(json_p50 / sqlite_p50, 2)),
        "resume_1000_ms": metric(median(resume), "ms", "<= 100", game=game,
                                 replay_per_1000_actions_ms_by_game=slowest_replay_per_1000_ms()),
    }


if __name__ == "__main__":
    emit(run())
