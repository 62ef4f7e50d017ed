"""The serial ports the table holds refuse every other program, ``cat`` and ``screen`` included.

pyserial's ``exclusive=True`` is only a flock: a program that does not ask for the lock opens
the port anyway and reads or writes into the protocol. The terminal's TIOCEXCL makes the kernel
refuse the open (EBUSY). Root bypasses TIOCEXCL (CAP_SYS_ADMIN), so when the tests run as root the
other program runs as ``nobody``, as a user's ``screen`` would.
"""

from __future__ import annotations

import os
import subprocess

import pytest
import serial

from firmware_bridge.exclusive import ExclusiveSerial, port_holder
from hw.rfid import ReaderError


@pytest.fixture
def pty():
    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.chmod(path, 0o666)  # the other program may open it, but for the exclusive mode
    yield path  # the slave stays open, as a device node stays there
    os.close(slave)
    os.close(master)


def other_program_opens(path: str) -> subprocess.CompletedProcess:
    """``cat`` the port for a moment as another user (root would bypass TIOCEXCL)."""
    user = 65534 if os.geteuid() == 0 else None
    return subprocess.run(["timeout", "0.5", "cat", path], capture_output=True, text=True, user=user, timeout=10)


def opened(result: subprocess.CompletedProcess) -> bool:
    """cat opened the port: it read until the timeout (124), or to an end (0: the raw settings
    pyserial left on the terminal return at once)."""
    return result.returncode in (0, 124) and not result.stderr


def test_a_port_the_table_holds_refuses_cat(pty) -> None:
    assert opened(other_program_opens(pty))  # free: cat opens it
    port = ExclusiveSerial(pty, 115200, timeout=0.1)
    try:
        held = other_program_opens(pty)
        assert held.returncode == 1 and "Device or resource busy" in held.stderr
        with pytest.raises(serial.SerialException):  # and a second companion, by the flock as before
            serial.Serial(pty, exclusive=True)
    finally:
        port.close()
    assert opened(other_program_opens(pty))  # released at close


def test_the_pn532_on_the_uart_holds_its_port_exclusively(pty, monkeypatch) -> None:
    from hw.rfid import pn532
    from hw.rfid.pn532 import drivers

    seen: list[str] = []

    def quiet(interface, port, **kwargs):  # the driver is not what this test is about: only the port
        seen.append(other_program_opens(port.port).stderr)
        raise RuntimeError("Failed to detect the PN532")

    monkeypatch.setattr(drivers, "driver", quiet)
    with pytest.raises(ReaderError, match="does not answer on uart"):
        pn532.Backend("bag", {"port": pty}).open()
    assert "Device or resource busy" in seen[0]
    assert opened(other_program_opens(pty))  # closed after the failed open


def test_port_holder_sees_a_locked_port_and_one_open_in_another_program(pty) -> None:
    assert port_holder(pty) is None
    port = ExclusiveSerial(pty, 115200)
    try:
        assert port_holder(pty) == "held exclusively by another program"
    finally:
        port.close()
    with open(pty, "rb", buffering=0) as port_file:  # a program that opened it and takes no lock
        other = subprocess.Popen(["sleep", "30"], stdin=port_file)
    try:
        assert port_holder(pty) == f"open in sleep (pid {other.pid})"
    finally:
        other.kill()
        other.wait()
    assert port_holder(pty) is None
    with pytest.raises(FileNotFoundError):
        port_holder("/dev/ttyNOPE9")


def test_the_bridge_link_holds_its_port_exclusively() -> None:
    from firmware_bridge.host import HostLink
    from firmware_bridge.simulator import Simulator

    sim = Simulator(readers=1).start()
    link = HostLink(sim.path)
    link.start()
    try:
        assert link.wait_connected(5.0)
        os.chmod(os.path.realpath(sim.path), 0o666)
        held = other_program_opens(sim.path)
        assert held.returncode == 1 and "Device or resource busy" in held.stderr
    finally:
        link.stop()
        sim.stop()
