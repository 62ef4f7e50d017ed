"""Entry point on the Pico: the device's /main.py holds ``from firmware import main; main.run()``
(see docs/hardware.md for copying the files)."""

import sys

from . import config
from .app import Firmware
from .board import Board, maintenance_requested

ERROR_LOG = "last_error.txt"


def run():
    """Run the bridge for ever. An exception never reaches the REPL: the USB serial line carries
    the protocol, and a REPL prompt there would leave the host reading garbage until the watchdog
    fired. Instead the traceback goes to ``last_error.txt`` on the Pico's flash and the board
    resets at once; the host sees the new boot id and resyncs."""
    if maintenance_requested():
        print("galapagos bridge: maintenance mode (button 0 held), REPL left free")
        return
    try:
        board = Board()
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
    except Exception as exc:  # anything but a reset is worse than a reset
        record(exc)
        reset()


def record(exc):
    try:
        with open(ERROR_LOG, "w") as log:
            if hasattr(sys, "print_exception"):  # MicroPython
                sys.print_exception(exc, log)
            else:
                log.write(repr(exc) + "\n")
    except OSError:
        pass


def reset():
    import machine

    machine.reset()
