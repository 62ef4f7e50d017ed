"""Opening the OLED's luma device and metering its bus: the part of the display that knows the hardware.

:mod:`hw.oled` keeps a frame on the glass (the pusher thread, the page diff, dimming, the
saver, the periodic repair); this module opens what it pushes to: luma.oled's SSD1306/SH1106
on I2C behind a :class:`BusMeter`, or luma.core's dummy, with one sentence and its fix for
each way the bus can refuse, and the controller's memory layout (:func:`page_bytes`) and the spans of a page worth sending
(:func:`changed_runs`). Kept
apart so that the frame's life and the device's errors are each read in one place.
"""

from __future__ import annotations

import atexit
import errno
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

from PIL import Image

from hw.errors import DeviceError

WIDTH, HEIGHT = 128, 64
PAGES = HEIGHT // 8
KINDS = ("dummy", "ssd1306", "sh1106")
ROTATIONS = (0, 2)  # a half turn; 1 and 3 would make the display 64x128 and fail luma's size check


class DisplayError(DeviceError):
    """The configured display cannot be opened (one sentence with the fix)."""


class BusMeter:
    """A luma serial interface wrapper that counts the bytes on the I2C bus.

    Each transaction costs its address byte and its control byte (0x00
    before commands, 0x40 before data) on top of the payload. While the
    luma driver initialises the controller the commands are recorded, so the
    same set-up can be replayed after a brown-out.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.bytes = 0
        self.recording: list[tuple[int, ...]] | None = []
        self.init_commands: tuple[tuple[int, ...], ...] = ()

    def command(self, *cmd: int) -> None:
        if self.recording is not None:
            self.recording.append(tuple(cmd))
        self.inner.command(*cmd)
        self.bytes += 2 + len(cmd)

    def data(self, data: Any) -> None:
        data = list(data)
        self.inner.data(data)
        self.bytes += 2 + len(data)

    def stop_recording(self) -> None:
        self.init_commands = tuple(self.recording or ())
        self.recording = None

    def cleanup(self) -> None:
        self.inner.cleanup()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def open_device(kind: str = "dummy", *, port: int = 1, address: int = 0x3C, rotate: int = 0,
                serial: Any = None) -> Any:
    """Open the luma device for ``kind`` (see :data:`KINDS`).

    ``serial`` replaces luma's I2C interface (the bus model of
    :mod:`hw.busmodel` in tests and benchmarks).
    """
    if rotate not in ROTATIONS:
        raise DisplayError(f"rotate = {rotate} would turn the 128x64 screens to portrait; use 0 or 2 (a half turn).")
    if kind == "dummy":
        from luma.core.device import dummy  # late: luma is costly; the config reads this module

        return dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    if kind not in KINDS:
        raise DisplayError(f"Unknown display type {kind!r}; use one of {', '.join(KINDS)}.")
    from luma.core.error import DeviceNotFoundError, DevicePermissionError  # late: as above
    from luma.core.interface.serial import i2c  # late: as above
    from luma.oled import device as oled_devices  # late: as above

    opened: Any = None  # the i2c interface opened here (its /dev/i2c-N descriptor), closed on failure
    hooks: list[Any] = []
    try:
        if serial is None:
            serial = opened = i2c(port=port, address=address)
        meter = BusMeter(serial)
        with _exit_hooks(hooks):
            device = getattr(oled_devices, kind)(meter, width=WIDTH, height=HEIGHT, rotate=rotate)
    except DevicePermissionError:
        raise DisplayError(f"No permission on /dev/i2c-{port}: add the user to group i2c "
                           "(sudo usermod -aG i2c $USER), then log in again.") from None
    except DeviceNotFoundError as exc:
        _forget(opened, hooks)
        # luma says « not found » both for a missing /dev/i2c-N (ENOENT) and for a NAK at the
        # address (EREMOTEIO/EIO during its init): only the first is about enabling I2C
        if "on address" not in str(exc):
            raise DisplayError(f"/dev/i2c-{port} does not exist: enable I2C (sudo raspi-config nonint do_i2c 0), "
                               "then reboot.") from None
        raise DisplayError(_no_answer(address, port)) from None
    except OSError as exc:
        _forget(opened, hooks)
        if exc.errno in (errno.EREMOTEIO, errno.ENXIO, errno.EIO):
            raise DisplayError(_no_answer(address, port)) from None
        if exc.errno == errno.ETIMEDOUT:
            raise DisplayError(f"The display at {address:#04x} on /dev/i2c-{port} holds the bus too long (clock "
                               "stretching): check SDA, SCL and its power.") from None
        raise DisplayError(f"The display on I2C bus {port} cannot be opened ({exc.strerror or exc}); "
                           "check the wiring and the address.") from None
    except BaseException:
        _forget(opened, hooks)
        raise
    meter.stop_recording()
    return device


_HOOKS_LOCK = threading.Lock()


@contextmanager
def _exit_hooks(caught: list[Any]) -> Iterator[None]:
    """Catch the exit hook luma's device constructor registers (``atexit.register(shutdown_hook)``).

    luma registers it before the controller's set-up commands, so a display that NAKs its
    set-up leaves a hook holding the half-made device (its bus and its 16 KB of pixel maps) and,
    at exit, sending DISPLAYOFF and a 1 KB clear to whatever answers by then. The hook is
    registered as usual and also noted here, so a failed open can take it back.
    """
    import luma.core.device as luma_device  # late: as above

    real = luma_device.atexit

    def register(fn: Any, *args: Any, **kwargs: Any) -> Any:
        caught.append(fn)
        return atexit.register(fn, *args, **kwargs)

    with _HOOKS_LOCK:
        luma_device.atexit = SimpleNamespace(register=register, unregister=atexit.unregister)  # type: ignore[assignment]
        try:
            yield
        finally:
            luma_device.atexit = real


def _forget(opened: Any, hooks: list[Any]) -> None:
    """After a failed open: close the bus this call opened and take back luma's exit hook.

    smbus2's ``SMBus`` has no ``__del__``: a bus not closed here keeps its descriptor for the
    life of the process (a display unplugged over a weekend of retries: « too many open files »).
    """
    for fn in hooks:
        atexit.unregister(fn)
    hooks.clear()
    if opened is not None:
        try:
            opened.cleanup()
        except Exception:  # noqa: BLE001 - closing a descriptor that is already in a bad way
            pass


def _no_answer(address: int, port: int) -> str:
    return (f"No display answers at {address:#04X} on /dev/i2c-{port}: set the address printed on the module "
            f"(i2cdetect -y {port} lists those that answer) or check SDA, SCL and power.").replace("0X", "0x")


def page_bytes(image: Image.Image) -> list[bytes]:
    """The 8 pages of a 128×64 1-bit image as the controller stores them.

    Page ``p`` holds rows 8p..8p+7; each of its 128 bytes is one column with
    the top row in bit 0. A quarter turn clockwise makes every column a row
    of 8 packed bytes, so PIL does the bit shuffling in C.
    """
    raw = image.transpose(Image.Transpose.ROTATE_270).tobytes()  # 128 rows of 8 bytes, bottom row first
    return [raw[PAGES - 1 - p::PAGES] for p in range(PAGES)]


def device_kind(device: Any) -> str:
    """``sh1106``, ``ssd1306``, ``dummy`` (luma.core's) or ``other``.

    luma.oled's drivers are only looked up when their module is loaded already (an instance of
    them cannot exist otherwise): importing it imports ``luma.core.virtual``, which starts a pool
    of four threads for good, and the simulated table's dummy needs none of it.
    """
    drivers = sys.modules.get("luma.oled.device")
    if drivers is None:
        return "dummy" if type(device).__name__ == "dummy" else "other"
    sh1106, ssd1306 = drivers.sh1106, drivers.ssd1306
    if isinstance(device, sh1106):
        return "sh1106"
    if isinstance(device, ssd1306):
        return "ssd1306"
    return "dummy" if type(device).__name__ == "dummy" else "other"

def without_displayoff(commands: Any) -> list[tuple[int, ...]]:
    """luma's recorded set-up without DISPLAYOFF (0xAE), so a refresh never blanks the glass.

    luma sends its whole init as one command transaction starting with 0xAE (22 bytes on
    an SSD1306): the opcode is dropped wherever a transaction starts with it (a command's
    first byte is always an opcode), the rest of the transaction is kept.
    """
    out = []
    for cmd in commands:
        cmd = tuple(cmd)
        while cmd and cmd[0] == 0xAE:
            cmd = cmd[1:]
        if cmd:
            out.append(cmd)
    return out


def changed_runs(old: bytes | None, new: bytes, overhead: int) -> list[tuple[int, int]]:
    """The column spans of a page to send: runs of changed columns, two runs joined when the
    unchanged gap between them costs fewer bytes than another window would (the whole page when
    the old one is unknown)."""
    if old is None:
        return [(0, len(new) - 1)]
    runs: list[list[int]] = []
    for i in range(len(new)):
        if old[i] != new[i]:
            if runs and i - runs[-1][1] - 1 <= overhead:
                runs[-1][1] = i
            else:
                runs.append([i, i])
    return [(a, b) for a, b in runs]
