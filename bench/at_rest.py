"""The table at rest, as a Pi Zero would feel it: start-up time, threads and CPU with nothing happening.

Each figure comes from a real ``companion run --sim --port 0`` subprocess on a fresh journal:

- ``start_to_ready_s``: spawn → the API answers (median of several starts), with compiled bytecode
  kept between starts as the unit keeps it (``PYTHONPYCACHEPREFIX`` in its cache directory; one
  start first fills it); ``cpu_s`` beside it is the CPU the start used (user + system, of the
  server alone), which a busy shared machine inflates much less than the wall time;
- ``threads_at_rest``: the server's threads (``/proc/PID/status`` ``Threads:``) once started, with a
  game on the table and 12 live pages open (streams must not keep a thread each);
- ``cpu_at_rest_pct``: the share of one core the server used over a quiet stretch (utime+stime from
  ``/proc/PID/stat``), a game on the table and no page open. A Pi Zero 2 W's core is about a tenth
  of this machine's, so 0.3 % here is about 3 % there.
"""

from __future__ import annotations

import os
import signal
import tempfile
import time
from pathlib import Path

from bench.common import emit, median, metric, size
from bench.harness import Server, open_clients

STARTS = size(5, 1)
QUIET_SECONDS = size(30.0, 2.0)


def threads(pid: int) -> int:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("Threads:"):
                return int(line.split()[1])
    raise RuntimeError("no Threads line")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPYCACHEPREFIX=str(folder / "pycache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        starts, cpu_starts = [], []
        for i in range(STARTS + 1):  # the first fills the bytecode cache, as the first boot does
            server = Server(folder / f"start{i}.db", env=env)
            try:
                took = server.start()
                used = cpu_seconds(server.pid)
            finally:
                server.kill(signal.SIGTERM)
            if i:
                starts.append(took)
                cpu_starts.append(used)
        server = Server(folder / "rest.db", env=env)
        server.start()
        try:
            game_id = server.new_game("pocket-galapagos", ["Ann"])
            time.sleep(1.0)  # what start-up left to settle (the first backup, the first OLED frame)
            before, began = cpu_seconds(server.pid), time.monotonic()
            time.sleep(QUIET_SECONDS)
            cpu = 100 * (cpu_seconds(server.pid) - before) / (time.monotonic() - began)
            idle_threads = threads(server.pid)
            live = open_clients(server, game_id, 12)
            try:
                time.sleep(0.5)
                live_threads = threads(server.pid)
            finally:
                for client in live:
                    client.close()
        finally:
            server.kill(signal.SIGTERM)
    emit({
        "start_to_ready_s": metric(median(starts), "s", "<= 0.5", samples=[round(s, 3) for s in starts],
                                   cpu_s=round(median(cpu_starts), 3)),
        "threads_at_rest": metric(live_threads, "threads", "<= 40", without_pages=idle_threads, live_pages=12),
        "cpu_at_rest_pct": metric(cpu, "% of one core", "<= 0.3", seconds=QUIET_SECONDS),
    })


if __name__ == "__main__":
    main()
