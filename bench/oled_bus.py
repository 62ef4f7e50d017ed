"""The OLED on a modelled I2C bus: bytes per update, and button press → photons.

The real luma.oled SSD1306 driver talks to :class:`hw.busmodel.I2CBusModel`,
which charges every byte 9 bit times (8 bits and the ACK) at the configured
clock, plus each transaction's address and control bytes, and blocks for that
long as smbus2's write does. Everything else is the table as it runs:
gpiozero's MockFactory pins, the device event worker, the table controller
rendering from a real session, and :class:`hw.oled.Oled`'s pusher thread
sending only the changed page spans.

* ``oled_bytes_per_timer_tick``: bytes on the bus for one second of the sand
  timer (galapagos-dice, the countdown screen), the median. A full frame is 1,024
  bytes plus addressing.
* ``oled_bytes_per_dial_turn``: the same for a detent of the dial, the larger median of
  a turn on an amount (the bid) and a turn on a choice (the square, with its preview line),
  the choice on the SSD1306 and on the SH1106 (page addressing: a window per page and run).
* ``button_to_photons_p99_ms``: with the shipped 20 ms debounce (the leading-edge filter
  of :mod:`hw.inputs`: the first edge acts, the three bounces after it are dropped, and
  the run fails if one gets through), from the press edge on the pin to the last
  byte of the changed pages on a 400 kHz bus (``dtparam=i2c_arm_baudrate=400000``).
  Everything up to the first byte on the bus is measured on the wall clock
  (gpiozero's callback, the event worker, the controller's render, the
  pusher thread's wake-up and page diff); the bus itself is the model's
  timeline, which queues transfers back to back, so the figure is that
  latency plus the exact bus time of every byte sent, without this (shared,
  busy) machine's sleep jitter between transfers charged to the bus. The press is Down/Up
  moving the dial's cursor between the bid's fields (a new frame, no action journaled). The
  frame is written to the bus by the device-event worker itself when the bus is free
  (:meth:`hw.oled.Oled.on_this_thread`), and the start-up heap is frozen as `companion run`
  freezes it.

The dial is turned on the bid amount, what the encoder is for ("a rotary
encoder for amounts", docs/design.md); a turn that changes a field's choice and
its preview line is reported beside it (``dial_choice_turn_median_bytes``).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from bench.common import emit, median, metric, percentile, size
from companion.cli.run import freeze_start_up_heap
from hw.busmodel import BITS_PER_BYTE, I2CBusModel
from hw.events import ButtonEvent, EncoderEvent
from hw.oled import Oled, open_device

RATE_HZ = 400_000
PRESSES = size(1000, 5)
TICKS = size(40, 4)
TURNS = size(40, 8)
#: contact bounces after each press's first edge (the debounce must drop every one)
BOUNCES = 3
TILES = {"N": ["crab", "iguana"], "E": ["sea_lion", "booby"], "S": ["tortoise", "penguin"], "W": ["crab", "booby"]}


class Clock:
    """The controller's and the session's clock, walked by hand (one sand-timer second per tick)."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def model_oled(*, block: bool, threaded: bool, kind: str = "ssd1306") -> tuple[Oled, I2CBusModel]:
    bus = I2CBusModel(RATE_HZ, block=block)
    return Oled(open_device(kind, serial=bus), threaded=threaded), bus


def full_frame_bytes() -> int:
    oled, _ = model_oled(block=False, threaded=False)
    from PIL import Image

    blank = Image.new("1", (128, 64))
    blank.putpixel((0, 0), 1)
    oled.show(blank)  # the glass is unknown at first: every page goes
    return oled.last_push_bytes


def timer_ticks(folder: Path) -> list[int]:
    """Bytes sent for each second of a running sand timer."""
    from companion.board.controller import TableController
    from companion.table.journal import Journal
    from companion.table.session import Session

    clock = Clock()
    session = Session.new(Journal(folder / "timer.db"), "galapagos-dice", ["Ann", "Bob"],
                          {"layout_seed": 1, "timer_seconds": TICKS + 20}, clock=clock)
    while session.timer is None:
        cands = [a for a in session.rules.candidates(session.state) if a["type"] != "timer_expired"]
        plans = [a for a in cands if a["type"] == "plan"]
        session.act((plans or cands)[0])
    oled, _ = model_oled(block=False, threaded=False)
    ctl = TableController(session, oled, clock=clock)
    def tick(_: int) -> None:
        clock.now += 1.0
        ctl.tick()

    return _pushes(oled, ctl, session, tick, TICKS, "the sand timer screen never changed")


def _pushes(oled: Oled, ctl: Any, session: Any, step: Any, count: int, never: str) -> list[int]:
    """Bytes of each frame that ``count`` calls of ``step(i)`` put on the bus (frames that changed)."""
    sizes = []
    try:
        for i in range(count):
            pushed = oled.pushed
            step(i)
            if oled.pushed > pushed:
                sizes.append(oled.last_push_bytes)
    finally:
        ctl.close()
        session.close()
    if not sizes:
        raise RuntimeError(never)
    return sizes


def dial_turns(folder: Path, field: int = 2, kind: str = "ssd1306") -> list[int]:
    """Bytes sent for each detent of the dial on the bid's ``field``-th item (2: the amount, 1: the square)."""
    from companion.board.controller import TableController
    from companion.table.journal import Journal
    from companion.table.session import Session

    clock = Clock()
    session = Session.new(Journal(folder / f"dial{field}{kind}.db"), "galapagos-auction", ["Ann", "Bob", "Cy"],
                          clock=clock)
    for direction, animals in TILES.items():
        session.act({"type": "tile", "direction": direction, "animals": animals})
    oled, _ = model_oled(block=False, threaded=False, kind=kind)
    ctl = TableController(session, oled, clock=clock)
    for _ in range(field):  # Down walks from the move to its fields
        ctl.handle(ButtonEvent("down"))
    return _pushes(oled, ctl, session, lambda i: ctl.handle(EncoderEvent(+1 if i % 4 < 2 else -1)), TURNS,
                   "turning the dial never changed the screen")


def press_to_photons(folder: Path) -> tuple[list[float], list[int]]:
    """Milliseconds from the press edge to the last byte of the frame it caused, and its bytes."""
    from companion.board.config import Config
    from companion.board.controller import TableController
    from companion.board.devices import open_devices
    from companion.table.journal import Journal
    from companion.table.session import Session

    Device.pin_factory = MockFactory()
    cfg = Config()  # the shipped debounce (bounce_ms = 20): the leading-edge filter of hw.inputs
    session = Session.new(Journal(folder / "press.db"), "galapagos-auction", ["Ann", "Bob", "Cy"])
    for direction, animals in TILES.items():
        session.act({"type": "tile", "direction": direction, "animals": animals})
    devices = open_devices(cfg, db_path=str(folder / "press.db"))
    devices.oled.close()
    devices.oled, bus = model_oled(block=False, threaded=True)
    ctl = TableController(session, devices.oled, beeper=devices.beeper, leds=devices.leds, registry=devices.registry)
    devices.attach(ctl)
    presses: list[Any] = []
    devices.listeners.append(lambda e: presses.append(e) if isinstance(e, ButtonEvent) else None)
    devices.start()
    freeze_start_up_heap()  # as `companion run` does once the table has started
    oled = devices.oled
    pins = {name: Device.pin_factory.pin(cfg.buttons()[name]) for name in ("up", "down")}
    samples, sizes = [], []
    try:
        oled.flush(5)
        time.sleep(max(0.0, bus.busy_until - time.perf_counter()))
        for i in range(PRESSES):
            pin = pins["up" if i % 2 else "down"]
            before = oled.sent
            start = time.perf_counter()
            pin.drive_low()
            for _ in range(BOUNCES):  # the contacts chatter as they close: dropped by the debounce
                pin.drive_high()
                pin.drive_low()
            if not oled.wait_pushed(before, 5):
                raise RuntimeError(f"press {i} put no new frame on the glass")
            samples.append((bus.busy_until - start) * 1000)  # the last byte, on the bus's timeline
            sizes.append(oled.last_push_bytes)
            pin.drive_high()
            oled.flush(5)
            # the bus idle again, then a pause longer than the debounce window (a finger's pace)
            time.sleep(max(0.0, bus.busy_until - time.perf_counter()) + cfg.bounce_ms / 1000 + 0.002)
        devices.drain(5)
    finally:
        ctl.close()
        devices.close()
        session.close()
    if len(presses) != PRESSES:
        raise RuntimeError(f"{PRESSES} presses with {BOUNCES} bounces each reached the table as {len(presses)}")
    return samples, sizes, cfg.bounce_ms


def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ticks, turns, choices = timer_ticks(folder), dial_turns(folder, 2), dial_turns(folder, 1)
        sh1106 = dial_turns(folder, 1, "sh1106")  # page addressing: one window per page and run
        photons, press_bytes, bounce_ms = press_to_photons(folder)
    tick, turn, choice = median(ticks), median(turns), max(median(choices), median(sh1106))
    full = full_frame_bytes()
    ms_per_byte = BITS_PER_BYTE / RATE_HZ * 1000
    p99 = percentile(photons, 99)
    return {
        "oled_bytes_per_timer_tick": metric(
            tick, "bytes", "<= 256", timer_tick_median_bytes=tick, full_frame_bytes=full,
            timer_tick_ms_at_400khz=round(tick * ms_per_byte, 3), full_frame_ms_at_400khz=round(full * ms_per_byte, 3),
            full_frame_ms_at_100khz=round(full * ms_per_byte * 4, 3)),
        # a turn of the dial: the larger median of the two kinds (an amount, a choice with its preview line)
        "oled_bytes_per_dial_turn": metric(
            max(turn, choice), "bytes", "<= 256", amount_turn_median_bytes=turn,
            choice_turn_median_bytes=median(choices),
            choice_turn_max_bytes=max(choices), sh1106_choice_turn_median_bytes=median(sh1106),
            sh1106_choice_turn_max_bytes=max(sh1106), turn_ms_at_400khz=round(max(turn, choice) * ms_per_byte, 3)),
        "button_to_photons_p99_ms": metric(
            p99, "ms", "<= 10", median_ms=round(median(photons), 4), presses=PRESSES, bounce_ms=bounce_ms,
            bounces_per_press=BOUNCES, debounce="leading edge (hw.inputs)",
            with_lgpio_debounce_p99_ms=round(p99 + bounce_ms, 4),  # lgpio reports a level stable for bounce_ms
            press_median_bytes=median(press_bytes), press_bus_ms=round(median(press_bytes) * ms_per_byte, 3),
            bus_hz=RATE_HZ, bits_per_byte=BITS_PER_BYTE,
            load_1min_after_presses=round(os.getloadavg()[0], 2), cores=os.cpu_count()),
    }


if __name__ == "__main__":
    emit(run())
