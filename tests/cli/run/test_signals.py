"""Signals against a live ``companion run --sim``.

The old handler called ``Hub.stop`` → ``Event.set`` inside the signal handler; a second
signal arriving while the first held the condition's lock deadlocked the process for good.
Now the handler only records the request and the wake-up pipe ends the server's poll: the
table stops within a second of the first signal, however many follow, with the journal
closed (SQLite removes the WAL file when the last connection closes cleanly).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.web.runner import printed_url

pytestmark = pytest.mark.crash

ROOT = Path(__file__).resolve().parents[3]
#: every process start() began (conftest kills those still alive after each test)
STARTED: list[subprocess.Popen] = []


def start(db: Path, *args: str, sim: bool = True, cwd: Path = ROOT) -> tuple[subprocess.Popen, str, str]:
    """``companion run`` (``--sim`` unless ``sim`` is False) with ``args``; its process, address and token."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("COMPANION_CONFIG", None)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", *(["--sim"] if sim else []), "--db", str(db),
                             *args],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=cwd)
    STARTED.append(proc)
    base, token, _ = printed_url(proc, 30)
    return proc, base, token


def open_live_page(base: str, token: str) -> socket.socket:
    """A live stream held open (a worker thread busy in it), as a tablet keeps one."""
    req = urllib.request.Request(base + "/api/games", data=json.dumps({"game": "galapagos-auction", "players": ["Ann", "Bob", "Cid"],
                                 "options": {}}).encode(), method="POST",
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    game_id = json.loads(urllib.request.urlopen(req, timeout=10).read())["id"]
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=5)
    sock.sendall(f"GET /api/games/{game_id}/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
                 "Accept: text/event-stream\r\n\r\n".encode())
    assert b"200" in sock.recv(200)  # the stream is open, a worker thread is in it
    return sock


@pytest.mark.parametrize("burst", [
    [signal.SIGTERM],
    [signal.SIGINT],
    [signal.SIGTERM] * 10 + [signal.SIGINT] * 10,
    [signal.SIGINT, signal.SIGTERM] * 15,
], ids=["term", "int", "term-burst-then-int", "interleaved"])
def test_a_burst_of_signals_stops_the_table_within_a_second(tmp_path: Path, burst: list[int]) -> None:
    db = tmp_path / "journal.db"
    proc, base, token = start(db, "--port", "0")
    live = open_live_page(base, token)
    try:
        time.sleep(0.3)
        first = time.monotonic()
        for signum in burst:
            if proc.poll() is not None:
                break
            proc.send_signal(signum)
            time.sleep(0.002)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise AssertionError("companion run still alive 10 s after the signals") from None
        took = time.monotonic() - first
    finally:
        live.close()
    out = proc.stdout.read() if proc.stdout else ""
    assert proc.returncode == 0, out
    assert "Traceback" not in out, out
    # well under a second on a quiet machine; the bound leaves room for a loaded CI (two workers and a
    # browser) while still failing the bug it guards against (a handler deadlock: alive for minutes)
    assert took <= 3.0, f"stopped {took:.2f} s after the first signal"
    assert db.exists() and not Path(str(db) + "-wal").exists(), "the journal was not closed cleanly"


def test_signals_that_keep_coming_until_the_process_is_gone_still_end_it_cleanly(tmp_path: Path) -> None:
    """systemd's SIGTERM, an impatient Ctrl-C, another SIGTERM: signals can arrive all through the
    shutdown, after the journal has closed. Once stopping, none may kill the process with the
    default handler (exit -15) or raise KeyboardInterrupt in an atexit callback."""
    db = tmp_path / "journal.db"
    proc, _, _ = start(db, "--port", "0")
    time.sleep(0.3)
    sent = 0
    deadline = time.monotonic() + 10
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            proc.send_signal(signal.SIGTERM if sent % 2 else signal.SIGINT)
        except ProcessLookupError:
            break
        sent += 1
        time.sleep(0.0005)
    if proc.poll() is None:
        proc.kill()
        raise AssertionError("companion run still alive 10 s into a stream of signals")
    out = proc.stdout.read() if proc.stdout else ""
    assert proc.returncode == 0, f"after {sent} signals: {proc.returncode}\n{out}"
    assert "Traceback" not in out, out


def test_a_signal_during_start_up_stops_it(tmp_path: Path) -> None:
    """A SIGTERM while the table is still starting (systemd stopping a unit it just started)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("COMPANION_CONFIG", None)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--sim", "--port", "0", "--db",
                             str(tmp_path / "j.db")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=env, cwd=ROOT)
    STARTED.append(proc)
    assert proc.stdout is not None
    proc.stdout.readline()  # the first line: handlers installed, the server bound
    for _ in range(5):
        proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=10)
    assert proc.returncode == 0, proc.stdout.read()
