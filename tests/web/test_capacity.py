"""`companion run` holds at least 100 open live connections, and an action reaches every one of them."""

from __future__ import annotations

import selectors
import socket
import time
from pathlib import Path

from tests.web.runner import start_server

CLIENTS = 110


def test_110_live_connections_all_get_the_next_action(tmp_path: Path) -> None:
    server = start_server(tmp_path / "journal.db", 0)
    socks: list[socket.socket] = []
    try:
        gid, _ = server.new_game("pocket-galapagos", ["Ann"])
        request = (f"GET /api/games/{gid}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"Authorization: Bearer {server.token}\r\nAccept: text/event-stream\r\n\r\n").encode()
        sel = selectors.DefaultSelector()
        received: dict[int, bytes] = {}
        for i in range(CLIENTS):
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(request)
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ, i)
            socks.append(s)
            received[i] = b""

        def read_until(marker: bytes, timeout: float) -> set[int]:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if all(marker in data for data in received.values()):
                    break
                for key, _ in sel.select(timeout=0.1):
                    chunk = key.fileobj.recv(65536)
                    received[key.data] += chunk
            return {i for i, data in received.items() if marker in data}

        assert read_until(b'"version":0', 15) == set(range(CLIENTS))  # the state replayed on connect
        started = time.monotonic()
        server.act(gid, {"type": "end_turn"})
        assert read_until(b'"version":1', 10) == set(range(CLIENTS))
        assert time.monotonic() - started < 3.0
        assert all(b"200 OK" in data.split(b"\r\n", 1)[0] for data in received.values())
    finally:
        for s in socks:
            s.close()
        server.stop()
