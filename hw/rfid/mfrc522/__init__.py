"""MFRC522 (RC522) on the Pi's SPI bus, with the firmware's own driver over spidev.

One driver for both sides: ``firmware_bridge/firmware/mfrc522.py`` runs on the
Pico under MicroPython and here under CPython, tested on both against the
datasheet model of the chip and of ISO/IEC 14443-A tags
(``firmware_bridge/chip.py``). It selects every cascade level (4, 7 and
10-byte UIDs: the NTAG stickers docs/hardware.md recommends are 7) and halts
the tag, waits 5 ms for a tag after the field comes on, honours the chip's
timer (an empty poll is about 10 ms, not 2,000 SPI transfers), and reads
VersionReg when it opens, so an unwired reader is an error with a fix rather
than a reader that reads nothing for ever. razrc522 did none of these and is
no longer used.

Options (``[[readers]]`` entries with ``backend = "mfrc522"``):

* ``spi_bus`` (0) and ``spi_device`` (0 → /dev/spidev0.0, CE0; 1 → CE1);
* ``cs_pin`` (a BCM pin): a GPIO chip select of its own, so more than two
  readers share a bus; the kernel's CE line is then left alone (SPI_NO_CS);
* ``rst_pin`` (a BCM pin, none by default): the reader's NRSTPD line, held
  high and pulsed low once at the first open; readers may share one;
* ``antenna_gain`` (0..7, RFCfgReg's RxGain; 4 = 33 dB by default);
* ``speed`` (Hz, 1 MHz).

Readers on one bus take turns: a poll holds the bus's lock from field on to
field off, so only one antenna is on at a time (neighbouring fields disturb
each other's tags) and no two chip selects are ever low together.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from typing import Any

from gpiozero import DigitalOutputDevice

from firmware_bridge.firmware.mfrc522 import MFRC522
from hw.rfid.base import Reader, ReaderError

log = logging.getLogger(__name__)

#: one lock per SPI bus number: a poll holds it from field on to field off
_BUS_LOCKS: dict[int, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()
#: reset lines shared between readers: pin -> [gpiozero device, users]
_RESETS: dict[int, list[Any]] = {}
POLL_PAUSE_US = 300  # between ComIrqReg checks: each check is a system call here


def bus_lock(bus: int) -> threading.Lock:
    with _LOCKS_LOCK:
        return _BUS_LOCKS.setdefault(bus, threading.Lock())


#: where the spidev nodes are (tests point it at a temporary folder of emulated nodes)
SPIDEV_DIR = "/dev"


def open_spi(bus: int, device: int, speed: int, point: str, *, no_cs: bool = False) -> Any:
    """Open /dev/spidev<bus>.<device> (mode 0, ``speed`` Hz) with the spidev package.

    The whole mode is set on every open, chip select included: Linux keeps a spidev node's mode
    after its last close and py-spidev reads it back at open, so a node another configuration
    left in SPI_NO_CS (GPIO chip selects) would never drive CE for a reader on the kernel's
    chip select, which then looks unwired until a reboot. ``no_cs``: the reader has a GPIO chip
    select, and the kernel must leave CE alone.
    """
    path = f"{SPIDEV_DIR}/spidev{bus}.{device}"
    if not os.path.exists(path):
        fix = "sudo raspi-config nonint do_spi 0" if bus == 0 else f"dtoverlay=spi{bus}-{device + 1}cs in config.txt"
        raise ReaderError(f"Reader {point}: /dev/spidev{bus}.{device} is missing: enable SPI ({fix}), then reboot.")
    try:
        import spidev  # late: spidev is optional (the [pi] extra): off a Pi the reader says what to install
    except ImportError:
        raise ReaderError(f"Reader {point} needs the spidev package: pip install 'galapagos-companion[pi]' "
                          "(deploy/install.sh installs the compiler it needs).") from None
    spi = spidev.SpiDev()
    try:
        spi.open(bus, device)
    except PermissionError:
        raise ReaderError(f"Reader {point}: no permission on /dev/spidev{bus}.{device}: add the user to group spi "
                          "(sudo usermod -aG spi $USER), then log in again.") from None
    try:
        spi.mode = 0
        spi.cshigh = False
        spi.lsbfirst = False
        spi.no_cs = no_cs
        spi.max_speed_hz = speed
    except OSError as exc:
        spi.close()
        if no_cs and exc.errno == errno.EINVAL:
            raise ReaderError(
                "This Pi's SPI driver refuses SPI_NO_CS (the Pi 5's RP1 may): load dtoverlay=spi0-0cs "
                "(a spidev node that drives no chip select at all) in /boot/firmware/config.txt, reboot, and "
                "keep every reader of that node on a cs_pin (docs/hardware.md).") from None
        raise ReaderError(f"Reader {point}: /dev/spidev{bus}.{device} refuses its settings "
                          f"({exc.strerror or exc}).") from None
    return spi


class SpidevLink:
    """The firmware driver's bus interface (``write``/``read`` between ``cs(0)`` and ``cs(1)``) on spidev.

    Bytes written while selected are kept and sent in one full-duplex
    ``xfer2`` when the driver reads or releases the chip select, so a
    register access is exactly one spidev transfer: the kernel's CE line
    frames it, or, with a GPIO chip select, the GPIO does and ``no_cs`` keeps
    the kernel from toggling CE as well.
    """

    def __init__(self, spi: Any, cs_pin: Any = None) -> None:
        self.spi = spi
        self.cs_pin = cs_pin  # a gpiozero DigitalOutputDevice, active low
        self._pending = bytearray()

    def cs(self, value: int) -> None:
        if value:
            if self._pending:
                self.spi.xfer2(list(self._pending))
                self._pending = bytearray()
            if self.cs_pin is not None:
                self.cs_pin.on()  # high: released
        else:
            self._pending = bytearray()
            if self.cs_pin is not None:
                self.cs_pin.off()  # low: selected

    def write(self, data: bytes) -> None:
        self._pending += bytes(data)

    def read(self, n: int) -> bytes:
        out = self.spi.xfer2(list(self._pending) + [0] * n)
        self._pending = bytearray()
        return bytes(out[-n:])


class Backend(Reader):
    backend = "mfrc522"

    driver: Any = None
    _spi: Any = None
    _cs: Any = None
    _rst_pin: int | None = None
    _warned = False

    @property
    def poll_group(self) -> tuple[str, int]:
        """The MFRC522s of one SPI bus take turns under its lock anyway: one poller per bus."""
        return ("spi", int(self.options.get("spi_bus", 0)))

    @property
    def cs_pin(self) -> int:
        return int(self.options.get("cs_pin", self.options.get("ce_pin", 0)) or 0)

    @classmethod
    def prepare(cls, readers: list[Reader]) -> None:
        """Drive every GPIO chip select high before the first transfer on any of the buses."""
        for reader in readers:
            if isinstance(reader, Backend) and reader.cs_pin and reader._cs is None:
                reader._cs = DigitalOutputDevice(reader.cs_pin, initial_value=True)

    def open(self) -> None:
        bus = int(self.options.get("spi_bus", 0))
        dev = int(self.options.get("spi_device", 0))
        cs_pin = self.cs_pin
        rst_pin = int(self.options.get("rst_pin", 0) or 0)
        self.bus = bus
        try:
            if rst_pin and self._rst_pin is None:
                self._claim_reset(rst_pin)
            if cs_pin and self._cs is None:  # driven inactive before the node is touched
                self._cs = DigitalOutputDevice(cs_pin, initial_value=True)
            self._spi = open_spi(bus, dev, int(self.options.get("speed", 1_000_000)), self.point, no_cs=bool(cs_pin))
            link = SpidevLink(self._spi, self._cs)
            driver = MFRC522(link, link.cs, poll_pause_us=POLL_PAUSE_US)
            with bus_lock(bus):
                ok = driver.init(timeout_ms=5, gain=self.options.get("antenna_gain"))
        except ReaderError:
            self._failed_open()
            raise
        except Exception as exc:
            self._failed_open()
            raise ReaderError(f"Reader {self.point}: its pins cannot be claimed ({type(exc).__name__}: {exc}); "
                              "is a companion already running?") from None
        if not ok:
            where = f"SPI {bus}.{dev}" + (f" with chip select GPIO {cs_pin}" if cs_pin else "")
            seen = driver.version_read
            self._failed_open()
            raise ReaderError(f"Reader {self.point}: no MFRC522 answers on {where} (its version register reads "
                              f"{seen:#04x}); check MISO/MOSI/SCK, 3.3 V, the chip select and RST.")
        if driver.unknown_version and not self._warned:
            self._warned = True  # a clone board: it may well work; said once, in the log and by doctor
            log.warning("reader %s: VersionReg reads %#04x, not a version this driver knows (0x91/0x92 genuine, "
                        "0x88/0x89/0x90/0x12/0xB2 clones); trying it anyway", self.point, driver.version_read)
        self.driver = driver

    def _failed_open(self) -> None:
        """After a failed open: spidev closed, the chip select kept driven high (inactive).

        Released, a GPIO select floats; a chip whose select drifts low answers every transfer
        on the bus and corrupts the other readers'. The line is held until
        :meth:`close`; the re-open takes it as it is.
        """
        self._close_spi()
        if self._cs is not None:
            try:
                self._cs.on()
            except Exception:  # noqa: BLE001 - the line is already in a bad way
                log.debug("reader %s: chip select", self.point)

    def _claim_reset(self, pin: int) -> None:
        """Hold RST high; the first reader to claim a shared line pulses it low once (a hard reset)."""
        entry = _RESETS.get(pin)
        if entry is None:
            device = DigitalOutputDevice(pin, initial_value=False)
            time.sleep(0.001)
            device.on()
            time.sleep(0.05)  # the oscillator starts (the datasheet's start-up time, with margin)
            entry = _RESETS[pin] = [device, 0]
        entry[1] += 1
        self._rst_pin = pin

    def read_uid(self) -> bytes | None:
        driver = self.driver
        if driver is None:
            raise ReaderError(f"Reader {self.point} is not open.")
        with bus_lock(self.bus):
            # a chip gone (MISO stuck) or reset (a brown-out) says so in two register reads before
            # its field goes on: a dead reader holds the bus for two transfers, not for the field's
            # 5 ms settle and ~60 checks of ComIrqReg (~30 ms) while its neighbours wait
            driver.check()
            driver.antenna(True)
            try:
                return driver.read_uid()
            finally:
                driver.antenna(False)

    def reopen(self) -> None:
        """After repeated errors: spidev and the chip afresh, the select and reset lines kept."""
        self._close_spi()
        self.open()

    def _close_spi(self) -> None:
        self.driver = None
        if self._spi is not None:
            try:
                self._spi.close()
            finally:
                self._spi = None

    def close(self) -> None:
        self._close_spi()
        if self._cs is not None:
            self._cs.close()
            self._cs = None
        if self._rst_pin is not None:
            entry = _RESETS.get(self._rst_pin)
            if entry is not None:
                entry[1] -= 1
                if entry[1] <= 0:
                    entry[0].close()
                    del _RESETS[self._rst_pin]
            self._rst_pin = None
