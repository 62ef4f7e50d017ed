"""HostLink: the Pi end of the serial link to the reader microcontroller.

Public API (the hw/ package adapts this as its ``bridge`` RFID backend)::

    from firmware_bridge.host import HostLink, SetLed, Buzz, Ping
    from firmware_bridge.finder import PortFinder
    from firmware_bridge.events import TagEvent, ButtonEvent, DiceEvent, LinkEvent

    link = HostLink(PortFinder(), on_event=callback)   # or HostLink("/dev/ttyACM0", ...)
    link.start()                       # returns at once; a thread connects and reconnects
    link.wait_connected(5.0)           # -> bool: handshake and first snapshot done
    link.present_tags()                # -> {reader: "04A1B2C3D4E5F6"} (the view after resync)
    link.pressed_buttons()             # -> frozenset of held buttons
    link.dice_faces()                  # -> {slot: face}
    link.send(SetLed(0, 255, 0, 0))    # -> bool: acknowledged (retried up to 3 times)
    link.buzz(880, 120); link.ping()   # shorthands for send(Buzz(...)), send(Ping())
    link.counters()                    # -> {"bad_frames": 0, "gaps": 0, "resyncs": 1, ...}
    link.info                          # DeviceInfo from HELLO_REPLY, or None
    link.connected                     # True while the link is up
    link.stop()

``port`` is a path (a /dev/serial/by-id/... symlink is followed anew on each reconnect) or a
callable returning the current path or None (``PortFinder`` looks at the udev symlink, by-id
links and USB VID:PID). The port is opened exclusively (a flock and the terminal's TIOCEXCL,
:mod:`firmware_bridge.exclusive`) so no second program, ``cat`` or ``screen`` included, can
read the same device.

``on_event`` receives TagEvent(reader, uid, present), ButtonEvent(button, pressed),
DiceEvent(slot, face) and LinkEvent(kind, detail) - kinds: "hello" (device info), "resync"
(reason and the tags seen), "lost" (reason), "incompatible" (protocol version), "overflow"
(the listener was too slow and events were dropped: read present_tags()), "reader" ({"reader":
index, "ok": bool}: one of the device's readers stopped answering or answers again). It is called from one
dispatcher thread, in order, never from the serial thread, so a slow listener does not stall the
link; the buffer between them is bounded (``queue_size``). After a resync, events with
``resync=True`` report the changes the host missed, so a listener that applies every event ends
with the same view as ``present_tags()``. A TagEvent(present=True) may repeat a tag already
known; treat placement as idempotent.

Failure handling: bad frames are counted and dropped, never raised; 3 s without a valid frame
(the firmware sends a heartbeat every second) drops the link; reconnection backs off from 0.1 s
to 2 s and resumes with HELLO then GET_STATE.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import serial

from .core import DeviceInfo, LinkCore
from .events import BridgeEvent, LinkEvent
from .exclusive import ExclusiveSerial
from .finder import resolve
from .firmware import proto

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SetLed:
    led: int
    r: int
    g: int
    b: int
    frame_type = proto.SET_LED

    def body(self) -> bytes:
        return proto.pack_set_led(self.led, self.r, self.g, self.b)


@dataclass(frozen=True)
class Buzz:
    freq_hz: int
    ms: int
    frame_type = proto.BUZZ

    def body(self) -> bytes:
        return proto.pack_buzz(self.freq_hz, self.ms)


@dataclass(frozen=True)
class Ping:
    token: bytes = b""
    frame_type = proto.PING

    def body(self) -> bytes:
        return proto.pack_ping(self.token)


Command = SetLed | Buzz | Ping
Port = str | Callable[[], str | None]
_STOP = object()


class HostLink:
    def __init__(
        self,
        port: Port,
        on_event: Callable[[BridgeEvent], Any] | None = None,
        *,
        baudrate: int = 115200,
        silence: float = 3.0,
        ack_timeout: float = 0.25,
        retries: int = 3,
        backoff: tuple[float, float] = (0.1, 2.0),
        queue_size: int = 1024,
        tick: float = 0.02,
    ) -> None:
        self._port = port
        self._on_event = on_event
        self.baudrate = baudrate
        self.backoff = backoff
        self.tick = tick
        self._core = LinkCore(ack_timeout=ack_timeout, retries=retries, silence=silence)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._serial: serial.Serial | None = None
        self._stop = threading.Event()
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=queue_size)
        self._overflowed = 0
        self._threads: list[threading.Thread] = []
        self.port_path: str | None = None
        self.last_error: str | None = None

    # ---- lifecycle ----------------------------------------------------------------------------
    def start(self) -> HostLink:
        if self._threads:
            return self
        self._stop.clear()
        self._threads = [
            threading.Thread(target=self._run, name="bridge-serial", daemon=True),
            threading.Thread(target=self._dispatch, name="bridge-events", daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        return self

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        serial_thread, dispatcher = self._threads or (None, None)
        if serial_thread:
            serial_thread.join(timeout)
        if dispatcher:
            self._queue.put(_STOP)
            dispatcher.join(timeout)
        self._threads = []

    def __enter__(self) -> HostLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- state ----------------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        with self._lock:
            return self._core.phase == "up"

    @property
    def info(self) -> DeviceInfo | None:
        with self._lock:
            return self._core.info

    def present_tags(self) -> dict[int, str]:
        with self._lock:
            return dict(self._core.view.tags)

    def pressed_buttons(self) -> frozenset[int]:
        with self._lock:
            return frozenset(self._core.view.pressed)

    def dice_faces(self) -> dict[int, int]:
        with self._lock:
            return dict(self._core.view.dice)

    def counters(self) -> dict[str, int]:
        with self._lock:
            return self._core.counters.as_dict()

    def wait_until(self, predicate: Callable[[HostLink], bool], timeout: float) -> bool:
        """Block until ``predicate(self)`` holds (checked after every change) or time runs out."""
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self), timeout)

    def wait_connected(self, timeout: float) -> bool:
        return self.wait_until(lambda link: link.connected, timeout)

    # ---- commands -------------------------------------------------------------------------------
    def send(self, command: Command, timeout: float | None = None) -> bool:
        """Send a command and wait for its ACK; False if the link is down or all tries failed."""
        core = self._core
        if timeout is None:
            timeout = core.ack_timeout * (core.retries + 1) + 1.0
        with self._changed:
            seq = core.send_command(command.frame_type, command.body(), time.monotonic())
            if seq is None:
                return False
            self._flush()
            self._changed.wait_for(lambda: core.command_done(seq), timeout)
            return core.command_result(seq)

    def set_led(self, led: int, r: int, g: int, b: int) -> bool:
        return self.send(SetLed(led, r, g, b))

    def buzz(self, freq_hz: int, ms: int) -> bool:
        return self.send(Buzz(freq_hz, ms))

    def ping(self) -> bool:
        return self.send(Ping())

    # ---- threads --------------------------------------------------------------------------------
    def _flush(self) -> None:
        """Write what the core wants sent; call with the lock held."""
        data = self._core.take_output()
        if data and self._serial is not None:
            try:
                self._serial.write(data)
            except (serial.SerialException, OSError) as err:
                self.last_error = str(err)  # the reader sees the same failure and reconnects

    def _open(self, path: str) -> serial.Serial | None:
        try:
            ser = ExclusiveSerial(path, self.baudrate, timeout=self.tick, write_timeout=1.0)
            ser.reset_input_buffer()
            return ser
        except (serial.SerialException, OSError, ValueError) as err:
            self.last_error = str(err)
            return None

    def _run(self) -> None:
        low, high = self.backoff
        delay = low
        while not self._stop.is_set():
            path = resolve(self._port)
            ser = self._open(path) if path else None
            if ser is not None:
                reached = self._serve(ser, path or "")
                delay = low if reached else min(delay * 2, high)
            else:
                delay = min(delay * 2, high)
            self._stop.wait(delay)

    def _serve(self, ser: serial.Serial, path: str) -> bool:
        """Pump one open port until it fails, falls silent or we stop; True if it came up."""
        core = self._core
        reached = False
        reason = "stopped"
        with self._changed:
            self._serial = ser
            self.port_path = path
            core.connect(time.monotonic())
            self._flush()
        try:
            while not self._stop.is_set():
                data = ser.read(max(1, ser.in_waiting))
                now = time.monotonic()
                with self._changed:
                    if data:
                        core.feed(data, now)
                    drop = core.poll(now)
                    self._flush()
                    events = core.take_events()
                    reached = reached or core.info is not None and core.phase != "hello"
                    self._changed.notify_all()
                self._deliver(events)
                if drop:
                    reason = drop
                    break
        except (serial.SerialException, OSError) as err:
            reason = "port error"
            self.last_error = str(err)
        with self._changed:
            core.disconnect()
            self._serial = None
            self._changed.notify_all()
        with contextlib.suppress(serial.SerialException, OSError):
            ser.close()
        if reached and reason != "stopped":
            self._deliver([LinkEvent("lost", {"reason": reason}, time.monotonic())])
        return reached

    def _deliver(self, events: list[BridgeEvent]) -> None:
        if self._on_event is None:
            return
        for event in events:
            while True:
                try:
                    self._queue.put_nowait(event)
                    break
                except queue.Full:
                    with contextlib.suppress(queue.Empty):
                        self._queue.get_nowait()
                        with self._lock:
                            self._overflowed += 1
                            self._core.counters.events_overflowed += 1

    def _dispatch(self) -> None:
        while True:
            event = self._queue.get()
            if event is _STOP:
                return
            with self._lock:
                lost, self._overflowed = self._overflowed, 0
            if lost:
                self._call(LinkEvent("overflow", {"dropped": lost}, time.monotonic()))
            self._call(event)

    def _call(self, event: BridgeEvent) -> None:
        try:
            self._on_event(event)  # type: ignore[misc]
        except Exception:  # a listener's bug must not kill the link
            log.exception("bridge event listener failed on %r", event)
