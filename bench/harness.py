"""A real `companion run --sim` in a subprocess, and live (SSE) clients on it.

Shared by the server benchmarks (bench/server.py) and the reliability suites
(tests/reliability/), so both measure the product exactly as a table runs it:
waitress, the journal on disk, the simulated devices and the controller.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

LINK = re.compile(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]+)")


class Server:
    """`companion run --sim --port 0` on a journal file; restartable after a kill."""

    def __init__(self, db: Path, timeout: float = 30.0, env: dict[str, str] | None = None,
                 launcher: list[str] | None = None):
        self.db = db
        #: what runs ``companion`` (default ``python -m companion``; bench.thread_cpu wraps it to time each thread)
        self.launcher = launcher or [sys.executable, "-m", "companion"]
        self.timeout = timeout
        #: the environment of the server (default: no bytecode written, as the tests run it)
        self.env = env
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.token = ""

    def start(self) -> float:
        """Start and wait until the API answers; returns the seconds from spawn to ready."""
        env = self.env or dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1")
        began = time.perf_counter()
        self.proc = subprocess.Popen(
            [*self.launcher, "--db", str(self.db), "run", "--sim", "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
        )
        assert self.proc.stdout is not None
        deadline = began + self.timeout
        while time.perf_counter() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("companion run exited before printing its address")
            match = LINK.search(line)
            if match:
                self.port, self.token = int(match.group(1)), match.group(2)
                break
        else:
            raise RuntimeError("companion run printed no address in time")
        threading.Thread(target=self._drain, daemon=True).start()
        while time.perf_counter() < deadline:
            try:
                status, _ = self.api("GET", "/api/games")
                if status == 200:
                    return time.perf_counter() - began
            except OSError:
                pass
            time.sleep(0.005)
        raise RuntimeError("the API never answered")

    def _drain(self) -> None:
        proc = self.proc
        if proc is not None and proc.stdout is not None:
            for _ in proc.stdout:
                pass

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def rss_mb(self) -> float:
        """Resident memory of the server process, from /proc."""
        with open(f"/proc/{self.pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=30)

    def api(self, method: str, path: str, body: Any = None, timeout: float = 10.0) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            headers = {"Authorization": f"Bearer {self.token}"}
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            conn.request(method, path, body=data, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
            return resp.status, json.loads(raw) if raw else None
        finally:
            conn.close()

    def new_game(self, game: str, players: list[str], options: dict[str, Any] | None = None) -> str:
        status, body = self.api("POST", "/api/games", {"game": game, "players": players, "options": options or {}})
        if status != 201:
            raise RuntimeError(f"could not start a game: {status} {body}")
        return body["id"]


class LiveClient(threading.Thread):
    """One open SSE stream; records when each state version arrived (perf_counter)."""

    def __init__(self, server: Server, game_id: str):
        super().__init__(daemon=True)
        self.server = server
        self.game_id = game_id
        self.arrivals: dict[int, float] = {}
        self.connected = threading.Event()
        self.error: str | None = None
        #: how often the server ended the stream and this client came back (streams rotate)
        self.reconnects = 0
        self._stop = threading.Event()
        self._cond = threading.Condition()
        self._conn: http.client.HTTPConnection | None = None

    def run(self) -> None:
        """Read the stream; when the server ends it (streams rotate), reconnect as a browser does."""
        while not self._stop.is_set():
            if not self._read_once():
                return
            self.reconnects += 1
            time.sleep(0.05)

    def _read_once(self) -> bool:
        """One connection; True when the server closed it cleanly (reconnect), False to stop."""
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
            self._conn = conn
            conn.request("GET", f"/api/games/{self.game_id}/events?token={self.server.token}",
                         headers={"Accept": "text/event-stream"})
            resp = conn.getresponse()
            if resp.status != 200:
                self.error = f"status {resp.status}"
                return False
            self.connected.set()
            event_id: int | None = None
            while not self._stop.is_set():
                line = resp.fp.readline()  # raw: chunk sizes are lines of their own
                if not line:
                    return not self._stop.is_set()
                text = line.decode("utf-8", "replace").rstrip("\r\n")
                if text == "0":  # the last chunk: the server ended this stream (it rotates)
                    conn.close()
                    return not self._stop.is_set()
                if text.startswith("id:"):
                    event_id = int(text[3:].strip())
                elif text.startswith("data:") and event_id is not None:
                    with self._cond:
                        self.arrivals.setdefault(event_id, time.perf_counter())
                        self._cond.notify_all()
            return False
        except Exception as exc:  # noqa: BLE001 - recorded and asserted on by the caller
            if not self._stop.is_set():
                self.error = f"{type(exc).__name__}: {exc}"
            return False

    def wait_for(self, version: int, timeout: float) -> float | None:
        """When ``version`` (or a later one: bursts are coalesced) arrived, or None on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                seen = [t for v, t in self.arrivals.items() if v >= version]
                if seen:
                    return min(seen)
                left = deadline - time.monotonic()
                if left <= 0 or self.error:
                    return None
                self._cond.wait(left)

    def close(self) -> None:
        self._stop.set()
        if self._conn is not None and self._conn.sock is not None:
            try:
                self._conn.sock.shutdown(2)
            except OSError:
                pass


def open_clients(server: Server, game_id: str, count: int, timeout: float = 30.0) -> list[LiveClient]:
    clients = [LiveClient(server, game_id) for _ in range(count)]
    for client in clients:
        client.start()
    deadline = time.monotonic() + timeout
    for client in clients:
        if not client.connected.wait(max(0.0, deadline - time.monotonic())):
            raise RuntimeError(f"a live client did not connect: {client.error}")
    return clients


#: a pocket-galapagos action that is legal any number of times (an ability's effect)
def population_action(i: int) -> dict[str, Any]:
    return {"type": "population", "species": ("rat", "ant", "finch")[i % 3], "change": 1 if i % 2 else -1}
