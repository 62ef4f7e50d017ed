"""Crash suite over HTTP: `companion run` killed with SIGKILL while a driver posts actions.

A driver thread posts a real game (random legal play, seeded) action by action
through the API; the main thread kills the server at random moments and restarts
it on the same journal. After each restart every acknowledged action (HTTP 200)
is in the journal, and the journal is exactly a prefix of the game (nothing
half-written, nothing twice). `make test` kills 15 times, `make soak` 100.
"""

from __future__ import annotations

import random
import signal
import threading
import time
from pathlib import Path

import pytest

from bench.harness import Server
from companion.table.journal import Journal
from companion.table.session import Session
from tests.reliability.test_crash import planned_game

pytestmark = pytest.mark.crash


class Driver(threading.Thread):
    """Posts plan[k], plan[k+1], ... until the server dies; remembers what was acknowledged."""

    def __init__(self, server: Server, game_id: str, plan: list[dict], start: int):
        super().__init__(daemon=True)
        self.server, self.game_id, self.plan, self.next = server, game_id, plan, start
        self.acknowledged = start
        self.refused: list[tuple[int, object]] = []

    def run(self) -> None:
        while self.next < len(self.plan):
            try:
                status, body = self.server.api("POST", f"/api/games/{self.game_id}/actions", self.plan[self.next],
                                               timeout=5)
            except OSError:
                return  # the server is gone
            if status != 200:
                self.refused.append((status, body))
                return
            self.next += 1
            self.acknowledged = self.next


def journal_actions(db: Path, game_id: str) -> list[dict]:
    return [e.action for e in Session.open(Journal(db), game_id).history()]


def crash_run(tmp_path: Path, kills_wanted: int) -> int:
    """Kill the server ``kills_wanted`` times mid-game (a new game whenever one is fully posted)."""
    db = tmp_path / "server.db"
    rng = random.Random(5)
    server = Server(db)
    server.start()
    acknowledged_total = kills = 0
    seed = 3
    try:
        while kills < kills_wanted:
            players, plan = planned_game(seed)
            seed += 1
            game_id = server.new_game("galapagos-auction", players)
            while kills < kills_wanted:
                held = journal_actions(db, game_id)
                if len(held) == len(plan):
                    break
                driver = Driver(server, game_id, plan, len(held))
                driver.start()
                time.sleep(rng.uniform(0.0, 0.3))
                server.kill(signal.SIGKILL)
                kills += 1
                driver.join(timeout=30)
                assert not driver.refused, f"the server refused a legal action: {driver.refused}"
                after = journal_actions(db, game_id)  # replays cleanly or raises
                assert len(after) >= driver.acknowledged, "an acknowledged action was lost"
                assert after == plan[: len(after)], "the journal is not a prefix of the game posted"
                acknowledged_total += driver.acknowledged - len(held)
                server.start()
    finally:
        server.kill()
    assert acknowledged_total > 0
    return acknowledged_total


@pytest.mark.slow(reason="a real `companion run` killed and started again at random moments while actions are posted")
def test_server_killed_at_random_moments_loses_no_acknowledged_action(tmp_path: Path) -> None:
    crash_run(tmp_path, 15)


@pytest.mark.soak
def test_soak_server_killed_a_hundred_times(tmp_path: Path) -> None:
    crash_run(tmp_path, 100)
