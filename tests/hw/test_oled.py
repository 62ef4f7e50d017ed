"""The simulated OLED (luma.core's dummy device) and send-on-change."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from hw.oled import DisplayError, open_device, open_oled


def frame(text: str) -> Image.Image:
    img = Image.new("1", (128, 64))
    ImageDraw.Draw(img).text((0, 0), text, fill=1)
    return img


def test_dummy_is_a_128x64_one_bit_luma_device():
    dev = open_device("dummy")
    assert type(dev).__module__ == "luma.core.device"
    assert (dev.width, dev.height, dev.mode) == (128, 64, "1")


def test_a_frame_is_sent_only_when_it_changed():
    oled = open_oled("dummy")
    assert oled.show(frame("A"))
    assert not oled.show(frame("A"))
    assert oled.show(frame("B"))
    assert oled.sent == 2
    assert oled.device.image.tobytes() == frame("B").tobytes()


def test_a_frame_of_the_wrong_size_is_refused():
    with pytest.raises(ValueError, match="128×64"):
        open_oled("dummy").show(Image.new("1", (64, 64)))


def test_unknown_display_types_are_named():
    with pytest.raises(DisplayError, match="dummy, ssd1306, sh1106"):
        open_device("st7735")


def test_a_real_display_on_a_missing_bus_gives_the_fix():
    with pytest.raises(DisplayError, match="do_i2c|group i2c|wiring"):
        open_device("ssd1306", port=57)
