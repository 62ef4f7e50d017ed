"""A running ``companion run --sim`` table at rest, counted from /proc as a Pi would see it.

The figures themselves (CPU share, start-up) are measured in ``bench/at_rest.py``; here only
what must hold whatever the machine's load: how many threads the table keeps, and that live
pages, a held button and a tag placed leave no thread behind.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from bench.harness import Server, open_clients

#: the budget a Pi Zero 2 W table keeps to (one thread per stream, button or reader would break it)
MOST_THREADS = 40


def threads(pid: int) -> int:
    with open(f"/proc/{pid}/status") as handle:
        return next(int(line.split()[1]) for line in handle if line.startswith("Threads:"))


def settled(pid: int, seconds: float = 10.0) -> int:
    """The thread count once it stops changing (a thread that ends takes a moment to go)."""
    deadline = time.monotonic() + seconds
    last = threads(pid)
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = threads(pid)
        if now == last:
            return now
        last = now
    return last


def back_to(pid: int, count: int, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if threads(pid) == count:
            return True
        time.sleep(0.1)
    return threads(pid) == count


def test_a_sim_table_at_rest_keeps_its_threads_and_adds_none_for_pages_holds_or_tags(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("COMPANION_CONFIG", None)
    server = Server(tmp_path / "table.db", env=env)
    server.start()
    try:
        game = server.new_game("pocket-galapagos", ["Ann"])
        at_rest = settled(server.pid)
        assert at_rest <= MOST_THREADS
        live = open_clients(server, game, 12)
        try:
            served = settled(server.pid)
            assert served <= at_rest + 1  # twelve streams: one pump serves them all, no thread each
        finally:
            for client in live:
                client.close()
        status, _ = server.api("POST", "/sim/press", {"button": "back", "hold": True})
        assert status == 200
        status, _ = server.api("POST", "/sim/tag", {"point": "scan", "uid": "04A1B2C3", "present": True})
        assert status == 200
        # the hold's timer ends with the hold, the reader sleeps again, the beep's and the LED's
        # blinks (gpiozero's, a thread each while they last) end
        assert back_to(server.pid, served)
    finally:
        server.kill(signal.SIGTERM)
