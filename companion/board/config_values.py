"""The config file read one value at a time: typed, checked, each mistake one sentence naming the file and key.

Kept apart from :mod:`companion.board.config`, which says what a table is made of (the
dataclasses, the defaults, the pins checked against each other), so that the many small rules
of reading TOML (a number's range, a baud rate, a USB id, the options of each reader backend,
which SPI chip selects may share a node) do not bury that shape. The readers' entries live here
with their reading: theirs is the one table of the file whose keys depend on a value, the backend.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hw.rfid import BACKENDS

BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
#: the options each reader backend understands (besides point and backend)
READER_OPTIONS: dict[str, set[str]] = {
    "sim": set(),
    "mfrc522": {"spi_bus", "spi_device", "cs_pin", "ce_pin", "rst_pin", "antenna_gain", "speed"},
    "pn532": {"interface", "port", "baudrate", "address", "i2c_port", "spi_bus", "spi_device", "cs_pin", "timeout", "retries",
              "req_pin", "reset_pin"},
    "bridge": {"reader"},
}


class ConfigError(Exception):
    """A configuration file that cannot be used (one sentence naming file and key)."""


@dataclass(frozen=True)
class ReaderConfig:
    """One reader point; ``options`` are the backend's own keys (see hw/rfid/<backend>/)."""

    point: str
    backend: str = "sim"
    options: dict[str, Any] = field(default_factory=dict)


class ValueReader:
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
            for key in ("req_pin", "reset_pin"):  # P32/H_REQ (Adafruit's driver wants it for I2C on a Pi), RSTPD_N
                self.number(out, where, key, 0, lo=0, hi=27, whole=True, what=pin)
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
        """Refuse the SPI wirings that cannot work, in one sentence each.

        SPI_NO_CS, which a GPIO-selected reader needs, is a mode of the spidev *node*
        (Linux spidev.c keeps it per device, not per open file): a GPIO-selected reader on
        the node of a CE-selected one stops that reader's CE line. A PN532 on SPI opens
        /dev/spidev0.<spi_device> in SPI_NO_CS too (its select is its cs_pin) and takes turns with
        the MFRC522s under their bus lock: no CE reader may share its node.
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
        for r in readers:
            if r.backend != "pn532" or r.options.get("interface") != "spi":
                continue
            dev = int(r.options.get("spi_device", 0))
            on_node = nodes.get((0, dev), ([], []))[1]
            if on_node:
                raise self.fail(f"[[readers]] {r.point!r}",
                                f"is a PN532 on SPI on /dev/spidev0.{dev}, the node of MFRC522 reader {on_node[0]!r} "
                                f"on CE{dev}: SPI_NO_CS belongs to the node, so that reader's CE{dev} would stop; give "
                                f"the PN532 spi_device = {1 - dev if dev < 2 else 0}, or wire it to the UART or I2C")
