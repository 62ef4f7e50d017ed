"""The ``lgpio`` module over emulated gpiochips, so gpiozero's real ``LGPIOFactory`` runs on it.

Read from lg 0.2.2 (``lgpio_extra.py``, ``lgErr.c``) and gpiozero 2.0.1's ``pins/lgpio.py``:

* **one notification thread** for the whole process (lgpio starts it at import): every edge
  of every line is delivered from it, in order, as ``func(chip, gpio, level, tick)``; its
  ``run`` loop has no ``try``, so an exception in any callback ends the thread and with it
  every later edge of every button and the encoder, for good;
* a line another process holds refuses every claim with ``lgpio.error('GPIO busy')`` (the
  kernel's EBUSY), and ``gpio_get_line_info`` names that process's consumer label;
* no debounce unless ``gpio_set_debounce_micros`` set one (gpiozero sets 0 for
  ``bounce_time=None``): a glitch of a few µs (the buzzer's transistor switching, long wires
  on the internal pull-ups) is a falling edge and a rising edge, both delivered, and by the
  time the notification thread runs the callback the line reads high again. With a debounce
  period the kernel reports a level only once it has been stable that long;
* ``gpiochip_open`` of a chip that is not there: ``lgpio.error('can not open gpiochip')``.

``GpioKernel.module()`` is installed as ``lgpio`` (``sys.modules``) before gpiozero's lgpio
pin factory is imported.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
import types
from collections.abc import Callable
from typing import Any

SET_ACTIVE_LOW, SET_OPEN_DRAIN, SET_OPEN_SOURCE = 4, 8, 16
SET_PULL_UP, SET_PULL_DOWN, SET_PULL_NONE = 32, 64, 128
RISING_EDGE, FALLING_EDGE, BOTH_EDGES = 1, 2, 3
# gpio_get_mode bits (lgpio.h)
IS_OUT, IS_PULL_UP, IS_PULL_DOWN, IS_BIAS_DISABLE = 1 << 1, 1 << 5, 1 << 6, 1 << 7
IS_LG_INPUT, IS_LG_OUTPUT, IS_LG_ALERT = 1 << 8, 1 << 9, 1 << 10


class LgpioError(Exception):
    """``lgpio.error``: its text is ``error_text(status)``."""


class Line:
    def __init__(self) -> None:
        self.mode = 0  # 0: not claimed by us
        self.flags = 0
        self.written = 0
        self.driven: int | None = None  # what the outside drives (a button to ground: 0)
        self.edges = 0
        self.debounce_us = 0
        self.pending: threading.Timer | None = None

    def level(self) -> int:
        if self.mode & IS_LG_OUTPUT:
            return self.written
        if self.driven is not None:
            return self.driven
        return 1 if self.flags & SET_PULL_UP else 0


class GpioKernel:
    """gpiochips with their lines, claims by other processes, and lgpio's notification thread."""

    def __init__(self, chips: dict[int, str] | None = None, lines: int = 58) -> None:
        self.chips = chips if chips is not None else {0: "pinctrl-bcm2711"}
        self.count = lines
        self.lines: dict[tuple[int, int], Line] = {}
        self.busy: dict[tuple[int, int], str] = {}  # lines another process holds: consumer label
        self.handles: dict[int, int] = {}  # handle -> chip
        self.opened_chips: list[int] = []
        self._handles = itertools.count(0)
        self._events: queue.Queue[tuple[int, int, int, int] | None] = queue.Queue()
        self._callbacks: list[_Callback] = []
        self.lock = threading.RLock()
        self.delivered = 0
        self.thread = threading.Thread(target=self._notify, name="lgpio-notify", daemon=True)
        self.thread.start()

    # -- what the outside world does to the lines --------------------------------------------
    def drive(self, gpio: int, level: int | None, chip: int = 0) -> None:
        """The outside drives ``gpio`` (None: released, the pull decides)."""
        with self.lock:
            line = self.line(chip, gpio)
            before = line.level()
            line.driven = level
            self._changed(chip, gpio, line, before)

    def line(self, chip: int, gpio: int) -> Line:
        if not 0 <= gpio < self.count:
            raise LgpioError("GPIO not 0-53")
        return self.lines.setdefault((chip, gpio), Line())

    def press(self, gpio: int, chip: int = 0) -> None:
        self.drive(gpio, 0, chip)

    def release(self, gpio: int, chip: int = 0) -> None:
        self.drive(gpio, None, chip)

    def glitch(self, gpio: int, chip: int = 0) -> None:
        """A few µs low on a pulled-up line: both edges happen before any callback runs."""
        with self.lock:
            self.drive(gpio, 0, chip)
            self.drive(gpio, None, chip)

    def wait_idle(self, timeout: float = 2.0) -> bool:
        """Until every queued edge has been handed to the callbacks (or the thread is dead)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._events.unfinished_tasks == 0 or not self.thread.is_alive():
                return True
            time.sleep(0.002)
        return False

    def _changed(self, chip: int, gpio: int, line: Line, before: int) -> None:
        after = line.level()
        if after == before or not line.mode & IS_LG_ALERT:
            return
        wanted = RISING_EDGE if after else FALLING_EDGE
        if not line.edges & wanted:
            return
        if line.debounce_us:  # reported once stable for the period, else not at all
            if line.pending is not None:
                line.pending.cancel()
            timer = threading.Timer(line.debounce_us / 1e6, self._settled, (chip, gpio, line, after))
            timer.daemon = True
            line.pending = timer
            timer.start()
            return
        self._events.put((chip, gpio, after, time.monotonic_ns()))

    def _settled(self, chip: int, gpio: int, line: Line, level: int) -> None:
        with self.lock:
            line.pending = None
            if line.level() == level:
                self._events.put((chip, gpio, level, time.monotonic_ns()))

    def _notify(self) -> None:
        """lgpio's ``_callback_thread.run``: no try around the callbacks."""
        while True:
            event = self._events.get()
            try:
                if event is None:
                    return
                chip, gpio, level, tick = event
                for cb in list(self._callbacks):
                    if cb.chip == chip and cb.gpio == gpio:
                        cb.func(chip, gpio, level, tick)
                self.delivered += 1
            finally:
                self._events.task_done()

    # -- the lgpio module ------------------------------------------------------------------------
    def module(self) -> types.ModuleType:
        k = self
        m = types.ModuleType("lgpio")
        m.error = LgpioError  # type: ignore[attr-defined]
        for name, value in dict(SET_ACTIVE_LOW=SET_ACTIVE_LOW, SET_OPEN_DRAIN=SET_OPEN_DRAIN,
                                SET_OPEN_SOURCE=SET_OPEN_SOURCE, SET_PULL_UP=SET_PULL_UP,
                                SET_PULL_DOWN=SET_PULL_DOWN, SET_PULL_NONE=SET_PULL_NONE,
                                RISING_EDGE=RISING_EDGE, FALLING_EDGE=FALLING_EDGE,
                                BOTH_EDGES=BOTH_EDGES).items():
            setattr(m, name, value)

        def line(handle: int, gpio: int) -> tuple[int, Line]:
            chip = k.handles.get(handle)
            if chip is None:
                raise LgpioError("unknown handle")
            return chip, k.line(chip, gpio)

        def claim(handle: int, gpio: int, mode: int, flags: int) -> Line:
            chip, ln = line(handle, gpio)
            if (chip, gpio) in k.busy:
                raise LgpioError("GPIO busy")
            ln.mode, ln.flags = mode, flags
            return ln

        def gpiochip_open(gpiochip: int) -> int:
            if gpiochip not in k.chips:
                raise LgpioError("can not open gpiochip")
            handle = next(k._handles)
            k.handles[handle] = gpiochip
            k.opened_chips.append(gpiochip)
            return handle

        def gpiochip_close(handle: int) -> int:
            k.handles.pop(handle, None)
            return 0

        def gpio_claim_input(handle: int, gpio: int, lFlags: int = 0) -> int:  # noqa: N803
            with k.lock:
                claim(handle, gpio, IS_LG_INPUT, lFlags)
            return 0

        def gpio_claim_output(handle: int, gpio: int, level: int = 0, lFlags: int = 0) -> int:  # noqa: N803
            with k.lock:
                claim(handle, gpio, IS_LG_OUTPUT | IS_OUT, lFlags).written = int(bool(level))
            return 0

        def gpio_claim_alert(handle: int, gpio: int, eFlags: int, lFlags: int = 0, notify_handle: Any = None) -> int:  # noqa: N803
            with k.lock:
                claim(handle, gpio, IS_LG_INPUT | IS_LG_ALERT, lFlags).edges = eFlags
            return 0

        def gpio_free(handle: int, gpio: int) -> int:
            with k.lock:
                _, ln = line(handle, gpio)
                ln.mode = 0
            return 0

        def gpio_get_mode(handle: int, gpio: int) -> int:
            _, ln = line(handle, gpio)
            bias = (IS_PULL_UP if ln.flags & SET_PULL_UP else IS_PULL_DOWN if ln.flags & SET_PULL_DOWN
                    else IS_BIAS_DISABLE if ln.flags & SET_PULL_NONE else 0)
            return ln.mode | bias

        def gpio_read(handle: int, gpio: int) -> int:
            with k.lock:
                return line(handle, gpio)[1].level()

        def gpio_write(handle: int, gpio: int, level: int) -> int:
            with k.lock:
                chip, ln = line(handle, gpio)
                before = ln.level()
                ln.written = int(bool(level))
                k._changed(chip, gpio, ln, before)
            return 0

        def gpio_set_debounce_micros(handle: int, gpio: int, debounce_micros: int) -> int:
            line(handle, gpio)[1].debounce_us = int(debounce_micros)
            return 0

        def gpio_get_line_info(handle: int, gpio: int) -> list[Any]:
            chip, ln = line(handle, gpio)
            user = k.busy.get((chip, gpio), "lg" if ln.mode else "")
            return [0, gpio, ln.mode, f"GPIO{gpio}", user]

        def callback(handle: int, gpio: int, edge: int = RISING_EDGE, func: Callable[..., Any] | None = None) -> _Callback:
            cb = _Callback(k, k.handles[handle], gpio, edge, func)
            k._callbacks.append(cb)
            return cb

        def tx_pwm(handle: int, gpio: int, freq: float, duty: float, offset: int = 0, cycles: int = 0) -> int:
            return 0

        for fn in (gpiochip_open, gpiochip_close, gpio_claim_input, gpio_claim_output, gpio_claim_alert, gpio_free,
                   gpio_get_mode, gpio_read, gpio_write, gpio_set_debounce_micros, gpio_get_line_info, callback,
                   tx_pwm):
            setattr(m, fn.__name__, fn)
        return m

    def stop(self) -> None:
        self._events.put(None)


class _Callback:
    """``lgpio._callback``: cancel removes it from the notification thread."""

    def __init__(self, kernel: GpioKernel, chip: int, gpio: int, edge: int, func: Callable[..., Any] | None) -> None:
        self.kernel, self.chip, self.gpio, self.edge = kernel, chip, gpio, edge
        self.func = func or (lambda *args: None)

    def cancel(self) -> None:
        if self in self.kernel._callbacks:
            self.kernel._callbacks.remove(self)
