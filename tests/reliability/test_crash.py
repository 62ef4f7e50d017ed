"""Crash suite: `companion act` killed with SIGKILL at random moments.

A driver plays a real game (random legal play, seeded) one `companion act`
process per action and kills each process at a random moment. After every kill,
every acknowledged action (the process exited 0) must be in the journal, the
journal must replay cleanly, and what it holds must be exactly a prefix of
the planned game (nothing half-written, nothing out of order).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import games
from companion.table.journal import Journal
from companion.table.session import Session

pytestmark = pytest.mark.crash

KILLS = 30  # make test; make soak kills 500 times
SOAK_KILLS = 500


def planned_game(seed: int, game_id: str = "galapagos-auction") -> tuple[list[str], list[dict]]:
    rules = games.get(game_id)
    rng = random.Random(seed)
    players = ["Ann", "Bob", "Cy"]
    state = rules.setup(players, {})
    actions = []
    while len(actions) < 400:
        cands = rules.candidates(state)
        if not cands:
            break
        action = rng.choice(cands)
        state, _ = rules.apply(state, action)
        actions.append(action)
    return players, actions


def act_seconds(tmp_path: Path, env: dict[str, str]) -> float:
    """How long one `companion act` takes here, start to exit (the machine may be busy)."""
    db = tmp_path / "timing.db"
    session = Session.new(Journal(db), "pocket-galapagos", ["Ann"], {})
    took = []
    for _ in range(3):
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "companion", "--db", str(db), "act", session.id, '{"type": "end_turn"}'],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
        took.append(time.monotonic() - started)
    return max(0.15, sorted(took)[1])


def crash_run(tmp_path: Path, kills_wanted: int) -> int:
    """Play games until ``kills_wanted`` processes were killed; returns the acknowledged count."""
    db = tmp_path / "crash.db"
    rng = random.Random(11)
    kills = total_acknowledged = 0
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    window = act_seconds(tmp_path, env) * 1.3  # kills land before, during and after the commit
    seed = 7
    while kills < kills_wanted:
        players, plan = planned_game(seed)
        seed += 1
        session = Session.new(Journal(db), "galapagos-auction", players, {})
        acknowledged = 0
        while kills < kills_wanted and acknowledged < len(plan):
            journal_now = Session.open(Journal(db), session.id).version
            if journal_now == len(plan):
                break
            proc = subprocess.Popen(
                [sys.executable, "-m", "companion", "--db", str(db), "act", session.id,
                 json.dumps(plan[journal_now])],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
            )
            # kill somewhere between start-up and well after the commit; a process that exits before
            # its moment is not waited for any longer (the same kills, no idle wait)
            try:
                proc.wait(timeout=rng.uniform(0.0, window))
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                kills += 1
            returncode = proc.wait(timeout=60)
            stderr = proc.stderr.read().decode() if proc.stderr else ""
            if returncode == 0:
                acknowledged = journal_now + 1
                total_acknowledged += 1
            else:
                assert returncode == -signal.SIGKILL, stderr
            resumed = Session.open(Journal(db), session.id)  # replays cleanly or raises
            held = [e.action for e in resumed.history()]
            assert len(held) >= acknowledged, "an acknowledged action was lost"
            assert held == plan[: len(held)], "the journal is not a prefix of the game played"
    assert total_acknowledged > 0
    return total_acknowledged


@pytest.mark.slow(reason="30 kill -9 of a real `companion act` process, each journal reopened and checked")
def test_sigkill_at_random_moments_loses_no_acknowledged_action(tmp_path: Path) -> None:
    crash_run(tmp_path, KILLS)


@pytest.mark.soak
def test_soak_sigkill_many_more_times(tmp_path: Path) -> None:
    crash_run(tmp_path, SOAK_KILLS)
