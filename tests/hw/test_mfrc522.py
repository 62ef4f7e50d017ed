"""The Pi's MFRC522 backend: the firmware's driver over spidev, on the datasheet model of the chip.

The model (firmware_bridge/chip.py) follows the MFRC522 datasheet and ISO/IEC 14443-3's tag
states; the chip selects and reset lines are gpiozero devices on its MockFactory, and the model
only hears a transfer when its select line is really low: the kernel's CE for a plain spidev
transfer, the GPIO (and not CE) when ``cs_pin`` is set.
"""

from __future__ import annotations

import sys

import pytest

import hw.rfid.mfrc522 as backend_module
from firmware_bridge.chip import MFRC522Chip, RealClock, Tag
from hw.rfid import DebounceSettings, ReaderError, ReaderGroup, load_backend
from tests.hw.kernel_spi import SPI_NO_CS, SpiKernel

UID7 = bytes.fromhex("04A1B2C3D4E5F6")
UID4 = bytes.fromhex("DEADBEEF")


class Wiring:
    """Chips on the SPI buses, each selected by a CE line of spidev or by a GPIO.

    The spidev nodes are :class:`~tests.hw.kernel_spi.SpiKernel`'s (the mode is the node's, as
    in Linux); a transfer reaches the chip on the node's CE line unless the node is in
    SPI_NO_CS, and every chip whose GPIO select is low.
    """

    def __init__(self, factory, dev) -> None:
        self.factory = factory
        self.clock = RealClock()
        self.chips: dict[tuple[str, int], MFRC522Chip] = {}
        self.strays = 0  # transfers that reached no chip
        self.kernel = SpiKernel(dev, self.transfer)
        for bus, device in ((0, 0), (0, 1), (1, 0), (1, 1), (1, 2)):
            self.kernel.add_node(bus, device)

    @property
    def opened(self) -> list:
        return self.kernel.handles

    @property
    def refuse_no_cs(self) -> bool:
        return self.kernel.refuse_no_cs

    @refuse_no_cs.setter
    def refuse_no_cs(self, value: bool) -> None:
        self.kernel.refuse_no_cs = value

    def chip(self, select: tuple[str, int], *tags: Tag, **kwargs) -> MFRC522Chip:
        chip = MFRC522Chip(list(tags), clock=self.clock, **kwargs)
        self.chips[select] = chip
        return chip

    def selected(self, device: int, no_cs: bool) -> list[MFRC522Chip]:
        out = [] if no_cs else [c for (kind, n), c in self.chips.items() if kind == "ce" and n == device]
        out += [c for (kind, n), c in self.chips.items() if kind == "gpio" and self.factory.pin(n).state == 0]
        return out

    def transfer(self, node: tuple[int, int], mode: int, data: bytes) -> bytes:
        chips = self.selected(node[1], bool(mode & SPI_NO_CS))
        assert len(chips) <= 1, "two chips selected at once"
        if not chips:
            self.strays += 1
            return bytes(len(data))
        return chips[0].transaction(data)


@pytest.fixture
def wiring(mock_factory, monkeypatch, tmp_path):
    w = Wiring(mock_factory, tmp_path / "dev")
    monkeypatch.setitem(sys.modules, "spidev", w.kernel.module())
    monkeypatch.setattr(backend_module, "SPIDEV_DIR", str(tmp_path / "dev"))
    return w


def reader(point: str, **options):
    return load_backend("mfrc522")(point, options, debounce=DebounceSettings(hold=0, misses=1))


def test_a_7_byte_ntag_is_read_on_every_poll(wiring):
    tag = Tag(UID7)
    wiring.chip(("ce", 0), tag)
    r = reader("scan")
    r.open()
    try:
        assert [r.read_uid() for _ in range(4)] == [UID7] * 4
    finally:
        r.close()
    assert tag.state == "POWER-OFF"  # the field is off between polls
    assert "ACTIVE" in tag.log and "HALT" in tag.log  # selected at level 2, then halted
    assert wiring.opened[0].closed and wiring.opened[0].max_speed_hz == 1_000_000


def test_an_unwired_reader_is_refused_at_open_with_the_version_it_read(wiring):
    wiring.chip(("ce", 0), present=False)
    r = reader("scan")
    with pytest.raises(ReaderError, match=r"no MFRC522 answers on SPI 0\.0 \(its version register reads 0x00\)"):
        r.open()
    assert wiring.opened[0].closed


def test_gpio_chip_selects_let_three_readers_share_a_bus_without_touching_ce(wiring):
    tags = {22: Tag(UID4), 23: Tag(UID7), 24: Tag(bytes.fromhex("0400A1B2C3D4E5F60708"))}
    for pin, tag in tags.items():
        wiring.chip(("gpio", pin), tag)
    ce0 = wiring.chip(("ce", 0), Tag(bytes.fromhex("11223344")))  # something on CE0 that must stay quiet
    readers = [reader(f"p{pin}", cs_pin=pin) for pin in tags]
    load_backend("mfrc522").prepare(readers)  # as ReaderGroup.start does: every select high first
    for r in readers:
        r.open()
    try:
        assert [r.read_uid() for r in readers] == [t.uid for t in tags.values()]
        assert all(spi.no_cs for spi in wiring.opened)
        assert ce0.transfers == 0 and wiring.strays == 0
    finally:
        for r in readers:
            r.close()
    assert all(wiring.factory.pin(pin).state == 1 for pin in tags)  # released high


def test_readers_polled_from_their_own_threads_take_turns_on_the_bus(wiring):
    for pin, uid in ((22, UID4), (23, UID7)):
        wiring.chip(("gpio", pin), Tag(uid))
    group = ReaderGroup([reader("N", cs_pin=22), reader("E", cs_pin=23)], interval=0.001)
    seen = []
    group.subscribe(seen.append)
    group.start()
    try:
        from tests.hw.conftest import wait_until

        assert wait_until(lambda: {e.point for e in seen} == {"N", "E"}, 5.0)
    finally:
        group.stop()
    assert sum(r.errors for r in group.readers.values()) == 0  # never two selects low at once


def test_reset_pins_are_per_reader_or_shared_and_gain_comes_from_config(wiring):
    a = wiring.chip(("ce", 0), Tag(UID4))
    b = wiring.chip(("ce", 1), Tag(UID7))
    ra = reader("scan", spi_device=0, rst_pin=25, antenna_gain=7)
    rb = reader("bag", spi_device=1, rst_pin=25)  # one RST line for both: no "pin in use"
    ra.open()
    rb.open()
    try:
        assert (a.gain, b.gain) == (7, 4)
        assert wiring.factory.pin(25).state == 1  # held high while either is open
        assert (ra.read_uid(), rb.read_uid()) == (UID4, UID7)
    finally:
        ra.close()
        assert wiring.factory.pin(25).state == 1
        rb.close()


def test_without_spi_the_error_says_how_to_enable_it():
    with pytest.raises(ReaderError, match="raspi-config nonint do_spi 0"):
        load_backend("mfrc522")("N", {"spi_bus": 0, "spi_device": 7}).open()
