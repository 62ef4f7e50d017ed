"""MFRC522 (RC522) on the Pi's SPI bus, through the ``razrc522`` driver.

razrc522 is the maintained descendant of pi-rc522 that drives its RST/CE
lines with gpiozero instead of RPi.GPIO, so it uses the same pin factory as
the rest of the table (lgpio on a current Pi OS). It is Pi-only and lives in
the ``pi`` extra.

Options (``[[readers]]`` entries with ``backend = "mfrc522"``):

* ``spi_bus`` (0), ``spi_device`` (0 → /dev/spidev0.0, 1 → CE1);
* ``rst_pin`` (BCM, 25; each reader needs its own, or 0 with RST tied high);
* ``ce_pin`` (0 = the bus's hardware chip select; a BCM pin lets more than
  two readers share one bus);
* ``antenna_gain`` (0..7, the chip's receiver gain; 4 = 33 dB by default).

Presence is polled: WUPA wakes the tag even from HALT, anti-collision reads
its UID, and SELECT + HALT park it so the next poll finds it again.
"""

from __future__ import annotations

import os
from typing import Any

from hw.rfid.base import Reader, ReaderError

_WUPA = 0x52  # wake-up: answered by idle *and* halted tags
_CASCADE_TAG = 0x88  # first UID byte of a 7-byte UID's first cascade level


class Backend(Reader):
    backend = "mfrc522"

    rfid: Any = None

    def open(self) -> None:
        bus = int(self.options.get("spi_bus", 0))
        dev = int(self.options.get("spi_device", 0))
        if not os.path.exists(f"/dev/spidev{bus}.{dev}"):
            raise ReaderError(f"Reader {self.point}: /dev/spidev{bus}.{dev} is missing: enable SPI (sudo raspi-config nonint do_spi 0).")
        try:
            from razrc522.rfid import RFID
        except ImportError:
            raise ReaderError(f"Reader {self.point} needs the razrc522 package: pip install 'galapagos-companion[pi]'.") from None
        try:
            self.rfid = RFID(
                bus=bus,
                device=dev,
                speed=int(self.options.get("speed", 1_000_000)),
                pin_rst=int(self.options.get("rst_pin", 25)),
                pin_ce=int(self.options.get("ce_pin", 0)),
                pin_irq=None,
                antenna_gain=self.options.get("antenna_gain"),
            )
        except PermissionError:
            raise ReaderError(f"Reader {self.point}: no permission on /dev/spidev{bus}.{dev}: add the user to group spi.") from None

    def read_uid(self) -> bytes | None:
        rfid = self.rfid
        error, _ = rfid.request(_WUPA)
        if error:
            return None
        error, level1 = rfid.anticoll()
        if error:
            return None
        if level1[0] != _CASCADE_TAG:
            if not rfid.select_tag(level1):
                rfid.halt()
            return bytes(level1[:4])
        # 7-byte UID (NTAG stickers): select level 1, then anti-collision level 2.
        if rfid.select_tag(level1):
            return None
        error, level2 = rfid.anticoll2()
        if error:
            return None
        return bytes(level1[1:4] + level2[:4])

    def close(self) -> None:
        if self.rfid is not None:
            self.rfid.cleanup()
            self.rfid.spi.close()
            self.rfid = None
