"""The PN532 backend: bounded retries, "no tag" told from a bad frame, errors that name the fix.

The backend's own logic, against a stand-in for the library's two calls it uses
(``send_command``, ``process_response``) answering as the PN532 user manual says (the real
driver, constructor and all, runs in test_pn532_real.py): InListPassiveTarget answers
NbTg = 0 once its bounded retries are spent, and never answers while the retries are unbounded
(the default, 0xFF). Opening runs pyserial on real pseudo-terminals.
"""

from __future__ import annotations

import os

import pytest
import serial

from hw.rfid import ReaderError, load_backend
from hw.rfid.pn532 import INLISTPASSIVETARGET, MAX_RETRIES_ITEM, RFCONFIGURATION

UID7 = bytes.fromhex("04A1B2C3D4E5F6")


class PN532Model:
    """The two library calls, over a model of the chip's passive activation."""

    def __init__(self) -> None:
        self.tag: bytes | None = None
        self.retries = 0xFF  # the chip's default: for ever
        self.listening = False
        self.calls: list[int] = []
        self.fail_next: Exception | None = None

    def SAM_configuration(self) -> None:
        self.calls.append(0x14)

    def call_function(self, command, response_length=0, params=b"", timeout=1):
        self.calls.append(command)
        if command == RFCONFIGURATION and params[0] == MAX_RETRIES_ITEM:
            self.retries = params[3]
        return b""

    def send_command(self, command, params=b"", timeout=1):
        if self.fail_next is not None:
            exc, self.fail_next = self.fail_next, None
            raise exc
        self.calls.append(command)
        self.listening = command == INLISTPASSIVETARGET
        return True

    def process_response(self, command, response_length=0, timeout=1):
        if not self.listening:
            return None
        if self.tag is None:
            if self.retries == 0xFF:
                return None  # still retrying: the answer would come late, after the timeout
            return b"\x00"  # NbTg = 0
        return bytes((1, 1, 0x00, 0x44, 0x00, len(self.tag))) + self.tag


@pytest.fixture
def pn532(monkeypatch):
    model = PN532Model()
    monkeypatch.setitem(__import__("hw.rfid.pn532", fromlist=["_OPENERS"])._OPENERS, "uart", lambda self: model)
    reader = load_backend("pn532")("bag", {"interface": "uart"})
    reader.open()
    return reader, model


def test_open_bounds_the_passive_activation_retries(pn532):
    reader, model = pn532
    assert model.retries == 1 and RFCONFIGURATION in model.calls


def test_no_tag_is_none_and_a_tag_is_its_uid_poll_after_poll(pn532):
    reader, model = pn532
    assert reader.read_uid() is None  # NbTg = 0, not "More than one card detected!"
    model.tag = UID7
    assert [reader.read_uid() for _ in range(3)] == [UID7] * 3
    model.tag = bytes.fromhex("0400A1B2C3D4E5F60708")
    assert reader.read_uid() == model.tag  # 10-byte UIDs too


def test_the_librarys_exceptions_are_a_missed_poll_not_a_stopped_reader(pn532):
    reader, model = pn532
    model.tag = UID7
    reader.poll()
    model.fail_next = RuntimeError("Did not receive expected ACK from PN532!")
    assert reader.poll() == [] and reader.errors == 1 and reader.uid == UID7.hex().upper()
    assert reader.read_uid() == UID7


def test_an_unknown_interface_is_refused():
    with pytest.raises(ReaderError, match="uart, i2c or spi"):
        load_backend("pn532")("scan", {"interface": "usb"}).open()


def test_a_missing_uart_says_how_to_enable_it():
    reader = load_backend("pn532")("bag", {"port": "/dev/ttyNOPE9"})
    with pytest.raises(ReaderError, match="/dev/ttyNOPE9 does not exist: enable the"):
        reader.open()


def test_a_uart_held_by_another_program_is_named_so():
    master, slave = os.openpty()
    path = os.ttyname(slave)
    holder = serial.Serial(path, exclusive=True)
    try:
        with pytest.raises(ReaderError, match="held by another program \\(is a companion already running\\?\\)"):
            load_backend("pn532")("bag", {"port": path}).open()
    finally:
        holder.close()
        os.close(master)
        os.close(slave)


def test_a_free_uart_with_nothing_on_it_names_the_package_or_the_wiring():
    master, slave = os.openpty()
    try:  # without the library (this machine): the package; with it (a Pi): no PN532 answers
        with pytest.raises(ReaderError, match="needs adafruit_pn532|the PN532 does not answer on uart"):
            load_backend("pn532")("bag", {"port": os.ttyname(slave)}).open()
    finally:
        os.close(master)
        os.close(slave)


def test_a_pn532_on_the_uart_takes_no_spi_lock(pn532):
    from hw.rfid.mfrc522 import bus_lock

    reader, model = pn532
    with bus_lock(0):  # an MFRC522 polling SPI0 does not hold up the UART reader
        assert reader.read_uid() is None
