"""A PN532 that stops answering is a failing reader, not an empty one.

adafruit-circuitpython-pn532's ``send_command`` catches the ``OSError`` of its write (an I2C
NAK is EREMOTEIO, a UART gone is EIO) and returns False, as it does when the chip never gets
ready; before, the backend read that as « no tag » and the reader stayed healthy for ever.
The stand-in's ``send_command`` does what the library does with the write's error.
"""

from __future__ import annotations

import errno

import pytest

from hw.rfid import ReaderGroup, load_backend
from hw.rfid.pn532 import NoAnswer
from tests.hw.conftest import wait_until
from tests.hw.test_pn532 import UID7, PN532Model


class DeafPN532(PN532Model):
    """The library over a bus whose writes fail (``nak``) or a chip that never gets ready (``silent``)."""

    nak = False
    silent = False

    def _write_frame(self) -> None:
        if self.nak:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def send_command(self, command, params=b"", timeout=1):  # type: ignore[no-untyped-def]
        try:  # adafruit_pn532.PN532.send_command: `except OSError: return False` around the write
            self._write_frame()
        except OSError:
            return False
        if self.silent:  # _wait_ready(timeout) ran out
            return False
        return super().send_command(command, params, timeout)


@pytest.fixture
def deaf(monkeypatch):
    model = DeafPN532()
    monkeypatch.setitem(__import__("hw.rfid.pn532", fromlist=["_OPENERS"])._OPENERS, "uart", lambda self: model)
    return model


@pytest.mark.parametrize("fault", ["nak", "silent"])
def test_no_ack_raises(deaf, fault) -> None:
    reader = load_backend("pn532")("bag", {"interface": "uart"})
    reader.open()
    assert reader.read_uid() is None
    setattr(deaf, fault, True)
    with pytest.raises(NoAnswer, match="no ACK"):
        reader.read_uid()


def test_a_pn532_that_naks_is_marked_down_within_2_s_and_comes_back(deaf) -> None:
    deaf.tag = UID7
    group = ReaderGroup([load_backend("pn532")("bag", {"interface": "uart"})], interval=0.05, retry_max=0.2)
    status: list[object] = []
    group.subscribe_status(status.append)
    group.start()
    try:
        assert wait_until(lambda: group.readers["bag"].uid == UID7.hex().upper(), 2.0)
        deaf.nak = True
        assert wait_until(lambda: any(not e.ok for e in status), 2.0)
        assert not group.readers["bag"].healthy
        deaf.nak = False
        assert wait_until(lambda: any(e.ok for e in status), 3.0)
    finally:
        group.stop()
