"""The 128×64 monochrome OLED: luma.oled SSD1306/SH1106 on I2C, or luma.core's dummy.

:class:`Oled` sends a frame only when it differs from the last one sent, so a
screen redrawn on every tick costs the I2C bus nothing while it is unchanged.
(luma's ``diff_to_previous`` framebuffer serves its colour devices only; the
SSD1306/SH1106 drivers always push a whole frame, which is why the comparison
lives here.)
"""

from __future__ import annotations

import threading
from typing import Any

from PIL import Image

WIDTH, HEIGHT = 128, 64
KINDS = ("dummy", "ssd1306", "sh1106")


class DisplayError(Exception):
    """The configured display cannot be opened (one sentence with the fix)."""


def open_device(kind: str = "dummy", *, port: int = 1, address: int = 0x3C, rotate: int = 0) -> Any:
    """Open the luma device for ``kind`` (see :data:`KINDS`)."""
    if kind == "dummy":
        from luma.core.device import dummy

        return dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    if kind not in KINDS:
        raise DisplayError(f"Unknown display type {kind!r}; use one of {', '.join(KINDS)}.")
    from luma.core.error import DeviceNotFoundError, DevicePermissionError
    from luma.core.interface.serial import i2c
    from luma.oled import device as oled_devices

    try:
        serial = i2c(port=port, address=address)
        return getattr(oled_devices, kind)(serial, width=WIDTH, height=HEIGHT, rotate=rotate)
    except DevicePermissionError:
        raise DisplayError(f"No permission on /dev/i2c-{port}: add the user to group i2c.") from None
    except DeviceNotFoundError:
        raise DisplayError(f"/dev/i2c-{port} does not exist: enable I2C (sudo raspi-config nonint do_i2c 0).") from None
    except OSError as exc:
        raise DisplayError(f"No display answers at I2C address {address:#04x} on bus {port} ({exc.strerror}); check the wiring and the address.") from None


class Oled:
    """A luma device plus change detection; ``frame`` is the last image sent."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self.frame: Image.Image | None = None
        self.sent = 0  # frames actually pushed to the device
        self._last: bytes | None = None
        self._lock = threading.Lock()

    def show(self, image: Image.Image) -> bool:
        """Send ``image`` (128×64, converted to 1-bit) unless it equals the last frame."""
        if image.size != (WIDTH, HEIGHT):
            raise ValueError(f"An OLED frame is {WIDTH}×{HEIGHT}, not {image.size[0]}×{image.size[1]}.")
        frame = image if image.mode == "1" else image.convert("1")
        data = frame.tobytes()
        with self._lock:
            if data == self._last:
                return False
            self.device.display(frame)
            self._last = data
            self.frame = frame.copy()
            self.sent += 1
            return True

    def png(self) -> bytes:
        """The current frame as PNG bytes (the dashboard mirrors the simulated display)."""
        import io

        buf = io.BytesIO()
        (self.frame or Image.new("1", (WIDTH, HEIGHT))).save(buf, format="PNG")
        return buf.getvalue()

    def close(self) -> None:
        cleanup = getattr(self.device, "cleanup", None)
        if cleanup is not None and type(self.device).__name__ != "dummy":
            cleanup()


def open_oled(kind: str = "dummy", **kwargs: Any) -> Oled:
    return Oled(open_device(kind, **kwargs))
