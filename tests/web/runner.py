"""A real `companion run --sim` in a subprocess, for the browser and capacity tests."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Server:
    """A running `companion run --sim` and how to talk to it."""

    proc: subprocess.Popen
    base: str
    token: str
    db: Path
    port: int

    def api(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def new_game(self, game: str, players: list[str], options: dict | None = None) -> tuple[str, str]:
        out = self.api("POST", "/api/games", {"game": game, "players": players, "options": options or {}})
        return out["id"], out["join_code"]

    def act(self, gid: str, action: dict) -> Any:
        return self.api("POST", f"/api/games/{gid}/actions", action)

    def consent(self, gid: str, seat: str) -> Any:
        """The table lets a phone take a seat the tablet has been playing."""
        from urllib.parse import quote

        return self.api("POST", f"/api/games/{gid}/seats/{quote(seat, safe='')}/open")

    def act_for(self, gid: str, action: dict) -> Any:
        """The tablet acting for a seat held by a phone, saying so (the log shows it)."""
        from urllib.parse import quote

        return self.api("POST", f"/api/games/{gid}/actions?act_for={quote(action['player'])}", action)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path, port: int) -> Server:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("COMPANION_CONFIG", None)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--sim", "--port", str(port), "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    base, token, port = printed_url(proc, 20)
    return Server(proc, base, token, db, port)


def printed_url(proc: subprocess.Popen, seconds: float) -> tuple[str, str, int]:
    """The address, token and port ``companion run`` prints once it listens (killed if it never does)."""
    assert proc.stdout is not None
    deadline = time.monotonic() + seconds
    lines = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"(http://[\d.]+:(\d+))/\?token=([0-9a-f]+)", line)
        if m:
            return m.group(1), m.group(3), int(m.group(2))
    proc.kill()
    raise AssertionError("companion run did not print its URL:\n" + "".join(lines))
