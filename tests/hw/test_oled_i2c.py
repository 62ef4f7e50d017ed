"""The OLED over luma's real ``i2c()`` and the real smbus2, on an emulated I2C adapter.

A display that does not answer is retried for as long as the table runs (backing off to a
minute): each failed open must give back its ``/dev/i2c-N`` descriptor (smbus2's ``SMBus`` has
no ``__del__``) and the exit hook luma registered before the set-up failed, or a weekend with
the OLED unplugged ends in « too many open files », and at stop every leaked device sends
DISPLAYOFF and a 1 KB clear to the display that answers by then.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from luma.oled.device import ssd1306
from PIL import Image, ImageDraw

from hw.oled import open_oled
from hw.oled_device import DisplayError, open_device
from tests.hw.kernel_i2c import DisplayTarget, I2CKernel, process_fds

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def kernel(monkeypatch) -> I2CKernel:
    k = I2CKernel()
    k.install(monkeypatch.setattr)
    return k


def test_200_failed_opens_leave_no_descriptor_and_no_exit_hook(kernel) -> None:
    fds, devices = process_fds(), luma_devices()
    for _ in range(200):
        with pytest.raises(DisplayError, match="No display answers at 0x3C on /dev/i2c-1"):
            open_device("ssd1306", port=1, address=0x3C)
    assert kernel.opened == 200  # each attempt really opened the adapter ...
    assert kernel.open_fds == {}  # ... and closed it
    assert process_fds() < fds + 10  # 200 before; other threads of the test process may open a few
    assert luma_devices() == devices  # no exit hook keeps a half-made device (its 16 KB of pixel maps) alive


def luma_devices() -> int:
    gc.collect()
    return sum(isinstance(o, ssd1306) for o in gc.get_objects())


def test_a_missing_adapter_says_how_to_enable_i2c_and_holds_nothing(kernel) -> None:
    fds = process_fds()
    with pytest.raises(DisplayError, match="/dev/i2c-3 does not exist: enable I2C"):
        open_device("sh1106", port=3)
    assert process_fds() < fds + 10  # 200 before; other threads of the test process may open a few


def test_a_display_that_stretches_the_clock_too_long_is_named_and_released(kernel) -> None:
    kernel.attach(0x3C, DisplayTarget())
    kernel.stretch.add((1, 0x3C))
    with pytest.raises(DisplayError, match="holds the bus too long"):
        open_device("ssd1306")
    assert kernel.open_fds == {}


def test_frames_reach_the_glass_through_lumas_i2c_in_blocks_the_bus_takes(kernel) -> None:
    """Commands go as SMBus block writes (32 bytes at most, luma asserts it), data by i2c_rdwr."""
    glass = kernel.attach(0x3C, DisplayTarget())
    oled = open_oled("ssd1306", threaded=False)
    try:
        image = Image.new("1", (128, 64))
        ImageDraw.Draw(image).rectangle((10, 10, 60, 40), fill=1)
        oled.show(image)
        oled.refresh()  # the set-up replayed (without DISPLAYOFF) and the whole frame again
        from hw.oled_device import page_bytes

        assert glass.ram.pages() == page_bytes(image)
        assert glass.ram.on
        writes = [n for _, _, kind, n in kernel.transfers if kind == "w"]
        assert max(writes) <= 1 + 1024 and all(n <= 33 for n in writes if n < 100)
    finally:
        oled.close()
    assert kernel.open_fds == {}  # closed at stop


def test_no_leaked_device_blanks_the_display_at_exit(tmp_path) -> None:
    """Three failed opens (the OLED unplugged), then it answers: at exit only the device in use
    is cleaned up (one DISPLAYOFF), not one per failed attempt."""
    script = tmp_path / "exit.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from tests.hw.kernel_i2c import DisplayTarget, I2CKernel
        from hw.oled_device import DisplayError, open_device

        kernel = I2CKernel()
        kernel.install(setattr)
        glass = DisplayTarget()
        import atexit
        # registered first, so it runs last (atexit is last in, first out)
        atexit.register(lambda: print("DISPLAYOFF", glass.commands.count(0xAE), flush=True))
        for _ in range(3):
            try:
                open_device("ssd1306")
            except DisplayError:
                pass
        kernel.attach(0x3C, glass)
        device = open_device("ssd1306")
        glass.commands.clear()
    """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "DISPLAYOFF 1", done.stdout + done.stderr
