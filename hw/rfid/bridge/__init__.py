"""Readers behind the firmware bridge: a microcontroller that reads many RFID readers.

One :class:`BridgeHub` owns the serial :class:`firmware_bridge.host.HostLink`
and fans its events out:

* ``TagEvent(reader, uid, present)`` → the :class:`Backend` reader point whose
  ``reader`` option is that index (``report``; the usual debouncing applies,
  so a tag lifted and put back within the hold time stays one placement);
* ``ButtonEvent(button, pressed)`` → a ``hw`` :class:`~hw.events.ButtonEvent`
  named by ``[bridge.buttons]`` (seat buttons beyond the Pi's header);
* ``DiceEvent(slot, face)`` → a :class:`~hw.events.DieEvent` for the point named
  by ``[bridge.dice]``;
* after a resync or an overflow the hub re-reads ``present_tags()`` so every
  point ends with what physically sits on it.

The firmware already debounces on its side; the host link reconnects by itself,
asking ``port`` anew each time: with ``[bridge] port = "auto"`` that is a
:class:`firmware_bridge.finder.PortFinder`, so a Pico that comes back as
/dev/ttyACM1 is found again. The link's health is reported as a
:class:`~hw.events.StatusEvent` for the device ``"bridge"``: « bridge lost »
when an established link drops, « bridge not found; retrying » when none came
up within ``report_after`` seconds of the start, « bridge connected » when it
is (back) up; and for one of its readers (READER_STATUS from the firmware)
« reader N stopped answering; the bridge retries it » / « reader N answers again ».
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from firmware_bridge import events as bridge
from firmware_bridge.host import HostLink
from hw.events import ButtonEvent, DeviceEvent, DieEvent, StatusEvent
from hw.rfid.base import Reader, ReaderError

log = logging.getLogger(__name__)


class Backend(Reader):
    """A reader point behind the bridge; option ``reader`` is the bridge's reader index."""

    backend = "bridge"
    polled = False
    hub: BridgeHub | None = None

    @property
    def index(self) -> int:
        try:
            return int(self.options["reader"])
        except (KeyError, TypeError, ValueError):
            raise ReaderError(f"Reader {self.point} (bridge) needs reader = <the bridge's reader index>.") from None

    def open(self) -> None:
        if self.hub is None:
            raise ReaderError(f"Reader {self.point} sits behind the firmware bridge, but no [bridge] link was opened.")


class BridgeHub:
    """The host link plus the maps from bridge indexes to reader points and button names."""

    def __init__(
        self,
        port: Any,
        *,
        baudrate: int = 115200,
        buttons: Mapping[int, str] | None = None,
        dice: Mapping[int, str] | None = None,
        on_event: Callable[[DeviceEvent], None] | None = None,
        report_after: float = 5.0,
    ) -> None:
        self.readers: dict[int, Backend] = {}
        self.buttons = dict(buttons or {})
        self.dice = dict(dice or {})
        self.on_event = on_event
        self.report_after = report_after
        self.link_state = "down"  # "up", "down" (never came up yet), "lost", "incompatible"
        self.reported_down = False
        self.firmware_mismatch: str | None = None  # firmware_bridge.core.firmware_mismatch's sentence
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self.link = HostLink(port, self._on_bridge_event, baudrate=baudrate)

    def add(self, reader: Backend) -> None:
        if reader.index in self.readers:
            raise ReaderError(f"Readers {self.readers[reader.index].point} and {reader.point} both use bridge reader {reader.index}.")
        reader.hub = self
        self.readers[reader.index] = reader

    def start(self, wait: float = 0.0) -> bool:
        """Start the link; with ``wait`` > 0, block until connected (True) or the wait ends."""
        self.link.start()
        if self.report_after > 0:
            self._timer = threading.Timer(self.report_after, self._check_found)
            self._timer.daemon = True
            self._timer.start()
        return self.link.wait_connected(wait) if wait > 0 else self.link.connected

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self.link.stop()

    @property
    def port_path(self) -> str | None:
        """The device node the link last opened (it changes when the board comes back elsewhere)."""
        return self.link.port_path

    def _check_found(self) -> None:
        with self._lock:
            if self.link_state == "up" or self.reported_down:
                return
            self.reported_down = True
        detail = f" ({self.link.last_error})" if self.link.last_error else ""
        log.debug("bridge not found%s", detail)  # the table logs the status event (hw.health)
        self._emit(StatusEvent("bridge", False, "bridge not found; retrying"))

    def _emit(self, event: DeviceEvent) -> None:
        if self.on_event is not None:
            try:
                self.on_event(event)
            except Exception:  # the link's dispatcher must keep going
                log.exception("bridge listener failed on %r", event)

    def _link_changed(self, kind: str) -> None:
        """Called with the lock held: track the state and say so when it turns."""
        if kind in ("lost", "incompatible"):
            was_up = self.link_state == "up"
            self.link_state = kind
            if was_up or kind == "incompatible":
                self.reported_down = True
                message = "bridge lost" if kind == "lost" else "bridge firmware is incompatible; update it"
                self._emit(StatusEvent("bridge", False, message))
        elif kind in ("hello", "resync") and self.link_state != "up":
            self.link_state = "up"
            if self.reported_down:
                self.reported_down = False
                self._emit(StatusEvent("bridge", True, "bridge connected"))

    def _on_bridge_event(self, event: Any) -> None:
        with self._lock:
            if isinstance(event, bridge.TagEvent):
                reader = self.readers.get(event.reader)
                if reader is not None:
                    reader.report(event.uid if event.present else None)
            elif isinstance(event, bridge.ButtonEvent):
                name = self.buttons.get(event.button)
                if name is not None and event.pressed:
                    self._emit(ButtonEvent(name, "press"))
            elif isinstance(event, bridge.DiceEvent):
                point = self.dice.get(event.slot)
                if point is not None:
                    self._emit(DieEvent(point, event.face))
            elif isinstance(event, bridge.LinkEvent) and event.kind == "reader":
                self._reader_changed(int(event.detail["reader"]), bool(event.detail["ok"]))
            elif isinstance(event, bridge.LinkEvent):
                self._link_changed(event.kind)
                if event.kind == "hello":
                    self._firmware_checked(event.detail.get("firmware_mismatch"))
                if event.kind in ("resync", "overflow"):
                    self._reconcile()

    def _firmware_checked(self, mismatch: str | None) -> None:
        """The Pico's firmware is not the one this checkout ships: said once, until it is."""
        if mismatch and not self.firmware_mismatch:
            log.warning("%s", mismatch)
            self._emit(StatusEvent("bridge firmware", False, mismatch))
        elif not mismatch and self.firmware_mismatch:
            self._emit(StatusEvent("bridge firmware", True, "bridge firmware updated"))
        self.firmware_mismatch = mismatch

    def _reader_changed(self, index: int, ok: bool) -> None:
        """The firmware says one of its readers stopped answering (it retries it) or answers again."""
        reader = self.readers.get(index)
        device = reader.device if reader is not None else f"bridge reader {index}"
        if reader is not None:
            reader.healthy = ok
        message = f"{device} answers again" if ok else f"{device} stopped answering; the bridge retries it"
        self._emit(StatusEvent(device, ok, message))

    def _reconcile(self) -> None:
        """Make every point agree with the tags the bridge says are present now."""
        present = self.link.present_tags()
        for index, reader in self.readers.items():
            reader.report(present.get(index))
