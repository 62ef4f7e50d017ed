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
from typing import Any, ClassVar

from hw.events import TagEvent
from hw.rfid.debounce import Clock, Debouncer, DebounceSettings, normalise_uid

log = logging.getLogger(__name__)
TagListener = Callable[[TagEvent], None]


class ReaderError(Exception):
    """A reader cannot be opened or read (one sentence with the fix)."""


class Reader:
    """One named reader point; subclasses talk to a chip."""

    #: the folder name under hw/rfid/
    backend: ClassVar[str] = ""
    #: False for backends whose source pushes changes (no polling)
    polled: ClassVar[bool] = True

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
        self.errors = 0
        self._listeners: list[TagListener] = []
        self._lock = threading.RLock()  # push sources report from their own thread

    # -- what a backend implements -----------------------------------------
    def open(self) -> None:
        """Acquire the hardware; raise :class:`ReaderError` with the fix."""

    def read_uid(self) -> str | bytes | list[int] | None:
        """Polled backends: the UID on the antenna now, or None."""
        raise NotImplementedError(f"{type(self).__name__} must implement read_uid()")

    def close(self) -> None:
        """Release the hardware."""

    # -- shared machinery ----------------------------------------------------
    @property
    def uid(self) -> str | None:
        """The tag the point currently holds (after debouncing)."""
        return self.debouncer.uid

    def subscribe(self, fn: TagListener) -> None:
        self._listeners.append(fn)

    def poll(self) -> list[TagEvent]:
        """Read once and emit whatever the debouncer decides."""
        try:
            raw = self.read_uid()
        except OSError as exc:  # a loose wire must not stop the table
            self.errors += 1
            log.warning("reader %s: %s", self.point, exc)
            raw = None
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

    def _emit(self, events: list[TagEvent]) -> list[TagEvent]:
        for event in events:
            for fn in list(self._listeners):
                fn(event)
        return events


class ReaderGroup:
    """All reader points of the table, polled from one background thread."""

    def __init__(self, readers: Iterable[Reader], interval: float = 0.1) -> None:
        self.readers = {r.point: r for r in readers}
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def subscribe(self, fn: TagListener) -> None:
        for reader in self.readers.values():
            reader.subscribe(fn)

    def step(self) -> list[TagEvent]:
        """One round: poll polled readers, tick push readers."""
        events: list[TagEvent] = []
        for reader in self.readers.values():
            events += reader.poll() if reader.polled else reader.tick()
        return events

    def start(self) -> None:
        for reader in self.readers.values():
            reader.open()
        self._thread = threading.Thread(target=self._run, name="rfid", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.step()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        for reader in self.readers.values():
            reader.close()


__all__ = ["Reader", "ReaderError", "ReaderGroup", "normalise_uid"]
