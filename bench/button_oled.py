"""Button press on a mock pin → the new OLED frame rendered (2,000 presses).

The whole table path runs: gpiozero's MockFactory pin edge → the Button → the
table controller → the screen drawn with PIL from the session's public state →
luma.core's dummy device. Up and Down alternate, so every press moves the
highlighted field of the action being dialled in and needs a new frame. The
contact-bounce filter is off here (it only delays the *next* press, not this one).
"""

from __future__ import annotations

import dataclasses
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from bench.common import emit, median, metric, percentile, size
from companion.board.config import Config
from companion.board.controller import TableController
from companion.board.devices import open_devices
from companion.table.journal import Journal
from companion.table.session import Session

PRESSES = size(2000, 5)
TILES = {"N": ["crab", "iguana"], "E": ["sea_lion", "booby"], "S": ["tortoise", "penguin"], "W": ["crab", "booby"]}


def run() -> dict[str, Any]:
    Device.pin_factory = MockFactory()
    cfg = dataclasses.replace(Config(), bounce_ms=0)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        session = Session.new(Journal(db), "galapagos-auction", ["Ann", "Bob", "Cy"])
        for direction, animals in TILES.items():
            session.act({"type": "tile", "direction": direction, "animals": animals})
        devices = open_devices(cfg, db_path=str(db))
        ctl = TableController(session, devices.oled, beeper=devices.beeper, leds=devices.leds,
                              registry=devices.registry)
        devices.attach(ctl)
        shown = threading.Event()
        original = devices.oled.show

        def show(image: Any) -> bool:
            sent = original(image)
            if sent:
                shown.set()
            return sent

        devices.oled.show = show  # type: ignore[method-assign]
        pins = {name: Device.pin_factory.pin(cfg.buttons()[name]) for name in ("up", "down")}
        samples = []
        for i in range(PRESSES):
            pin = pins["up" if i % 2 else "down"]
            shown.clear()
            start = time.perf_counter()
            pin.drive_low()
            if not shown.wait(5):
                raise RuntimeError(f"press {i} drew no new frame")
            samples.append((time.perf_counter() - start) * 1000)
            pin.drive_high()
        ctl.close()
        devices.close()
    return {
        "button_to_oled_p99_ms": metric(percentile(samples, 99), "ms", "<= 5", median_ms=round(median(samples), 4),
                                        presses=PRESSES),
    }


if __name__ == "__main__":
    emit(run())
