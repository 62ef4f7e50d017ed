"""The table at rest, as a Pi Zero would feel it: start-up time, threads and CPU with nothing happening.

Each figure comes from a real ``companion run --sim --port 0`` subprocess on a fresh journal:

- ``start_to_ready_s``: spawn → the API answers (median of several starts), with compiled bytecode
  kept between starts as the unit keeps it (``PYTHONPYCACHEPREFIX`` in its cache directory; one
  start first fills it); ``cpu_s`` beside it is the CPU the start used (user + system, of the
  server alone), which a busy shared machine inflates much less than the wall time;
- ``threads_at_rest``: the server's threads (``/proc/PID/status`` ``Threads:``) once started, with a
  game on the table and 12 live pages open (streams must not keep a thread each);
- ``cpu_at_rest_pct``: the share of one core the server used over a quiet stretch (utime+stime of
  each of its threads, ``/proc/self/task/TID/stat``, read inside it by :mod:`bench.thread_cpu`), a game
  on the table and no page open; beside it the share of each thread by name, the garbage collector's
  passes, and the same without a game (the lobby, once its scrolling hint has gone through its passes). CPU time, not wall time: other work on a shared
  machine slows the table but hardly adds to what it uses. A Pi Zero 2 W's core is about a tenth of
  this machine's, so 0.3 % here is about 3 % there.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import emit, median, metric, size
from bench.harness import Server, open_clients

STARTS = size(5, 1)
#: the quiet stretch measured (the kernel counts CPU time in 10 ms ticks: 60 s resolves 0.017 %)
QUIET_SECONDS = size(60.0, 1.0)
#: what start-up and the new game leave to settle before it (the first backup, the first OLED frame)
SETTLE = size(2.0, 0.2)
#: the lobby's settling: its hint (with the table's address) scrolls its passes first, about a minute
#: (companion.drawing.canvas.SCROLL_PASSES), then rests; the table at rest is the table after that
LOBBY_SETTLE = size(100.0, 0.2)


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


def rest(folder: Path, env: dict[str, str], game: str | None,
         settle: float = SETTLE) -> tuple[dict[str, Any], int, int]:
    """A quiet stretch of a table (``game`` on it, or none): its CPU by thread (bench.thread_cpu, from
    ``settle`` s after the table answers), then its threads without and with 12 live pages."""
    out = folder / f"threads-{game or 'none'}.json"
    launcher = [sys.executable, "-m", "bench.thread_cpu", str(out), str(settle), str(QUIET_SECONDS), "--"]
    server = Server(folder / f"rest-{game or 'none'}.db", env=env, launcher=launcher)
    server.start()
    try:
        game_id = server.new_game(game, ["Ann"]) if game else None
        out.with_name(out.name + ".go").touch()  # the probe's stretch starts SETTLE s from now
        deadline = time.monotonic() + settle + QUIET_SECONDS + 30
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
        quiet = json.loads(out.read_text())
        idle_threads = live_threads = threads(server.pid)
        if game_id is not None:
            live = open_clients(server, game_id, 12)
            try:
                time.sleep(0.5)
                live_threads = threads(server.pid)
            finally:
                for client in live:
                    client.close()
    finally:
        server.kill(signal.SIGTERM)
    return quiet, live_threads, idle_threads


def by_thread(quiet: dict[str, Any]) -> dict[str, float]:
    """% of one core per thread name, those that used any."""
    return {name: row["pct"] for name, row in quiet["threads"].items() if row["cpu_s"] > 0}


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
        with_game, live_threads, idle_threads = rest(folder, env, "pocket-galapagos")
        lobby, _, _ = rest(folder, env, None, LOBBY_SETTLE)  # no game on the table, its hint read
    emit({
        "start_to_ready_s": metric(median(starts), "s", "<= 0.5", samples=[round(s, 3) for s in starts],
                                   cpu_s=round(median(cpu_starts), 3)),
        "threads_at_rest": metric(live_threads, "threads", "<= 40", without_pages=idle_threads, live_pages=12),
        "cpu_at_rest_pct": metric(with_game["total_pct"], "% of one core", "<= 0.3", seconds=QUIET_SECONDS,
                                  game="pocket-galapagos", by_thread=by_thread(with_game),
                                  gc_passes=len(with_game["gc_passes"]),
                                  without_game_pct=lobby["total_pct"], without_game_by_thread=by_thread(lobby),
                                  without_game_after_s=LOBBY_SETTLE),
    })


if __name__ == "__main__":
    main()
