"""The reader abstraction every RFID backend implements.

Phoniebox style: each backend is a folder ``hw/rfid/<backend>/`` whose
``__init__.py`` defines ``Backend``, a subclass of :class:`Reader`. To add a
reader chip, copy ``hw/rfid/template/`` and fill in :meth:`Reader.read_uid`.

A :class:`Reader` is one *reader point* (``N``, ``scan``, ``seat2.slot4``).
Polled backends (MFRC522, PN532, the simulated reader) answer "which UID is
on the antenna now?"; push backends (the firmware bridge) call
:meth:`Reader.report` when their source sees a change. Both go through the
same :class:`~hw.rfid.debounce.Debouncer`, so debouncing is the same for all.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from hw.errors import DeviceError
from hw.events import StatusEvent, TagEvent
from hw.rfid.debounce import Clock, Debouncer, DebounceSettings, normalise_uid

log = logging.getLogger(__name__)
TagListener = Callable[[TagEvent], None]
StatusListener = Callable[[StatusEvent], None]


class ReaderError(DeviceError):
    """A reader cannot be opened or read (one sentence with the fix)."""


class Reader:
    """One named reader point; subclasses talk to a chip."""

    #: the folder name under hw/rfid/
    backend: ClassVar[str] = ""
    #: False for backends whose source pushes changes (no polling)
    polled: ClassVar[bool] = True
    #: failed reads in a row after which the reader is reported and re-opened
    reopen_after: ClassVar[int] = 5

    @property
    def poll_group(self) -> tuple[Any, ...]:
        """Readers with the same group are polled in turn by one thread (see :class:`ReaderGroup`).

        By default a reader gets a thread of its own: a chip library that blocks (a PN532
        waiting out its timeouts) must not hold up the others. Backends whose polls are
        short and take turns on a bus anyway (the MFRC522s of one SPI bus, the simulated
        readers) share one.
        """
        return ("own", self.point)

    def __init__(
        self,
        point: str,
        options: Mapping[str, Any] | None = None,
        *,
        debounce: DebounceSettings | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.point = point
        self.options = dict(options or {})
        self.debouncer = Debouncer(point, debounce, clock)
        self.errors = 0  # failed reads since the start
        self.failures = 0  # failed reads in a row
        self.reopened = 0  # successful re-opens after repeated failures
        self.reopen_failures = 0  # failed re-opens since the reader went down (logged once, counted after)
        self.listener_errors = 0
        self.healthy = True
        self.last_error: str | None = None
        self._listeners: list[TagListener] = []
        self._status_listeners: list[StatusListener] = []
        self._lock = threading.RLock()  # push sources report from their own thread
        self._waker: Callable[[], None] | None = None

    # -- what a backend implements -----------------------------------------
    def open(self) -> None:
        """Acquire the hardware; raise :class:`ReaderError` with the fix."""

    def read_uid(self) -> str | bytes | list[int] | None:
        """Polled backends: the UID on the antenna now, or None."""
        raise NotImplementedError(f"{type(self).__name__} must implement read_uid()")

    def close(self) -> None:
        """Release the hardware."""

    def reopen(self) -> None:
        """Start the hardware afresh after repeated errors (by default: close, then open)."""
        try:
            self.close()
        except Exception as exc:  # the device is already in a bad way; closing is best effort
            log.debug("reader %s: close before re-open failed: %s", self.point, exc)
        self.open()

    @classmethod
    def prepare(cls, readers: list[Reader]) -> None:
        """Called once with every reader of this backend before any is opened.

        A backend whose readers share wires sets them up here: the MFRC522
        drives every chip select high before the first transfer, or a reader
        not yet opened would answer too.
        """

    def idle(self) -> bool:
        """Whether a poll now could change nothing, so its poller may sleep until :meth:`wake`.

        A chip never is (a tag may be laid on it at any moment); the simulated reader is when
        its antenna holds what it last reported: it is told of every change and wakes its poller.
        """
        return False

    def wake(self) -> None:
        """Ask this reader's poller to poll now (set by :class:`ReaderGroup` while it runs)."""
        waker = self._waker
        if waker is not None:
            waker()

    # -- shared machinery ----------------------------------------------------
    @property
    def uid(self) -> str | None:
        """The tag the point currently holds (after debouncing)."""
        return self.debouncer.uid

    @property
    def device(self) -> str:
        """The name doctor and the status messages use (``reader bag``)."""
        return f"reader {self.point}"

    def subscribe(self, fn: TagListener) -> None:
        self._listeners.append(fn)

    def subscribe_status(self, fn: StatusListener) -> None:
        """``fn(StatusEvent)`` when the reader stops answering, and when it answers again."""
        self._status_listeners.append(fn)

    def poll(self) -> list[TagEvent]:
        """Read once and emit whatever the debouncer decides.

        Any exception of the backend counts as an empty read (a miss): chip
        libraries raise more than ``OSError`` (adafruit-circuitpython-pn532
        raises ``RuntimeError`` and ``BusyError``), and one bad read must not
        stop the table. After :attr:`reopen_after` failures in a row the
        reader is reported as stopped and re-opened (see :meth:`recover`).
        """
        try:
            raw = self.read_uid()
        except Exception as exc:
            self._failed(exc)
            raw = None
        else:
            self._answered()
        with self._lock:
            return self._emit(self.debouncer.observe(raw))

    def report(self, uid: str | None) -> list[TagEvent]:
        """Push backends: the source saw ``uid`` placed, or (None) the tag go."""
        with self._lock:
            events = self.debouncer.observe(uid) if uid is not None else self.debouncer.absent()
            return self._emit(events)

    def tick(self) -> list[TagEvent]:
        with self._lock:
            return self._emit(self.debouncer.tick())

    def miss(self) -> list[TagEvent]:
        """A poll that could not even be tried (the reader is being re-opened): a miss."""
        with self._lock:
            return self._emit(self.debouncer.observe(None))

    def recover(self) -> bool:
        """Re-open the hardware after repeated errors; True when it opened.

        A dead reader is tried again every few seconds for as long as the table runs: the first
        failed re-open is logged, the next ones are only counted (``reopen_failures``, in
        :meth:`ReaderGroup.health`), and the re-open that works says how many failed before it.
        """
        try:
            self.reopen()
        except Exception as exc:
            self.last_error = _describe(exc)
            self.reopen_failures += 1
            if self.reopen_failures == 1:
                log.warning("reader %s: re-open failed: %s; retrying (further failures are counted, not logged)",
                            self.point, self.last_error)
            else:
                log.debug("reader %s: re-open failed again (%d): %s", self.point, self.reopen_failures,
                          self.last_error)
            return False
        if self.reopen_failures:
            log.info("reader %s: re-opened after %d failed attempts", self.point, self.reopen_failures)
            self.reopen_failures = 0
        self.reopened += 1
        return True

    def _failed(self, exc: BaseException) -> None:
        self.errors += 1
        self.failures += 1
        self.last_error = _describe(exc)
        if self.failures == 1 and self.healthy:
            log.warning("reader %s: %s", self.point, self.last_error)
        else:
            log.debug("reader %s: %s", self.point, self.last_error)
        if getattr(exc, "chip_gone", False) and self.failures < self.reopen_after:
            self.failures = self.reopen_after  # the chip said it is gone or was reset: down now, re-open
        if self.failures == self.reopen_after:
            self.healthy = False
            self._status(False, f"{self.device} stopped answering ({self.last_error}); retrying")

    def _answered(self) -> None:
        if self.failures >= self.reopen_after:
            self._status(True, f"{self.device} answers again")
        self.failures = 0
        self.healthy = True

    def _status(self, ok: bool, message: str) -> None:
        """Tell the status listeners (the table logs each change once: :class:`hw.health.HealthLog`)."""
        event = StatusEvent(self.device, ok, message)
        for fn in list(self._status_listeners):
            _call(fn, event, self)

    def _emit(self, events: list[TagEvent]) -> list[TagEvent]:
        for event in events:
            for fn in list(self._listeners):
                _call(fn, event, self)
        return events


def _describe(exc: BaseException) -> str:
    """``RuntimeError: No ACK`` - the type says which library layer failed."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _call(fn: Callable[[Any], None], event: Any, reader: Reader) -> None:
    """Call one listener; its exception is logged and counted, never raised into the poll loop."""
    try:
        fn(event)
    except Exception:
        reader.listener_errors += 1
        log.exception("reader %s: a listener failed on %r", reader.point, event)


@dataclass
class _Slot:
    """One reader's place in its poller: whether it is open, its back-off, when it is due."""

    reader: Reader
    opened: bool
    pause: float
    due: float
    polled: bool = False  # polled once at least since the poller started


class ReaderGroup:
    """All reader points of the table, polled by a few guarded threads.

    Readers of one :attr:`Reader.poll_group` share a poller thread that polls each in turn
    (the MFRC522s of an SPI bus take turns on the bus anyway; the simulated readers cost
    nothing); a reader in a group of its own (the PN532, whose library blocks for its
    timeouts) gets a thread of its own, as Phoniebox's reader threads. Each reader's errors
    are logged and counted, it is re-opened after :attr:`Reader.reopen_after` failures in a
    row (backing off to ``retry_max`` seconds between attempts, without holding up the others
    of its group) and reported through the status listeners. Push readers (the bridge) are
    ticked from one extra thread. Readers that share a bus take the same lock (``bus_lock``).
    """

    def __init__(self, readers: Iterable[Reader], interval: float = 0.1, *, retry_max: float = 5.0) -> None:
        self.readers = {r.point: r for r in readers}
        self.interval = interval
        self.retry_max = retry_max
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._wakes: list[threading.Event] = []  # one per poller: a reader it polls has news, or stop
        self.unopened: dict[str, str] = {}  # point -> why it could not be opened at start

    def subscribe(self, fn: TagListener) -> None:
        for reader in self.readers.values():
            reader.subscribe(fn)

    def subscribe_status(self, fn: StatusListener) -> None:
        for reader in self.readers.values():
            reader.subscribe_status(fn)

    def step(self) -> list[TagEvent]:
        """One round: poll polled readers, tick push readers (tests call this by hand)."""
        events: list[TagEvent] = []
        for reader in self.readers.values():
            events += reader.poll() if reader.polled else reader.tick()
        return events

    def start(self) -> None:
        """Open every reader and start polling; a reader that fails to open is retried in its loop."""
        self._stop.clear()
        pushed = [r for r in self.readers.values() if not r.polled]
        for reader in pushed:
            reader.open()  # a push reader needs its hub; that is a configuration mistake, raise it
        self._start_polling()
        if pushed:
            thread = threading.Thread(target=self._tick, args=(pushed,), name="rfid-push", daemon=True)
            self._threads.append(thread)
            thread.start()

    def _start_polling(self) -> None:
        polled = [r for r in self.readers.values() if r.polled]
        kinds: dict[type[Reader], list[Reader]] = {}
        for reader in polled:
            kinds.setdefault(type(reader), []).append(reader)
        for kind, members in kinds.items():
            kind.prepare(members)
        groups: dict[tuple[Any, ...], list[_Slot]] = {}
        first = time.monotonic() + self.interval
        for reader in polled:
            try:
                reader.open()
                opened = True
            except Exception as exc:
                opened = False
                self.unopened[reader.point] = reader.last_error = _describe(exc)
                reader.healthy = False
                reader.failures = reader.reopen_after
                reader._status(False, f"{reader.device}: {str(exc).rstrip('.')}; retrying")
            groups.setdefault(reader.poll_group, []).append(_Slot(reader, opened, self.interval, first))
        for key, slots in groups.items():
            name = "rfid-" + (slots[0].reader.point if len(slots) == 1 else "-".join(str(k) for k in key))
            wake = threading.Event()
            self._wakes.append(wake)
            for slot in slots:
                slot.reader._waker = wake.set
            thread = threading.Thread(target=self._run, args=(slots, wake), name=name, daemon=True)
            self._threads.append(thread)
            thread.start()

    def _run(self, slots: list[_Slot], wake: threading.Event) -> None:
        """One poller: each reader of its group in turn, when due; asleep while every one is idle."""
        while not self._stop.is_set():
            wake.clear()  # before looking: a reader's news after this sets it again
            if all(slot.polled and slot.opened and slot.reader.idle() for slot in slots):
                wake.wait()  # a simulated table at rest: no poll until a tag is placed or removed
                continue
            now = time.monotonic()
            for slot in slots:
                if slot.due <= now and not self._stop.is_set():
                    self._turn(slot)
            self._stop.wait(max(0.0, min(slot.due for slot in slots) - time.monotonic()))

    def _turn(self, slot: _Slot) -> None:
        """Poll one reader, or after repeated failures re-open it with a growing pause."""
        reader = slot.reader
        try:
            if not slot.opened:
                slot.opened = reader.recover()
                if not slot.opened:
                    slot.pause = min(max(slot.pause * 2, self.interval), self.retry_max)
                    reader.miss()
                    slot.due = time.monotonic() + slot.pause
                    return
                slot.pause = self.interval
            reader.poll()
            slot.polled = True
            if reader.failures and reader.failures % reader.reopen_after == 0:
                slot.opened = False  # re-open before the next poll
        except Exception:  # a bug in the loop itself: log it and keep polling
            log.exception("reader %s: poll loop", reader.point)
        slot.due = time.monotonic() + (self.interval if slot.opened else slot.pause)

    def _tick(self, readers: list[Reader]) -> None:
        while not self._stop.wait(self.interval):
            for reader in readers:
                try:
                    reader.tick()
                except Exception:
                    log.exception("reader %s: tick", reader.point)

    def reopen_all(self) -> None:
        """Close and open every polled reader afresh, on the pin factory in use now.

        After the table fell back to mock pins (the GPIO chip could not be opened at start)
        and the real factory starts later, the readers' chip-select and reset lines are still
        devices of the closed mock factory: the transfers select no chip. Closing releases
        them; opening claims them on the new factory.
        """
        pushed = [t for t in self._threads if t.name == "rfid-push"]
        self._halt()
        for thread in self._threads:
            if thread not in pushed:
                thread.join(timeout=2)
        for reader in self.readers.values():
            if reader.polled:
                try:
                    reader.close()
                except Exception:  # noqa: BLE001 - its lines belonged to the closed factory
                    log.debug("reader %s: close before re-opening on the new pin factory", reader.point)
        self._stop = threading.Event()
        self._threads = []
        self._wakes = []
        self.unopened = {}
        self._start_polling()
        if pushed:
            readers = [r for r in self.readers.values() if not r.polled]
            thread = threading.Thread(target=self._tick, args=(readers,), name="rfid-push", daemon=True)
            self._threads.append(thread)
            thread.start()

    def _halt(self) -> None:
        """Tell every poller to end, the sleeping ones included."""
        self._stop.set()
        for wake in self._wakes:
            wake.set()

    def stop(self) -> None:
        self._halt()
        for thread in self._threads:
            thread.join(timeout=2)
        self._threads = []
        for reader in self.readers.values():
            try:
                reader.close()
            except Exception:
                log.exception("reader %s: close", reader.point)

    def health(self) -> dict[str, dict[str, Any]]:
        """Each point's state for the dashboard: healthy, error counts, the last error."""
        return {p: {"ok": r.healthy, "errors": r.errors, "reopened": r.reopened, "reopen_failures": r.reopen_failures,
                    "last_error": r.last_error}
                for p, r in self.readers.items()}


__all__ = ["Reader", "ReaderError", "ReaderGroup", "normalise_uid"]
