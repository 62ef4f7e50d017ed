"""A detent of the dial crosses the OLED's I2C bus in at most 256 bytes, on both drivers.

The real luma.oled SSD1306 and SH1106 drivers talk to the bus model, which counts every byte
(address and control bytes included) and keeps the controller's display RAM; the table
controller renders from a real auction session. A turn on a choice changes the value and its
preview line: the preview's cap height sits on one display page, so the turn sends that page
and only the few columns of i/j dots and descenders around it (it sent 288-296 bytes when the
line straddled two pages). The glass must still hold exactly the frame drawn.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.board.controller import TableController
from companion.table.journal import Journal
from companion.table.session import Session
from hw.busmodel import ControllerRam, I2CBusModel
from hw.events import ButtonEvent, EncoderEvent
from hw.oled import Oled, open_device, page_bytes

TILES = {"N": ["crab", "iguana"], "E": ["sea_lion", "booby"], "S": ["tortoise", "penguin"], "W": ["crab", "booby"]}
BUDGET = 256


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def turn_bytes(tmp_path: Path, kind: str, field: int) -> tuple[list[int], list[bytes], Oled, ControllerRam]:
    """Bytes on the bus for each of 8 detents on the bid's ``field``-th item (1: the square, 2: the amount)."""
    clock = Clock()
    session = Session.new(Journal(tmp_path / f"{kind}{field}.db"), "galapagos-auction", ["Ann", "Bob", "Cy"],
                          clock=clock)
    for direction, animals in TILES.items():
        session.act({"type": "tile", "direction": direction, "animals": animals})
    ram = ControllerRam(kind)
    bus = I2CBusModel(400_000, block=False, ram=ram)
    oled = Oled(open_device(kind, serial=bus), threaded=False)
    ctl = TableController(session, oled, clock=clock)
    for _ in range(field):
        ctl.handle(ButtonEvent("down"))
    sizes, previews = [], []
    try:
        for i in range(8):
            before = bus.bytes
            ctl.handle(EncoderEvent(+1 if i % 4 < 2 else -1))
            sizes.append(bus.bytes - before)
            previews.append(page_bytes(oled.frame)[4])
    finally:
        ctl.close()
        session.close()
    return sizes, previews, oled, ram


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_a_turn_between_choices_sends_at_most_256_bytes_and_the_glass_holds_the_frame(tmp_path, kind):
    sizes, previews, oled, ram = turn_bytes(tmp_path, kind, field=1)
    # every later detent moves between squares; the first leaves the field's « ? » for the first
    # square (see the next test)
    assert all(size > 0 for size in sizes), sizes
    assert max(sizes[1:]) <= BUDGET, sizes
    assert len(set(previews)) >= 3, "the preview line (the tile's animals) must change with the square"
    assert ram.pages() == page_bytes(oled.frame)


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_the_first_detent_of_a_field_sends_at_most_256_bytes_too(tmp_path, kind):
    """Before it, the field's name stands on the preview line and « ? » in the value's box; the first
    detent puts the first square and its tile there (it sent 280 bytes with « Direction? » across the
    value line, 270 on the SH1106)."""
    sizes, previews, oled, ram = turn_bytes(tmp_path, kind, field=1)
    assert 0 < sizes[0] <= BUDGET, sizes
    assert previews[0] != previews[1]
    assert ram.pages() == page_bytes(oled.frame)


def test_before_the_first_detent_the_field_is_named_and_the_value_asked(tmp_path):
    clock = Clock()
    session = Session.new(Journal(tmp_path / "named.db"), "galapagos-auction", ["Ann", "Bob", "Cy"], clock=clock)
    for direction, animals in TILES.items():
        session.act({"type": "tile", "direction": direction, "animals": animals})
    ctl = TableController(session, Oled(open_device("dummy"), threaded=False), clock=clock)
    try:
        ctl.handle(ButtonEvent("down"))
        assert (ctl.preview(), ctl.entry_segments()) == ("Direction", (("?", True),))
        ctl.handle(EncoderEvent(+1))
        assert (ctl.preview(), ctl.entry_segments()) == ("crab + iguana", (("North", True),))
    finally:
        ctl.close()
        session.close()


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_a_turn_on_an_amount_stays_a_few_dozen_bytes(tmp_path, kind):
    sizes, _, oled, ram = turn_bytes(tmp_path, kind, field=2)
    assert max(sizes[1:]) <= 64, sizes  # the first detent replaces « Amount » and « ? » with the first amount
    assert ram.pages() == page_bytes(oled.frame)
