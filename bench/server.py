"""The running product: start-up time, resident memory, and action → every live page.

Each figure comes from a real `companion run --sim` subprocess (waitress, SQLite on
disk, simulated devices) driven over HTTP from this process:

- ``startup_s``: spawn → the API answers (median of 5 starts);
- ``rss_idle_mb``: the server's VmRSS after start-up and a game on the table;
- ``rss_12_clients_mb``: the same with 12 live (SSE) pages open and 50 actions later;
- ``sse_12_p99_ms`` / ``sse_100_p99_ms``: from sending an action to the moment the
  *last* of 12 / 100 open SSE clients has the new state (p99 over the actions);
- ``rss_100_clients_2min_mb``: 100 live pages open, 2 actions a second for 2 minutes, every
  page receiving every change: the server's resident memory at the end;
- ``rss_growth_mb_per_min``: the slope (least squares) of the resident memory over that run
  after its first 30 seconds, in MB per minute: what a long evening would add.

``python -m bench.server --only rss`` runs just the memory run (``--clients N --seconds S``).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import emit, median, metric, percentile, size
from bench.harness import LiveClient, Server, open_clients, population_action

ACTIONS = {12: size(200, 2), 100: size(100, 2)}
CLIENTS = {12: 12, 100: size(100, 4)}
STARTS = size(5, 1)
MEMORY_SECONDS = size(120.0, 1.0)


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


def slope_per_min(samples: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, MB) samples, in MB per minute."""
    n = len(samples)
    if n < 2:
        return 0.0
    mx = sum(t for t, _ in samples) / n
    my = sum(m for _, m in samples) / n
    var = sum((t - mx) ** 2 for t, _ in samples)
    return 60 * sum((t - mx) * (m - my) for t, m in samples) / var if var else 0.0


def memory_run(tmp: Path, clients: int = 100, seconds: float = 120.0, rate: float = 2.0) -> dict[str, Any]:
    """``clients`` live pages, ``rate`` actions a second for ``seconds``: memory at the end and its slope."""
    server = Server(tmp / f"rss{clients}.db")
    server.start()
    try:
        game_id = server.new_game("pocket-galapagos", ["Ann"])
        asked = [LiveClient(server, game_id) for _ in range(clients)]
        for client in asked:
            client.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not all(c.connected.is_set() or c.error for c in asked):
            time.sleep(0.1)
        live = [c for c in asked if c.connected.is_set()]  # past the server's slots: 429/503, as pages see
        refused = len(asked) - len(live)
        if clients <= 100 and refused:
            raise RuntimeError(f"{refused} of {clients} live clients were refused")
        version = server.api("GET", f"/api/games/{game_id}")[1]["state"]["version"]
        start_rss = server.rss_mb()
        samples: list[tuple[float, float]] = []
        began = time.monotonic()
        i = missed = 0
        while time.monotonic() - began < seconds:
            status, body = server.api("POST", f"/api/games/{game_id}/actions", population_action(i))
            if status != 200:
                raise RuntimeError(f"action refused: {status} {body}")
            i += 1
            version += 1
            for client in live:
                if client.wait_for(version, timeout=10) is None:
                    missed += 1
            elapsed = time.monotonic() - began
            samples.append((elapsed, server.rss_mb()))
            time.sleep(max(0.0, i / rate - elapsed))
        end_rss = server.rss_mb()
        errors = [c.error for c in live if c.error]
        for client in live:
            client.close()
        settled = [(t, m) for t, m in samples if t >= 30] or samples
        return {
            f"rss_{clients}_clients_2min_mb": metric(end_rss, "MB", "<= 80", start_mb=round(start_rss, 2),
                                                     actions=i, seconds=seconds, missed=missed,
                                                     stream_errors=len(errors), live=len(live), refused=refused),
            "rss_growth_mb_per_min": metric(max(0.0, slope_per_min(settled)), "MB/min", "<= 1", clients=clients,
                                            raw_slope=round(slope_per_min(settled), 4)),
        }
    finally:
        server.kill()


def run() -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        starts = []
        for n in range(STARTS):
            server = Server(Path(tmp) / f"start{n}.db")
            starts.append(server.start())
            server.kill()
        out["startup_s"] = metric(median(starts), "s", "<= 2", runs=len(starts))

        server = Server(Path(tmp) / "live.db")
        server.start()
        try:
            game_id = server.new_game("pocket-galapagos", ["Ann"])
            time.sleep(size(2, 0.2))  # settled, idle
            out["rss_idle_mb"] = metric(server.rss_mb(), "MB", "<= 60")
            live = open_clients(server, game_id, 12)
            for i in range(50):
                server.api("POST", f"/api/games/{game_id}/actions", population_action(i))
            time.sleep(size(1, 0.1))
            out["rss_12_clients_mb"] = metric(server.rss_mb(), "MB", "<= 80")
            for client in live:
                client.close()
            for clients, target in ((12, "<= 50"), (100, "<= 150")):
                samples = fan_out_ms(server, game_id, CLIENTS[clients], ACTIONS[clients])
                out[f"sse_{clients}_p99_ms"] = metric(percentile(samples, 99), "ms", target,
                                                      median_ms=round(median(samples), 3), actions=len(samples))
        finally:
            server.kill()
        out.update(memory_run(Path(tmp), clients=CLIENTS[100], seconds=MEMORY_SECONDS))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["rss"], help="just the memory run")
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=120.0)
    args = parser.parse_args()
    if args.only == "rss":
        with tempfile.TemporaryDirectory() as tmp:
            emit(memory_run(Path(tmp), args.clients, args.seconds))
        return
    emit(run())


if __name__ == "__main__":
    main()
