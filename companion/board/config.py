"""The table's configuration file (TOML): pins, display, readers, tags, web.

Simulation is the default: with no file at all every device is simulated
(gpiozero mock pins, luma.core's dummy display, simulated readers), which is
how a newcomer meets the product and how every test runs. A Pi owner copies
``docs/config.example.toml`` to ``~/.config/galapagos-companion/config.toml``
(or points ``--config`` / ``$COMPANION_CONFIG`` at it) and edits the pins.

Errors are one sentence that names the file and the key.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hw.oled import KINDS as DISPLAY_KINDS
from hw.pins import FACTORIES
from hw.rfid import BACKENDS

NAV_BUTTONS = ("ok", "back", "up", "down")
#: the header pins of the buses (BCM): I2C1 SDA/SCL, the GPIO UART TXD/RXD
I2C1_PINS = (2, 3)
UART_PINS = (14, 15)
#: serial ports that are the GPIO 14/15 UART (not a USB adapter); "auto" picks the right one per Pi
GPIO_UARTS = ("auto", "/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
#: the options each reader backend understands (besides point and backend)
READER_OPTIONS: dict[str, set[str]] = {
    "sim": set(),
    "mfrc522": {"spi_bus", "spi_device", "cs_pin", "ce_pin", "rst_pin", "antenna_gain", "speed"},
    "pn532": {"interface", "port", "baudrate", "address", "i2c_port", "spi_bus", "spi_device", "cs_pin", "timeout", "retries"},
    "bridge": {"reader"},
}


def spi_pins(bus: int, device: int = 0) -> tuple[int, ...]:
    """SPI0: MISO 9, MOSI 10, SCLK 11 and CE0 8, CE1 7 (the kernel holds both CE lines).

    SPI1 (dtoverlay=spi1-Ncs): MISO 19, MOSI 20, SCLK 21 and CE0 18, CE1 17, CE2 16 as used.
    """
    if bus == 0:
        return (7, 8, 9, 10, 11)
    return tuple(sorted((19, 20, 21) + (18, 17, 16)[: device + 1]))


class ConfigError(Exception):
    """A configuration file that cannot be used (one sentence naming file and key)."""


@dataclass(frozen=True)
class DisplayConfig:
    type: str = "dummy"
    i2c_port: int = 1
    address: int = 0x3C
    rotate: int = 0  # 0 or 2 (half turn): the screens are drawn 128x64 landscape
    contrast: int | None = None  # 0..255; None: the driver's own default
    dim_after: float = 300.0  # seconds without input before the screen dims (0: never)
    dim_contrast: int = 16  # the contrast while dimmed
    saver_after: float = 1800.0  # seconds of one unchanged screen without input before it blanks (0: never)
    refresh_every: float = 60.0  # seconds between full re-sends, repairing a display reset by a brown-out (0: never)


@dataclass(frozen=True)
class ReaderConfig:
    """One reader point; ``options`` are the backend's own keys (see hw/rfid/<backend>/)."""

    point: str
    backend: str = "sim"
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BridgeConfig:
    """The firmware bridge's serial link.

    ``port`` is ``"auto"`` (found anew on every reconnect: the udev symlink,
    then ``/dev/serial/by-id/`` links, then the USB VID:PID, see
    :class:`firmware_bridge.finder.PortFinder`), ``"sim"`` (the firmware
    simulator on a pseudo-terminal) or a device path. A config with real pins
    defaults to ``"auto"``, the simulated table to ``"sim"``.
    """

    port: str = "sim"
    baud: int = 115200
    buttons: dict[int, str] = field(default_factory=dict)  # bridge button index -> button name
    dice: dict[int, str] = field(default_factory=dict)  # bridge dice slot -> reader point
    symlink: str | None = None  # "auto": this symlink first (None: /dev/galapagos-bridge, from the udev rule)
    by_id: str | None = None  # "auto": this glob of by-id links (None: the Pico's MicroPython name)
    usb_id: tuple[int, int] | None = None  # "auto": this VID:PID (None: the Pico's 2E8A:0005)
    serial_number: str | None = None  # "auto": only the board with this USB serial number

    def finder(self) -> Any:
        """The :class:`~firmware_bridge.finder.PortFinder` that ``port = "auto"`` uses."""
        from firmware_bridge import finder

        return finder.PortFinder(
            symlink=self.symlink or finder.DEFAULT_SYMLINK,
            by_id=self.by_id or finder.DEFAULT_BY_ID,
            vid_pid=self.usb_id or finder.DEFAULT_VID_PID,
            serial_number=self.serial_number,
        )

    def target(self) -> Any:
        """What the host link opens: the finder for ``"auto"``, else the path (``"sim"`` is the caller's)."""
        return self.finder() if self.port == "auto" else self.port


@dataclass(frozen=True)
class Config:
    source: str = "(built-in simulation defaults)"
    pin_factory: str = "mock"
    gpio_chip: int | None = None  # lgpio's gpiochip; None: the one carrying the header (see hw.pins)
    seats: tuple[int, ...] = (5, 6, 13, 19, 26)
    nav: dict[str, int] = field(default_factory=lambda: {"ok": 16, "back": 20, "up": 21, "down": 12})
    bounce_ms: int = 20
    hold_ms: int = 1500
    encoder: tuple[int, int] | None = (17, 27)
    buzzer: int | None = 18
    buzzer_active_high: bool = True
    leds: dict[str, int] = field(default_factory=lambda: {"ready": 23, "error": 24})
    display: DisplayConfig = field(default_factory=DisplayConfig)
    readers: tuple[ReaderConfig, ...] = field(default_factory=lambda: default_readers())
    bridge: BridgeConfig = field(default_factory=BridgeConfig)
    tags_db: str | None = None  # None: the companion's journal database
    tag_hold: float = 0.6
    tag_misses: int = 3
    poll_interval: float = 0.1
    web_host: str = "0.0.0.0"
    web_port: int = 8080
    web_url: str | None = None  # the address the QR code shows; None: http://<hostname>.local:<port>/
    mqtt: Any = None  # companion.club.settings.MqttSettings; None: publishing off (no [mqtt] table)

    @property
    def simulated(self) -> bool:
        return self.pin_factory == "mock" and self.display.type == "dummy" and all(r.backend == "sim" for r in self.readers)

    def buttons(self) -> dict[str, int]:
        """Every GPIO button by name: ``seat1``..``seatN`` then the navigation buttons."""
        out = {f"seat{i}": pin for i, pin in enumerate(self.seats, start=1)}
        out.update(self.nav)
        return out

    def pins(self) -> dict[str, int]:
        """Every GPIO pin the config claims, by the device using it."""
        out = {f"button {name}": pin for name, pin in self.buttons().items()}
        if self.encoder:
            out["encoder A"], out["encoder B"] = self.encoder
        if self.buzzer is not None:
            out["buzzer"] = self.buzzer
        out.update({f"LED {name}": pin for name, pin in self.leds.items()})
        for r in self.readers:
            for key in ("rst_pin", "cs_pin"):
                pin = r.options.get(key)
                if isinstance(pin, int) and not isinstance(pin, bool) and pin > 0:
                    out[f"reader {r.point} {key}"] = pin
        return out

    def buses(self) -> dict[str, tuple[int, ...]]:
        """The Pi buses the config uses, each with the GPIO pins the kernel gives it."""
        out: dict[str, tuple[int, ...]] = {}
        if self.display.type != "dummy" and self.display.i2c_port == 1:
            out["the I2C display"] = I2C1_PINS
        for r in self.readers:
            interface = r.options.get("interface", "uart") if r.backend == "pn532" else None
            if r.backend == "mfrc522" or interface == "spi":
                bus = r.options.get("spi_bus", 0)
                out.setdefault(f"SPI{bus} (reader {r.point})", spi_pins(bus, r.options.get("spi_device", 0)))
            elif interface == "i2c" and r.options.get("i2c_port", 1) == 1:
                out.setdefault(f"I2C (reader {r.point})", I2C1_PINS)
            elif interface == "uart" and r.options.get("port", "auto") in GPIO_UARTS:
                out.setdefault(f"the UART (reader {r.point})", UART_PINS)
        return out

    def dashboard_url(self) -> str:
        if self.web_url:
            return self.web_url
        import socket

        return f"http://{socket.gethostname()}.local:{self.web_port}/"


def default_readers() -> tuple[ReaderConfig, ...]:
    """The simulated table: four tile squares, the scan pad, the bag, 4 seats × 5 dice slots."""
    points = ["N", "E", "S", "W", "scan", "bag"]
    points += [f"seat{s}.slot{d}" for s in range(1, 5) for d in range(1, 6)]
    return tuple(ReaderConfig(p) for p in points)


def default_path() -> Path | None:
    """``$COMPANION_CONFIG``, else the user's config file if it exists, else None (simulation)."""
    env = os.environ.get("COMPANION_CONFIG")
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    path = base / "galapagos-companion" / "config.toml"
    return path if path.exists() else None


def load(path: str | Path | None = None) -> Config:
    """Read ``path`` (or :func:`default_path`); no file means the simulation defaults."""
    path = Path(path) if path is not None else default_path()
    if path is None:
        return Config()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"Cannot read the config file {path}: {exc.strerror}.") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}.") from None
    return parse(data, str(path))


def parse(data: dict[str, Any], source: str = "config") -> Config:
    """Build a :class:`Config` from parsed TOML, checking every value and every pin."""
    r = _Reader(data, source)
    known = {"gpio", "buttons", "encoder", "buzzer", "leds", "display", "readers", "bridge", "tags", "web", "mqtt"}
    r.no_extra(data, known, "")
    gpio, buttons, enc, buzzer = r.table("gpio"), r.table("buttons"), r.table("encoder"), r.table("buzzer")
    display, bridge, tags, web = r.table("display"), r.table("bridge"), r.table("tags"), r.table("web")
    d = Config()
    dd = DisplayConfig()
    r.no_extra(buttons, {"seats", *NAV_BUTTONS, "bounce_ms", "hold_ms"}, "buttons")
    for name, table, keys in (
        ("gpio", gpio, {"factory", "chip"}),
        ("encoder", enc, {"a", "b", "enabled"}),
        ("buzzer", buzzer, {"pin", "active_high", "enabled"}),
        ("display", display, {"type", "i2c_port", "address", "rotate", "contrast", "dim_after", "dim_contrast",
                              "saver_after", "refresh_every"}),
        ("bridge", bridge, {"port", "baud", "buttons", "dice", "symlink", "by_id", "usb_id", "serial_number"}),
        ("tags", tags, {"db", "hold", "misses", "poll_interval"}),
        ("web", web, {"host", "port", "url"}),
    ):
        r.no_extra(table, keys, name)
    factory = r.choice(gpio, "gpio", "factory", FACTORIES, "mock")
    chip = gpio.get("chip", "auto")
    if chip != "auto":
        chip = r.number(gpio, "gpio", "chip", 0, lo=0, hi=15, whole=True, what='"auto" or a gpiochip number from 0 to 15')
    seats = r.get(buttons, "buttons", "seats", list, list(d.seats))
    nav = {name: r.get(buttons, "buttons", name, int, d.nav[name]) for name in NAV_BUTTONS}
    encoder = d.encoder
    if enc.get("enabled", True) is False:
        encoder = None
    elif enc:
        encoder = (r.get(enc, "encoder", "a", int, 17), r.get(enc, "encoder", "b", int, 27))
    contrast = display.get("contrast")
    disp = DisplayConfig(
        type=r.choice(display, "display", "type", DISPLAY_KINDS, "dummy"),
        i2c_port=r.number(display, "display", "i2c_port", 1, lo=0, hi=99, whole=True, what="an I2C bus number (1 is the header's)"),
        address=r.number(display, "display", "address", 0x3C, lo=0x03, hi=0x77, whole=True, hex_=True,
                         what="a 7-bit I2C address from 0x03 to 0x77 (0x3C or 0x3D on these modules)"),
        rotate=r.rotate(display),
        contrast=None if contrast is None else r.number(display, "display", "contrast", 0, lo=0, hi=255, whole=True,
                                                        what="a contrast from 0 to 255"),
        dim_after=r.seconds(display, "display", "dim_after", dd.dim_after, zero=True),
        dim_contrast=r.number(display, "display", "dim_contrast", dd.dim_contrast, lo=0, hi=255, whole=True,
                              what="a contrast from 0 to 255"),
        saver_after=r.seconds(display, "display", "saver_after", dd.saver_after, zero=True),
        refresh_every=r.seconds(display, "display", "refresh_every", dd.refresh_every, zero=True),
    )
    port = r.get(bridge, "bridge", "port", str, "sim" if factory == "mock" else "auto")
    if not port:
        raise r.fail("bridge.port", 'must be "auto", "sim" or a serial device such as /dev/ttyACM0, not empty')
    cfg = Config(
        source=source,
        pin_factory=factory,
        gpio_chip=None if chip == "auto" else chip,
        seats=tuple(r.pin_list(seats, "buttons.seats")),
        nav=nav,
        bounce_ms=r.number(buttons, "buttons", "bounce_ms", d.bounce_ms, lo=0, hi=1000, whole=True,
                           what="a whole number of milliseconds from 0 to 1000"),
        hold_ms=r.number(buttons, "buttons", "hold_ms", d.hold_ms, lo=100, hi=60000, whole=True,
                         what="a whole number of milliseconds from 100 to 60000"),
        encoder=encoder,
        buzzer=r.get(buzzer, "buzzer", "pin", int, d.buzzer) if buzzer.get("enabled", True) is not False else None,
        buzzer_active_high=r.get(buzzer, "buzzer", "active_high", bool, True),
        leds={str(k): r.get(r.table("leds"), "leds", k, int, 0) for k in r.table("leds")} if "leds" in data else d.leds,
        display=disp,
        readers=r.readers(data.get("readers")) if "readers" in data else d.readers,
        bridge=BridgeConfig(
            port=port,
            baud=r.baud(bridge, "bridge", "baud"),
            buttons=r.index_map(bridge.get("buttons", {}), "bridge.buttons"),
            dice=r.index_map(bridge.get("dice", {}), "bridge.dice"),
            symlink=r.get(bridge, "bridge", "symlink", str, "") or None,
            by_id=r.get(bridge, "bridge", "by_id", str, "") or None,
            usb_id=r.usb_id(bridge),
            serial_number=r.get(bridge, "bridge", "serial_number", str, "") or None,
        ),
        tags_db=r.get(tags, "tags", "db", str, "") or None,
        tag_hold=r.seconds(tags, "tags", "hold", d.tag_hold, zero=True, hi=10),
        tag_misses=r.number(tags, "tags", "misses", d.tag_misses, lo=1, hi=100, whole=True,
                            what="a whole number of polls from 1 to 100 (1 removes a tag at its first missed read)"),
        poll_interval=r.seconds(tags, "tags", "poll_interval", d.poll_interval, zero=False, lo=0.01, hi=5),
        web_host=r.get(web, "web", "host", str, d.web_host),
        web_port=r.number(web, "web", "port", d.web_port, lo=0, hi=65535, whole=True, what="a TCP port from 0 to 65535"),
        web_url=r.get(web, "web", "url", str, "") or None,
        mqtt=_mqtt(r.table("mqtt"), source),
    )
    _check_pins(cfg)
    return cfg


def _mqtt(table: dict[str, Any], source: str) -> Any:
    from companion.club import settings

    try:
        return settings.parse(table, source)
    except settings.SettingError as exc:
        raise ConfigError(str(exc)) from None


def _check_pins(cfg: Config) -> None:
    """Every pin on the header, each used once, none on a bus the config also uses."""
    seen: dict[int, str] = {}
    for user, pin in cfg.pins().items():
        if not 0 <= pin <= 27:
            raise ConfigError(f"{cfg.source}: {user} is on GPIO {pin}, but the Pi's header has GPIO 0 to 27.")
        shared_reset = user.endswith("rst_pin") and seen.get(pin, "").endswith("rst_pin")
        if pin in seen and not shared_reset:  # readers may share one reset line, nothing else may
            raise ConfigError(f"{cfg.source}: {user} and {seen[pin]} are both on GPIO {pin}; give each its own pin.")
        seen.setdefault(pin, user)
    for bus, pins in cfg.buses().items():
        for user, pin in cfg.pins().items():
            if pin in pins:
                raise ConfigError(f"{cfg.source}: {user} is on GPIO {pin}, which {bus} needs "
                                  f"(GPIO {', '.join(map(str, pins))}); choose another pin.")


class _Reader:
    """Typed access to parsed TOML with errors naming the file and key."""

    def __init__(self, data: dict[str, Any], source: str) -> None:
        self.data = data
        self.source = source

    def fail(self, key: str, what: str) -> ConfigError:
        return ConfigError(f"{self.source}: {key} {what}.")

    def table(self, name: str) -> dict[str, Any]:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise self.fail(f"[{name}]", "must be a table")
        return value

    def no_extra(self, table: dict[str, Any], allowed: set[str], where: str) -> None:
        extra = sorted(set(table) - allowed)
        if extra:
            name = f"{where}.{extra[0]}" if where else extra[0]
            raise self.fail(name, f"is not a setting (known: {', '.join(sorted(allowed))})")

    def get(self, table: dict[str, Any], where: str, key: str, kind: Any, default: Any) -> Any:
        value = table.get(key, default)
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            names = " or ".join(k.__name__.replace("str", "text").replace("int", "a whole number") for k in kinds)
            raise self.fail(f"{where}.{key}", f"must be {names}, not {value!r}")
        return value

    def number(self, table: dict[str, Any], where: str, key: str, default: Any, *, lo: float | None = None,
               hi: float | None = None, above: float | None = None, whole: bool = False, what: str = "",
               hex_: bool = False) -> Any:
        """A number within its range; the error says the range and the value given."""
        value = self.get(table, where, key, int if whole else (int, float), default)
        if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
            raise self.fail(f"{where}.{key}", f"must be {what or 'a finite number'}, not {value!r}")
        if (lo is not None and value < lo) or (hi is not None and value > hi) or (above is not None and value <= above):
            shown = f"{value} ({value:#04x})" if hex_ and isinstance(value, int) and value >= 0 else repr(value)
            raise self.fail(f"{where}.{key}", f"must be {what}, not {shown}")
        return value

    def seconds(self, table: dict[str, Any], where: str, key: str, default: float, *, zero: bool,
                lo: float | None = None, hi: float = 86400) -> float:
        """A duration in seconds: 0 allowed only where it means "never" (``zero``)."""
        if zero:
            what = f"a number of seconds from 0 to {hi:g}"
            return float(self.number(table, where, key, default, lo=0, hi=hi, what=what))
        what = f"a number of seconds from {lo:g} to {hi:g}" if lo else f"a number of seconds above 0 (at most {hi:g})"
        return float(self.number(table, where, key, default, lo=lo, hi=hi, above=0, what=what))

    def rotate(self, display: dict[str, Any]) -> int:
        value = self.get(display, "display", "rotate", int, 0)
        if value not in (0, 2):
            raise self.fail("display.rotate", f"must be 0 or 2 (a half turn): the screens are drawn 128x64 "
                                              f"landscape and {value!r} would turn them to portrait")
        return value

    def baud(self, table: dict[str, Any], where: str, key: str = "baud") -> int:
        value = self.get(table, where, key, int, 115200)
        if value not in BAUD_RATES:
            raise self.fail(f"{where}.{key}", f"must be one of {', '.join(map(str, BAUD_RATES))}, not {value!r}")
        return value

    def usb_id(self, bridge: dict[str, Any]) -> tuple[int, int] | None:
        text = self.get(bridge, "bridge", "usb_id", str, "")
        if not text:
            return None
        vid, sep, pid = text.partition(":")
        try:
            if not sep:
                raise ValueError
            return int(vid, 16), int(pid, 16)
        except ValueError:
            raise self.fail("bridge.usb_id", f'must be "VID:PID" in hex such as "2E8A:0005", not {text!r}') from None

    def reader_options(self, n: int, point: str, backend: str, options: dict[str, Any]) -> dict[str, Any]:
        """The backend's own keys, each checked; ``ce_pin`` (razrc522's name) becomes ``cs_pin``."""
        where = f"readers #{n} ({point})"
        allowed = READER_OPTIONS.get(backend, set())
        if allowed:
            self.no_extra(options, allowed, where)
        elif options:
            raise self.fail(f"{where}.{sorted(options)[0]}", f"is not a setting of a {backend} reader")
        out = dict(options)
        if "ce_pin" in out:
            if "cs_pin" in out:
                raise self.fail(f"{where}.ce_pin", "and cs_pin name the same chip select; keep cs_pin")
            out["cs_pin"] = out.pop("ce_pin")
        pin = "a BCM pin from 1 to 27 (0: none)"
        if backend == "mfrc522":
            self.number(out, where, "spi_bus", 0, lo=0, hi=1, whole=True, what="0 or 1")
            self.number(out, where, "spi_device", 0, lo=0, hi=2 if out.get("spi_bus", 0) == 1 else 1, whole=True,
                        what="the chip select of the bus: 0 or 1 on SPI0, 0 to 2 on SPI1")
            for key in ("cs_pin", "rst_pin"):
                self.number(out, where, key, 0, lo=0, hi=27, whole=True, what=pin)
            self.number(out, where, "antenna_gain", 4, lo=0, hi=7, whole=True, what="the receiver gain step, 0 to 7")
            self.number(out, where, "speed", 1_000_000, lo=100_000, hi=10_000_000, whole=True,
                        what="an SPI clock in Hz from 100000 to 10000000")
        elif backend == "pn532":
            interface = self.choice(out, where, "interface", ("uart", "i2c", "spi"), "uart")
            self.get(out, where, "port", str, "auto")
            if interface == "uart":
                self.baud(out, where, "baudrate")
            self.number(out, where, "address", 0x24, lo=0x03, hi=0x77, whole=True, hex_=True,
                        what="a 7-bit I2C address from 0x03 to 0x77 (the PN532 answers at 0x24)")
            self.number(out, where, "i2c_port", 1, lo=0, hi=99, whole=True, what="an I2C bus number")
            self.number(out, where, "spi_bus", 0, lo=0, hi=1, whole=True, what="0 or 1")
            self.number(out, where, "spi_device", 0, lo=0, hi=2, whole=True, what="0 to 2")
            cs = self.number(out, where, "cs_pin", 0, lo=0, hi=27, whole=True, what=pin)
            if interface == "spi" and not cs:
                raise self.fail(f"{where}.cs_pin", "is needed for a PN532 on SPI: a free GPIO as its chip select "
                                                   "(the kernel holds CE0 and CE1)")
            self.seconds(out, where, "timeout", 0.05, zero=False, hi=1)
            self.number(out, where, "retries", 1, lo=0, hi=10, whole=True, what="a whole number from 0 to 10")
        elif backend == "bridge":
            if "reader" not in out:
                raise self.fail(where, "needs reader = <the bridge's reader index>")
            self.number(out, where, "reader", 0, lo=0, hi=255, whole=True, what="the bridge's reader index, 0 to 255")
        return out

    def choice(self, table: dict[str, Any], where: str, key: str, choices: tuple[str, ...], default: str) -> str:
        value = table.get(key, default)
        if value not in choices:
            raise self.fail(f"{where}.{key}", f"must be one of {', '.join(choices)}, not {value!r}")
        return value

    def pin_list(self, value: list[Any], where: str) -> list[int]:
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in value):
            raise self.fail(where, "must be a list of BCM pin numbers")
        return value

    def index_map(self, value: Any, where: str) -> dict[int, str]:
        if not isinstance(value, dict):
            raise self.fail(where, "must be a table of index = name")
        try:
            return {int(k): str(v) for k, v in value.items()}
        except ValueError:
            raise self.fail(where, "keys must be numbers (the bridge's indexes)") from None

    def readers(self, value: Any) -> tuple[ReaderConfig, ...]:
        if not isinstance(value, list):
            raise self.fail("[[readers]]", "must be an array of tables")
        out = []
        for n, entry in enumerate(value, start=1):
            if not isinstance(entry, dict) or not isinstance(entry.get("point"), str):
                raise self.fail(f"readers #{n}", "needs a point name such as \"N\" or \"scan\"")
            backend = self.choice(entry, f"readers #{n} ({entry['point']})", "backend", BACKENDS, "sim")
            options = {k: v for k, v in entry.items() if k not in ("point", "backend")}
            out.append(ReaderConfig(entry["point"], backend, self.reader_options(n, entry["point"], backend, options)))
        names = [r.point for r in out]
        dup = next((p for p in names if names.count(p) > 1), None)
        if dup:
            raise self.fail("[[readers]]", f"names the point {dup!r} twice")
        self.spi_mix(out)
        return tuple(out)

    def spi_mix(self, readers: list[ReaderConfig]) -> None:
        """Refuse the SPI wirings that cannot work, in one sentence each (issue 22).

        SPI_NO_CS, which a GPIO-selected reader needs, is a mode of the spidev *node*
        (Linux spidev.c keeps it per device, not per open file): a GPIO-selected reader on
        the node of a CE-selected one stops that reader's CE line. And a PN532 on SPI goes
        through Blinka, which drives /dev/spidev0.0 and toggles CE0 on every transfer (its
        ``set_no_cs`` does nothing): it takes turns with the MFRC522s under their bus lock, but
        a reader selected by CE0 would hear its frames.
        """
        nodes: dict[tuple[int, int], tuple[list[str], list[str]]] = {}
        for r in readers:
            if r.backend != "mfrc522":
                continue
            node = (int(r.options.get("spi_bus", 0)), int(r.options.get("spi_device", 0)))
            gpio, ce = nodes.setdefault(node, ([], []))
            (gpio if r.options.get("cs_pin") else ce).append(r.point)
        for (bus, dev), (gpio, ce) in nodes.items():
            if gpio and ce:
                raise self.fail(
                    f"[[readers]] {gpio[0]!r}",
                    f"has a cs_pin on /dev/spidev{bus}.{dev}, the node of CE reader {ce[0]!r}: SPI_NO_CS belongs to "
                    f"the node, so its CE{dev} would stop; give the GPIO-selected readers a node no CE reader uses "
                    f"(spi_device = {1 - dev if bus == 0 else dev + 1}, or dtoverlay=spi{bus}-0cs with every "
                    "reader on a cs_pin; docs/hardware.md)")
            if len(ce) > 1:
                raise self.fail(f"[[readers]] {ce[1]!r}", f"shares /dev/spidev{bus}.{dev}'s CE line with {ce[0]!r}: "
                                "give one of them another spi_device or a cs_pin")
        spi_pn532 = [r.point for r in readers if r.backend == "pn532" and r.options.get("interface") == "spi"]
        on_ce0 = nodes.get((0, 0), ([], []))[1]
        if spi_pn532 and on_ce0:
            raise self.fail(f"[[readers]] {spi_pn532[0]!r}",
                            f"is a PN532 on SPI beside MFRC522 reader {on_ce0[0]!r} on CE0: Blinka toggles CE0 on "
                            "every transfer, so that reader would hear the PN532's frames; give it spi_device = 1 or "
                            "a cs_pin on spi_device = 1, or wire the PN532 to the UART or I2C")


def interfaces(cfg: Config) -> list[str]:
    """The kernel interfaces the config needs turned on: ``i2c``, ``spi0``, ``spi1-Ncs``, ``uart``.

    deploy/install.sh asks for them (``python -m companion.board.config needs FILE``)
    and enables only those, so a Pi with buttons and an OLED keeps GPIO 7-11
    and 14/15 free for buttons.
    """
    out: list[str] = []

    def add(name: str) -> None:
        if name not in out:
            out.append(name)

    if cfg.display.type != "dummy":
        add("i2c")
    spi1 = 0
    for r in cfg.readers:
        interface = r.options.get("interface", "uart") if r.backend == "pn532" else None
        if r.backend == "mfrc522" or interface == "spi":
            if r.options.get("spi_bus", 0) == 0:
                add("spi0")
            else:
                spi1 = max(spi1, r.options.get("spi_device", 0) + 1)
        elif interface == "i2c":
            add("i2c")
        elif interface == "uart" and r.options.get("port", "auto") in GPIO_UARTS:
            add("uart")
    if spi1:
        add(f"spi1-{spi1}cs")
    return out


def main(argv: list[str]) -> int:
    """``python -m companion.board.config needs FILE``: the interfaces to enable, one a line (exit 2: bad file)."""
    import sys

    if len(argv) != 2 or argv[0] != "needs":
        print("usage: python -m companion.board.config needs FILE", file=sys.stderr)
        return 2
    try:
        cfg = load(argv[1])
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    for name in interfaces(cfg):
        print(name)
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
