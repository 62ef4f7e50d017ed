"""systemd's notify protocol and watchdog, against a real AF_UNIX datagram socket standing for systemd.

What systemd does with the pings (kill with SIGABRT after ``WatchdogSec`` without one, restart)
needs systemd as PID 1, which this machine does not run: docs/appliance.md says what only a Pi shows.
Here: the datagrams ``companion run`` sends (READY=1 with a STATUS, WATCHDOG=1 while alive,
STOPPING=1 at the end), that a hung table stops pinging and a busy one does not.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device

from companion.board.config import Config
from companion.cli.app import build
from companion.cli.systemd import Watchdog, notify, notify_address, watchdog_interval

ROOT = Path(__file__).resolve().parents[2]


class FakeSystemd:
    """The manager's end of $NOTIFY_SOCKET: a bound datagram socket collecting what arrives, with times."""

    def __init__(self, address: str | bytes):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address)
        self.sock.settimeout(0.1)
        self.messages: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._collect, daemon=True)
        self._thread.start()

    def _collect(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                return
            self.messages.append((time.monotonic(), data.decode()))

    def pings(self, since: float = 0.0) -> list[float]:
        return [t for t, m in list(self.messages) if "WATCHDOG=1" in m.split("\n") and t >= since]

    def wait_for(self, line: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for _, message in list(self.messages):
                if line in message.split("\n"):
                    return message
            time.sleep(0.02)
        raise AssertionError(f"no {line!r} in {self.messages}")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1)
        self.sock.close()


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[tuple[str, FakeSystemd]]:
    name = f"@galapagos-test-notify-{os.getpid()}-{time.monotonic_ns()}"  # abstract, as systemd's own
    manager = FakeSystemd(b"\0" + name[1:].encode())
    yield name, manager
    manager.close()


def test_notify_reaches_a_path_socket_and_an_abstract_one(tmp_path: Path, systemd) -> None:
    name, abstract = systemd
    path = tmp_path / "notify"
    on_disk = FakeSystemd(str(path))
    try:
        assert notify("READY=1\nSTATUS=hello", {"NOTIFY_SOCKET": str(path)})
        assert notify("WATCHDOG=1", {"NOTIFY_SOCKET": name})
        assert on_disk.wait_for("READY=1") == "READY=1\nSTATUS=hello"
        assert abstract.wait_for("WATCHDOG=1") == "WATCHDOG=1"
    finally:
        on_disk.close()


def test_outside_systemd_or_with_a_dead_socket_nothing_is_sent_and_nothing_raises(tmp_path: Path) -> None:
    assert notify_address({}) is None
    assert notify("READY=1", {}) is False
    assert notify("READY=1", {"NOTIFY_SOCKET": str(tmp_path / "nobody")}) is False  # ENOENT: a sentence-free no-op
    assert notify_address({"NOTIFY_SOCKET": "@x"}) == b"\0x"


def test_the_watchdog_is_on_only_for_this_process() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 30.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 30.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None  # a parent's, not ours
    assert watchdog_interval({}) is None and watchdog_interval({"WATCHDOG_USEC": "soon"}) is None


def test_a_loop_that_stops_beating_stops_the_pings() -> None:
    now = [0.0]
    sent: list[str] = []
    dog = Watchdog(4.0, loops=("table",), send=lambda s: sent.append(s) or True, clock=lambda: now[0])
    for _ in range(8):  # 4 s of a healthy table: a ping each second (a quarter interval)
        now[0] += 0.5
        dog.beat("table")
        dog.check()
    assert sent == ["WATCHDOG=1"] * 4
    for _ in range(8):  # the table loop hangs: after 2 s without a beat, no more pings
        now[0] += 0.5
        dog.check()
    assert len(sent) == 6 and dog.stuck == ["table"]


def serving(tmp_path: Path, monkeypatch, name: str, interval_s: float):
    monkeypatch.setenv("NOTIFY_SOCKET", name)
    monkeypatch.setenv("WATCHDOG_USEC", str(int(interval_s * 1_000_000)))
    companion = build(Config(), tmp_path / "journal.db", sim=True, port=0)
    companion.start()
    thread = threading.Thread(target=companion.serve, daemon=True)
    thread.start()
    return companion, thread


def stop(companion, thread) -> None:
    companion.request_stop()
    thread.join(10)
    if Device.pin_factory is not None:
        Device.pin_factory.reset()


@pytest.mark.slow(reason="the watchdog's timing is real: 10 s of 2 s intervals watched while the table is quiet, "
                         "busy and hung")
def test_a_hung_table_stops_pinging_and_a_busy_one_keeps_pinging(tmp_path: Path, monkeypatch, systemd) -> None:
    name, manager = systemd
    companion, thread = serving(tmp_path, monkeypatch, name, interval_s=2.0)
    try:
        time.sleep(1.5)
        assert len(manager.pings()) >= 2  # alive and quiet: pings every half second

        # busy: four threads burning the CPU (and the GIL) and slow requests on the workers
        burning = threading.Event()

        def burn() -> None:
            while not burning.is_set():
                sum(i * i for i in range(20_000))

        def hammer() -> None:
            while not burning.is_set():
                conn = http.client.HTTPConnection("127.0.0.1", companion.server.effective_port, timeout=5)
                try:
                    conn.request("GET", "/api/games", headers={"Authorization": f"Bearer {companion.keys.table_token}"})
                    conn.getresponse().read()
                except OSError:
                    pass
                finally:
                    conn.close()

        workers = [threading.Thread(target=burn, daemon=True) for _ in range(4)]
        workers += [threading.Thread(target=hammer, daemon=True) for _ in range(4)]
        for w in workers:
            w.start()
        busy_from = time.monotonic()
        time.sleep(4.0)
        busy = manager.pings(busy_from)
        burning.set()
        for w in workers:
            w.join(10)
        gaps = [b - a for a, b in zip([busy_from, *busy], busy, strict=False)]
        assert len(busy) >= 4 and max(gaps) < 2.0, gaps  # never a whole interval without one: not restarted

        # hung: the table loop blocks on the table's lock (a deadlock in a controller)
        with companion._lock:
            time.sleep(1.5)  # the loop's last beat goes stale after half the interval (1 s)
            hung_from = time.monotonic()
            time.sleep(2.5)  # longer than WatchdogSec: systemd would kill it now
            assert manager.pings(hung_from) == []
            assert companion.watchdog.stuck == ["table"]
        # the lock freed: the table pings again (within a second on a quiet machine; up to 5 s allowed on a
        # loaded one, where the loop's first pass after the lock waits for a core)
        again = time.monotonic() + 5.0
        while not manager.pings(hung_from + 2.5) and time.monotonic() < again:
            time.sleep(0.1)
        assert manager.pings(hung_from + 2.5)
    finally:
        stop(companion, thread)


def test_companion_run_says_ready_pings_and_says_stopping(tmp_path: Path, systemd) -> None:
    name, manager = systemd
    env = dict(os.environ, NOTIFY_SOCKET=name, WATCHDOG_USEC="1000000", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "--db", str(tmp_path / "j.db"), "run", "--sim",
                             "--port", "0"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready = manager.wait_for("READY=1", timeout=30)
        assert re.search(r"^STATUS=Serving http://127\.0\.0\.1:\d+/join", ready, re.M), ready
        time.sleep(1.5)
        assert len(manager.pings()) >= 3  # every quarter second
        os.kill(proc.pid, signal.SIGSTOP)  # a process that no longer runs sends nothing
        stopped = time.monotonic()
        time.sleep(1.2)
        assert manager.pings(stopped + 0.1) == []
        os.kill(proc.pid, signal.SIGCONT)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
        manager.wait_for("STOPPING=1", timeout=1)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_part_stuck_in_its_pass_stops_the_pings_and_one_waiting_for_work_does_not() -> None:
    now = [0.0]
    sent: list[str] = []
    busy: list[float | None] = [None]
    dog = Watchdog(4.0, send=lambda s: sent.append(s) or True, clock=lambda: now[0])
    dog.watch("stream pump", lambda: busy[0])
    for _ in range(20):  # waiting for work for 10 s (no page open): alive
        now[0] += 0.5
        dog.check()
    assert len(sent) == 10 and dog.stuck == []
    busy[0] = now[0]  # a pass begins and never ends (a render that deadlocked)
    for _ in range(8):
        now[0] += 0.5
        dog.check()
    assert dog.stuck == ["stream pump"] and len(sent) == 12  # the pings stop once the pass is 2 s old


def test_the_status_line_follows_a_device_going_down_and_coming_back(tmp_path: Path, monkeypatch, systemd) -> None:
    from hw.events import StatusEvent

    name, manager = systemd
    companion, thread = serving(tmp_path, monkeypatch, name, interval_s=30.0)
    try:
        companion.devices.emit(StatusEvent("reader bag", False, "reader bag stopped answering; retrying"))
        manager.wait_for(f"STATUS=Serving {companion.base_url()}/join; 1 down: reader bag stopped answering; retrying")
        companion.devices.emit(StatusEvent("reader bag", True))
        manager.wait_for(f"STATUS=Serving {companion.base_url()}/join")
    finally:
        stop(companion, thread)
