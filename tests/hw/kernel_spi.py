"""Linux spidev nodes and the py-spidev module over them, as the real parts behave.

Read from py-spidev 3.8 (``spidev_module.c``) and Linux ``drivers/spi/spidev.c``:

* the mode (CPOL/CPHA, ``SPI_CS_HIGH``, ``SPI_LSB_FIRST``, ``SPI_NO_CS`` ...) belongs to the
  *node*: ``SPI_IOC_WR_MODE`` sets ``spi->mode`` of the device, which outlives every open file,
  and a new open reads it back (``SpiDev_open_dev`` does ``SPI_IOC_RD_MODE`` into its cache);
* py-spidev's ``mode`` setter keeps every other bit of its cached mode and changes only
  CPOL/CPHA; ``no_cs`` and ``cshigh`` take a bool (anything else is ``TypeError``); every setter
  writes the whole byte with ``SPI_IOC_WR_MODE``, and a controller that refuses it (EINVAL from
  ``spi_setup``) leaves the node's mode as it was;
* ``xfer2`` refuses an empty list (``TypeError``) and more than 4,096 bytes (``OverflowError``),
  and raises the ``OSError`` of its ``SPI_IOC_MESSAGE`` ioctl: EBADF after ``close``,
  ESHUTDOWN when the controller went away, ETIMEDOUT or EIO from the controller driver;
* ``close`` forgets the cached mode (0), the node keeps it.

``SpiKernel.module()`` is installed as ``spidev`` (``sys.modules``) and the nodes exist as
files under a temporary ``/dev`` the backend is pointed at.
"""

from __future__ import annotations

import errno
import os
import threading
import types
from collections.abc import Callable
from pathlib import Path

SPI_CPHA, SPI_CPOL, SPI_CS_HIGH, SPI_LSB_FIRST = 0x01, 0x02, 0x04, 0x08
SPI_3WIRE, SPI_LOOP, SPI_NO_CS = 0x10, 0x20, 0x40
SPIDEV_MAXPATH = 4096

Node = tuple[int, int]
#: (node, mode byte, bytes out) -> bytes in
Transfer = Callable[[Node, int, bytes], bytes]


class SpiKernel:
    """The spidev nodes of one machine: their modes, speeds, faults and what a transfer reaches."""

    def __init__(self, dev: Path, transfer: Transfer | None = None) -> None:
        self.dev = dev
        self.transfer: Transfer = transfer or (lambda node, mode, data: bytes(len(data)))
        self.modes: dict[Node, int] = {}
        self.speeds: dict[Node, int] = {}
        self.refuse_no_cs = False  # a controller whose spi_setup rejects SPI_NO_CS (EINVAL)
        self.faults: dict[Node, int] = {}  # node -> errno every xfer2 raises until cleared
        self.handles: list[SpiDev] = []  # every SpiDev ever opened, oldest first
        self.lock = threading.Lock()  # the controller serialises messages on a bus

    def add_node(self, bus: int, device: int, mode: int = 0) -> Path:
        self.dev.mkdir(parents=True, exist_ok=True)
        path = self.dev / f"spidev{bus}.{device}"
        path.touch()
        self.modes[(bus, device)] = mode
        self.speeds[(bus, device)] = 125_000_000  # the Pi's spidev default (its DT node)
        return path

    def no_cs(self, bus: int, device: int) -> bool:
        return bool(self.modes[(bus, device)] & SPI_NO_CS)

    def module(self) -> types.ModuleType:
        kernel = self

        class BoundSpiDev(SpiDev):
            def __init__(self, bus: int = -1, client: int = -1) -> None:
                super().__init__(kernel, bus, client)

        module = types.ModuleType("spidev")
        module.SpiDev = BoundSpiDev  # type: ignore[attr-defined]
        return module


class SpiDev:
    """py-spidev's ``SpiDev`` over :class:`SpiKernel` (only what the C module does)."""

    def __init__(self, kernel: SpiKernel, bus: int = -1, client: int = -1) -> None:
        self._kernel = kernel
        self._node: Node | None = None
        self._mode = 0
        self.bits_per_word = 8
        self._speed = 0
        if bus >= 0:
            self.open(bus, client)

    # -- open / close -------------------------------------------------------------------
    def open(self, bus: int, device: int) -> None:
        node = (bus, device)
        path = self._kernel.dev / f"spidev{bus}.{device}"
        if node not in self._kernel.modes or not path.exists():
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT))
        if not os.access(path, os.R_OK | os.W_OK) and os.geteuid() != 0:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        self._node = node
        self._mode = self._kernel.modes[node]  # SPI_IOC_RD_MODE: whatever the last user left
        self._speed = self._kernel.speeds[node]
        self._kernel.handles.append(self)

    def close(self) -> None:
        self._node = None
        self._mode = 0

    @property
    def closed(self) -> bool:
        return self._node is None

    @property
    def node(self) -> Node | None:
        return self._node

    def _fd(self) -> Node:
        if self._node is None:
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        return self._node

    # -- the mode byte ---------------------------------------------------------------------
    def _write_mode(self, value: int) -> None:
        node = self._fd()
        if value & SPI_NO_CS and self._kernel.refuse_no_cs:
            raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))  # spi_setup failed, mode restored
        self._kernel.modes[node] = value
        self._mode = value

    def _flag(self, bit: int, value: object, name: str) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"The {name} attribute must be boolean")
        self._write_mode(self._mode | bit if value else self._mode & ~bit)

    @property
    def mode(self) -> int:
        return self._mode & (SPI_CPHA | SPI_CPOL)

    @mode.setter
    def mode(self, value: int) -> None:
        if not isinstance(value, int) or not 0 <= value <= 3:
            raise TypeError("The mode attribute must be an integer between 0 and 3.")
        self._write_mode((self._mode & ~(SPI_CPHA | SPI_CPOL)) | value)

    @property
    def no_cs(self) -> bool:
        return bool(self._mode & SPI_NO_CS)  # the handle's cached copy, as py-spidev's getter

    @no_cs.setter
    def no_cs(self, value: bool) -> None:
        self._flag(SPI_NO_CS, value, "no_cs")

    @property
    def cshigh(self) -> bool:
        return bool(self._mode & SPI_CS_HIGH)

    @cshigh.setter
    def cshigh(self, value: bool) -> None:
        self._flag(SPI_CS_HIGH, value, "cshigh")

    @property
    def lsbfirst(self) -> bool:
        return bool(self._mode & SPI_LSB_FIRST)

    @lsbfirst.setter
    def lsbfirst(self, value: bool) -> None:
        self._flag(SPI_LSB_FIRST, value, "lsbfirst")

    @property
    def max_speed_hz(self) -> int:
        return self._speed

    @max_speed_hz.setter
    def max_speed_hz(self, value: int) -> None:
        node = self._fd()
        self._kernel.speeds[node] = self._speed = int(value)

    # -- transfers -------------------------------------------------------------------------
    def xfer2(self, values: list[int], speed_hz: int = 0, delay_usecs: int = 0, bits_per_word: int = 0) -> list[int]:
        values = list(values)
        if not values:
            raise TypeError("Empty argument list.")
        if len(values) > SPIDEV_MAXPATH:
            raise OverflowError(f"Argument list size exceeds {SPIDEV_MAXPATH} bytes.")
        if not all(isinstance(v, int) for v in values):
            raise TypeError("Non-Int/Long value in arguments")
        node = self._fd()
        with self._kernel.lock:
            fault = self._kernel.faults.get(node)
            if fault is not None:
                raise OSError(fault, os.strerror(fault))
            out = self._kernel.transfer(node, self._kernel.modes[node], bytes(v & 0xFF for v in values))
        return list(out)
