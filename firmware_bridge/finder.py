"""Finding the reader microcontroller's serial port, even after its node name changed.

A USB serial device may come back as /dev/ttyACM1 after being /dev/ttyACM0. Stable names exist:
the udev rule's /dev/galapagos-bridge symlink, udev's own /dev/serial/by-id/ links (named from
the USB descriptors and serial number), and the USB VID:PID that pyserial's port list reports.
``PortFinder`` tries them in that order each time the host link (re)connects.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from serial.tools import list_ports

# MicroPython on the Raspberry Pi Pico (RP2040) enumerates as 2E8A:0005; its by-id name is
# usb-MicroPython_Board_in_FS_mode_<serial>-if00.
DEFAULT_VID_PID = (0x2E8A, 0x0005)
DEFAULT_SYMLINK = "/dev/galapagos-bridge"
DEFAULT_BY_ID = "/dev/serial/by-id/usb-MicroPython_*-if00"


def _comports() -> Iterable[Any]:
    return list_ports.comports()


@dataclass
class PortFinder:
    """Callable returning the current device path of the bridge, or None if it is not plugged in.

    ``serial_number`` narrows the VID:PID match when several boards are attached."""

    symlink: str | None = DEFAULT_SYMLINK
    by_id: str | None = DEFAULT_BY_ID
    vid_pid: tuple[int, int] | None = DEFAULT_VID_PID
    serial_number: str | None = None
    list_ports: Callable[[], Iterable[Any]] = _comports

    def __call__(self) -> str | None:
        """The bridge's device now; with ``serial_number`` set, only a port with that USB serial.

        Every way of finding it is filtered: the udev link and the by-id links too,
        or with two Picos plugged in the link could name the other one's port.
        """
        wanted = self._ports_with_serial() if self.serial_number else None

        def ok(path: str) -> bool:
            return wanted is None or os.path.realpath(path) in wanted

        if self.symlink and os.path.exists(self.symlink) and ok(self.symlink):
            return os.path.realpath(self.symlink)
        if self.by_id:
            for link in sorted(glob.glob(self.by_id)):
                if os.path.exists(link) and ok(link):
                    return os.path.realpath(link)
        if self.vid_pid:
            vid, pid = self.vid_pid
            for port in sorted(self.list_ports(), key=lambda p: p.device):
                if (port.vid, port.pid) != (vid, pid):
                    continue
                if self.serial_number and port.serial_number != self.serial_number:
                    continue
                return port.device
        return None

    def _ports_with_serial(self) -> set[str]:
        """The real device paths of the ports whose USB serial number is ``serial_number``."""
        return {os.path.realpath(p.device) for p in self.list_ports()
                if getattr(p, "serial_number", None) == self.serial_number}


def resolve(port: str | Callable[[], str | None]) -> str | None:
    """A fixed path (a symlink is followed anew each time) or a finder's answer."""
    if callable(port):
        return port()
    return os.path.realpath(port) if os.path.exists(port) else None
