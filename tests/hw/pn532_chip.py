"""A PN532 at the frame level, on the SPI and I2C wires, for the real Adafruit driver.

From the PN532 user manual (UM0701-02): the host writes a normal information frame
``00 00 FF LEN LCS D4 CMD … DCS 00``; the chip answers with the ACK frame
``00 00 FF 00 FF 00``, then the response frame ``… D5 CMD+1 …``. Between them the chip is
busy: its status (SPI: the STATREAD byte; I2C: the first byte of every read) is 0x01 only
when a frame is waiting. SPI bytes go least significant bit first (the driver reverses them),
with a leading 0x02 STATREAD, 0x01 DATAWRITE or 0x03 DATAREAD; on I2C a read of n bytes returns
the status byte and n-1 bytes of the waiting frame.

Commands answered: SAMConfiguration, GetFirmwareVersion (PN532 v1.6), RFConfiguration
(MxRtyPassiveActivation kept), InListPassiveTarget (NbTg = 0 once the bounded retries are spent;
no answer at all while they are unbounded, the chip's default).

``present = False`` is a chip that is not there: SPI reads 0x00 (MISO pulled low), I2C NAKs.
"""

from __future__ import annotations

import os
import threading

from tests.hw.kernel_i2c import Target

ACK = bytes.fromhex("0000FF00FF00")
FIRMWARE = bytes((0x32, 0x01, 0x06, 0x07))  # IC PN532, version 1.6, support 7


def reverse(byte: int) -> int:
    return int(f"{byte:08b}"[::-1], 2)


def frame(data: bytes) -> bytes:
    length = len(data)
    return bytes((0x00, 0x00, 0xFF, length, (-length) & 0xFF, *data, (-sum(data)) & 0xFF, 0x00))


class PN532Chip(Target):
    def __init__(self) -> None:
        self.present = True
        self.tag: bytes | None = None
        self.retries = 0xFF
        self.commands: list[int] = []
        self.outbox: list[bytes] = []  # frames waiting for the host: the ACK, then the answer
        self.lock = threading.Lock()
        #: an errno every I2C read raises (ETIMEDOUT: SCL held past the Pi adapter's timeout while
        #: the chip is busy, which the BCM2835 mishandles), writes still acknowledged
        self.read_error: int | None = None

    # -- the protocol ---------------------------------------------------------------------------
    def ready(self) -> bool:
        return bool(self.outbox)

    def host_frame(self, raw: bytes) -> None:
        start = raw.find(b"\x00\xff")
        if start < 0 or len(raw) < start + 4:
            return
        length = raw[start + 2]
        data = raw[start + 4:start + 4 + length]
        if len(data) < 2 or data[0] != 0xD4:
            return
        command, params = data[1], data[2:]
        self.commands.append(command)
        answer = self.answer(command, params)
        self.outbox = [ACK] + ([frame(bytes((0xD5, command + 1)) + answer)] if answer is not None else [])

    def answer(self, command: int, params: bytes) -> bytes | None:
        if command == 0x14:
            return b""
        if command == 0x02:
            return FIRMWARE
        if command == 0x32:
            if params[:1] == b"\x05":
                self.retries = params[3]
            return b""
        if command == 0x4A:
            if self.tag is None:
                return None if self.retries == 0xFF else b"\x00"
            return bytes((1, 1, 0x00, 0x44, 0x00, len(self.tag))) + self.tag
        return b""

    def take(self, n: int) -> bytes:
        """``n`` bytes of the waiting frame (the rest of a frame read short is lost, as on the chip)."""
        out = self.outbox.pop(0) if self.outbox else b""
        return out[:n].ljust(n, b"\0")

    # -- SPI: one transaction with the select low ---------------------------------------------------
    def spi(self, data: bytes) -> bytes:
        if not self.present:
            return bytes(len(data))
        with self.lock:
            raw = bytes(reverse(b) for b in data)
            op = raw[0]
            if op == 0x02:  # STATREAD
                return bytes((0, reverse(0x01 if self.ready() else 0x00)))[: len(data)].ljust(len(data), b"\0")
            if op == 0x01:  # DATAWRITE
                self.host_frame(raw[1:])
                return bytes(len(data))
            if op == 0x03:  # DATAREAD
                return b"\0" + bytes(reverse(b) for b in self.take(len(data) - 1))
            return bytes(len(data))

    # -- I2C: a Target on the emulated adapter ---------------------------------------------------------
    def write(self, data: bytes) -> None:
        with self.lock:
            self.host_frame(data)

    def read(self, n: int) -> bytes:
        if self.read_error is not None:
            raise OSError(self.read_error, os.strerror(self.read_error))
        with self.lock:
            if not self.ready():
                return bytes(n)  # status 0x00: busy
            if n == 1:
                return b"\x01"
            return b"\x01" + self.take(n - 1)


class UartLink:
    """The PN532 on the far side of a pseudo-terminal (its HSU): frames in, ACK and answer out."""

    def __init__(self, chip: PN532Chip) -> None:
        self.chip = chip
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="pn532-hsu", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        import select

        buf = bytearray()
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                buf += os.read(self.master, 512)
            except OSError:
                return
            while True:
                start = buf.find(b"\x00\xff")
                if start < 0 or len(buf) < start + 4:
                    break
                end = start + 6 + buf[start + 2]
                if len(buf) < end:
                    break
                raw, buf = bytes(buf[start:end]), buf[end:]
                if not self.chip.present:
                    continue
                with self.chip.lock:
                    self.chip.host_frame(raw)
                    out, self.chip.outbox = b"".join(self.chip.outbox), []
                os.write(self.master, out)

    def close(self) -> None:
        self._stop.set()
        self.thread.join(timeout=1)
        os.close(self.slave)
        os.close(self.master)
