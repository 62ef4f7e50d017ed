"""The simulated table: every device simulated, and the panel that drives them (``/sim``).

``companion run --sim`` (and every test) meets the product this way: gpiozero's mock
pins, luma.core's dummy display, simulated readers, and the firmware simulator on a
pseudo-terminal for the points behind the bridge. :class:`SimTable` is what the
dashboard's simulation panel presses and lays tags with (``web.context.SimBackend``).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Any

from companion.board.config import Config, DisplayConfig, ReaderConfig


def simulated(cfg: Config) -> Config:
    """``cfg`` with every device simulated: mock pins, dummy OLED, simulated readers.

    Reader points behind the firmware bridge stay there, but the bridge talks to
    the firmware simulator on a pseudo-terminal (``[bridge] port = "sim"``).
    """
    readers = tuple(r if r.backend == "bridge" else ReaderConfig(r.point) for r in cfg.readers)
    return dataclasses.replace(cfg, pin_factory="mock", display=DisplayConfig(), readers=readers,
                               bridge=dataclasses.replace(cfg.bridge, port="sim"))


#: how long past its hold time a held button stays down waiting for the hold to be felt (the panel's
#: hold timer runs on its own thread, which a loaded machine may wake late)
HOLD_PATIENCE = 5.0


class SimTable:
    """The simulated devices as the simulation panel drives them (``web.context.SimBackend``)."""

    def __init__(self, devices: Any, bridge_buttons: dict[int, str] | None = None, press_seconds: float = 0.03):
        self.devices = devices
        self.press_seconds = press_seconds
        #: buttons wired to the firmware bridge: name -> the bridge's button index
        self.bridge_buttons = {name: i for i, name in (bridge_buttons or {}).items()}
        self._lock = threading.Lock()

    def buttons(self) -> list[str]:
        return list(self.devices.panel.buttons) + [n for n in self.bridge_buttons if n not in self.devices.panel.buttons]

    def press(self, name: str, hold: bool = False) -> None:
        """Press ``name`` briefly, or ``hold`` it past its hold time (Back held: undo)."""
        with self._lock:
            if name in self.bridge_buttons and self.devices.simulator is not None:
                self.devices.simulator.press(self.bridge_buttons[name], True)
                time.sleep(self.press_seconds)
                self.devices.simulator.press(self.bridge_buttons[name], False)
                return
            panel = self.devices.panel
            button = panel.buttons[name]
            holds = panel.holds
            button.pin.drive_low()
            time.sleep(button.hold_time if hold else self.press_seconds)  # longer than the debounce time
            if hold:  # kept down until the hold is felt, as a finger stays until the screen answers
                until = time.monotonic() + HOLD_PATIENCE
                while panel.holds == holds and time.monotonic() < until:
                    time.sleep(0.01)
            button.pin.drive_high()
            time.sleep(self.press_seconds)
        self._delivered()

    def _delivered(self) -> None:
        """Wait until the table has handled what was just done (a worker delivers device events)."""
        drain = getattr(self.devices, "drain", None)
        if drain is not None:
            drain(1.0)

    def turn(self, delta: int) -> None:
        encoder = self.devices.panel.encoder
        if encoder is None:
            return
        a, b = encoder.a.pin, encoder.b.pin
        first, second = (a, b) if delta > 0 else (b, a)
        with self._lock:
            first.drive_low()
            second.drive_low()
            first.drive_high()
            second.drive_high()
        self._delivered()

    def points(self) -> list[str]:
        return list(self.devices.readers.readers)

    def _bridged(self, reader: Any) -> bool:
        return getattr(reader, "backend", "") == "bridge" and self.devices.simulator is not None

    def place(self, point: str, uid: str) -> None:
        reader = self.devices.readers.readers[point]
        if self._bridged(reader):  # through the firmware simulator, over the pseudo-terminal
            self.devices.simulator.place(reader.index, uid)
            return
        reader.place(uid)
        self.devices.readers.step()  # report at once; the poll thread keeps it debounced
        self._delivered()

    def remove(self, point: str, uid: str) -> None:
        reader = self.devices.readers.readers[point]
        if self._bridged(reader):
            if self.devices.simulator.truth().get(reader.index) == uid:
                self.devices.simulator.remove(reader.index)
            return
        if getattr(reader, "on_antenna", None) == uid:
            reader.remove()

    def on_readers(self) -> dict[str, list[str]]:
        truth = self.devices.simulator.truth() if self.devices.simulator is not None else {}
        out = {}
        for point, reader in self.devices.readers.readers.items():
            uid = truth.get(reader.index) if self._bridged(reader) else getattr(reader, "on_antenna", None)
            if uid:
                out[point] = [uid]
        return out

    def oled_png(self) -> bytes:
        return self.devices.oled.png()

    def oled_serial(self) -> int:
        return self.devices.oled.sent
