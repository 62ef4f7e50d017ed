"""Live pages cost a socket, not a thread: one pump serves every open stream of `companion run`.

A real server in a subprocess (waitress, the pump, simulated devices), loopback sockets only.
"""

from __future__ import annotations

import selectors
import socket
import time
from pathlib import Path

from tests.web.runner import start_server
from web.server import WORKERS

PAGES = 60


def threads(pid: int) -> int:
    with open(f"/proc/{pid}/status") as handle:
        return next(int(line.split()[1]) for line in handle if line.startswith("Threads:"))


def test_sixty_live_pages_add_one_thread_and_each_gets_every_change_and_its_end(tmp_path: Path) -> None:
    server = start_server(tmp_path / "journal.db", 0)
    socks: list[socket.socket] = []
    try:
        gid, _ = server.new_game("pocket-galapagos", ["Ann"])
        before = threads(server.proc.pid)
        request = (f"GET /api/games/{gid}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"Authorization: Bearer {server.token}\r\nAccept: text/event-stream\r\n\r\n").encode()
        sel = selectors.DefaultSelector()
        received: dict[int, bytes] = {}
        for i in range(PAGES):
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(request)
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ, i)
            socks.append(s)
            received[i] = b""

        def read_until(marker: bytes, timeout: float) -> set[int]:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and not all(marker in d for d in received.values()):
                for key, _ in sel.select(timeout=0.1):
                    try:
                        received[key.data] += key.fileobj.recv(65536)
                    except BlockingIOError:
                        pass
            return {i for i, d in received.items() if marker in d}

        assert read_until(b'"version":0', 15) == set(range(PAGES))
        during = threads(server.proc.pid)
        assert during <= before + 1, (before, during)  # the pump, started with the first stream
        assert before < 60 and WORKERS < PAGES  # no worker is kept by a page
        server.act(gid, {"type": "end_turn"})
        assert read_until(b'"version":1', 10) == set(range(PAGES))
        heads = [d.split(b"\r\n\r\n", 1)[0] for d in received.values()]
        assert all(h.startswith(b"HTTP/1.1 200 OK") and b"Transfer-Encoding: chunked" in h for h in heads)
        # ordinary requests still get a worker at once while every page stays open
        started = time.monotonic()
        for _ in range(20):
            server.api("GET", f"/api/games/{gid}")
        assert time.monotonic() - started < 5
        # the server stops: each stream ends with HTTP's last chunk and the connection closes
        server.stop()
        assert read_until(b"0\r\n\r\n", 10) == set(range(PAGES))
    finally:
        for s in socks:
            s.close()
        server.stop()


def test_freeing_a_seat_ends_its_pumped_stream_at_once_and_says_why(tmp_path: Path) -> None:
    import json
    import urllib.request

    server = start_server(tmp_path / "journal.db", 0)
    try:
        gid, code = server.new_game("galapagos-auction", ["Ann", "Bob"])
        server.consent(gid, "Ann")
        req = urllib.request.Request(server.base + "/api/join", data=json.dumps({"code": code, "seat": "Ann"}).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            token = json.loads(r.read())["token"]
        phone = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        phone.sendall((f"GET /api/games/{gid}/events?view=seat&seat=Ann HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                       f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n").encode())
        got = b""
        while b"event: state" not in got:
            got += phone.recv(65536)
        server.api("POST", f"/api/games/{gid}/seats/Ann/release")
        started = time.monotonic()
        rest = b""
        while True:
            chunk = phone.recv(65536)
            if not chunk:
                break
            rest += chunk
        assert time.monotonic() - started < 3  # ended at once, not at the next keepalive or the stream's end
        assert b"event: revoked" in rest and b"event: state" not in rest
        assert rest.endswith(b"0\r\n\r\n")  # HTTP's last chunk, then the server closed the connection
        phone.close()
    finally:
        server.stop()


class _Feed:
    """A feed as the pump sees it: a wake-up flag, set at first (the state is sent on connect)."""

    def __init__(self) -> None:
        self.pending, self.closed, self.reason, self.notify = True, False, None, None

    def take(self) -> bool:
        pending, self.pending = self.pending, False
        return pending

    def close(self) -> None:
        self.closed = True


class _Task:
    """A waitress task whose stream the pump has taken: what it writes, on a channel that always reads."""

    def __init__(self, name: str) -> None:
        import threading
        import types

        from web.live import LiveStream

        self.stream = LiveStream(_Feed(), lambda: ("state", {"page": name}, None), None, None, None, keepalive=600)
        self.channel = types.SimpleNamespace(connected=True, total_outbufs_len=0, requests_lock=threading.Lock(),
                                             close_when_flushed=False, requests=[],
                                             server=types.SimpleNamespace(pull_trigger=lambda: None))
        self.written = threading.Event()

    def write(self, data: bytes) -> None:
        self.written.set()

    def finish(self) -> None:
        pass


def test_a_page_opened_while_the_pump_waits_gets_its_state_at_once(monkeypatch) -> None:
    """The pump's wait is long when nothing changes (its next look a second away, here a minute); a page
    that opens meanwhile is stepped when it wakes the pump, not at that next look."""
    import web.stream_pump as pump_module

    monkeypatch.setattr(pump_module, "CHECK_EVERY", 60.0)
    pump = pump_module.StreamPump(high_watermark=1 << 20, send_timeout=10)
    first, second = _Task("first"), _Task("second")
    try:
        pump.adopt(first)
        assert first.written.wait(10)
        deadline = time.monotonic() + 10
        while pump.busy_since is not None and time.monotonic() < deadline:  # the pass that served it is over
            time.sleep(0.01)
        time.sleep(0.2)  # the pump is waiting for its next look
        pump.adopt(second)
        assert second.written.wait(10), "the page opened while the pump waited got nothing until its next look"
    finally:
        pump.stop()
