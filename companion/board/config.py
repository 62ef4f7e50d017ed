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
import socket
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.board.config_values import ConfigError, ReaderConfig, ValueReader
from companion.club import settings
from firmware_bridge import finder
from hw.oled_device import KINDS as DISPLAY_KINDS
from hw.pins import FACTORIES

NAV_BUTTONS = ("ok", "back", "up", "down")
#: the header pins of the buses (BCM): I2C1 SDA/SCL, the GPIO UART TXD/RXD
I2C1_PINS = (2, 3)
UART_PINS = (14, 15)
#: serial ports that are the GPIO 14/15 UART (not a USB adapter); "auto" picks the right one per Pi
GPIO_UARTS = ("auto", "/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")


def spi_pins(bus: int, device: int = 0) -> tuple[int, ...]:
    """SPI0: MISO 9, MOSI 10, SCLK 11 and CE0 8, CE1 7 (the kernel holds both CE lines).

    SPI1 (dtoverlay=spi1-Ncs): MISO 19, MOSI 20, SCLK 21 and CE0 18, CE1 17, CE2 16 as used.
    """
    if bus == 0:
        return (7, 8, 9, 10, 11)
    return tuple(sorted((19, 20, 21) + (18, 17, 16)[: device + 1]))


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
    network: Any = None  # companion.board.network.NetworkSettings; None: no [network] table (no hotspot)
    first_boot: dict[str, Any] | None = None  # what the first-boot walk found (companion.board.walk); None: not walked

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
            for key in ("rst_pin", "cs_pin", "req_pin", "reset_pin"):
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
    r = ValueReader(data, source)
    known = {"gpio", "buttons", "encoder", "buzzer", "leds", "display", "readers", "bridge", "tags", "web", "mqtt", "network", "first_boot"}
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
        network=_network(r.table("network"), source) if "network" in data else None,
        first_boot=r.table("first_boot") if "first_boot" in data else None,
    )
    _check_pins(cfg)
    return cfg


def _mqtt(table: dict[str, Any], source: str) -> Any:
    try:
        return settings.parse(table, source)
    except settings.SettingError as exc:
        raise ConfigError(str(exc)) from None


def _network(table: dict[str, Any], source: str) -> Any:
    from companion.board import network  # late: only a [network] table needs it (~35 ms)

    try:
        return network.parse(table, source)
    except network.NetworkSettingError as exc:
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
