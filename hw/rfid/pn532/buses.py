"""The buses and pins the Adafruit PN532 driver is handed, without Blinka's board layer.

adafruit-circuitpython-pn532 only needs CircuitPython's bus surface: ``try_lock``/``unlock``
and the transfers (``adafruit_bus_device`` wraps them), and pins with ``value`` and
``direction``. Blinka's own buses would toggle CE0 on every SPI transfer ("no kernel seems to
support" SPI_NO_CS, its ``set_no_cs`` does nothing), pick the I2C adapter from the header pins
only (``i2c_port`` could not be honoured) and claim GPIOs outside gpiozero's pin factory. So:

* :class:`SpidevBus`: /dev/spidev0.0 through :func:`hw.rfid.mfrc522.open_spi` in SPI_NO_CS (the
  PN532's select is its own GPIO), each transaction under SPI0's bus lock, so it takes turns
  with the MFRC522s transfer by transfer, never for a whole command;
* :class:`SMBusI2C`: ``/dev/i2c-<i2c_port>`` through smbus2 (luma's own dependency), one
  ``I2C_RDWR`` message per transfer;
* :class:`GpioLine`: a gpiozero output (the chip select, the P32/H_REQ request line), on the
  table's pin factory.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from gpiozero import DigitalOutputDevice


class SpidevBus:
    """``busio.SPI``'s surface over one spidev node; ``try_lock`` takes the shared bus lock."""

    def __init__(self, spi: Any, lock: threading.Lock, *, wait: float = 1.0) -> None:
        self.spi = spi
        self.lock = lock
        self.wait = wait  # how long try_lock waits for the MFRC522s' poll to end
        self._speed = spi.max_speed_hz
        self._owner: int | None = None

    @contextmanager
    def hold(self) -> Iterator[None]:
        """The bus for a whole poll (field on to field off, as an MFRC522's poll holds it)."""
        with self.lock:
            self._owner = threading.get_ident()
            try:
                yield
            finally:
                self._owner = None

    def try_lock(self) -> bool:
        if self._owner == threading.get_ident():
            return True  # inside hold(): the bus is ours already
        return self.lock.acquire(timeout=self.wait)

    def unlock(self) -> None:
        if self._owner != threading.get_ident():
            self.lock.release()

    def configure(self, baudrate: int = 100_000, polarity: int = 0, phase: int = 0, bits: int = 8) -> None:
        self._speed = baudrate
        self._mode = (polarity << 1) | phase

    def write(self, buf: Any, start: int = 0, end: int | None = None) -> None:
        data = bytes(buf[start:end])
        if data:
            self.spi.xfer2(list(data), self._speed)

    def readinto(self, buf: Any, start: int = 0, end: int | None = None, write_value: int = 0) -> None:
        end = len(buf) if end is None else end
        got = self.spi.xfer2([write_value] * (end - start), self._speed)
        buf[start:end] = bytes(got)

    def write_readinto(self, out: Any, into: Any, out_start: int = 0, out_end: int | None = None,
                       in_start: int = 0, in_end: int | None = None) -> None:
        data = bytes(out[out_start:out_end])
        got = self.spi.xfer2(list(data), self._speed)
        in_end = len(into) if in_end is None else in_end
        into[in_start:in_end] = bytes(got[: in_end - in_start])

    def deinit(self) -> None:
        self.spi.close()


class SMBusI2C:
    """``busio.I2C``'s surface over ``/dev/i2c-<port>`` with smbus2's ``i2c_rdwr``."""

    def __init__(self, port: int) -> None:
        from smbus2 import SMBus, i2c_msg  # late: smbus2 is optional (the [pi] extra)

        self._msg = i2c_msg
        self.bus = SMBus(port)
        self._lock = threading.Lock()

    def try_lock(self) -> bool:
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        self._lock.release()

    def writeto(self, address: int, buffer: Any, *, start: int = 0, end: int | None = None) -> None:
        self.bus.i2c_rdwr(self._msg.write(address, bytes(buffer[start:end])))

    def readfrom_into(self, address: int, buffer: Any, *, start: int = 0, end: int | None = None) -> None:
        end = len(buffer) if end is None else end
        msg = self._msg.read(address, end - start)
        self.bus.i2c_rdwr(msg)
        buffer[start:end] = bytes(msg)

    def writeto_then_readfrom(self, address: int, out: Any, into: Any, *, out_start: int = 0,
                              out_end: int | None = None, in_start: int = 0, in_end: int | None = None) -> None:
        self.writeto(address, out, start=out_start, end=out_end)
        self.readfrom_into(address, into, start=in_start, end=in_end)

    def deinit(self) -> None:
        self.bus.close()


class GpioLine:
    """``digitalio.DigitalInOut``'s surface on a gpiozero output (active high, starts high)."""

    def __init__(self, pin: int, initial: bool = True) -> None:
        self.device = DigitalOutputDevice(pin, initial_value=initial)
        self.direction: Any = None  # the driver sets Direction.OUTPUT; the line is an output already

    @property
    def value(self) -> bool:
        return bool(self.device.value)

    @value.setter
    def value(self, level: bool) -> None:
        self.device.value = bool(level)

    def switch_to_output(self, value: bool = False, **_: Any) -> None:
        self.value = value

    def deinit(self) -> None:
        self.device.close()
