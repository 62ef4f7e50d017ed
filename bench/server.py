"""The running product: start-up time, resident memory, and action → every live page.

Each figure comes from a real `companion run --sim` subprocess (waitress, SQLite on
disk, simulated devices) driven over HTTP from this process:

- ``startup_s``: spawn → the API answers (median of 5 starts);
- ``rss_idle_mb``: the server's VmRSS after start-up and a game on the table;
- ``rss_12_clients_mb``: the same with 12 live (SSE) pages open and 50 actions later;
- ``sse_12_p99_ms`` / ``sse_100_p99_ms``: from sending an action to the moment the
  *last* of 12 / 100 open SSE clients has the new state (p99 over the actions).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import emit, median, metric, percentile
from bench.harness import Server, open_clients, population_action

ACTIONS = {12: 200, 100: 100}


def fan_out_ms(server: Server, game_id: str, clients: int, actions: int) -> list[float]:
    live = open_clients(server, game_id, clients)
    try:
        status, body = server.api("GET", f"/api/games/{game_id}")
        version = body["state"]["version"]
        samples = []
        for i in range(actions):
            sent = time.perf_counter()
            status, body = server.api("POST", f"/api/games/{game_id}/actions", population_action(i))
            if status != 200:
                raise RuntimeError(f"action refused: {status} {body}")
            version += 1
            last = 0.0
            for client in live:
                at = client.wait_for(version, timeout=10)
                if at is None:
                    raise RuntimeError(f"a live client missed version {version}: {client.error}")
                last = max(last, at)
            samples.append((last - sent) * 1000)
            time.sleep(0.01)
        return samples
    finally:
        for client in live:
            client.close()


def run() -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        starts = []
        for n in range(5):
            server = Server(Path(tmp) / f"start{n}.db")
            starts.append(server.start())
            server.kill()
        out["startup_s"] = metric(median(starts), "s", "<= 2", runs=len(starts))

        server = Server(Path(tmp) / "live.db")
        server.start()
        try:
            game_id = server.new_game("pocket-galapagos", ["Ann"])
            time.sleep(2)
            out["rss_idle_mb"] = metric(server.rss_mb(), "MB", "<= 60")
            live = open_clients(server, game_id, 12)
            for i in range(50):
                server.api("POST", f"/api/games/{game_id}/actions", population_action(i))
            time.sleep(1)
            out["rss_12_clients_mb"] = metric(server.rss_mb(), "MB", "<= 80")
            for client in live:
                client.close()
            for clients, target in ((12, "<= 50"), (100, "<= 150")):
                samples = fan_out_ms(server, game_id, clients, ACTIONS[clients])
                out[f"sse_{clients}_p99_ms"] = metric(percentile(samples, 99), "ms", target,
                                                      median_ms=round(median(samples), 3), actions=len(samples))
        finally:
            server.kill()
    return out


if __name__ == "__main__":
    emit(run())
