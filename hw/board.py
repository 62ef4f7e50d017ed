"""Which Raspberry Pi this is, and the names its buses go by.

The GPIO 14/15 UART is ``/dev/serial0`` on a Pi 3, 4 or Zero 2 W (a symlink
the OS keeps pointing at whichever UART the header has). On a Pi 5
``/dev/serial0`` is the three-pin debug connector between the HDMI ports;
the header's UART0 is ``/dev/ttyAMA0`` once ``dtparam=uart0=on`` is set. So
``port = "auto"`` (the PN532's default) means the header's UART on every Pi.
"""

from __future__ import annotations

from pathlib import Path

MODEL = Path("/proc/device-tree/model")


def model(path: Path = MODEL) -> str:
    """``Raspberry Pi 5 Model B Rev 1.0``, or "" off a Pi."""
    try:
        return path.read_bytes().rstrip(b"\0").decode(errors="replace")
    except OSError:
        return ""


def is_pi5(path: Path = MODEL) -> bool:
    return model(path).startswith(("Raspberry Pi 5", "Raspberry Pi Compute Module 5"))


def header_uart(path: Path = MODEL) -> str:
    """The device node of the UART on GPIO 14/15."""
    return "/dev/ttyAMA0" if is_pi5(path) else "/dev/serial0"


def uart_fix(path: Path = MODEL) -> str:
    """How to turn the header UART on (and the login console off it)."""
    if is_pi5(path):
        return ("enable the header UART: add dtparam=uart0=on under [all] in /boot/firmware/config.txt "
                "(deploy/install.sh does when a reader uses it), then reboot")
    return ("enable the UART: sudo raspi-config nonint do_serial_hw 0 and do_serial_cons 1 "
            "(no login console on it), then reboot")
