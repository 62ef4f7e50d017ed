"""``companion run --sim`` with an ``[mqtt]`` table publishes the game played on its dashboard, and
says « offline » when it stops."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.club.broker import Broker, Listener
from tests.club.helpers import scenario
from tests.web.runner import ROOT, printed_url


def _post(base: str, token: str, path: str, body: object) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def test_companion_run_publishes_its_table(broker: Broker, tmp_path: Path) -> None:
    cfg = tmp_path / "club.toml"
    cfg.write_text(f'[mqtt]\nurl = "{broker.url}"\ntable = "cafe-2"\nlang = "fr"\n')
    listener = Listener(broker, ("galapagos/cafe-2/#",))
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--sim", "--port", "0", "--db",
                             str(tmp_path / "j.db"), "--config", str(cfg)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    try:
        base, token, _ = printed_url(proc, 30)
        head, actions = scenario("galerapagos_full_game.jsonl")
        game = _post(base, token, "/api/games", head)["id"]
        for action in actions[:3]:
            _post(base, token, f"/api/games/{game}/actions", action)
        assert listener.wait(lambda: len(listener.on("/story")) == 3, 15)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
        printed = proc.stdout.read() if proc.stdout else ""  # what printed_url left in the buffer, too
    assert listener.wait(lambda: listener.on("/online")[-1:] == ["offline"], 10)
    listener.close()
    story = listener.on("/story")
    assert [s["seq"] for s in story] == [1, 2, 3] and story[0]["lang"] == "fr"
    assert story[0]["text"].startswith("Tour 1 : la carte Météo") and story[0]["game_id"] == game
    assert listener.on("/status")[-1]["actions"] == 3
    assert "Publishing table cafe-2 to " in printed
