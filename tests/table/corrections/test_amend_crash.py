"""A power cut inside an edit leaves either the old history or the new one, never a mixture.

An edit flips many rows (the edited action, every later one) and writes new rows (the
correction, the copies): done as several commits, a cut between them would leave the
game with the later actions gone and no copies, a history nobody played. Two runs, as
tests/reliability does for the dice undo: a child process that dies (``os._exit``)
between the steps of the edit, and a child killed with SIGKILL at random moments while
it edits back and forth.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.table.journal import Journal
from companion.table.session import Session

pytestmark = pytest.mark.crash

ROOT = Path(__file__).resolve().parents[3]
KILLS = 5
SOAK_KILLS = 100

#: dies in the middle of the edit: after the old rows gave way and the first new row was written
BETWEEN_THE_STEPS = r"""
import os, sys
from companion.table.journal import Journal
from companion.table.session import Session

calls = []
original = Journal._copy_row
def copy_then_die(self, *args, **kwargs):
    original(self, *args, **kwargs)
    calls.append(1)
    if len(calls) == 2:
        os._exit(9)  # the power goes: no rollback, no close
Journal._copy_row = copy_then_die
session = Session.open(Journal(sys.argv[1]), sys.argv[2])
session.edit(int(sys.argv[3]), None, source="crash")
raise SystemExit("the edit finished without dying")
"""

#: edits back and forth for ever: the action five back removed, then the remaining one five back, ...
BACK_AND_FORTH = r"""
import sys
from companion.table.journal import Journal
from companion.table.session import Session

session = Session.open(Journal(sys.argv[1]), sys.argv[2])
print("ready", flush=True)
while True:
    history = session.history()
    target = history[-5]
    other = {"type": "ocean", "species": "rat", "icons": 1, "mode": "migrate"}
    session.edit(target.seq, other if target.action != other else {"type": "ocean", "species": "ant", "icons": 1,
                                                                     "mode": "migrate"}, source="crash")
"""


def pocket_game(db: Path) -> tuple[str, list[dict]]:
    with Journal(db) as journal:
        session = Session.new(journal, "pocket-galapagos", ["Ann"])
        for action in ([{"type": "ocean", "species": "rat", "icons": 1, "mode": "migrate"},
                        {"type": "ocean", "species": "ant", "icons": 1, "mode": "migrate"},
                        {"type": "end_turn"}] * 3):
            session.act(action)
        return session.id, [e.action for e in session.history()]


def active(db: Path, game_id: str) -> list[dict]:
    con = sqlite3.connect(db)
    try:
        return [json.loads(a) for (a,) in con.execute(
            "SELECT action FROM actions WHERE game_id = ? AND status = 'active' ORDER BY seq", (game_id,))]
    finally:
        con.close()


def child(script: str, *args: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, cwd=ROOT)


def test_a_crash_between_the_steps_of_an_edit_leaves_the_old_history(tmp_path: Path) -> None:
    db = tmp_path / "edit.db"
    game_id, played = pocket_game(db)
    target = Session.open(Journal(db), game_id).history()[-5].seq
    proc = child(BETWEEN_THE_STEPS, str(db), game_id, str(target))
    proc.wait(timeout=60)
    assert proc.returncode == 9, proc.stderr.read() if proc.stderr else ""
    assert active(db, game_id) == played
    resumed = Session.open(Journal(db), game_id)
    assert [e.action for e in resumed.history()] == played
    with Journal(db) as journal:
        assert {row["status"] for row in journal.versions(game_id)} == {"active"}


def test_sigkill_during_edits_leaves_one_whole_history(tmp_path: Path) -> None:
    kill_run(tmp_path, KILLS)


@pytest.mark.soak
def test_soak_a_hundred_kills_during_edits(tmp_path: Path) -> None:
    kill_run(tmp_path, SOAK_KILLS)


def kill_run(tmp_path: Path, kills: int) -> None:
    db = tmp_path / "edits.db"
    game_id, played = pocket_game(db)
    rng = random.Random(16)
    for _ in range(kills):
        proc = child(BACK_AND_FORTH, str(db), game_id)
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready", proc.stderr.read()
        time.sleep(rng.uniform(0.0, 0.3))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        now = active(db, game_id)
        # a whole history: as long as the one played (each edit replaces one action), and it replays
        assert len(now) == len(played)
        assert now[:4] == played[:4] and now[-4:] == played[-4:]
        resumed = Session.open(Journal(db), game_id)
        assert [e.action for e in resumed.history()] == now
