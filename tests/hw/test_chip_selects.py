"""Chip selects that work on every Pi.

SPI_NO_CS is a mode of the spidev *node* (Linux spidev.c): the emulator keeps it per node,
so a GPIO-selected reader opened on the node of a CE-selected one stops that reader's CE
line — the wiring docs/hardware.md used to recommend. Config and doctor refuse the mix;
a controller that rejects SPI_NO_CS (EINVAL, the Pi 5's RP1) gets a sentence with the fix.
"""

from __future__ import annotations

import errno
import os
import tomllib

import pytest

from companion.board.config import ConfigError, parse
from firmware_bridge.chip import Tag
from hw.rfid import ReaderError
from tests.hw.test_mfrc522 import UID4, UID7, load_backend, reader, wiring  # noqa: F401  (fixture)


def test_a_gpio_select_on_a_ce_readers_node_stops_that_reader(wiring) -> None:  # noqa: F811
    """What the emulator now shows (as the kernel does): the mixed wiring loses the CE reader."""
    wiring.chip(("ce", 0), Tag(UID4))
    wiring.chip(("gpio", 22), Tag(UID7))
    ce_reader, gpio_reader = reader("scan"), reader("bag", cs_pin=22)
    load_backend("mfrc522").prepare([ce_reader, gpio_reader])
    ce_reader.open()
    assert ce_reader.read_uid() == UID4
    gpio_reader.open()  # sets SPI_NO_CS on /dev/spidev0.0 ...
    try:
        assert gpio_reader.read_uid() == UID7
        assert wiring.kernel.no_cs(0, 0)  # ... on the node, so for the CE reader too
        with pytest.raises(Exception):  # noqa: B017,PT011 - CE0 no longer selects its chip: it is gone
            for _ in range(6):
                ce_reader.read_uid()
    finally:
        gpio_reader.close()
        ce_reader.close()


def test_gpio_selected_readers_on_their_own_node_leave_the_ce_reader_alone(wiring) -> None:  # noqa: F811
    wiring.chip(("ce", 0), Tag(UID4))
    wiring.chip(("gpio", 22), Tag(UID7))
    ce_reader, gpio_reader = reader("scan"), reader("bag", spi_device=1, cs_pin=22)
    load_backend("mfrc522").prepare([ce_reader, gpio_reader])
    ce_reader.open()
    gpio_reader.open()
    try:
        for _ in range(6):
            assert (ce_reader.read_uid(), gpio_reader.read_uid()) == (UID4, UID7)
    finally:
        gpio_reader.close()
        ce_reader.close()


MIX = """
[[readers]]
point = "scan"
backend = "mfrc522"

[[readers]]
point = "bag"
backend = "mfrc522"
cs_pin = 22
"""


def loads(text: str):  # type: ignore[no-untyped-def]
    return parse(tomllib.loads(text))


def test_config_refuses_the_mix_in_one_sentence() -> None:
    with pytest.raises(ConfigError) as caught:
        loads(MIX)
    message = str(caught.value)
    assert "'bag'" in message and "'scan'" in message and "/dev/spidev0.0" in message and "spi_device = 1" in message
    assert message.count(". ") == 0 and message.endswith(".")
    assert loads(MIX.replace("cs_pin = 22", "spi_device = 1\ncs_pin = 22")).readers[1].options["cs_pin"] == 22


def test_a_pn532_on_spi_beside_mfrc522s_is_refused() -> None:
    text = MIX.replace("cs_pin = 22", "spi_device = 1") + '\n[[readers]]\npoint = "N"\nbackend = "pn532"\ninterface = "spi"\ncs_pin = 5\n'
    with pytest.raises(ConfigError, match="'N' is a PN532 on SPI on /dev/spidev0.0, the node of MFRC522 reader 'scan' on CE0: "
                                          "SPI_NO_CS belongs to the node"):
        loads(text)


OFF_CE0 = """
[[readers]]
point = "scan"
backend = "mfrc522"
spi_device = 1
cs_pin = 25

[[readers]]
point = "bag"
backend = "mfrc522"
spi_device = 1
cs_pin = 22

[[readers]]
point = "N"
backend = "pn532"
interface = "spi"
cs_pin = 4
"""


def test_a_pn532_on_spi_beside_mfrc522s_off_ce0_is_accepted() -> None:
    """The PN532 sets SPI_NO_CS on its own node only, and takes turns under SPI0's lock: readers on
    another node, or on GPIO selects, are fine beside it; a CE reader on its node is not."""
    assert [r.point for r in loads(OFF_CE0).readers] == ["scan", "bag", "N"]
    ce0 = OFF_CE0.replace("spi_device = 1\ncs_pin = 25\n", "", 1)  # "scan" back on CE0
    with pytest.raises(ConfigError, match="'scan' on CE0"):
        loads(ce0)


def test_einval_on_spi_no_cs_says_what_to_do(wiring) -> None:  # noqa: F811
    wiring.refuse_no_cs = True
    wiring.chip(("gpio", 22), Tag(UID7))
    r = reader("bag", spi_device=1, cs_pin=22)
    with pytest.raises(ReaderError, match="refuses SPI_NO_CS.*dtoverlay=spi0-0cs"):
        r.open()
    assert wiring.factory.pin(22).state == 1  # the select stays driven inactive
    r.close()


def test_a_ce_reader_clears_the_spi_no_cs_a_gpio_select_left_on_its_node(wiring) -> None:  # noqa: F811
    """Linux keeps a node's mode after the last close and py-spidev reads it back at open: a
    configuration that used GPIO chip selects on /dev/spidev0.0 leaves SPI_NO_CS there, and a
    reader moved to CE0 must clear it or it never drives CE and looks unwired until a reboot."""
    wiring.chip(("gpio", 22), Tag(UID7))
    before = reader("bag", cs_pin=22)
    load_backend("mfrc522").prepare([before])
    before.open()
    assert before.read_uid() == UID7
    before.close()  # the table stops; the node keeps SPI_NO_CS
    assert wiring.kernel.no_cs(0, 0)
    del wiring.chips[("gpio", 22)]
    wiring.chip(("ce", 0), Tag(UID4))  # rewired to CE0, config without cs_pin
    after = reader("bag")
    after.open()
    try:
        assert after.read_uid() == UID4
        assert not wiring.kernel.no_cs(0, 0)
    finally:
        after.close()


@pytest.mark.parametrize("fault", [errno.ESHUTDOWN, errno.ETIMEDOUT, errno.EIO])
def test_what_xfer2_raises_is_a_failed_poll_and_the_reader_comes_back(wiring, fault) -> None:  # noqa: F811
    """py-spidev raises the OSError of its SPI_IOC_MESSAGE ioctl (a controller unbound, a DMA
    timeout, an I/O error): one failed poll each, never the end of the reader."""
    wiring.chip(("ce", 0), Tag(UID4))
    r = reader("scan")
    r.open()
    try:
        assert r.poll()[0].uid == UID4.hex().upper()
        wiring.kernel.faults[(0, 0)] = fault
        r.poll()
        assert r.errors == 1 and fault_name(fault) in (r.last_error or "")
        del wiring.kernel.faults[(0, 0)]
        r.reopen()
        assert r.read_uid() == UID4
    finally:
        r.close()


def fault_name(code: int) -> str:
    return os.strerror(code)


def test_a_pn532_on_spi_device_1_beside_a_ce0_reader_is_accepted() -> None:
    text = MIX.replace("cs_pin = 22", "spi_device = 1\ncs_pin = 22") + (
        '\n[[readers]]\npoint = "N"\nbackend = "pn532"\ninterface = "spi"\nspi_device = 1\ncs_pin = 4\n')
    assert [r.point for r in loads(text).readers] == ["scan", "bag", "N"]
