"""``companion doctor``, ``companion oled`` and ``companion tags``: the hardware side of the CLI."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import time
from pathlib import Path
from typing import Any

from companion import games
from companion.cli.main import UsageError, command, emit, fail, subcommands
from companion.engine.script import run_file
from companion.table.journal import default_db_path


@subcommands
def _parsers(sub: Any) -> None:
    p = sub.add_parser("doctor", help="check each configured device and say how to fix what fails")
    p.add_argument("--config", help="TOML config file (default: $COMPANION_CONFIG, then the user's, else simulation)")
    p.add_argument("--json", action="store_true", help="one JSON object per check instead of a table")
    p.add_argument("--bridge-timeout", type=float, default=5.0, help="seconds to wait for the bridge handshake")
    p.add_argument("--tags", action="store_true", help="then wait for a tag on each reader in turn and print its UID")
    p.add_argument("--tag-wait", type=float, default=20.0, help="seconds --tags waits on each reader (20)")
    p.add_argument("--db", default=argparse.SUPPRESS,
                   help="the journal to check (default: $COMPANION_DB, else the installed service's, else yours)")

    p = sub.add_parser("oled", help="render the OLED frame for the state after a script (simulated display)")
    p.add_argument("script")
    p.add_argument("--out", required=True, help="PNG file to write (128x64, or scaled)")
    p.add_argument("--screen", help="this screen instead of the one the table would show (prompt, costs, timer, ...)")
    p.add_argument("--scale", type=int, default=1, help="enlarge the PNG by this factor (for docs)")
    p.add_argument("--url", help="dashboard address for the QR screen")
    p.add_argument("--timer-remaining", type=float, help="seconds of sand left (a script has no clock)")

    p = sub.add_parser("tags", help="export or import the RFID tag registry as JSON")
    p.add_argument("action", choices=("export", "import", "list"))
    p.add_argument("file", nargs="?", help="JSON file (export: default stdout)")
    p.add_argument("--game", help="only this game's tags (export, list)")
    p.add_argument("--replace", action="store_true", help="import: drop every existing tag first")
    p.add_argument("--config")


# -- doctor ------------------------------------------------------------------------

@command("doctor")
def cmd_doctor(args: argparse.Namespace) -> int:
    from hw import doctor  # late: ~6 ms; doctor only

    config_path = args.config or doctor_config()
    cfg = load_config(config_path)
    db_path = doctor_db(getattr(args, "db", None))
    svc = running_service()
    if svc.running:  # the service holds the devices: its view, no pin claimed, no reader reset
        checks = running_checks(cfg, svc)
    else:
        checks = doctor_checks(cfg, Path(cfg.tags_db) if cfg.tags_db else db_path,
                               bridge_timeout=args.bridge_timeout, tags=args.tags, tag_wait=args.tag_wait)
    checks += doctor.journal("journal", db_path, svc.running)
    checks += doctor.supply(doctor.throttled())
    if args.json:
        for c in checks:
            emit(c.to_json())
    else:
        print(f"config: {cfg.source}")
        print(doctor.table(checks))
        failed = sum(1 for c in checks if not c.ok)
        print(f"{len(checks) - failed} ok, {failed} failed" if failed else f"all {len(checks)} checks ok")
    return 0 if all(c.ok for c in checks) else 1


def doctor_config() -> str | None:
    """The config the doctor checks when none is named: $COMPANION_CONFIG or the user's, else the
    one deploy/install.sh installed for the service."""
    from companion.board.config import default_path  # late: gpiozero, ~60 ms
    from hw.doctor import SERVICE_CONFIG  # late: ~6 ms; doctor only

    found = default_path()
    if found is None and SERVICE_CONFIG.exists():
        return str(SERVICE_CONFIG)
    return str(found) if found is not None else None


def doctor_db(cli_value: str | None) -> Path:
    """The journal to check: --db, $COMPANION_DB, else the installed service's (its unit's
    COMPANION_DB, /var/lib/galapagos-companion/...), else the user's own."""
    from hw.doctor import unit_db  # late: ~6 ms; doctor only

    if not cli_value and not os.environ.get("COMPANION_DB"):
        service = unit_db()
        if service is not None:
            return service
    return default_db_path(cli_value)


def running_service() -> Any:
    """A companion holding the devices (the systemd unit, or one run by hand), from its status
    file or systemctl."""
    from companion.cli.service_state import status_paths  # late: ~6 ms; doctor only
    from hw import doctor  # late: ~6 ms; doctor only

    found = doctor.Service(False)
    for path in status_paths():
        found = doctor.service(path)
        if found.running:
            return found
    return found


def running_checks(cfg: Any, svc: Any) -> list[Any]:
    """Beside a running table: what the service says of its devices, and what can be looked at
    without touching a part (device nodes and permissions)."""
    from hw import doctor  # late: ~6 ms; doctor only

    checks = doctor.service_checks(svc)
    if cfg.pin_factory != "mock":
        checks += doctor.node("GPIO", "GPIO chip", Path("/dev/gpiochip0"), "run on a Raspberry Pi")
    if cfg.display.type != "dummy":
        checks += doctor.node(f"display {cfg.display.type}", f"I2C bus {cfg.display.i2c_port}",
                              Path(f"/dev/i2c-{cfg.display.i2c_port}"),
                              "enable I2C: sudo raspi-config nonint do_i2c 0, then reboot")
    for r in cfg.readers:
        if r.backend == "mfrc522" or r.backend == "pn532" and r.options.get("interface") == "spi":
            checks += doctor.spi(f"reader {r.point}", int(r.options.get("spi_bus", 0)), int(r.options.get("spi_device", 0)))
    return checks


def doctor_checks(cfg: Any, db_path: Path, *, bridge_timeout: float = 5.0, tags: bool = False,
                  tag_wait: float = 20.0) -> list[Any]:
    """Every check for the devices ``cfg`` names, in table order.

    A group of checks that fails in an unforeseen way becomes one failed row
    naming the exception, so the table is always printed.
    """
    from hw import doctor  # late: ~6 ms; doctor only

    checks: list[Any] = []

    def group(device: str, fn: Any, *args: Any) -> None:
        try:
            checks.extend(fn(*args))
        except Exception as exc:  # one device's surprise must not hide the others
            checks.append(doctor.Check(device, "check", False, f"{type(exc).__name__}: {exc}",
                                       "see docs/hardware.md; report this if it persists"))

    group("GPIO", doctor.pins, cfg.pins(), cfg.pin_factory, getattr(cfg, "gpio_chip", None))
    d = cfg.display
    if d.type == "dummy":
        checks.append(doctor.Check("display", "dummy display", True, "simulated (luma.core dummy)"))
    else:
        group(f"display {d.type}", doctor.i2c, f"display {d.type}", d.i2c_port, d.address)
    for r in cfg.readers:
        group(f"reader {r.point}", reader_checks, r)
    wired = [r for r in cfg.readers if r.backend in CHIP_BACKENDS
             and all(c.ok for c in checks if c.device == f"reader {r.point}")]
    if wired:
        group("readers", chip_checks, cfg, wired, tags, tag_wait)
    if any(r.backend == "bridge" for r in cfg.readers) or cfg.bridge.buttons or cfg.bridge.dice:
        group("bridge", bridge_checks, cfg, bridge_timeout)
    group("tag registry", doctor.writable, "tag registry", db_path)
    group("dashboard", doctor.tcp_port_free, "dashboard", cfg.web_host, cfg.web_port)
    from companion.board.network import doctor_checks as network_checks  # late: doctor only

    group("network", network_checks, cfg)  # which network the table is on, the address phones get
    return checks


#: backends whose chip doctor talks to (the bridge's readers are the firmware's to check)
CHIP_BACKENDS = ("mfrc522", "pn532")
#: what an MFRC522's VersionReg says about the chip
MFRC522_VERSIONS = {0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0", 0x88: "FM17522 clone", 0x89: "FM17522E clone",
                    0x90: "clone", 0x12: "clone", 0xB2: "clone"}


def chip_checks(cfg: Any, readers: list[Any], tags: bool, wait: float) -> list[Any]:
    """Talk to each reader's chip: its version register (an unwired or clone reader shows here),
    then, with ``tags``, a tag on each reader in turn, its UID printed as it is read."""
    from hw import doctor  # late: ~6 ms; doctor only
    from hw.pins import use_factory  # late: gpiozero; lgpio may chdir
    from hw.rfid import ReaderError, load_backend  # late: reader drivers; doctor only

    use_factory(cfg.pin_factory, getattr(cfg, "gpio_chip", None))
    opened = [load_backend(r.backend)(r.point, r.options) for r in readers]
    for kind in {type(o) for o in opened}:
        kind.prepare([o for o in opened if type(o) is kind])  # every chip select high before the first transfer
    checks: list[Any] = []
    try:
        for reader in opened:
            name = f"reader {reader.point}"
            try:
                reader.open()
            except ReaderError as exc:
                checks.append(doctor.Check(name, "the chip answers", False, str(exc), "see docs/hardware.md"))
                continue
            version = getattr(getattr(reader, "driver", None), "version_read", None)
            if version is None:
                checks.append(doctor.Check(name, "the chip answers", True, f"{reader.backend} configured"))
            else:
                known = MFRC522_VERSIONS.get(version)
                detail = (f"VersionReg {version:#04x}: {known}" if known else
                          f"VersionReg {version:#04x}: not a version this driver knows; it may be a clone that works")
                checks.append(doctor.Check(name, "the chip answers", True, detail))
            if tags:
                print(f"Hold a tag on reader {reader.point} (waiting up to {wait:g} s)...", flush=True)
                uid, deadline = None, time.monotonic() + wait
                while uid is None and time.monotonic() < deadline:
                    try:
                        raw = reader.read_uid()
                    except Exception:  # noqa: BLE001 - a bad read: try again until the deadline
                        raw = None
                    uid = bytes(raw).hex().upper() if raw else None
                    time.sleep(0.05)
                if uid:
                    print(f"    reader {reader.point}: {uid}", flush=True)
                checks.append(doctor.Check(name, "reads a tag", uid is not None, uid or f"no tag in {wait:g} s",
                                           "hold the tag flat on the antenna; check the antenna gain and wiring"))
    finally:
        for reader in opened:
            try:
                reader.close()
            except Exception:  # noqa: BLE001
                pass
    return checks


def reader_checks(r: Any) -> list[Any]:
    from hw import board, doctor  # late: ~6 ms; doctor only

    name = f"reader {r.point}"
    if r.backend == "sim":
        return [doctor.Check(name, "simulated reader", True, "simulated")]
    if r.backend == "mfrc522":
        bus, dev = int(r.options.get("spi_bus", 0)), int(r.options.get("spi_device", 0))
        return doctor.spi(name, bus, dev) + doctor.library(name, "spidev", "galapagos-companion[pi]")
    if r.backend == "pn532":
        interface = r.options.get("interface", "uart")
        checks = doctor.library(name, "adafruit_pn532", "galapagos-companion[pi]")
        if interface == "uart":
            port = r.options.get("port", "auto")
            port = board.header_uart() if port == "auto" else port
            return doctor.serial_port(name, port, board.uart_fix()) + checks
        if interface == "i2c":
            return doctor.i2c(name, int(r.options.get("i2c_port", 1)), int(r.options.get("address", 0x24))) + checks
        return doctor.spi(name, int(r.options.get("spi_bus", 0)), int(r.options.get("spi_device", 0))) + checks
    if r.backend == "bridge":
        return [doctor.Check(name, "bridge reader index", isinstance(r.options.get("reader"), int),
                             f"reader {r.options.get('reader')}", "set reader = <the bridge's reader index>")]
    return [doctor.Check(name, f"backend {r.backend}", False, "unknown backend", "see docs/config.example.toml")]


def bridge_checks(cfg: Any, timeout: float) -> list[Any]:
    """Where the bridge is (``auto``: the finder's answer), its serial port, then a real handshake."""
    from hw import doctor  # late: ~6 ms; doctor only

    simulator = None
    port = cfg.bridge.port
    checks: list[Any] = []
    if port == "sim":
        from firmware_bridge.simulator import Simulator  # late: ~15 ms; doctor only

        if cfg.pin_factory != "mock":
            checks.append(doctor.Check("bridge", "port", False, 'port = "sim" runs the firmware simulator, not the board',
                                       'set [bridge] port = "auto" (or the board\'s device) on the table'))
        simulator = Simulator().start()
        port = simulator.path
        checks.append(doctor.Check("bridge", "firmware simulator", True, f"running on {port}"))
    else:
        if port == "auto":
            finder = cfg.bridge.finder()
            found = finder()
            looked = ", ".join(x for x in (finder.symlink, finder.by_id) if x)
            if finder.vid_pid:
                looked += f", USB {finder.vid_pid[0]:04X}:{finder.vid_pid[1]:04X}"
            if found is None:
                return checks + [doctor.Check("bridge", "find the board", False, f"not found ({looked})",
                                              doctor.BRIDGE_PORT_FIX)]
            checks.append(doctor.Check("bridge", "find the board", True, f"found {found}"))
            port = found
        checks += doctor.serial_port("bridge", port)
        if not all(c.ok for c in checks):
            return checks
    from firmware_bridge.host import HostLink  # late: pyserial, ~25 ms; doctor only

    link = HostLink(port, baudrate=cfg.bridge.baud)
    try:
        link.start()
        if link.wait_connected(timeout):
            from firmware_bridge.core import firmware_mismatch  # late: ~5 ms; doctor only

            info = link.info
            detail = f"firmware {'.'.join(map(str, info.firmware))}" if info is not None and hasattr(info, "firmware") else "handshake done"
            checks.append(doctor.Check("bridge", "handshake", True, detail))
            if info is not None:
                mismatch = firmware_mismatch(info.firmware)
                checks.append(doctor.Check("bridge", "firmware version", mismatch is None,
                                           mismatch.split(":")[0] if mismatch else "the one this companion ships",
                                           "run companion firmware install (it copies the firmware with mpremote)"))
        else:
            checks.append(doctor.Check("bridge", "handshake", False, f"no answer within {timeout:g} s",
                                       "check that the microcontroller runs the bridge firmware and the baud rate matches"))
    finally:
        link.stop()
        if simulator is not None:
            simulator.stop()
    return checks


# -- oled --------------------------------------------------------------------------

@command("oled")
def cmd_oled(args: argparse.Namespace) -> int:
    from PIL import Image  # late: Pillow, ~7 ms; oled only

    from companion.board import screens  # late: fonts, ~30 ms; oled only
    from hw.oled import open_oled  # late: ~10 ms; oled only

    if args.scale < 1:
        raise UsageError("--scale must be 1 or more.")
    trail: list[Any] = []
    result = run_file(args.script, trail)
    state = result.output if result.ok else (result.output.get("state") if isinstance(result.output, dict) else None)
    if state is None:
        emit(result.output)
        return 2
    state = dict(state)
    if args.timer_remaining is not None:
        state["timer_remaining"] = args.timer_remaining
    message = None if result.ok else result.output["error"]["message"]
    ctx = screens.context_for(result.rules, result.state, message=message, url=args.url)
    name = args.screen or screens.choose(state, ctx)
    if name == "course" and result.rules is not None:  # the script's game so far, as the dial draws it
        from companion.table.course import spark_of  # late: ~3 ms; oled only

        ctx = dataclasses.replace(ctx, data={**ctx.data, "course": spark_of(games.package(result.rules.id), trail,
                                                                             ctx.lang)})
    try:
        image = screens.render(name, state, ctx)
    except screens.UnknownScreen as exc:
        raise UsageError(str(exc)) from None
    oled = open_oled("dummy")
    oled.show(image)
    frame = oled.device.image
    if args.scale > 1:
        frame = frame.resize((frame.width * args.scale, frame.height * args.scale), Image.NEAREST)
    try:
        frame.save(args.out, format="PNG")
    except OSError as exc:
        return fail(f"Cannot write {args.out}: {exc.strerror or exc}.")
    if not result.ok:
        emit(result.output)
        return 2
    emit({"screen": name, "out": args.out, "size": list(frame.size), "game": state.get("game")})
    return 0


# -- tags --------------------------------------------------------------------------

@command("tags")
def cmd_tags(args: argparse.Namespace) -> int:
    from hw.tags import TagError, TagRegistry  # late: ~12 ms; tags only

    cfg = load_config(args.config)
    registry = TagRegistry(cfg.tags_db or default_db_path(getattr(args, "db", None)))
    try:
        if args.action == "import":
            if not args.file:
                raise UsageError("tags import needs the JSON file to read.")
            try:
                data = json.loads(Path(args.file).read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                return fail(f"Cannot read {args.file}: {exc}.")
            count = registry.import_json(data, replace=args.replace)
            emit({"imported": count})
            return 0
        if args.action == "list":
            for row in registry.entries(args.game):
                emit(row)
            return 0
        text = json.dumps(registry.export_json(args.game), ensure_ascii=False, indent=1)
        if args.file:
            Path(args.file).write_text(text + "\n", encoding="utf-8")
        else:
            print(text)
        return 0
    except TagError as exc:
        return fail(str(exc))
    finally:
        registry.close()


def load_config(path: str | None) -> Any:
    from companion.board import config as configuration  # late: gpiozero, ~60 ms

    try:
        return configuration.load(path)
    except configuration.ConfigError as exc:
        raise UsageError(str(exc)) from None
