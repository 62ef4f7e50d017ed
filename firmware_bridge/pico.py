"""The Pico's side of USB as the firmware meets it under MicroPython, to run the real firmware here.

The bridge simulator (``simulator.py``) wraps the firmware's protocol ``Device``; this module runs
the rest of it — ``main.py`` and ``board.py`` — under CPython against a model of MicroPython's
rp2 port (``shared/tinyusb/mp_usbd_cdc.c``, ``ports/rp2``), so what the USB stack does to the
firmware is tested where the bugs would be:

- **The 0x03 window.** Until ``micropython.kbd_intr(-1)`` runs, a 0x03 byte from the host (one
  HELLO frame in 85 carries one) clears the stdin buffer and raises ``KeyboardInterrupt`` at the
  next bytecode; escaping ``main.py`` it leaves the board at the REPL, on the protocol's line.
  Here the interrupt is raised at the next *line* of the firmware (a tracer stands for
  MicroPython's scheduler), which is where a test injects it.
- **Blocking writes.** With the port open (DTR) and TinyUSB's 256-byte transmit FIFO full — the
  host stopped reading: the service paused, restarting or hung — each write waits up to 500 ms
  (``MICROPY_HW_USB_CDC_TX_TIMEOUT``) for room, then writes what fits and drops the rest. With the
  port closed (no DTR) writes never wait: the FIFO keeps the latest bytes. ``select.poll`` says
  POLLOUT only while the FIFO has room.
- **The watchdog.** ``machine.WDT`` resets the board when not fed within its timeout;
  ``machine.reset()`` never returns. Both raise :class:`PicoReset` here.

Time is the model's own (``time.ticks_ms`` of the shim): each line of firmware run costs
``LINE_US``, a blocked write the time it waited. Nothing sleeps for real.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

FIRMWARE_DIR = Path(__file__).resolve().parent / "firmware"
ROOT_DIR = Path(__file__).resolve().parent / "pico_root"  # the files of the Pico's root: boot.py, main.py
DEVICE_PACKAGE = "firmware"  # the folder's name on the Pico

TX_FIFO = 256  # CFG_TUD_CDC_TX_BUFSIZE on the rp2 port
EP_SIZE = 64  # CFG_TUD_CDC_EP_BUFSIZE: tx_strn writes in chunks of this
TX_TIMEOUT_MS = 500  # MICROPY_HW_USB_CDC_TX_TIMEOUT on the rp2 port
STDIN_RING = 512
LINE_US = 20  # what a line of Python costs on a 125 MHz RP2040, roughly
POLLIN, POLLOUT = 0x0001, 0x0004


class PicoReset(BaseException):
    """The board reset: ``machine.reset()`` or the watchdog (``reason`` says which)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PicoStop(BaseException):
    """Raised by the model to end a run that reached its goal (the loop kept going)."""


class Pico:
    """One board: its USB CDC link, its clock, its watchdog, its pins."""

    def __init__(self, *, buttons_held: tuple[int, ...] = (), stop_after_feeds: int | None = None,
                 stop_at_ms: int | None = None) -> None:
        self.us = 0
        self.interrupt_char = 3  # pyexec sets Ctrl-C before running main.py
        self.interrupt_pending = False
        self.rx = bytearray()
        self.fifo = bytearray()
        self.host_out = bytearray()  # what the host has read
        self.dtr = True  # the host holds the port open
        self.host_reading = True
        self.wdt_timeout_ms: int | None = None
        self.wdt_fed_us = 0
        self.feeds = 0
        self.stop_after_feeds = stop_after_feeds
        self.stop_at_ms = stop_at_ms
        self.buttons_held = set(buttons_held)
        self.resets: list[str] = []
        self.longest_wait_ms = 0.0
        self.longest_gap_ms = 0.0  # the longest time between two watchdog feeds
        self.repl = False
        self.stopped = False  # the model ended the run (stop_after_feeds)
        self._on_line: list[Callable[[Pico, int], None]] = []
        self.lines = 0

    # ---- the host's end ----------------------------------------------------------------------
    def host_send(self, data: bytes) -> None:
        """Bytes from the host (tud_cdc_rx_cb): the interrupt char clears stdin and interrupts."""
        for byte in data:
            if self.interrupt_char >= 0 and byte == self.interrupt_char:
                self.rx.clear()
                self.interrupt_pending = True
            elif len(self.rx) < STDIN_RING:
                self.rx.append(byte)

    def host_read(self) -> bytes:
        self._drain()
        out, self.host_out = bytes(self.host_out), bytearray()
        return out

    def _drain(self) -> None:
        if self.host_reading and self.dtr:
            self.host_out += self.fifo
            self.fifo.clear()

    # ---- time, interrupts, watchdog ------------------------------------------------------------
    def ms(self) -> int:
        return self.us // 1000

    def advance(self, us: int) -> None:
        self.us += us
        if self.wdt_timeout_ms is not None and self.us - self.wdt_fed_us > self.wdt_timeout_ms * 1000:
            self.wdt_timeout_ms = None
            raise PicoReset("watchdog")

    def line(self) -> None:
        """One line of firmware ran: time passes, a pending Ctrl-C is raised here."""
        self.lines += 1
        for hook in self._on_line:
            hook(self, self.lines)
        self.advance(LINE_US)
        if self.interrupt_pending:
            self.interrupt_pending = False
            raise KeyboardInterrupt

    def on_line(self, hook: Callable[[Pico, int], None]) -> None:
        self._on_line.append(hook)

    def feed(self) -> None:
        self.longest_gap_ms = max(self.longest_gap_ms, (self.us - self.wdt_fed_us) / 1000)
        self.wdt_fed_us = self.us
        self.feeds += 1
        if (self.stop_after_feeds is not None and self.feeds >= self.stop_after_feeds
                or self.stop_at_ms is not None and self.ms() >= self.stop_at_ms):
            self.stopped = True
            raise PicoStop

    # ---- stdout (mp_usbd_cdc_tx_strn) ---------------------------------------------------------
    def write(self, data: bytes) -> int:
        i = 0
        while i < len(data):
            n = min(len(data) - i, EP_SIZE)
            if self.dtr:
                self._drain()
                if n > TX_FIFO - len(self.fifo):  # wait for room, up to the timeout
                    waited = TX_TIMEOUT_MS * 1000
                    self.longest_wait_ms = max(self.longest_wait_ms, TX_TIMEOUT_MS)
                    self.advance(waited)
                    self._drain()
                n = min(n, TX_FIFO - len(self.fifo))
                if n == 0:
                    break
                self.fifo += data[i:i + n]
            else:  # not connected: the FIFO keeps the latest bytes
                self.fifo += data[i:i + n]
                del self.fifo[:-TX_FIFO]
            i += n
        return i

    def writable(self) -> bool:
        self._drain()
        return not self.dtr or len(self.fifo) < TX_FIFO


# ---- the MicroPython modules the firmware imports, over one Pico -------------------------------

def modules(pico: Pico) -> dict[str, types.ModuleType]:
    """``machine``, ``micropython``, ``time``, ``select`` and ``sys`` as the firmware sees them."""

    class Pin:
        IN, OUT, PULL_UP = 0, 1, 2

        def __init__(self, pin: int, mode: int = 0, pull: int | None = None, value: int | None = None) -> None:
            self.pin, self._value = pin, 1 if value is None else value

        def value(self, v: int | None = None) -> int | None:
            if v is not None:
                self._value = v
                return None
            return 0 if self.pin in pico.buttons_held else 1

    class SPI:  # no reader answers: every byte read is 0x00
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        def write(self, data: bytes) -> None:
            pass

        def read(self, n: int, write: int = 0) -> bytes:
            return bytes(n)

        def readinto(self, buf: bytearray, write: int = 0) -> None:
            buf[:] = bytes(len(buf))

        def write_readinto(self, out: bytes, buf: bytearray) -> None:
            buf[:] = bytes(len(buf))

    class PWM:
        def __init__(self, pin: Pin) -> None:
            pass

        def freq(self, f: int) -> None:
            pass

        def duty_u16(self, d: int) -> None:
            pass

    class WDT:
        def __init__(self, id: int = 0, timeout: int = 5000) -> None:
            pico.wdt_timeout_ms = min(timeout, 8388)  # the RP2040's longest
            pico.wdt_fed_us = pico.us

        def feed(self) -> None:
            pico.feed()

    def reset() -> None:
        raise PicoReset("machine.reset")

    machine = types.ModuleType("machine")
    machine.Pin, machine.SPI, machine.PWM, machine.WDT, machine.reset = Pin, SPI, PWM, WDT, reset  # type: ignore[attr-defined]

    micropython = types.ModuleType("micropython")

    def kbd_intr(char: int) -> None:
        pico.interrupt_char = char

    micropython.kbd_intr = kbd_intr  # type: ignore[attr-defined]
    micropython.const = lambda x: x  # type: ignore[attr-defined]

    mtime = types.ModuleType("time")
    mtime.ticks_ms = pico.ms  # type: ignore[attr-defined]
    mtime.ticks_us = lambda: pico.us  # type: ignore[attr-defined]
    mtime.ticks_diff = lambda a, b: a - b  # type: ignore[attr-defined]
    mtime.ticks_add = lambda a, b: a + b  # type: ignore[attr-defined]
    mtime.sleep_ms = lambda ms: pico.advance(int(ms * 1000))  # type: ignore[attr-defined]
    mtime.sleep_us = lambda us: pico.advance(int(us))  # type: ignore[attr-defined]

    class Stdin:
        class buffer:  # noqa: N801 - sys.stdin.buffer
            @staticmethod
            def read(n: int = -1) -> bytes:
                n = len(pico.rx) if n < 0 else min(n, len(pico.rx))
                out = bytes(pico.rx[:n])
                del pico.rx[:n]
                return out

    class Stdout:
        class buffer:  # noqa: N801 - sys.stdout.buffer
            @staticmethod
            def write(data: bytes) -> int:
                return pico.write(bytes(data))

        @staticmethod
        def write(text: str) -> int:
            return pico.write(text.encode())

    msys = types.ModuleType("sys")
    msys.stdin, msys.stdout = Stdin, Stdout  # type: ignore[attr-defined]
    msys.print_exception = lambda exc, file=None: None  # type: ignore[attr-defined]

    class Poll:
        def __init__(self) -> None:
            self.streams: list[tuple[Any, int]] = []

        def register(self, stream: Any, flags: int = POLLIN | POLLOUT) -> None:
            self.streams.append((stream, flags))

        def poll(self, timeout: int = -1) -> list[tuple[Any, int]]:
            out = []
            for stream, flags in self.streams:
                ready = 0
                if flags & POLLIN and stream is Stdin and pico.rx:
                    ready |= POLLIN
                if flags & POLLOUT and stream is Stdout and pico.writable():
                    ready |= POLLOUT
                if ready:
                    out.append((stream, ready))
            return out

    mselect = types.ModuleType("select")
    mselect.poll, mselect.POLLIN, mselect.POLLOUT = Poll, POLLIN, POLLOUT  # type: ignore[attr-defined]
    return {"machine": machine, "micropython": micropython, "time": mtime, "sys": msys, "select": mselect}


class _DeviceFinder:
    """Imports ``firmware`` and ``firmware.*`` from the checkout's firmware folder, as the Pico
    finds them in its /firmware, with MicroPython's ``time`` and ``select`` (and ``sys`` bound
    after) in place of CPython's for those modules only."""

    def __init__(self, mods: dict[str, types.ModuleType]) -> None:
        self.mods = mods

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != DEVICE_PACKAGE and not name.startswith(DEVICE_PACKAGE + "."):
            return None
        if name == DEVICE_PACKAGE:
            spec = importlib.util.spec_from_file_location(
                name, FIRMWARE_DIR / "__init__.py", submodule_search_locations=[str(FIRMWARE_DIR)])
        else:
            spec = importlib.util.spec_from_file_location(name, FIRMWARE_DIR / (name.split(".", 1)[1] + ".py"))
        if spec is None or spec.loader is None:
            return None
        spec.loader = _ShimLoader(spec.loader, self.mods)
        return spec


class _ShimLoader:
    def __init__(self, inner: Any, mods: dict[str, types.ModuleType]) -> None:
        self.inner, self.mods = inner, mods

    def create_module(self, spec: Any) -> Any:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        saved = {n: sys.modules.get(n) for n in ("time", "select")}
        sys.modules.update({"time": self.mods["time"], "select": self.mods["select"]})
        try:
            self.inner.exec_module(module)
        finally:
            for name, original in saved.items():
                if original is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = original
        if getattr(module, "sys", None) is sys:
            module.sys = self.mods["sys"]  # type: ignore[attr-defined]


def run_start(pico: Pico, flash: Path) -> str:
    """Boot the board as MicroPython does — ``/boot.py``, then ``/main.py`` (``pico_root/``), each
    with Ctrl-C turned on first, an exception in boot.py printed and main.py run anyway — and say
    how it ended: ``"running"`` (the loop reached ``stop_after_feeds``), ``"reset"`` (the board
    reset itself, or sat at the REPL with the watchdog armed, which resets it: it boots again and
    the host resyncs) or ``"repl"`` (at the REPL, on the protocol's line, with no watchdog).
    ``flash`` is the folder that stands for the Pico's file system."""
    mods = modules(pico)
    saved = {n: sys.modules.get(n) for n in ("machine", "micropython", "neopixel")}
    sys.modules["machine"], sys.modules["micropython"] = mods["machine"], mods["micropython"]
    sys.modules.pop("neopixel", None)
    finder = _DeviceFinder(mods)
    sys.meta_path.insert(0, finder)
    traced = (str(FIRMWARE_DIR), str(ROOT_DIR))

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename.startswith(traced):
            if event == "line":
                pico.line()
            return tracer
        return None

    def run_file(name: str) -> None:
        path = ROOT_DIR / name
        pico.interrupt_char = 3  # pyexec turns Ctrl-C on for every file it runs
        exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})

    previous = sys.gettrace()
    cwd = os.getcwd()
    os.chdir(flash)
    sys.settrace(tracer)
    try:
        try:
            run_file("boot.py")
        except (PicoStop, PicoReset):
            raise
        except BaseException:  # noqa: BLE001 - MicroPython prints it and goes on to main.py
            pass
        run_file("main.py")
        outcome = "repl"
    except PicoStop:
        outcome = "running"
    except PicoReset as exc:
        outcome = "running" if pico.stopped else "reset"  # stopped: the firmware reset on the model's stop
        if not pico.stopped:
            pico.resets.append(exc.reason)
    except BaseException:  # noqa: BLE001 - what MicroPython prints before its REPL prompt
        outcome = "repl"
    finally:
        sys.settrace(previous)
        os.chdir(cwd)
        sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if n == DEVICE_PACKAGE or n.startswith(DEVICE_PACKAGE + ".")]:
            del sys.modules[name]
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    if outcome == "repl" and pico.wdt_timeout_ms is not None:
        pico.resets.append("watchdog")  # nothing feeds it at the REPL
        outcome = "reset"
    pico.repl = outcome == "repl"
    return outcome
