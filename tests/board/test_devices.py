"""The table's devices keep taking input whatever a reader library or a listener raises.

Real parts throughout: gpiozero's MockFactory pins (a press is ``drive_low`` on
the pin, delivered by gpiozero as on a Pi), the simulated readers polled by
their own threads, luma.core's dummy display. The failures are the ones the
real libraries raise: adafruit-circuitpython-pn532 raises ``RuntimeError``
("No ACK", "More than one card detected"), an I2C glitch is an ``OSError``.
"""

from __future__ import annotations

import threading
import time

import pytest

from companion.board import devices as devices_module
from companion.board.config import Config
from companion.board.devices import open_devices
from hw.events import ButtonEvent, EncoderEvent, StatusEvent, TagEvent
from hw.rfid import DebounceSettings, ReaderGroup, load_backend
from hw.rfid.base import Reader
from tests.hw.conftest import mock_factory, wait_until  # noqa: F401  (fixture)
from tests.support.panel_pins import press, turn


class FlakyPN532(Reader):
    """A reader whose library raises as adafruit_pn532 does: RuntimeError, then (maybe) recovers."""

    backend = "flaky"

    def __init__(self, point: str, fail: int | None = None, **kwargs) -> None:
        super().__init__(point, **kwargs)
        self.fail = fail  # failures before it answers again; None: for ever
        self.opens = 0
        self.calls = 0

    def open(self) -> None:
        self.opens += 1

    def read_uid(self) -> str | None:
        self.calls += 1
        if self.fail is None or self.calls <= self.fail:
            raise RuntimeError("Response frame preamble does not contain 0x00FF!")
        return "04C0FFEE"


@pytest.fixture
def table(mock_factory):  # noqa: F811
    devices = open_devices(Config(poll_interval=0.02))
    yield mock_factory, devices
    devices.close()


def test_a_reader_raising_runtime_error_never_stops_polling_of_itself_or_the_others():
    """One reader's library raising on every read: the other points still report, the bad one is retried."""
    good = load_backend("sim")("scan", debounce=DebounceSettings(hold=0, misses=1))
    bad = FlakyPN532("bag")
    group = ReaderGroup([good, bad], interval=0.01)
    events, status = [], []
    group.subscribe(events.append)
    group.subscribe_status(status.append)
    group.start()
    try:
        good.place("04AA")
        assert wait_until(lambda: any(e.uid == "04AA" and e.present for e in events))
        assert wait_until(lambda: bad.calls > 2 * Reader.reopen_after)
        good.remove()
        assert wait_until(lambda: any(e.uid == "04AA" and not e.present for e in events))
        good.place("04BB")
        assert wait_until(lambda: any(e.uid == "04BB" for e in events))
    finally:
        group.stop()
    assert bad.errors >= 2 * Reader.reopen_after and "RuntimeError" in bad.last_error
    assert bad.opens >= 2, "after repeated errors the reader is opened again"
    assert any(e.device == "reader bag" and not e.ok and e.message.startswith("reader bag stopped answering (RuntimeError")
               and e.message.endswith("; retrying") for e in status), status
    assert not bad.healthy


def test_a_reader_that_answers_again_after_errors_reports_it_and_its_tag():
    bad = FlakyPN532("bag", fail=Reader.reopen_after + 2, debounce=DebounceSettings(hold=0, misses=1))
    group = ReaderGroup([bad], interval=0.01)
    events, status = [], []
    group.subscribe(events.append)
    group.subscribe_status(status.append)
    group.start()
    try:
        assert wait_until(lambda: TagEvent("bag", "04C0FFEE", True) in [TagEvent(e.point, e.uid, e.present) for e in events])
    finally:
        group.stop()
    assert [s.ok for s in status] == [False, True]
    assert status[-1].message == "reader bag answers again" and bad.healthy


def test_a_listener_raising_os_error_leaves_buttons_encoder_and_readers_working(table):
    factory, devices = table
    got = []

    def glitch(event):  # the OLED push of a controller hitting an I2C glitch
        raise OSError(121, "Remote I/O error")

    devices.listeners += [glitch, got.append]
    devices.start()
    press(factory, "ok")
    assert wait_until(lambda: ButtonEvent("ok") in got)
    press(factory, "seat2")
    turn(factory, +1)
    devices.readers.readers["scan"].place("04AB")
    assert wait_until(lambda: ButtonEvent("seat2") in got and EncoderEvent(1) in got
                      and any(isinstance(e, TagEvent) and e.uid == "04AB" for e in got))
    assert devices.listener_errors >= 4
    assert devices.panel.errors == 0  # nothing reached gpiozero's thread


def test_a_reader_raising_inside_the_table_still_lets_buttons_through(table):
    factory, devices = table
    got = []
    devices.listeners.append(got.append)
    bag = devices.readers.readers["bag"]

    def broken():
        raise RuntimeError("More than one card detected!")

    bag.read_uid = broken
    devices.start()
    assert wait_until(lambda: bag.errors > Reader.reopen_after)
    press(factory, "back")
    assert wait_until(lambda: ButtonEvent("back") in got)
    assert wait_until(lambda: any(isinstance(e, StatusEvent) and e.device == "reader bag" and not e.ok for e in got))
    (failing,) = devices.health()["failing"]
    assert failing.startswith("reader bag stopped answering (") and failing.endswith("); retrying")


def test_device_callbacks_only_enqueue_so_a_slow_listener_does_not_hold_gpiozeros_thread(table):
    factory, devices = table
    got = []
    release = threading.Event()

    def slow(event):  # a full OLED frame at 100 kHz takes ~90 ms; this one takes until released
        release.wait(2)
        got.append(event)

    devices.listeners.append(slow)
    devices.start()
    started = time.perf_counter()
    press(factory, "up")
    turn(factory, -1)
    turn(factory, -1)
    press(factory, "down")
    took = time.perf_counter() - started
    release.set()
    assert took < 0.5, f"the edges waited {took:.3f} s for the listener"  # inline it would be >= 2 s
    assert wait_until(lambda: len(got) == 4)
    assert got == [ButtonEvent("up"), EncoderEvent(-1), EncoderEvent(-1), ButtonEvent("down")]  # in order


def test_before_start_events_are_delivered_at_once_and_guarded(mock_factory):  # noqa: F811
    devices = open_devices(Config())
    got = []
    devices.listeners += [lambda e: 1 / 0, got.append]
    try:
        press(mock_factory, "ok")
        assert got == [ButtonEvent("ok")]  # when drive_low returned
        assert devices.listener_errors == 1
    finally:
        devices.close()


def test_a_flood_of_events_drops_the_oldest_and_counts_them(mock_factory, monkeypatch):  # noqa: F811
    monkeypatch.setattr(devices_module, "QUEUE_SIZE", 4)
    devices = open_devices(Config(bounce_ms=0))  # ten presses in a row, faster than any debounce window
    gate = threading.Event()
    got = []
    devices.listeners.append(lambda e: (gate.wait(2), got.append(e)))
    devices.start()
    try:
        for _ in range(10):
            press(mock_factory, "up")
        gate.set()
        assert devices.drain(3)
    finally:
        devices.close()
    assert devices.dropped >= 5 and len(got) + devices.dropped == 10
