"""Which HTTP server for 100+ long-lived streams on a Pi: waitress as shipped, waitress tuned, gevent.

The same small Flask app (a live stream that sends a ~12 KB state after every
change, and a POST that makes a change) is served by each candidate in its own
process; ``--clients`` pages stay connected while changes arrive ``--rate`` times a
second for ``--seconds``. Measured: the server's resident memory at the end, its
slope (MB/min after the first 20 s), and the p99 delay from a change to the last
page having it. One page that never reads is open the whole time, as at a real table.

    python -m bench.server_choice [--clients 100] [--seconds 60] [--gevent-python PATH]

gevent needs its own interpreter with ``gevent`` installed (it is not a dependency
of the companion); without one that candidate is reported as not measured.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: a table page's live message with its HTML fragments is ~10-15 KB
PAD = "x" * 12_000


def serve(kind: str) -> None:
    """Run the candidate server on a free port; prints ``PORT n`` once listening."""
    if kind == "gevent":
        from gevent import monkey

        monkey.patch_all()
    from flask import Flask, Response, request

    app = Flask(__name__)
    state = {"version": 0}
    cond = threading.Condition()

    @app.post("/act")
    def act():
        with cond:
            state["version"] += 1
            cond.notify_all()
        return {"version": state["version"]}

    @app.get("/events")
    def events():
        def gen():
            seen = -1
            while True:
                with cond:
                    if state["version"] == seen:
                        cond.wait(15)
                    version = state["version"]
                if version == seen:
                    yield ": keepalive\n\n"
                    continue
                seen = version
                yield f"event: state\nid: {version}\ndata: {json.dumps({'v': version, 'pad': PAD})}\n\n"

        return Response(gen(), mimetype="text/event-stream")

    del request
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(1024)
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    if kind == "gevent":
        from gevent.pywsgi import WSGIServer

        WSGIServer(sock, app, log=None).serve_forever()
    elif kind == "waitress":
        import waitress

        waitress.serve(app, sockets=[sock], threads=168, connection_limit=360, asyncore_use_poll=True)
    else:  # the companion's tuned waitress (web/server.py)
        sys.path.insert(0, str(ROOT))
        import web.server as tuned

        port = sock.getsockname()[1]
        sock.close()
        tuned.make_server(app, "127.0.0.1", port, max_body=65536).run()


class Page(threading.Thread):
    def __init__(self, port: int, read: bool = True):
        super().__init__(daemon=True)
        self.port, self.read = port, read
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.cond = threading.Condition()
        self.stopped = False
        self.reconnects = -1

    def run(self) -> None:
        """Read the stream; reconnect when the server drops it, as a browser's EventSource does."""
        while not self.stopped:
            try:
                self._run()
            except OSError:
                pass
            self.reconnects += 1
            time.sleep(0.5)

    def _run(self) -> None:
        s = socket.create_connection(("127.0.0.1", self.port))
        if not self.read:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        self.ready.set()
        if not self.read:
            time.sleep(3600)
            return
        f = s.makefile("rb")
        for line in f:
            if line.startswith(b"id: "):
                with self.cond:
                    self.arrived[int(line[4:])] = time.perf_counter()
                    self.cond.notify_all()

    def wait(self, version: int, timeout: float = 10) -> float | None:
        end = time.monotonic() + timeout
        with self.cond:
            while True:  # a reconnected page gets the newest state at once: a later version counts
                seen = [t for v, t in self.arrived.items() if v >= version]
                if seen:
                    return min(seen)
                if time.monotonic() > end:
                    return None
                self.cond.wait(0.5)


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def measure(kind: str, python: str, clients: int, seconds: float, rate: float) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), MALLOC_ARENA_MAX="2")
    proc = subprocess.Popen([python, "-m", "bench.server_choice", "--serve", kind], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline().split()[1])
        time.sleep(0.5)
        pages = [Page(port) for _ in range(clients)] + [Page(port, read=False)]
        for p in pages:
            p.start()
            p.ready.wait(10)
        time.sleep(1)
        samples, delays = [], []
        began = time.monotonic()
        version = 0
        while time.monotonic() - began < seconds:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            sent = time.perf_counter()
            conn.request("POST", "/act")
            version = json.loads(conn.getresponse().read())["version"]
            conn.close()
            last = max((p.wait(version) or float("inf")) for p in pages if p.read)
            delays.append((last - sent) * 1000)
            elapsed = time.monotonic() - began
            samples.append((elapsed, rss_mb(proc.pid)))
            time.sleep(max(0.0, version / rate - elapsed))
        settled = [(t, m) for t, m in samples if t >= 20] or samples
        from bench.server import slope_per_min

        delays.sort()
        for page in pages:
            page.stopped = True
        return {"rss_end_mb": round(samples[-1][1], 2), "rss_start_mb": round(samples[0][1], 2),
                "growth_mb_per_min": round(slope_per_min(settled), 3),
                "p99_ms": round(delays[int(0.99 * (len(delays) - 1))], 2), "changes": version,
                "reconnects": sum(max(0, p.reconnects) for p in pages if p.read)}
    finally:
        proc.kill()
        proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--rate", type=float, default=2.0)
    parser.add_argument("--gevent-python", default=os.environ.get("GEVENT_PYTHON"))
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    out: dict[str, Any] = {}
    for kind, python in (("waitress", sys.executable), ("tuned", sys.executable), ("gevent", args.gevent_python)):
        if not python:
            out[kind] = "not measured (no interpreter with gevent: --gevent-python)"
            continue
        out[kind] = measure(kind, python, args.clients, args.seconds, args.rate)
        print(kind, out[kind], file=sys.stderr)
    json.dump(out, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
