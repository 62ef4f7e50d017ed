"""A Linux I2C adapter under the real smbus2, so luma's real ``i2c()`` runs over it.

Only the kernel is imitated: ``smbus2.smbus2``'s ``os.open``/``os.close`` and ``ioctl`` are
replaced, everything above them is the installed smbus2 (its ``SMBus`` without ``__del__``, its
32-byte limit on ``write_i2c_block_data``, its ``close``) and luma.core's ``i2c`` interface
(its ``DeviceNotFoundError`` on EREMOTEIO/EIO, its ``i2c_rdwr`` for data, ``cleanup``).

What the Pi's adapter (i2c-bcm2835) does, and so does this one:

* ``/dev/i2c-N`` missing: ENOENT at open; no permission: EACCES;
* every open is a real descriptor (``/dev/null`` underneath), counted in :attr:`open_fds`
  until closed, so a leak shows in the count and in ``/proc/self/fd``;
* an address nobody answers NAKs its first byte: ``EREMOTEIO``; a target that holds SCL low
  past the adapter's timeout (clock stretching the BCM2835 mishandles): ``ETIMEDOUT``;
* ``I2C_SMBUS`` block writes carry at most 32 bytes (``I2C_SMBUS_BLOCK_MAX``); ``I2C_RDWR``
  messages go whole.
"""

from __future__ import annotations

import ctypes
import errno
import os
import threading
import types
from collections.abc import Callable
from typing import Any

import smbus2.smbus2 as smbus2_impl

from hw.busmodel import ControllerRam

I2C_SLAVE, I2C_SLAVE_FORCE, I2C_FUNCS, I2C_RDWR, I2C_SMBUS = 0x0703, 0x0706, 0x0705, 0x0707, 0x0720
I2C_M_RD = 0x0001
#: I2C | SMBUS_EMUL | I2C block: what i2c-bcm2835 reports
FUNCS = 0x00000001 | 0x0EFF0008 | 0x0C000000


class Target:
    """A device on the bus: ``write(data)`` for a write message, ``read(n)`` for a read one."""

    present = True

    def write(self, data: bytes) -> None:  # pragma: no cover - each target says what it does
        raise NotImplementedError

    def read(self, n: int) -> bytes:
        return bytes(n)


class DisplayTarget(Target):
    """An SSD1306/SH1106 at its address: control byte 0x00 then commands, 0x40 then data."""

    def __init__(self, kind: str = "ssd1306") -> None:
        self.ram = ControllerRam(kind=kind)
        self.commands: list[int] = []  # every command byte received, in order
        self.data_bytes = 0

    def write(self, data: bytes) -> None:
        control, payload = data[0], data[1:]
        if control == 0x00:
            self.commands += payload
            self.ram.command(payload)
        else:
            self.data_bytes += len(payload)
            self.ram.data(payload)


class I2CKernel:
    """The adapters ``/dev/i2c-N`` of one machine and the targets on them."""

    def __init__(self) -> None:
        self.adapters: dict[int, dict[int, Target]] = {1: {}}
        self.denied: set[int] = set()
        self.open_fds: dict[int, int] = {}  # fd -> adapter number
        self.opened = 0
        self.transfers: list[tuple[int, int, str, int]] = []  # (adapter, address, "w"/"r", length)
        self.stretch: set[tuple[int, int]] = set()  # (adapter, address) that stretch SCL too long
        self.lock = threading.Lock()
        self._address: dict[int, int] = {}
        self.on_transfer: Callable[[int, int], None] | None = None  # (adapter, address) before each

    # -- the targets --------------------------------------------------------------------------
    def attach(self, address: int, target: Target, adapter: int = 1) -> Target:
        self.adapters.setdefault(adapter, {})[address] = target
        return target

    def detach(self, address: int, adapter: int = 1) -> None:
        self.adapters.get(adapter, {}).pop(address, None)

    # -- the system calls smbus2 makes ------------------------------------------------------------
    def install(self, setattr_: Callable[[Any, str, Any], None]) -> None:
        """Replace smbus2's ``os`` and ``ioctl`` (``monkeypatch.setattr``, or plain ``setattr``)."""
        shim = types.SimpleNamespace(open=self.open, close=self.close, O_RDWR=os.O_RDWR)
        setattr_(smbus2_impl, "os", shim)
        setattr_(smbus2_impl, "ioctl", self.ioctl)

    def open(self, path: str, flags: int) -> int:
        number = int(str(path).rsplit("-", 1)[1]) if str(path).startswith("/dev/i2c-") else -1
        if number not in self.adapters:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
        if number in self.denied:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        fd = os.open(os.devnull, os.O_RDWR)
        with self.lock:
            self.open_fds[fd] = number
            self.opened += 1
        return fd

    def close(self, fd: int) -> None:
        with self.lock:
            self.open_fds.pop(fd, None)
            self._address.pop(fd, None)
        os.close(fd)

    def ioctl(self, fd: Any, request: int, arg: Any = 0) -> int:
        if not isinstance(fd, int) or fd not in self.open_fds:
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        adapter = self.open_fds[fd]
        if request == I2C_FUNCS:
            arg.value = FUNCS
            return 0
        if request in (I2C_SLAVE, I2C_SLAVE_FORCE):
            self._address[fd] = int(arg)
            return 0
        if request == I2C_SMBUS:
            address = self._address[fd]
            block = arg.data.contents.block
            if arg.read_write == 0 and arg.size == 8:  # I2C_SMBUS_I2C_BLOCK_DATA write
                length = block[0]
                if length > 32:
                    raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))
                self._write(adapter, address, bytes([arg.command, *block[1:length + 1]]))
                return 0
            if arg.read_write == 0 and arg.size == 0:  # write_quick: the address byte only
                self._write(adapter, address, b"")
                return 0
            raise OSError(errno.EOPNOTSUPP, os.strerror(errno.EOPNOTSUPP))
        if request == I2C_RDWR:
            for i in range(arg.nmsgs):
                msg = arg.msgs[i]
                if msg.flags & I2C_M_RD:
                    data = self._read(adapter, msg.addr, msg.len)
                    ctypes.memmove(msg.buf, data, msg.len)
                else:
                    self._write(adapter, msg.addr, ctypes.string_at(msg.buf, msg.len))
            return 0
        raise OSError(errno.ENOTTY, os.strerror(errno.ENOTTY))

    def _target(self, adapter: int, address: int) -> Target:
        if self.on_transfer is not None:
            self.on_transfer(adapter, address)
        if (adapter, address) in self.stretch:
            raise OSError(errno.ETIMEDOUT, os.strerror(errno.ETIMEDOUT))
        target = self.adapters.get(adapter, {}).get(address)
        if target is None or not target.present:
            raise OSError(errno.EREMOTEIO, os.strerror(errno.EREMOTEIO))
        return target

    def _write(self, adapter: int, address: int, data: bytes) -> None:
        target = self._target(adapter, address)
        self.transfers.append((adapter, address, "w", len(data)))
        if data:
            target.write(data)

    def _read(self, adapter: int, address: int, n: int) -> bytes:
        target = self._target(adapter, address)
        self.transfers.append((adapter, address, "r", n))
        return bytes(target.read(n))[:n].ljust(n, b"\0")


def process_fds() -> int:
    """Descriptors this process holds now."""
    return len(os.listdir("/proc/self/fd"))
