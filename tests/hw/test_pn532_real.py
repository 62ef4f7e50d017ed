"""The PN532 backend with Adafruit's own driver (adafruit-circuitpython-pn532 2.4.9), its
constructor, ``_wait_ready``, frame reads and retry loops, over emulated SPI and I2C buses
and a frame-level PN532 (tests/hw/pn532_chip.py) that answers or stays silent.
"""

from __future__ import annotations

import errno
import sys
import threading
import time

import pytest

import hw.rfid.mfrc522 as mfrc522_backend
from firmware_bridge.chip import Tag
from hw.rfid import ReaderError, load_backend
from hw.rfid.mfrc522 import bus_lock
from tests.hw.kernel_i2c import I2CKernel
from tests.hw.kernel_spi import SPI_NO_CS
from tests.hw.pn532_chip import PN532Chip
from tests.hw.test_mfrc522 import UID4, UID7, Wiring, reader

pytest.importorskip("adafruit_pn532", reason="the test extra installs adafruit-circuitpython-pn532")


@pytest.fixture
def spi(mock_factory, monkeypatch, tmp_path):
    """SPI0 with MFRC522s (test_mfrc522's wiring) and a PN532 selected by GPIO 5."""
    wiring = Wiring(mock_factory, tmp_path / "dev")
    chip = PN532Chip()
    mfrc522_transfer = wiring.transfer

    def transfer(node, mode, data):
        pin = mock_factory.pin(5)
        if pin.function == "output" and pin.state == 0:
            assert mode & SPI_NO_CS, "the PN532's transfers must leave CE0 alone"
            assert bus_lock(0).locked(), "each PN532 transfer takes turns with the MFRC522s"
            return chip.spi(data)
        return mfrc522_transfer(node, mode, data)

    wiring.kernel.transfer = transfer
    monkeypatch.setitem(sys.modules, "spidev", wiring.kernel.module())
    monkeypatch.setattr(mfrc522_backend, "SPIDEV_DIR", str(tmp_path / "dev"))
    wiring.pn532 = chip
    return wiring


@pytest.fixture
def i2c(mock_factory, monkeypatch):
    kernel = I2CKernel()
    kernel.install(monkeypatch.setattr)
    kernel.pn532 = kernel.attach(0x24, PN532Chip())
    return kernel


def pn532(point="N", **options):
    return load_backend("pn532")(point, options)


def test_on_spi_the_real_driver_reads_a_tag_with_bounded_retries(spi) -> None:
    r = pn532(interface="spi", cs_pin=5)
    r.open()
    try:
        assert spi.pn532.retries == 1 and spi.pn532.commands[:3] == [0x14, 0x02, 0x14]
        assert r.read_uid() is None  # NbTg = 0
        spi.pn532.tag = UID7
        assert r.read_uid() == UID7
    finally:
        r.close()
    assert spi.factory.pin(5).state == 1 or spi.factory.pin(5).function == "input"


def test_an_absent_pn532_on_spi_never_holds_spi0_for_the_mfrc522s(spi) -> None:
    """Before, its constructor (1.5 s of the library's timeouts) and configure (as long again) ran
    under SPI0's bus lock at every re-open: every MFRC522 on SPI0 stopped reading meanwhile."""
    spi.pn532.present = False
    spi.chip(("gpio", 22), Tag(UID4))
    neighbour = reader("bag", spi_device=1, cs_pin=22)
    load_backend("mfrc522").prepare([neighbour])
    neighbour.open()
    absent = pn532(interface="spi", cs_pin=5)
    failed: list[str] = []

    def open_absent() -> None:
        try:
            absent.open()
        except ReaderError as exc:
            failed.append(str(exc))

    opener = threading.Thread(target=open_absent)
    started = time.monotonic()
    opener.start()
    waits, reads = [], []
    try:
        while opener.is_alive():
            t0 = time.monotonic()
            reads.append(neighbour.read_uid())  # takes SPI0's lock for its poll
            waits.append(time.monotonic() - t0)
        opener.join()
        took = time.monotonic() - started
    finally:
        neighbour.close()
        absent.close()
    assert failed and "the PN532 does not answer on spi" in failed[0]
    assert took < 1.4  # short open timeouts (0.2 s each); the library's own are 1 s + 0.5 s
    assert reads and all(uid == UID4 for uid in reads)
    assert max(waits) < 0.5, max(waits)  # one poll of its own and a status read, not the PN532's 1.5 s
    assert not bus_lock(0).locked()


def test_on_i2c_the_port_is_the_configured_one_and_a_tag_is_read(i2c) -> None:
    chip = i2c.attach(0x24, PN532Chip(), adapter=3)
    r = pn532(interface="i2c", i2c_port=3)
    r.open()
    try:
        chip.tag = UID4
        assert r.read_uid() == UID4
        assert {a for a, _, _, _ in i2c.transfers} == {3}
    finally:
        r.close()
    assert i2c.open_fds == {}


def test_on_i2c_the_request_pin_wakes_the_pn532(i2c, mock_factory) -> None:
    r = pn532(interface="i2c", req_pin=12)
    r.open()
    try:
        levels = [s.state for s in mock_factory.pin(12).states]
        assert False in levels and levels[-1] is True  # pulsed low, left high (Adafruit's _wakeup)
        assert r.read_uid() is None
    finally:
        r.close()


def test_a_pn532_whose_status_reads_fail_leaves_the_i2c_bus_to_the_oled(i2c) -> None:
    """The library's ``_wait_ready`` retried a failed status read at once, thousands of times a
    second on the bus the OLED shares; here each failure pauses 10 ms like an unready chip."""
    r = pn532(interface="i2c", timeout=0.1)
    r.open()
    try:
        i2c.pn532.read_error = errno.ETIMEDOUT  # busy, holding SCL past the adapter's timeout
        asked = len(i2c.transfers)
        start = time.monotonic()
        with pytest.raises(Exception):  # noqa: B017,PT011 - NoAnswer: the poll fails, as it should
            r.read_uid()
        spent = time.monotonic() - start
        nak_reads = [t for t in i2c.transfers[asked:] if t[1] == 0x24]
    finally:
        r.close()
    assert spent >= 0.1 and len(nak_reads) <= 15, len(nak_reads)


def test_what_the_librarys_own_wait_ready_does_on_a_failed_status_read(i2c) -> None:
    """The same failure through Adafruit's unchanged ``PN532_I2C._wait_ready``: the double shows why
    the override exists (the count is in the hundreds at least on any machine)."""
    from adafruit_pn532.i2c import PN532_I2C

    from hw.rfid.pn532.buses import SMBusI2C

    bus = SMBusI2C(1)
    pn = PN532_I2C(bus, debug=False)
    i2c.pn532.read_error = errno.ETIMEDOUT
    naks = {"n": 0}
    i2c.on_transfer = lambda adapter, address: naks.__setitem__("n", naks["n"] + (address == 0x24))
    assert pn._wait_ready(0.05) is False
    bus.deinit()
    assert naks["n"] > 100, naks["n"]


def test_the_config_names_the_request_and_reset_lines_and_claims_their_pins() -> None:
    import tomllib

    from companion.board.config import ConfigError, parse

    text = '[[readers]]\npoint = "N"\nbackend = "pn532"\ninterface = "i2c"\ni2c_port = 3\nreq_pin = 25\nreset_pin = 4\n'
    cfg = parse(tomllib.loads(text))
    assert cfg.readers[0].options == {"interface": "i2c", "i2c_port": 3, "req_pin": 25, "reset_pin": 4}
    assert cfg.pins()["reader N req_pin"] == 25
    with pytest.raises(ConfigError, match="reader N req_pin and button down are both on GPIO 12"):
        parse(tomllib.loads(text.replace("req_pin = 25", "req_pin = 12")))


@pytest.fixture
def hsu():
    from tests.hw.pn532_chip import UartLink

    link = UartLink(PN532Chip())
    yield link
    link.close()


def test_on_the_uart_a_poll_ends_with_the_frame_not_with_the_ports_timeout(hsu) -> None:
    """The library reads 73 bytes for InListPassiveTarget's answer; pyserial's ``read`` waited out
    the port's 0.1 s timeout for the 63 that never come, on every poll: ten polls took 1 s at least.
    (A generous poll timeout: on a loaded machine the emulated chip's thread may answer late.)"""
    r = pn532(interface="uart", port=hsu.path, timeout=0.5)
    r.open()
    try:
        assert hsu.chip.retries == 1
        start = time.monotonic()
        assert [r.read_uid() for _ in range(10)] == [None] * 10
        empty = time.monotonic() - start
        hsu.chip.tag = UID7
        start = time.monotonic()
        assert [r.read_uid() for _ in range(10)] == [UID7] * 10
        tagged = time.monotonic() - start
    finally:
        r.close()
    assert empty < 0.9 and tagged < 0.9, (empty, tagged)  # at least 1 s each before: 0.1 s a poll


def test_a_silent_pn532_on_the_uart_is_refused_in_well_under_a_second(hsu) -> None:
    hsu.chip.present = False
    start = time.monotonic()
    with pytest.raises(ReaderError, match="the PN532 does not answer on uart"):
        pn532(interface="uart", port=hsu.path).open()
    assert time.monotonic() - start < 1.4  # the library's own timeouts: 1 s + 0.5 s


def test_on_i2c_a_missing_adapter_says_how_to_enable_it(i2c) -> None:
    with pytest.raises(ReaderError, match=r"Reader N: /dev/i2c-4 does not exist: enable I2C"):
        pn532(interface="i2c", i2c_port=4).open()
    assert i2c.open_fds == {}


def test_on_i2c_an_absent_pn532_is_refused_and_its_bus_closed(i2c) -> None:
    i2c.detach(0x24)
    for _ in range(20):  # the retries of a table left on
        with pytest.raises(ReaderError, match="the PN532 does not answer on i2c"):
            pn532(interface="i2c").open()
    assert i2c.opened == 20 and i2c.open_fds == {}
