"""``serial_number`` filters every way of finding the bridge.

Two Picos plugged in, each with its USB serial number; the udev link and the by-id links
may name either. With ``serial_number`` set, only the board with that number is returned,
whichever lookup finds it, and unplugging it and plugging it back as another node finds it
again there.
"""

from __future__ import annotations

import os
from types import SimpleNamespace

from firmware_bridge.finder import PortFinder


def pico(device: str, serial: str) -> SimpleNamespace:
    return SimpleNamespace(device=device, vid=0x2E8A, pid=0x0005, serial_number=serial)


def test_the_link_and_by_id_naming_the_other_pico_are_passed_over(tmp_path) -> None:
    acm0, acm1 = tmp_path / "ttyACM0", tmp_path / "ttyACM1"
    acm0.touch()
    acm1.touch()
    ports = [pico(str(acm0), "AAAA"), pico(str(acm1), "BBBB")]
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    os.symlink(acm0, by_id / "usb-MicroPython_Board_in_FS_mode_AAAA-if00")
    os.symlink(acm1, by_id / "usb-MicroPython_Board_in_FS_mode_BBBB-if00")
    link = tmp_path / "galapagos-bridge"
    os.symlink(acm0, link)  # the udev rule matched the first board
    finder = PortFinder(symlink=str(link), by_id=str(by_id / "usb-MicroPython_*-if00"), serial_number="BBBB",
                        list_ports=lambda: ports)
    assert finder() == str(acm1)
    assert PortFinder(symlink=str(link), by_id=None, serial_number="AAAA", list_ports=lambda: ports)() == str(acm0)


def test_replugged_under_another_name_it_is_found_there(tmp_path) -> None:
    acm0, acm2 = tmp_path / "ttyACM0", tmp_path / "ttyACM2"
    acm0.touch()
    ports = [pico(str(acm0), "AAAA")]
    finder = PortFinder(symlink=None, by_id=None, serial_number="BBBB", list_ports=lambda: ports)
    assert finder() is None  # only the other Pico is plugged in
    acm2.touch()
    ports.append(pico(str(acm2), "BBBB"))  # ours, back as ttyACM2
    assert finder() == str(acm2)
    ports.pop()
    assert finder() is None  # unplugged again
