"""The bridge's entry point on the Pico: the device's /main.py (``firmware_bridge/pico_root``)
turns Ctrl-C off and calls :func:`run`; ``companion firmware install`` copies both."""

import sys

import micropython

from . import config

ERROR_LOG = "last_error.txt"


def run():
    """Run the bridge for ever. Nothing but a reset ever leaves this function: the USB serial line
    carries the protocol, and a REPL prompt there would leave the host reading garbage.

    In this order: Ctrl-C off (0x03 is data here; the device's /main.py did it already, this
    covers an older one), maintenance mode (the REPL left free, no watchdog), the watchdog, and
    only then the imports and the readers' set-up, inside a ``try`` that catches *everything* —
    ``KeyboardInterrupt`` is no ``Exception`` — writes it to ``last_error.txt`` and resets: the
    host sees a new boot id and resyncs."""
    micropython.kbd_intr(-1)
    import machine  # late: MicroPython: machine exists only on the Pico, taken after Ctrl-C is off

    if maintenance(machine):
        micropython.kbd_intr(3)
        print("galapagos bridge: maintenance mode, REPL left free (reset to run the bridge)")
        return
    wdt = machine.WDT(timeout=config.WATCHDOG_MS)
    try:
        from .app import Firmware  # late: after the watchdog: a failed import resets
        from .board import Board  # late: as above

        board = Board(wdt)
        firmware = Firmware(
            board,
            len(config.READER_CS),
            len(config.BUTTONS),
            dice_slots=config.DICE_SLOTS,
            dice_faces=config.DICE_FACES,
            firmware=config.FIRMWARE,
            misses=config.MISSES_TO_REMOVE,
            stable_ms=config.DEBOUNCE_MS,
        )
        while True:
            firmware.step(board)
    except BaseException as exc:  # noqa: BLE001 - anything but a reset is worse than a reset
        record(exc)
        machine.reset()


def maintenance(machine):
    """Maintenance asked for: by the host (MAINTENANCE wrote the flag file, removed here so the
    next reset runs the bridge again) or by button 0 held at power-up."""
    import os  # late: MicroPython: the RAM is small and os is needed at maintenance only

    try:
        os.remove(config.MAINTENANCE_FLAG)
        return True
    except OSError:
        pass
    return machine.Pin(config.BUTTONS[0], machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def record(exc):
    try:
        with open(ERROR_LOG, "w") as log:
            if hasattr(sys, "print_exception"):  # MicroPython
                sys.print_exception(exc, log)
            else:
                log.write(repr(exc) + "\n")
    except BaseException:  # noqa: BLE001 - a full flash (or another 0x03) must not stop the reset
        pass
