"""PN532 over UART, I2C or SPI, through ``adafruit-circuitpython-pn532``.

Options (``[[readers]]`` entries with ``backend = "pn532"``):

* ``interface``: ``"uart"`` (default; ``port`` "auto" = the header UART on
  GPIO 14/15, ``/dev/serial0`` on a Pi 3/4/Zero 2 W and ``/dev/ttyAMA0`` on a
  Pi 5; ``baudrate`` 115200; pyserial, held exclusively), ``"i2c"`` (``address`` 0x24 on
  ``/dev/i2c-<i2c_port>``, 1 by default; ``req_pin``: the BCM pin wired to the PN532's
  P32/H_REQ, which Adafruit's driver wants on a Pi) or ``"spi"`` (``cs_pin``: a free GPIO as
  chip select, not CE0/CE1, which the kernel's spidev holds; /dev/spidev0.<spi_device> in
  SPI_NO_CS, taking turns with the MFRC522s there under their bus lock);
* ``reset_pin``: the BCM pin wired to RSTPD_N (optional, any interface);
* ``timeout``: seconds one poll waits for the PN532's answer (0.05);
* ``retries``: passive-activation retries per poll (1).

The library's classes are used with three changes (:mod:`hw.rfid.pn532.drivers`): short
timeouts while opening, the SPI bus taken per status read instead of for a whole wait, and a
pause after a failed I2C status read; its buses are the kernel's own
(:mod:`hw.rfid.pn532.buses`), not Blinka's.

What the library does not handle, handled here (its source read against the
PN532 user manual):

* **Bounded retries.** The PN532 retries a passive activation for ever by
  default (RFConfiguration item 0x05, MxRtyPassiveActivation = 0xFF), so an
  InListPassiveTarget with no tag never answers, and its reply turns up later
  where the library expects the ACK of the next command ("Did not receive
  expected ACK"). At open the retries are set to ``retries``: the PN532 then
  always answers within a few milliseconds, with NbTg = 0 when no tag is
  there.
* **NbTg = 0** is "no tag"; the library's ``read_passive_target`` would call it
  "More than one card detected!". Tags with 10-byte UIDs are accepted.
* **Its exceptions** (``RuntimeError`` on a bad frame or a missing ACK,
  ``BusyError`` when nothing came) end one poll; the reader's loop counts
  them and re-opens the PN532 after several in a row (:mod:`hw.rfid.base`).
  A stray late frame is drained before the next command.
* **Opening**: pyserial's ``SerialException`` carries the errno: EACCES is the
  dialout group, ENOENT a UART that is not enabled, EBUSY/EAGAIN another
  program holding the port.

The library imports Blinka (``digitalio``, ``micropython``); it lives in the ``pi`` extra.
"""

from __future__ import annotations

import contextlib
import errno
from typing import Any

from firmware_bridge.exclusive import ExclusiveSerial
from hw.board import header_uart, uart_fix
from hw.rfid.base import Reader, ReaderError
from hw.rfid.mfrc522 import bus_lock, open_spi
from hw.rfid.pn532 import buses, drivers

INLISTPASSIVETARGET = 0x4A
RFCONFIGURATION = 0x32
MAX_RETRIES_ITEM = 0x05  # CfgItem: MxRtyATR, MxRtyPSL, MxRtyPassiveActivation
ISO14443A_106 = 0x00


class NoAnswer(RuntimeError):
    """The PN532 did not acknowledge or answer a command: the reader is failing, not empty."""


def uart_port(port: str) -> str:
    """``"auto"``: the header UART of this Pi (see :mod:`hw.board`)."""
    if port != "auto":
        return port

    return header_uart()


class Backend(Reader):
    backend = "pn532"

    pn532: Any = None
    _port: Any = None
    _i2c: Any = None
    _spi_bus: Any = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lines: list[Any] = []  # the gpiozero outputs this reader claimed (chip select, reset, request)

    def open(self) -> None:
        interface = self.options.get("interface", "uart")
        opener = _OPENERS.get(interface)
        if opener is None:
            raise ReaderError(f"Reader {self.point}: PN532 interface must be uart, i2c or spi, not {interface!r}.")
        try:
            self.pn532 = opener(self)
            self.configure()
        except ReaderError:
            self.close()
            raise
        except ImportError as exc:
            self.close()
            raise ReaderError(f"Reader {self.point} needs {exc.name}: pip install 'galapagos-companion[pi]'.") from None
        except Exception as exc:
            self.close()
            raise ReaderError(self._open_error(interface, exc)) from None

    def _open_error(self, interface: str, exc: BaseException) -> str:
        """The sentence for what went wrong, from the real exception."""
        where = f"Reader {self.point}"
        code = getattr(exc, "errno", None)
        name = getattr(exc, "filename", None) or (uart_port(self.options.get("port", "auto")) if interface == "uart" else "")
        text = str(exc) or type(exc).__name__
        if isinstance(exc, PermissionError) or code == errno.EACCES or "Permission denied" in text:
            group = "dialout" if interface == "uart" else ("i2c" if interface == "i2c" else "spi and gpio")
            return (f"{where}: no permission on {name or interface}: add the user to group {group} "
                    f"(sudo usermod -aG {group.split()[0]} $USER), then log in again.")
        if interface == "i2c" and code == errno.ENOENT:
            port = int(self.options.get("i2c_port", 1))
            return (f"{where}: /dev/i2c-{port} does not exist: enable I2C (sudo raspi-config nonint do_i2c 0), "
                    "then reboot.")
        if interface == "uart" and (code == errno.ENOENT or "No such file" in text):
            return f"{where}: {name} does not exist: {uart_fix()}."
        if code in (errno.EBUSY, errno.EAGAIN) or "exclusively lock" in text:
            return f"{where}: {name} is held by another program (is a companion already running?)."
        return (f"{where}: the PN532 does not answer on {interface} ({type(exc).__name__}: {text}); check its "
                f"wiring, its power and its mode switches ({_MODE_SWITCHES[interface]}).")

    def _bus(self) -> Any:
        """The whole of a poll on SPI0's bus lock (the MFRC52s' own), else nothing to share.

        The PN532 on SPI takes turns with the MFRC522s on SPI0 as they take turns with each
        other: one chip select low and one field on at a time. Opening it (the library's wake-up,
        SAMConfiguration and firmware version, a PN532 that is not there waiting out each
        timeout) takes the lock transfer by transfer only (:class:`~hw.rfid.pn532.buses.SpidevBus`),
        so the MFRC522s keep reading while it is tried.
        """
        bus = self._spi_bus
        return bus.hold() if bus is not None else contextlib.nullcontext()

    def configure(self) -> None:
        """SAM in normal mode, then bounded passive-activation retries (short timeouts: see drivers)."""
        pn = self.pn532
        retries = int(self.options.get("retries", 1))
        pn.SAM_configuration()
        answer = pn.call_function(RFCONFIGURATION, params=[MAX_RETRIES_ITEM, 0xFF, 0x01, retries],
                                  timeout=drivers.OPEN_TIMEOUT)
        if answer is None:
            raise NoAnswer("the PN532 did not answer RFConfiguration")

    def _pins(self) -> dict[str, Any]:
        """The optional reset (RSTPD_N) and request (P32/H_REQ) lines, as gpiozero outputs.

        On a Pi, Adafruit's I2C driver wants the request line: it wakes the PN532 with it instead
        of relying on clock stretching, which the Pi's I2C controller mishandles.
        """
        pins: dict[str, Any] = {}
        for option, name in (("reset_pin", "reset"), ("req_pin", "req")):
            pin = int(self.options.get(option, 0) or 0)
            if pin:
                line = buses.GpioLine(pin)
                self._lines.append(line)
                pins[name] = line
        return pins

    def _open_uart(self) -> Any:
        port = uart_port(self.options.get("port", "auto"))
        self._port = ExclusiveSerial(port, baudrate=int(self.options.get("baudrate", 115200)), timeout=0.1)
        pins = self._pins()
        return drivers.driver("uart", self._port, reset=pins.get("reset"), debug=False)

    def _open_i2c(self) -> Any:
        self._i2c = buses.SMBusI2C(int(self.options.get("i2c_port", 1)))
        pins = self._pins()
        return drivers.driver("i2c", self._i2c, address=int(self.options.get("address", 0x24)), debug=False, **pins)

    def _open_spi(self) -> Any:
        pin = int(self.options.get("cs_pin", 0))
        if pin in (0, 7, 8):
            raise ReaderError(f"Reader {self.point}: a PN532 on SPI needs cs_pin = a free GPIO (CE0 and CE1, GPIO 8 "
                              "and 7, belong to the kernel's spidev).")
        cs = buses.GpioLine(pin)
        self._lines.append(cs)
        spi = open_spi(0, int(self.options.get("spi_device", 0)), int(self.options.get("speed", 1_000_000)),
                       self.point, no_cs=True)
        self._spi_bus = buses.SpidevBus(spi, bus_lock(0))
        return drivers.driver("spi", self._spi_bus, cs, reset=self._pins().get("reset"), debug=False)

    def read_uid(self) -> bytes | None:
        """One InListPassiveTarget for one ISO 14443-A tag; its exceptions are the poll loop's."""
        pn = self.pn532
        if pn is None:
            raise ReaderError(f"Reader {self.point} is not open.")
        timeout = float(self.options.get("timeout", 0.05))
        self._drain()
        with self._bus():
            return self._list_one(pn, timeout)

    def _list_one(self, pn: Any, timeout: float) -> bytes | None:
        # adafruit's send_command returns False when its write raised OSError (an I2C NAK is
        # EREMOTEIO) or the PN532 never got ready: a chip that does not answer, not « no tag »
        if not pn.send_command(INLISTPASSIVETARGET, params=[0x01, ISO14443A_106], timeout=timeout):
            raise NoAnswer(f"the PN532 sent no ACK within {timeout:g} s (its wiring, power or mode switches)")
        # the retries are bounded, so the answer comes within a few ms; allow for a slow UART
        response = pn.process_response(INLISTPASSIVETARGET, response_length=64, timeout=max(timeout, 0.1))
        if response is None:  # bounded retries: a PN532 that is there always answers, NbTg = 0 at least
            raise NoAnswer("the PN532 acknowledged InListPassiveTarget but never answered it")
        if not response or response[0] == 0:  # NbTg = 0: no tag
            return None
        # Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID1
        length = response[5]
        if length not in (4, 7, 10) or len(response) < 6 + length:
            raise RuntimeError(f"PN532 reported a UID of {length} bytes")
        return bytes(response[6:6 + length])

    def _drain(self) -> None:
        """Drop a late frame still waiting on the UART (it would be read as the next ACK)."""
        port = self._port
        if port is not None and getattr(port, "in_waiting", 0):
            port.reset_input_buffer()

    def close(self) -> None:
        self.pn532 = None
        for part in (self._port, self._i2c, self._spi_bus, *self._lines):
            if part is None:
                continue
            try:
                part.close() if part is self._port else part.deinit()
            except Exception:  # noqa: BLE001 - closing what is already in a bad way
                pass
        self._port = self._i2c = self._spi_bus = None
        self._lines = []


_OPENERS = {"uart": Backend._open_uart, "i2c": Backend._open_i2c, "spi": Backend._open_spi}
_MODE_SWITCHES = {"uart": "both off: HSU", "i2c": "I0 on, I1 off", "spi": "I0 off, I1 on"}
