"""The 128×64 monochrome OLED: luma.oled SSD1306/SH1106 on I2C, or luma.core's dummy.

An OLED push must never sit on the input path. A full frame is 1,024 bytes
plus addressing: about 92 ms at the Pi's default 100 kHz I2C clock, 23 ms at
400 kHz (``dtparam=i2c_arm_baudrate=400000``, see docs/hardware.md). So
:class:`Oled`:

* takes a frame in :meth:`Oled.show` and returns at once; a pusher thread of
  its own sends it, and when frames arrive faster than the bus takes them the
  latest wins (a screen half a dial turn old is never worth sending);
* sends only what changed: the display RAM is 8 pages of 128 one-byte columns
  (8 pixel rows each, SSD1306 and SH1106 alike), and for each page that
  differs from what the glass holds it sends the span from the first to the
  last changed column, behind a COLUMNADDR/PAGEADDR window (SSD1306,
  horizontal addressing) or a page + column-nibble address (SH1106, page
  addressing, its 2-column offset). A sand-timer tick is a few dozen bytes;
* sets the contrast from config, dims after ``dim_after`` seconds without
  input, blanks a screen that has not changed for ``saver_after`` seconds
  (a QR code left for hours burns in) until the next input or change, and
  every ``refresh_every`` seconds replays the controller's set-up and the
  whole frame, which repairs a display that a brown-out reset to its defaults.

luma's ``diff_to_previous`` framebuffer serves its colour devices only; its
SSD1306/SH1106 drivers always push a whole frame, which is why the page diff
lives here. A bus error is logged and counted, the page state is forgotten
(the next push is a full frame) and the frame is retried; after a few in a
row the display reports « display stopped answering; retrying ».

The simulated display (luma.core's dummy) is pushed at once, on the caller's
thread, with the bytes a real one would have needed counted, so tests and the
dashboard mirror see a frame as soon as ``show`` returns.

Opening the device, its errors and its bus meter are :mod:`hw.oled_device`.
"""

from __future__ import annotations

import io
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from PIL import Image

from hw.events import StatusEvent
from hw.oled_device import (
    HEIGHT,
    PAGES,
    WIDTH,
    BusMeter,
    changed_runs,
    device_kind,
    open_device,
    page_bytes,
    without_displayoff,
)

log = logging.getLogger(__name__)

#: consecutive failed pushes after which the display is reported as not answering
REPORT_AFTER = 3
_SSD1306_DEFAULT_CONTRAST = 0xCF


class Oled:
    """A luma device behind a pusher thread that sends only the changed pages.

    ``frame`` is the latest frame shown (what the dashboard mirrors), ``sent``
    counts frames accepted (each different from the one before), ``pushed``
    frames written, ``bytes_sent`` the bytes on the bus (modelled for the
    dummy), ``last_push_bytes`` those of the last push.
    """

    def __init__(
        self,
        device: Any,
        *,
        threaded: bool | None = None,
        contrast: int | None = None,
        dim_after: float = 0.0,
        dim_contrast: int = 16,
        saver_after: float = 0.0,
        refresh_every: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        retry_pause: float = 0.5,
    ) -> None:
        self.device = device
        self.kind = device_kind(device)
        self.clock = clock
        self.dim_after, self.dim_contrast = dim_after, dim_contrast
        self.saver_after, self.refresh_every = saver_after, refresh_every
        self.retry_pause = retry_pause
        self.on_status: Callable[[StatusEvent], None] | None = None
        self.bus: BusMeter | None = self._meter(device)
        self.contrast = contrast if contrast is not None else self._driver_contrast()
        self.frame: Image.Image | None = None
        self.sent = 0
        self.pushed = 0
        self.bytes_sent = 0
        self.last_push_bytes = 0
        self.last_push_end = 0.0
        self.errors = 0
        self.dimmed = False
        self.blanked = False
        self._failures = 0
        self._latest: bytes | None = None
        self._pending: Image.Image | None = None
        self._pending_seq = 0
        self._pushed_seq = 0
        self._glass: list[bytes | None] = [None] * PAGES  # what the display RAM holds; None: unknown
        now = clock()
        self._last_input = self._changed_at = self._refreshed_at = now
        self._cond = threading.Condition()
        self._bus_lock = threading.Lock()  # every byte to the display goes through one holder
        self._closed = False
        self._service_due = False
        #: the thread inside :meth:`on_this_thread`: its frames wait for it instead of waking the pusher
        self._inline_thread: int | None = None
        self.threaded = self.kind != "dummy" if threaded is None else threaded
        if contrast is not None and self.kind != "dummy":
            self._command_safely(lambda: self.device.contrast(contrast))
        self._thread: threading.Thread | None = None
        if self.threaded:
            self._thread = threading.Thread(target=self._run, name="oled", daemon=True)
            self._thread.start()

    @staticmethod
    def _meter(device: Any) -> BusMeter | None:
        if device_kind(device) == "dummy":
            return None
        serial = getattr(device, "_serial_interface", None)
        if not isinstance(serial, BusMeter):
            serial = BusMeter(serial)
            serial.stop_recording()
            device._serial_interface = serial
        return serial

    def attach(self, device: Any, *, contrast: int | None = None, refresh_every: float | None = None) -> None:
        """Put ``device`` (the real display, answering at last) in place of the stand-in dummy.

        The table started on a dummy because the display did not answer (degrade,
        never die); the frames went on being drawn, so the latest one goes to the glass now.
        """
        with self._bus_lock:
            self.device = device
            self.kind = device_kind(device)
            self.bus = self._meter(device)
            self._glass = [None] * PAGES
        if refresh_every is not None:
            self.refresh_every = refresh_every
        self.contrast = contrast if contrast is not None else self._driver_contrast()
        if contrast is not None:
            self._command_safely(lambda: self.device.contrast(contrast))
        with self._cond:
            if self.frame is not None:
                self._pending, self._pending_seq = self.frame, self.sent
            if self.kind != "dummy" and self._thread is None and not self._closed:
                self.threaded = True
                self._thread = threading.Thread(target=self._run, name="oled", daemon=True)
                self._thread.start()
            self._cond.notify_all()
        if not self.threaded:
            self._push_pending()

    # -- what callers use -----------------------------------------------------------
    def show(self, image: Image.Image) -> bool:
        """Take ``image`` (128×64, converted to 1-bit) unless it equals the latest frame.

        Returns at once with a threaded display; the pusher sends it (or a
        newer frame, if one arrives first). True when the frame was new.
        """
        if image.size != (WIDTH, HEIGHT):
            raise ValueError(f"An OLED frame is {WIDTH}×{HEIGHT}, not {image.size[0]}×{image.size[1]}.")
        frame = image if image.mode == "1" else image.convert("1")
        data = frame.tobytes()
        with self._cond:
            if data == self._latest:
                return False
            self._latest = data
            self.frame = frame.copy()
            self.sent += 1
            self._pending, self._pending_seq = self.frame, self.sent
            self._changed_at = self.clock()
            if self.threaded:
                if self._inline_thread != threading.get_ident():
                    self._cond.notify_all()
                return True
        self._push_pending()
        if self.blanked:
            self.service()
        return True

    @contextmanager
    def on_this_thread(self, push: Callable[[], bool] = lambda: True) -> Iterator[None]:
        """Frames shown inside the block go to the glass from this thread when it ends.

        The input path (the device-event worker) renders a frame and would hand it to the
        pusher thread: one more thread to wake, and on a busy machine a wake-up can wait
        milliseconds for a core. Inside this block :meth:`show` does not wake the pusher;
        at the end the frame is written here, after the caller's locks are released, when
        the bus is idle, the display answers and ``push()`` says so (the worker's queue is
        empty: with more events waiting, the pusher sends only the latest frame). Otherwise
        the pusher is woken as :meth:`show` would have done.
        """
        if not self.threaded:
            yield
            return
        self._inline_thread = threading.get_ident()
        try:
            yield
        finally:
            self._inline_thread = None
            self.push_now(push())

    def push_now(self, inline: bool = True) -> None:
        """Write the pending frame on this thread if ``inline`` and the bus is free, else wake the pusher."""
        with self._cond:
            if self._pending is None:
                return
            inline = inline and self._failures == 0 and not self._closed and self._bus_lock.acquire(blocking=False)
            if not inline:
                self._cond.notify_all()
                return
        try:
            if not self._push_pending(locked=True):
                with self._cond:
                    self._cond.notify_all()  # the pusher retries it with its back-off
        finally:
            self._bus_lock.release()

    def wake(self) -> None:
        """Someone touched an input: restore the contrast and end the screen saver (cheap, any thread)."""
        with self._cond:
            self._last_input = self.clock()
            if not (self.dimmed or self.blanked):
                return
            if self.threaded:
                self._service_due = True
                self._cond.notify_all()
                return
        self.service()

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait until the latest frame has been written to the display (True) or ``timeout`` passes."""
        with self._cond:
            return self._cond.wait_for(lambda: self._pushed_seq >= self.sent or self._closed, timeout)

    def wait_pushed(self, after: int, timeout: float = 2.0) -> bool:
        """Wait until a frame accepted after the ``after``-th one (``sent`` then) is on the glass."""
        with self._cond:
            return self._cond.wait_for(lambda: self._pushed_seq > after or self._closed, timeout)

    def service(self) -> None:
        """Apply dimming, the screen saver and the periodic full refresh for the time now.

        The pusher thread calls it a few times a second; without a thread
        (the dummy, or tests with a fake clock) call it by hand.
        """
        now = self.clock()
        with self._cond:
            idle = now - self._last_input
            static = now - max(self._last_input, self._changed_at)
            self._service_due = False
        want_dim = self.dim_after > 0 and idle >= self.dim_after
        want_blank = self.saver_after > 0 and static >= self.saver_after
        if want_blank != self.blanked:
            if self._command_safely(self.device.hide if want_blank else self.device.show):
                self.blanked = want_blank
                log.info("display %s", "blanked (screen saver)" if want_blank else "back on")
        if want_dim != self.dimmed:
            level = self.dim_contrast if want_dim else self.contrast
            if self.kind == "dummy" or self._command_safely(lambda: self.device.contrast(level)):
                self.dimmed = want_dim
        if self.refresh_every > 0 and now - self._refreshed_at >= self.refresh_every and not self.blanked:
            self._refreshed_at = now
            self.refresh()

    def refresh(self) -> None:
        """Replay the controller's set-up and send the whole frame (repairs a brown-out reset)."""
        if self.kind == "dummy":
            self._glass = [None] * PAGES
        else:
            setup = without_displayoff(self.bus.init_commands if self.bus else ())
            contrast = self.dim_contrast if self.dimmed else self.contrast

            def replay() -> None:
                for cmd in setup:
                    self.device.command(*cmd)
                self.device.contrast(contrast)
                self.device.show()

            self._command_safely(replay)
            with self._bus_lock:
                self._glass = [None] * PAGES
        with self._cond:
            if self.frame is not None and self._pending is None:
                self._pending, self._pending_seq = self.frame, self.sent
                self._cond.notify_all()
        if not self.threaded:
            self._push_pending()

    def png(self) -> bytes:
        """The current frame as PNG bytes (the dashboard mirrors the simulated display)."""
        buf = io.BytesIO()
        (self.frame or Image.new("1", (WIDTH, HEIGHT))).save(buf, format="PNG")
        return buf.getvalue()

    def health(self) -> dict[str, Any]:
        return {"ok": self._failures < REPORT_AFTER, "errors": self.errors, "frames": self.sent,
                "pushed": self.pushed, "bytes": self.bytes_sent, "dimmed": self.dimmed, "blanked": self.blanked}

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=2)
        cleanup = getattr(self.device, "cleanup", None)
        if cleanup is not None and self.kind != "dummy":
            try:
                with self._bus_lock:
                    cleanup()
            except Exception as exc:  # the display may be gone already
                log.debug("display cleanup: %s", exc)

    # -- the pusher -----------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending is not None or self._service_due or self._closed, 0.25)
                if self._closed:
                    return
            try:
                self.service()
                if not self._push_pending():
                    with self._cond:
                        self._cond.wait_for(lambda: self._closed, self.retry_pause)
            except Exception:  # never let the pusher die: the next frame may well go through
                log.exception("display pusher")

    def _push_pending(self, locked: bool = False) -> bool:
        """Write the pending frame, if any; False when the write failed (it stays pending).

        The frame is taken while holding the bus lock, so two writers (the pusher and a
        thread in :meth:`on_this_thread`) never put an older frame after a newer one.
        ``locked``: the caller holds the bus lock already.
        """
        if not locked:
            with self._bus_lock:
                return self._push_pending(locked=True)
        with self._cond:
            frame, seq = self._pending, self._pending_seq
            self._pending = None
        if frame is None:
            return True
        try:
            count = self._write(frame)
        except Exception as exc:
            self.errors += 1
            self._failures += 1
            self._glass = [None] * PAGES  # a half-written page: resend everything next time
            with self._cond:
                if self._pending is None:
                    self._pending, self._pending_seq = frame, seq
            if self._failures == 1:
                log.warning("display: %s: %s", type(exc).__name__, exc)
            if self._failures == REPORT_AFTER:
                self._report(False, "display stopped answering; retrying")
            return False
        if self._failures >= REPORT_AFTER:
            self._report(True, "display answers again")
        self._failures = 0
        with self._cond:
            self.pushed += 1
            self.bytes_sent += count
            self.last_push_bytes = count
            self.last_push_end = time.perf_counter()
            self._pushed_seq = max(self._pushed_seq, seq)
            self._cond.notify_all()
        return True

    def _write(self, frame: Image.Image) -> int:
        """Send the pages of ``frame`` that differ from the glass; returns the bytes on the bus."""
        if self.kind == "other":
            before = self.bus.bytes if self.bus else 0
            self.device.display(frame)
            return (self.bus.bytes if self.bus else 0) - before
        oriented = frame.transpose(Image.Transpose.ROTATE_180) if getattr(self.device, "rotate", 0) == 2 else frame
        pages = page_bytes(oriented)
        overhead = 7 if self.kind == "sh1106" else 10  # bytes a window costs besides its data
        changed = [(p, first, last) for p, new in enumerate(pages) if self._glass[p] != new
                   for first, last in changed_runs(self._glass[p], new, overhead)]
        count = 0
        for first_page, last_page, first, last in self._windows(changed):
            window = self._window(first_page, first, last, last_page)
            data = b"".join(pages[p][first:last + 1] for p in range(first_page, last_page + 1))
            if self.kind != "dummy":
                self.device.command(*window)
                self.device.data(list(data))
            count += 2 + len(window) + 2 + len(data)
        for p, new in enumerate(pages):
            self._glass[p] = new
        if self.kind == "dummy":
            self.device.display(frame)
        return count

    def _windows(self, changed: list[tuple[int, int, int]]) -> list[tuple[int, int, int, int]]:
        """Group the changed runs into windows ``(first_page, last_page, first_col, last_col)``.

        The SH1106 addresses one page at a time: one window a run. The SSD1306
        takes a window over several pages, so neighbouring pages may go as one
        box (one command and one data transaction, fewer bytes of addressing,
        some unchanged bytes inside): the cheapest grouping of the pages is
        found by a small dynamic programme over the 8 pages.
        """
        if self.kind == "sh1106" or not changed:
            return [(p, p, first, last) for p, first, last in changed]
        runs: dict[int, list[tuple[int, int]]] = {}
        for p, first, last in changed:
            runs.setdefault(p, []).append((first, last))
        pages = sorted(runs)
        best: dict[int, tuple[int, list[tuple[int, int, int, int]]]] = {-1: (0, [])}
        for i, last_page in enumerate(pages):
            options = []
            for j in range(i + 1):
                first_page = pages[j]
                before = best[pages[j - 1]] if j else best[-1]
                if j == i:
                    group = [(last_page, last_page, a, b) for a, b in runs[last_page]]
                    cost = sum(10 + b - a + 1 for _, _, a, b in group)
                else:
                    inside = [r for p in pages[j:i + 1] for r in runs[p]]
                    lo, hi = min(a for a, _ in inside), max(b for _, b in inside)
                    group = [(first_page, last_page, lo, hi)]
                    cost = 10 + (hi - lo + 1) * (last_page - first_page + 1)
                options.append((before[0] + cost, before[1] + group))
            best[last_page] = min(options, key=lambda o: o[0])
        return best[pages[-1]][1]

    def _window(self, page: int, first: int, last: int, last_page: int | None = None) -> tuple[int, ...]:
        if self.kind == "sh1106":
            column = first + getattr(self.device, "_page_address_offset", 2)
            return (0xB0 | page, column & 0x0F, 0x10 | (column >> 4))
        end = page if last_page is None else last_page
        return (0x21, first, last, 0x22, page, end)  # COLUMNADDR, PAGEADDR (horizontal addressing)

    def _driver_contrast(self) -> int:
        for cmd in self.bus.init_commands if self.bus else ():
            if len(cmd) == 2 and cmd[0] == 0x81:
                return cmd[1]
        return _SSD1306_DEFAULT_CONTRAST

    def _command_safely(self, fn: Callable[[], Any]) -> bool:
        if self.kind == "dummy":
            return True
        try:
            with self._bus_lock:
                fn()
            return True
        except Exception as exc:
            self.errors += 1
            log.warning("display command failed: %s: %s", type(exc).__name__, exc)
            return False

    def _report(self, ok: bool, message: str) -> None:
        """Tell the status listener (the table logs each change once: :class:`hw.health.HealthLog`)."""
        if self.on_status is not None:
            try:
                self.on_status(StatusEvent("display", ok, message))
            except Exception:
                log.exception("display status listener")


def open_oled(kind: str = "dummy", *, port: int = 1, address: int = 0x3C, rotate: int = 0, serial: Any = None,
              **options: Any) -> Oled:
    """Open the display and wrap it; ``options`` are :class:`Oled`'s (contrast, dim_after, ...)."""
    contrast = options.pop("contrast", None)
    return Oled(open_device(kind, port=port, address=address, rotate=rotate, serial=serial), contrast=contrast,
                **options)
