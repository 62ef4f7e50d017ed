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


class ConfigError(Exception):
    """A configuration file that cannot be used (one sentence naming file and key)."""


@dataclass(frozen=True)
class DisplayConfig:
    type: str = "dummy"
    i2c_port: int = 1
    address: int = 0x3C
    rotate: int = 0


@dataclass(frozen=True)
class ReaderConfig:
    """One reader point; ``options`` are the backend's own keys (see hw/rfid/<backend>/)."""

    point: str
    backend: str = "sim"
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BridgeConfig:
    port: str = "sim"  # a serial device, or "sim" for the firmware simulator on a pseudo-terminal
    baud: int = 115200
    buttons: dict[int, str] = field(default_factory=dict)  # bridge button index -> button name
    dice: dict[int, str] = field(default_factory=dict)  # bridge dice slot -> reader point


@dataclass(frozen=True)
class Config:
    source: str = "(built-in simulation defaults)"
    pin_factory: str = "mock"
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
            for key in ("rst_pin", "ce_pin", "cs_pin"):
                pin = r.options.get(key)
                if isinstance(pin, int) and pin > 0:
                    out[f"reader {r.point} {key}"] = pin
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
    """Build a :class:`Config` from parsed TOML, checking every value."""
    r = _Reader(data, source)
    known = {"gpio", "buttons", "encoder", "buzzer", "leds", "display", "readers", "bridge", "tags", "web"}
    r.no_extra(data, known, "")
    gpio, buttons, enc, buzzer = r.table("gpio"), r.table("buttons"), r.table("encoder"), r.table("buzzer")
    display, bridge, tags, web = r.table("display"), r.table("bridge"), r.table("tags"), r.table("web")
    d = Config()
    r.no_extra(buttons, {"seats", *NAV_BUTTONS, "bounce_ms", "hold_ms"}, "buttons")
    for name, table, keys in (
        ("gpio", gpio, {"factory"}),
        ("encoder", enc, {"a", "b", "enabled"}),
        ("buzzer", buzzer, {"pin", "active_high", "enabled"}),
        ("display", display, {"type", "i2c_port", "address", "rotate"}),
        ("bridge", bridge, {"port", "baud", "buttons", "dice"}),
        ("tags", tags, {"db", "hold", "misses", "poll_interval"}),
        ("web", web, {"host", "port", "url"}),
    ):
        r.no_extra(table, keys, name)
    seats = r.get(buttons, "buttons", "seats", list, list(d.seats))
    nav = {name: r.get(buttons, "buttons", name, int, d.nav[name]) for name in NAV_BUTTONS}
    encoder = d.encoder
    if enc.get("enabled", True) is False:
        encoder = None
    elif enc:
        encoder = (r.get(enc, "encoder", "a", int, 17), r.get(enc, "encoder", "b", int, 27))
    disp = DisplayConfig(
        type=r.choice(display, "display", "type", DISPLAY_KINDS, "dummy"),
        i2c_port=r.get(display, "display", "i2c_port", int, 1),
        address=r.get(display, "display", "address", int, 0x3C),
        rotate=r.get(display, "display", "rotate", int, 0),
    )
    cfg = Config(
        source=source,
        pin_factory=r.choice(gpio, "gpio", "factory", FACTORIES, "mock"),
        seats=tuple(r.pin_list(seats, "buttons.seats")),
        nav=nav,
        bounce_ms=r.get(buttons, "buttons", "bounce_ms", int, d.bounce_ms),
        hold_ms=r.get(buttons, "buttons", "hold_ms", int, d.hold_ms),
        encoder=encoder,
        buzzer=r.get(buzzer, "buzzer", "pin", int, d.buzzer) if buzzer.get("enabled", True) is not False else None,
        buzzer_active_high=r.get(buzzer, "buzzer", "active_high", bool, True),
        leds={str(k): r.get(r.table("leds"), "leds", k, int, 0) for k in r.table("leds")} if "leds" in data else d.leds,
        display=disp,
        readers=r.readers(data.get("readers")) if "readers" in data else d.readers,
        bridge=BridgeConfig(
            port=r.get(bridge, "bridge", "port", str, "sim"),
            baud=r.get(bridge, "bridge", "baud", int, 115200),
            buttons=r.index_map(bridge.get("buttons", {}), "bridge.buttons"),
            dice=r.index_map(bridge.get("dice", {}), "bridge.dice"),
        ),
        tags_db=r.get(tags, "tags", "db", str, "") or None,
        tag_hold=float(r.get(tags, "tags", "hold", (int, float), d.tag_hold)),
        tag_misses=r.get(tags, "tags", "misses", int, d.tag_misses),
        poll_interval=float(r.get(tags, "tags", "poll_interval", (int, float), d.poll_interval)),
        web_host=r.get(web, "web", "host", str, d.web_host),
        web_port=r.get(web, "web", "port", int, d.web_port),
        web_url=r.get(web, "web", "url", str, "") or None,
    )
    _check_pins(cfg)
    return cfg


def _check_pins(cfg: Config) -> None:
    seen: dict[int, str] = {}
    for user, pin in cfg.pins().items():
        if not 0 <= pin <= 27:
            raise ConfigError(f"{cfg.source}: {user} is on GPIO {pin}, but the Pi's header has GPIO 0 to 27.")
        if pin in seen:
            raise ConfigError(f"{cfg.source}: {user} and {seen[pin]} are both on GPIO {pin}; give each its own pin.")
        seen[pin] = user


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
            out.append(ReaderConfig(entry["point"], backend, options))
        names = [r.point for r in out]
        dup = next((p for p in names if names.count(p) > 1), None)
        if dup:
            raise self.fail("[[readers]]", f"names the point {dup!r} twice")
        return tuple(out)
