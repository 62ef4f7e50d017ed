"""Live pages under load: many SSE clients on a real `companion run`, actions flowing.

Every client must receive every change (bursts may be coalesced, so "receives
the newest version after each action"), no stream may break, and the server's
memory must stay flat. `make test` runs 20 clients for 5 s; `make soak` runs
100 clients for 5 minutes with memory flat within 10%.

"Flat" is measured after a warm-up: a minute of brisk play first touches every
worker thread's stack and fills the allocator's pools (the resident size climbs
~25% there, then levels off); the soak then compares the end with that level.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bench.harness import Server, open_clients, population_action


def soak(tmp_path: Path, clients: int, seconds: float, every: float, warm_up: float) -> dict[str, float]:
    server = Server(tmp_path / "soak.db")
    server.start()
    try:
        game_id = server.new_game("pocket-galapagos", ["Ann"])
        live = open_clients(server, game_id, clients)
        version = server.api("GET", f"/api/games/{game_id}")[1]["state"]["version"]
        i = 0

        def play(duration: float, pause: float) -> None:
            nonlocal version, i
            started = time.monotonic()
            while time.monotonic() - started < duration:
                status, body = server.api("POST", f"/api/games/{game_id}/actions", population_action(i))
                assert status == 200, body
                version += 1
                i += 1
                for client in live:
                    assert client.wait_for(version, timeout=10) is not None, f"client missed {version}: {client.error}"
                time.sleep(pause)

        play(warm_up, 0.02)
        warm_rss = server.rss_mb()
        play(seconds, every)
        end_rss = server.rss_mb()
        errors = [c.error for c in live if c.error]
        assert not errors, errors
        for client in live:
            client.close()
        return {"actions": i, "warm_rss": warm_rss, "end_rss": end_rss}
    finally:
        server.kill()


def test_twenty_live_pages_get_every_change(tmp_path: Path) -> None:
    result = soak(tmp_path, clients=20, seconds=4, every=0.05, warm_up=1)
    assert result["actions"] > 20


@pytest.mark.soak
def test_soak_hundred_live_pages_five_minutes_memory_flat(tmp_path: Path) -> None:
    result = soak(tmp_path, clients=100, seconds=300, every=0.5, warm_up=60)
    assert result["end_rss"] <= result["warm_rss"] * 1.10, result
