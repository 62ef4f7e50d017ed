"""Serial ports opened so that no other program can open them, and who holds one.

pyserial's ``exclusive=True`` is an advisory ``flock``: it stops another program that asks for
the same lock (a second companion), never ``cat``, ``screen`` or ``minicom``, which would then
read half the frames or write bytes into the protocol. The terminal's own exclusive mode
(``TIOCEXCL``, tty(4)) makes the kernel refuse every further ``open`` of the port with EBUSY
(root, with CAP_SYS_ADMIN, excepted). :class:`ExclusiveSerial` sets both, and clears
``TIOCEXCL`` before it closes (a pseudo-terminal keeps the flag while its other side is open).

:func:`port_holder` tells whether a port is taken and by what (for ``companion doctor``'s
« port free »): the terminal's exclusive flag (``TIOCGEXCL``), a ``flock``, or any process with
the port open (``/proc/<pid>/fd``).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import struct
import termios
from pathlib import Path

import serial

#: _IOR('T', 0x40, int): read the terminal's exclusive flag (Linux 3.8+); not in Python's termios
TIOCGEXCL = 0x80045440


class ExclusiveSerial(serial.Serial):
    """``serial.Serial`` with ``exclusive=True`` (flock) and the terminal's ``TIOCEXCL``."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs["exclusive"] = True
        super().__init__(*args, **kwargs)

    def open(self) -> None:
        super().open()
        try:
            fcntl.ioctl(self.fd, termios.TIOCEXCL)
        except OSError as exc:
            super().close()
            raise serial.SerialException(exc.errno, f"could not lock port {self.port}: {exc}") from None

    def close(self) -> None:
        if self.is_open and self.fd is not None:
            with contextlib.suppress(OSError):
                fcntl.ioctl(self.fd, termios.TIOCNXCL)
        super().close()


def port_holder(port: str, proc: Path = Path("/proc")) -> str | None:
    """Why ``port`` cannot be had now (« held exclusively by another program », « open in
    screen (pid 812) »), or None when it is free. Raises ``OSError`` when it cannot be opened
    for another reason (missing, no permission)."""
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.EBUSY:  # TIOCEXCL, and we are not root
            return _named(port, proc) or "held exclusively by another program"
        raise
    try:
        try:
            flag = struct.unpack("i", fcntl.ioctl(fd, TIOCGEXCL, b"\0\0\0\0"))[0]
        except OSError:
            flag = 0
        if flag:
            return _named(port, proc) or "held exclusively by another program"
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return _named(port, proc) or "locked by another program"
        fcntl.flock(fd, fcntl.LOCK_UN)
        return _named(port, proc)
    finally:
        os.close(fd)


def _named(port: str, proc: Path) -> str | None:
    """« open in screen (pid 812) » for the first other process that has ``port`` open."""
    target = os.path.realpath(port)
    me = os.getpid()
    for entry in sorted(proc.glob("[0-9]*"), key=lambda p: int(p.name)):
        pid = int(entry.name)
        if pid == me:
            continue
        try:
            fds = list((entry / "fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                if os.path.realpath(fd) != target:
                    continue
            except OSError:
                continue
            try:
                name = (entry / "comm").read_text().strip()
            except OSError:
                name = "another program"
            return f"open in {name} (pid {pid})"
    return None
