"""Device checks for ``companion doctor``: each says what it looked at and how to fix a failure.

Checks take plain values (a bus number, a path, a pin map) so ``hw`` needs no
knowledge of the config file. Device nodes are looked up under ``dev`` so the
checks can be pointed at another tree.
"""

from __future__ import annotations

import grp
import importlib.util
import json
import os
import shutil
import socket
import sqlite3
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import serial
from gpiozero import Device, DigitalInputDevice
from gpiozero.pins.mock import MockFactory

from hw.pins import PinFactoryError, make_factory
from hw.supply import (  # noqa: F401 - the doctor's names for the supply's bits
    SUPPLY_FIX,
    THROTTLED_NOW,
    THROTTLED_SINCE_BOOT,
    THROTTLED_SYSFS,
    UNDER_VOLTAGE_NOW,
    UNDER_VOLTAGE_SINCE_BOOT,
    supply_problem,
    throttled,
)


@dataclass(frozen=True)
class Check:
    device: str  # "display", "reader scan", "GPIO", ...
    what: str  # what was checked ("I2C bus /dev/i2c-1")
    ok: bool
    detail: str = ""  # what was found
    fix: str = ""  # one sentence, for failures

    def to_json(self) -> dict[str, object]:
        return {"device": self.device, "check": self.what, "ok": self.ok, "detail": self.detail, "fix": self.fix}


def access_fix(path: Path) -> str:
    """How to get read/write access to a device node: the group that owns it."""
    try:
        group = grp.getgrgid(path.stat().st_gid).gr_name
    except (KeyError, OSError):
        group = "the device's group"
    return f"add the user to group {group} (sudo usermod -aG {group} $USER), then log in again"


def node(device: str, what: str, path: Path, missing_fix: str) -> list[Check]:
    """A device node must exist and be readable and writable by this user."""
    if not path.exists():
        return [Check(device, what, False, f"{path} does not exist", missing_fix)]
    if not os.access(path, os.R_OK | os.W_OK):
        return [Check(device, what, False, f"no read/write permission on {path}", access_fix(path))]
    return [Check(device, what, True, f"{path} present")]


def i2c(device: str, port: int, address: int, dev: Path = Path("/dev")) -> list[Check]:
    path = dev / f"i2c-{port}"
    checks = node(device, f"I2C bus {port}", path, "enable I2C: sudo raspi-config nonint do_i2c 0, then reboot")
    if not checks[0].ok:
        return checks
    try:
        from smbus2 import SMBus  # late: optional (the [pi] extra)
    except ImportError:
        return checks + [Check(device, f"I2C address {address:#04x}", False, "smbus2 is not installed", "pip install smbus2")]
    return checks + [probe_i2c(device, port, address, SMBus)]


def probe_i2c(device: str, port: int, address: int, bus_class: Any) -> Check:
    """Address the chip with a quick write (i2cdetect's -q probe), which every SSD1306 ACKs.

    A read (``read_byte``) is not safe: write-only displays may NAK it and
    look absent. A NAK here means nobody at that address; the fix names the
    addresses that do answer, so a module strapped to 0x3D is found.
    """
    what = f"I2C address {address:#04x}"
    try:
        with bus_class(port) as bus:
            bus.write_quick(address)
    except OSError as exc:
        others = scan_i2c(port, bus_class, skip=address)
        seen = f"; devices answer at {', '.join(f'{a:#04x}' for a in others)}" if others else "; nothing answers on the bus"
        return Check(device, what, False, f"nothing answers at {address:#04x} ({exc.strerror or exc}){seen}",
                     "set the address printed on the module (i2cdetect -y " f"{port} lists them) or check SDA/SCL/power")
    return Check(device, what, True, "answers")


def scan_i2c(port: int, bus_class: Any, skip: int | None = None) -> list[int]:
    """Addresses 0x03..0x77 that ACK a quick write (what i2cdetect -q shows)."""
    found = []
    try:
        with bus_class(port) as bus:
            for address in range(0x03, 0x78):
                if address == skip:
                    continue
                try:
                    bus.write_quick(address)
                    found.append(address)
                except OSError:
                    pass
    except OSError:
        return []
    return found


def spi(device: str, bus: int, chip: int, dev: Path = Path("/dev")) -> list[Check]:
    if bus == 0:
        fix = "enable SPI: sudo raspi-config nonint do_spi 0, then reboot"
    else:
        fix = f"enable SPI{bus}: add dtoverlay=spi{bus}-{chip + 1}cs under [all] in /boot/firmware/config.txt, then reboot"
    return node(device, f"SPI {bus}.{chip}", dev / f"spidev{bus}.{chip}", fix)


BRIDGE_PORT_FIX = "plug the bridge in and check `ls /dev/serial/by-id/` (or set [bridge] port)"
UART_FIX = "enable the UART: sudo raspi-config nonint do_serial_hw 0 and do_serial_cons 1, then reboot"
DIALOUT_FIX = "add the user to group dialout (sudo usermod -aG dialout $USER), then log in again"


def serial_port(device: str, port: str, missing_fix: str = BRIDGE_PORT_FIX) -> list[Check]:
    checks = node(device, f"serial {port}", Path(port), missing_fix)
    if not checks[0].ok:
        return checks
    try:
        serial.Serial(port, exclusive=True, timeout=0).close()
    except serial.SerialException as exc:
        text = str(exc)
        if "Permission denied" in text or "Errno 13" in text:
            return checks + [Check(device, f"serial {port} free", False, "permission denied", DIALOUT_FIX)]
        return checks + [Check(device, f"serial {port} free", False, text.split(":")[0],
                               "stop the other program using the port (is a companion already running?)")]
    return checks + [Check(device, f"serial {port} free", True, "not in use")]


def library(device: str, module: str, package: str) -> list[Check]:
    found = importlib.util.find_spec(module) is not None
    fix = f"pip install '{package}'"
    return [Check(device, f"library {module}", found, "installed" if found else "missing", "" if found else fix)]


BUSY_FIX = "stop whatever holds the pin (is a companion already running?) or choose another pin"


def pins(claims: Mapping[str, int], factory_name: str, chip: int | None = None) -> list[Check]:
    """Claim every pin once with the configured factory, then release it.

    A pin that is already held (another program, a kernel overlay, a
    companion already running) fails here rather than halfway through a
    game. Whatever the factory raises (lgpio raises its own ``lgpio.error:
    'GPIO busy'``, gpiozero ``GPIOPinInUse``) becomes a row of the table,
    never a traceback. With the mock factory the process's own mock pins are
    used when there are some, so a pin held in this process shows as busy.
    """
    out: list[Check] = []
    if factory_name != "mock":
        out += node("GPIO", "GPIO chip", Path("/dev/gpiochip0"),
                    "run on a Raspberry Pi, or use factory = \"mock\" to simulate the pins")
    own = factory_name == "mock" and isinstance(Device.pin_factory, MockFactory)
    try:
        factory = Device.pin_factory if own else make_factory(factory_name, chip)
    except PinFactoryError as exc:
        return out + [Check("GPIO", f"pin factory {factory_name}", False, str(exc).rstrip("."), exc.fix)]
    detail = "simulated pins" if factory_name == "mock" else f"loaded{_chip_detail(factory)}"
    out.append(Check("GPIO", f"pin factory {factory_name}", True, detail))
    try:
        for user, pin in claims.items():
            try:
                DigitalInputDevice(pin, pin_factory=factory).close()
                out.append(Check(user, f"GPIO {pin} free", True, "claimed and released"))
            except Exception as exc:  # every failure is a row of the table, never a traceback
                out.append(Check(user, f"GPIO {pin} free", False, _busy_detail(exc), BUSY_FIX))
    finally:
        if not own:
            factory.close()
    return out


def _busy_detail(exc: BaseException) -> str:
    text = str(exc).strip()
    if "busy" in text.lower() or "in use" in text.lower() or isinstance(exc, OSError) and exc.errno == 16:
        return f"GPIO busy ({type(exc).__name__}: {text})" if text else "GPIO busy"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _chip_detail(factory: object) -> str:
    chip = getattr(factory, "chip", None)
    return f" (gpiochip{chip})" if isinstance(chip, int) else ""


def writable(device: str, path: Path) -> list[Check]:
    """A database file (or the folder it will be created in) must be writable."""
    target = path if path.exists() else path.parent
    while not target.exists() and target != target.parent:
        target = target.parent
    ok = os.access(target, os.W_OK)
    fix = "" if ok else f"make {target} writable by this user or choose another path"
    return [Check(device, f"writable {path}", ok, "ok" if ok else f"{target} is read-only", fix)]


def tcp_port_free(device: str, host: str, port: int) -> list[Check]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            return [Check(device, f"port {host}:{port}", False, exc.strerror or "in use",
                          "stop the program using the port or set [web] port to another number")]
    return [Check(device, f"port {host}:{port}", True, "free")]


def table(checks: list[Check]) -> str:
    """A plain-text table: device, check, status, and the fix for each failure."""
    rows = [("DEVICE", "CHECK", "STATUS", "DETAIL / FIX")]
    for c in checks:
        rows.append((c.device, c.what, "ok" if c.ok else "FAIL", c.detail if c.ok else f"{c.detail}: {c.fix}"))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    return "\n".join(f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:<{widths[2]}}  {r[3]}".rstrip() for r in rows)


# -- a running table: the service, its journal, the supply -------------------------------------

SERVICE = "galapagos-companion.service"
#: where deploy/install.sh puts the service's config, unit and journal
SERVICE_CONFIG = Path("/etc/galapagos-companion/config.toml")
SERVICE_UNIT = Path("/etc/systemd/system") / SERVICE
#: the status file ``companion run`` keeps in its runtime directory (systemd's RuntimeDirectory=)
SERVICE_STATUS = Path("/run/galapagos-companion/status.json")


@dataclass(frozen=True)
class Service:
    """A companion holding the devices: the systemd unit, or one started by hand."""

    running: bool
    pid: int | None = None
    how: str = ""  # "systemd", "status file"
    status: Mapping[str, Any] | None = None  # what it says of its devices (status.json)


def service(status_file: Path = SERVICE_STATUS, systemctl: str = "systemctl", proc: Path = Path("/proc")) -> Service:
    """Whether a companion holds the devices now, and what it says of them.

    The unit's state comes from ``systemctl show`` (no root needed); a companion started by
    hand, or under systemd, keeps ``status.json`` in its runtime folder with its pid: a pid
    that is alive counts. Reading either never touches a device.
    """
    status = None
    try:
        status = json.loads(status_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        status = None
    pid = status.get("pid") if isinstance(status, dict) else None
    if isinstance(pid, int) and pid != os.getpid() and (proc / str(pid)).exists():
        return Service(True, pid, "status file", status)
    if shutil.which(systemctl):
        try:
            out = subprocess.run([systemctl, "show", "--property=ActiveState,MainPID", SERVICE],
                                 capture_output=True, text=True, timeout=5).stdout
        except (OSError, subprocess.SubprocessError):
            out = ""
        props = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
        if props.get("ActiveState") in ("active", "activating", "reloading"):
            main = int(props.get("MainPID", "0") or 0)
            return Service(True, main or None, "systemd", None)
    return Service(False)


def service_checks(svc: Service) -> list[Check]:
    """The table as the running service sees it: one row per device it reports."""
    who = f"{svc.how}, pid {svc.pid}" if svc.pid else svc.how
    out = [Check("service", "companion running", True,
                 f"{who}: it holds the devices, so they are not claimed or reset here "
                 f"(sudo systemctl stop galapagos-companion, then run doctor again to test each part)")]
    status = svc.status or {}
    devices = status.get("devices")
    if not isinstance(devices, Mapping):
        return out + [Check("service", "device status", False, "the service publishes no device status",
                            "update the companion (deploy/install.sh) so it writes /run/galapagos-companion/status.json")]
    for name, state in sorted(devices.items()):
        ok = bool(state.get("ok")) if isinstance(state, Mapping) else False
        message = state.get("message", "") if isinstance(state, Mapping) else ""
        out.append(Check(str(name), "as the service sees it", ok, message or ("working" if ok else "down"),
                         "" if ok else "see the message; the service retries it by itself"))
    if not devices:
        out.append(Check("devices", "as the service sees it", True, "every device answers"))
    return out


def unit_db(unit: Path = SERVICE_UNIT) -> Path | None:
    """The journal the installed unit gives the service (its ``Environment=COMPANION_DB=``)."""
    try:
        for line in unit.read_text(encoding="utf-8").splitlines():
            key, _, value = line.strip().partition("=")
            if key == "Environment" and value.startswith("COMPANION_DB="):
                return Path(value.split("=", 1)[1])
    except OSError:
        return None
    return None


def journal(device: str, path: Path, service_running: bool) -> list[Check]:
    """The journal file: there (or creatable), readable, and whole (SQLite's quick_check, read
    only, so a running service is not disturbed); writable only matters when nothing runs."""
    if not path.exists():
        return writable(device, path)
    if not os.access(path, os.R_OK):
        return [Check(device, f"journal {path}", False, "not readable by this user",
                      "run doctor as the service's user (the one deploy/install.sh was run for)")]
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2)
        try:
            result = db.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error as exc:
        return [Check(device, f"journal {path}", False, f"cannot be read ({exc})",
                      "companion run copies a damaged journal aside and recovers what it can")]
    if result != "ok":
        return [Check(device, f"journal {path}", False, f"damaged ({result})",
                      "companion run copies a damaged journal aside and recovers what it can")]
    checks = [Check(device, f"journal {path}", True, "readable and whole")]
    if not service_running:
        checks += writable(device, path)
    return checks


def supply(bits: int | None) -> list[Check]:
    if bits is None:
        return [Check("power supply", "under-voltage (get_throttled)", True, "not a Raspberry Pi: not checked")]
    problem = supply_problem(bits)
    detail = f"throttled={bits:#x}"
    if bits & (THROTTLED_NOW | THROTTLED_SINCE_BOOT):
        detail += ", the CPU was throttled"
    if problem:
        return [Check("power supply", "under-voltage (get_throttled)", False, f"{problem} ({detail})", SUPPLY_FIX)]
    return [Check("power supply", "under-voltage (get_throttled)", True, f"no under-voltage since boot ({detail})")]
