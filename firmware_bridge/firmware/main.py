"""Entry point on the Pico: the device's /main.py holds ``from firmware import main; main.run()``
(see docs/hardware.md for copying the files)."""

from . import config
from .app import Firmware
from .board import Board, maintenance_requested


def run():
    if maintenance_requested():
        print("galapagos bridge: maintenance mode (button 0 held), REPL left free")
        return
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
