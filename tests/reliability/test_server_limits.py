"""The real server under hostile connections: idle sockets, a page that never reads, huge bodies.

Each test runs `companion run --sim` in a subprocess (bench.harness.Server) and talks
to it over loopback sockets only.
"""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path

import pytest

from bench.harness import Server, open_clients, population_action

SEND_TIMEOUT = 4.0  # the product's is 20 s; the same code path, sooner


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("COMPANION_SEND_TIMEOUT", str(SEND_TIMEOUT))
    s = Server(tmp_path / "limits.db")
    s.start()
    yield s
    s.kill()


def timed_get(server: Server, path: str) -> tuple[int, float]:
    started = time.monotonic()
    status, _ = server.api("GET", path, timeout=30)
    return status, time.monotonic() - started


@pytest.mark.parametrize("count", [270, 450])  # 450: past the connection limit, the oldest idle go
def test_idle_connections_do_not_keep_a_request_waiting(server: Server, count: int) -> None:
    idle = []
    try:
        for _ in range(count):
            idle.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
        time.sleep(0.5)
        status, took = timed_get(server, "/api/games")
        assert status == 200 and took < 3.0, f"a request waited {took:.1f} s behind idle sockets"
        half_open = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(40)]
        for s in half_open:  # and sockets that started a request and stopped (slow loris)
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        idle += half_open
        status, took = timed_get(server, "/api/games")
        assert status == 200 and took < 3.0, f"a request waited {took:.1f} s behind half-sent requests"
    finally:
        for s in idle:
            s.close()


def test_a_page_that_never_reads_is_dropped_and_costs_no_memory_or_disk(server: Server) -> None:
    game_id = server.new_game("pocket-galapagos", ["Ann"])
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect(("127.0.0.1", server.port))
    stuck.sendall((f"GET /api/games/{game_id}/events?view=table&token={server.token} HTTP/1.1\r\n"
                   "Host: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n").encode())
    reader = open_clients(server, game_id, 1)[0]  # a healthy page beside it
    rss_before = server.rss_mb()
    try:
        deadline = time.monotonic() + SEND_TIMEOUT + 40
        i = 0
        dropped = False
        while time.monotonic() < deadline:
            status, body = server.api("POST", f"/api/games/{game_id}/actions", population_action(i))
            assert status == 200, body
            i += 1
            assert reader.wait_for(i, timeout=10) is not None, "the healthy page stopped getting changes"
            if i % 20 == 0 and _closed_by_server(stuck):
                dropped = True
                break
            time.sleep(0.02)
        assert dropped, "the page that never reads was never dropped"
        assert server.rss_mb() - rss_before < 15
        spilled = [os.readlink(f"/proc/{server.pid}/fd/{fd}") for fd in os.listdir(f"/proc/{server.pid}/fd")]
        assert not [f for f in spilled if "(deleted)" in f], "the backlog went to temporary files"
    finally:
        reader.close()
        stuck.close()


def _closed_by_server(sock: socket.socket) -> bool:
    """True once the server has shut its end, seen without reading (reading would make a reader).

    The server's side of the connection, in ``/proc/net/tcp``, leaves ESTABLISHED (its FIN
    waits behind the bytes the page never took; the kernel discards them later).
    """
    here = sock.getsockname()[1]
    there = sock.getpeername()[1]
    with open("/proc/net/tcp") as fh:
        for line in fh.readlines()[1:]:
            fields = line.split()
            local, remote, state = fields[1], fields[2], fields[3]
            if int(local.split(":")[1], 16) == there and int(remote.split(":")[1], 16) == here:
                return state != "01"  # 01 = ESTABLISHED
    return True  # gone altogether


def test_a_huge_body_gets_the_api_s_json_413(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        size = 1024 * 1024
        s.sendall((f"POST /api/games HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {server.token}\r\n"
                   f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n").encode())
        try:
            s.sendall(b" " * size)
        except OSError:
            pass  # the server may answer and close before the whole body is sent
        data = b""
        while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413")
    assert b"application/json" in head
    assert json.loads(body)["error"]["status"] == 413
