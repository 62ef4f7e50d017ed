"""adafruit-circuitpython-pn532's classes, with what a table needs of them changed.

Read against adafruit-circuitpython-pn532 2.4.9:

* **The constructor wakes the chip and asks its firmware version**: SAMConfiguration with the
  library's default 1 s timeout, then GetFirmwareVersion with 0.5 s. A PN532 that is not
  there costs 1.5 s per attempt (and as much again in the backend's configure); here both use
  :data:`OPEN_TIMEOUT` (a PN532 answers them within a few milliseconds);
* **SPI's ``_wait_ready`` holds the bus for its whole wait** (``with self._spi`` around the
  polling loop): a silent PN532 on SPI0 held the MFRC522s off for every timeout. Here the bus is
  taken for each status read and left between them;
* **I2C's ``_wait_ready`` retries at once on ``OSError``** (``except OSError: continue``): a
  PN532 that NAKs or stretches the clock past the adapter's timeout is asked again and again
  without a pause, thousands of transfers a second on the bus the OLED shares. Here a failed
  status read pauses like an unready one (10 ms).
"""

from __future__ import annotations

import time
from functools import cache
from typing import Any

#: seconds the chip has to answer SAMConfiguration and GetFirmwareVersion while it is opened
OPEN_TIMEOUT = 0.2
#: the pause between two status reads (the library's own, for an unready chip)
READY_PAUSE = 0.01
SAMCONFIGURATION, GETFIRMWAREVERSION = 0x14, 0x02


@cache
def classes() -> dict[str, type]:
    """``{"uart": ..., "i2c": ..., "spi": ...}``: the driver classes (imports the library)."""
    from adafruit_pn532.adafruit_pn532 import BusyError  # late: optional ([pi]); Blinka is costly
    from adafruit_pn532.i2c import PN532_I2C  # late: as above
    from adafruit_pn532.spi import PN532_SPI, reverse_bit  # late: as above
    from adafruit_pn532.uart import PN532_UART  # late: as above

    class ShortOpen:
        open_timeout = OPEN_TIMEOUT

        def SAM_configuration(self) -> None:  # noqa: N802 - the library's name
            self.call_function(SAMCONFIGURATION, params=[0x01, 0x14, 0x01], timeout=self.open_timeout)  # type: ignore[attr-defined]

        @property
        def firmware_version(self) -> tuple[int, ...]:
            response = self.call_function(GETFIRMWAREVERSION, 4, timeout=self.open_timeout)  # type: ignore[attr-defined]
            if response is None:
                raise RuntimeError("Failed to detect the PN532")
            return tuple(response)

    class UART(ShortOpen, PN532_UART):
        def _read_data(self, count: int) -> bytes:
            """Read one frame, and stop at its end (its LEN byte says where).

            The library reads ``count`` bytes (73 for InListPassiveTarget's answer) with pyserial,
            whose ``read`` waits out its whole timeout for bytes that never come: a 10-byte « no
            tag » frame cost every poll the port's 0.1 s timeout.
            """
            frame = bytearray(self._uart.read(min(count, 5)))
            while len(frame) < count:
                end = _frame_end(frame)
                want = len(frame) + 1 if end is None else min(end, count)
                if want <= len(frame):
                    break  # the frame is whole
                chunk = self._uart.read(want - len(frame))
                if not chunk:
                    break  # the port's timeout: what came is what the library parses
                frame += chunk
            if not frame:
                raise BusyError("No data read from PN532")
            return bytes(frame[:count])

    class I2C(ShortOpen, PN532_I2C):
        def _wait_ready(self, timeout: float = 1) -> bool:
            status = bytearray(1)
            start = time.monotonic()
            while time.monotonic() - start < timeout:
                try:
                    with self._i2c:
                        self._i2c.readinto(status)
                except OSError:  # a NAK, a clock stretched too long: leave the bus to the others a moment
                    time.sleep(READY_PAUSE)
                    continue
                if status == b"\x01":
                    return True
                time.sleep(READY_PAUSE)
            return False

    class SPI(ShortOpen, PN532_SPI):
        def _wait_ready(self, timeout: float = 1) -> bool:
            command = bytearray([reverse_bit(0x02), 0x00])  # STATREAD
            answer = bytearray(2)
            start = time.monotonic()
            while time.monotonic() - start < timeout:
                with self._spi as spi:  # the bus for one status read, not for the whole wait
                    spi.write_readinto(command, answer)
                if reverse_bit(answer[1]) == 0x01:
                    return True
                time.sleep(READY_PAUSE)
            return False

    return {"uart": UART, "i2c": I2C, "spi": SPI}


def _frame_end(frame: bytearray) -> int | None:
    """How long ``frame`` is once whole (preamble ``00 … 00 FF``, LEN, LCS, data, DCS, postamble;
    ACK and NACK have no data and no DCS), or None while its LEN is still to come."""
    start = frame.find(b"\x00\xff")
    if start < 0 or len(frame) < start + 4:
        return None
    length, check = frame[start + 2], frame[start + 3]
    if (length, check) in ((0x00, 0xFF), (0xFF, 0x00)):  # ACK, NACK
        return start + 5
    return start + 6 + length


def driver(interface: str, *args: Any, **kwargs: Any) -> Any:
    """Make the driver for ``interface`` (the library's constructor wakes and checks the chip)."""
    return classes()[interface](*args, **kwargs)
