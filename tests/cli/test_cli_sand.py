"""The sand decides in a shell too: `companion act` judges an action after the journaled sand's end.

Seed 002: "When the timer expires, the planning phase ends for all players." A plan
typed in a shell after that moment must be refused, and the expiry is journaled
by the command itself (no table was ticking), from the time the timer was turned.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.support.cli import companion


def test_companion_act_refuses_a_plan_after_the_sand_has_run_out(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    new = companion(db, "new", "galapagos-dice", "--players", "Ann,Bob", "--option", "timer_seconds=1")
    assert new.returncode == 0, new.stderr
    gid = new.stdout.strip()
    for action in ({"type": "start", "player": "Ann", "field": 1}, {"type": "start", "player": "Bob", "field": 2}):
        assert companion(db, "act", gid, json.dumps(action)).returncode == 0
    placed = companion(db, "act", gid, json.dumps({"type": "place_turtles", "numbers": [10, 11, 12, 13, 14]}))
    assert placed.returncode == 0, placed.stderr  # two players: five turtles
    plan = companion(db, "act", gid, json.dumps({"type": "plan", "player": "Ann", "dice": []}))
    assert plan.returncode == 0, plan.stderr  # Ann turns the sand timer
    time.sleep(1.5)
    late = companion(db, "act", gid, json.dumps({"type": "plan", "player": "Bob", "dice": []}))
    assert late.returncode == 2 and late.stderr.strip()
    shown = json.loads(companion(db, "show", gid).stdout)
    assert shown.get("timer") == "expired"
