"""PN532 over I2C, UART or SPI, through ``adafruit-circuitpython-pn532``.

Options (``[[readers]]`` entries with ``backend = "pn532"``):

* ``interface``: ``"uart"`` (default; ``port`` "/dev/serial0", ``baudrate``
  115200, plain pyserial), ``"i2c"`` (address 0x24 on the Pi's I2C through
  Blinka) or ``"spi"`` (``cs_pin``, a BCM number, through Blinka);
* ``timeout``: seconds one poll waits for a tag (0.05).

The library is Pi-only in practice (Blinka) and lives in the ``pi`` extra.
"""

from __future__ import annotations

from typing import Any

from hw.rfid.base import Reader, ReaderError


class Backend(Reader):
    backend = "pn532"

    pn532: Any = None
    _port: Any = None

    def open(self) -> None:
        interface = self.options.get("interface", "uart")
        try:
            self.pn532 = _OPENERS[interface](self)
        except KeyError:
            raise ReaderError(f"Reader {self.point}: PN532 interface must be uart, i2c or spi, not {interface!r}.") from None
        except ImportError as exc:
            raise ReaderError(f"Reader {self.point} needs {exc.name}: pip install 'galapagos-companion[pi]'.") from None
        except PermissionError as exc:
            raise ReaderError(f"Reader {self.point}: no permission on {exc.filename}: add the user to group dialout (UART) or i2c/spi.") from None
        except (OSError, ValueError, RuntimeError) as exc:
            raise ReaderError(f"Reader {self.point}: the PN532 does not answer on {interface} ({exc}); check wiring and its mode switches.") from None
        self.pn532.SAM_configuration()

    def _open_uart(self) -> Any:
        import serial
        from adafruit_pn532.uart import PN532_UART

        self._port = serial.Serial(self.options.get("port", "/dev/serial0"), baudrate=int(self.options.get("baudrate", 115200)), timeout=0.1)
        return PN532_UART(self._port, debug=False)

    def _open_i2c(self) -> Any:
        import board
        import busio
        from adafruit_pn532.i2c import PN532_I2C

        return PN532_I2C(busio.I2C(board.SCL, board.SDA), address=int(self.options.get("address", 0x24)), debug=False)

    def _open_spi(self) -> Any:
        import board
        import busio
        import digitalio
        from adafruit_pn532.spi import PN532_SPI

        cs = digitalio.DigitalInOut(getattr(board, f"D{int(self.options.get('cs_pin', 8))}"))
        return PN532_SPI(busio.SPI(board.SCK, board.MOSI, board.MISO), cs, debug=False)

    def read_uid(self) -> bytes | None:
        uid = self.pn532.read_passive_target(timeout=float(self.options.get("timeout", 0.05)))
        return bytes(uid) if uid else None

    def close(self) -> None:
        if self._port is not None:
            self._port.close()
        self.pn532 = None


_OPENERS = {"uart": Backend._open_uart, "i2c": Backend._open_i2c, "spi": Backend._open_spi}
