"""The simulated OLED (luma.core's dummy device) and send-on-change."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from hw.oled import open_device, open_oled
from hw.oled_device import DisplayError


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


# ---- the real luma.oled drivers on a modelled I2C bus ----------------------------------------

import random  # noqa: E402
import time  # noqa: E402

from hw.busmodel import ControllerRam, I2CBusModel  # noqa: E402
from hw.events import StatusEvent  # noqa: E402
from hw.oled import Oled, page_bytes  # noqa: E402
from tests.hw.conftest import FakeClock  # noqa: E402


def scene(seed: int) -> Image.Image:
    rng = random.Random(seed)
    img = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(img)
    draw.text((rng.randint(0, 90), rng.randint(0, 50)), f"{rng.randint(0, 9999)}", fill=1)
    draw.rectangle((rng.randint(0, 60), 40, rng.randint(61, 127), 47), fill=rng.randint(0, 1))
    return img


def on_model(kind: str, rotate: int = 0, **options) -> tuple[Oled, I2CBusModel, ControllerRam]:
    ram = ControllerRam(kind)
    bus = I2CBusModel(400_000, block=False, ram=ram)
    return Oled(open_device(kind, serial=bus, rotate=rotate), **options), bus, ram


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("rotate", [0, 2])
def test_partial_pushes_leave_the_display_ram_as_lumas_full_frame_would(kind, rotate):
    """The reference is luma's own driver writing whole frames to a second controller."""
    oled, _, ram = on_model(kind, rotate, threaded=False)
    ref_ram = ControllerRam(kind)
    ref = open_device(kind, serial=I2CBusModel(block=False, ram=ref_ram), rotate=rotate)
    for seed in range(25):
        img = scene(seed)
        oled.show(img)
        ref.display(img)
        assert ram.pages() == ref_ram.pages(), f"frame {seed}"
    oled.close()


def test_page_bytes_put_the_top_row_in_bit_0():
    img = Image.new("1", (128, 64))
    img.putpixel((5, 8), 1)  # page 1, column 5, row 0 of the page
    img.putpixel((127, 63), 1)  # page 7, column 127, bottom row
    pages = page_bytes(img)
    assert pages[1][5] == 0x01 and pages[7][127] == 0x80
    assert sum(map(sum, pages)) == 0x81


def test_a_small_change_sends_only_its_pages_and_columns():
    oled, bus, ram = on_model("ssd1306", threaded=False)
    base = Image.new("1", (128, 64))
    ImageDraw.Draw(base).text((0, 0), "Galapagos  0:59", fill=1)
    oled.show(base)
    assert oled.last_push_bytes == (2 + 6) + (2 + 1024)  # the glass is unknown: one window of every page
    tick = base.copy()
    ImageDraw.Draw(tick).rectangle((100, 0, 127, 7), fill=0)
    ImageDraw.Draw(tick).text((100, 0), "0:58", fill=1)
    before = bus.bytes
    oled.show(tick)
    sent = bus.bytes - before
    assert sent == oled.last_push_bytes < 64  # one page, a few columns
    assert ram.pages() == page_bytes(tick)


def test_show_returns_at_once_while_a_slow_bus_sends_and_the_latest_frame_wins():
    ram = ControllerRam("ssd1306")
    bus = I2CBusModel(100_000, block=True, ram=ram)  # the Pi's default clock: ~0.1 s a frame
    oled = Oled(open_device("ssd1306", serial=bus))
    assert oled.threaded
    frames = [scene(seed) for seed in range(10)]
    started = time.perf_counter()
    for img in frames:
        assert oled.show(img)
    took = time.perf_counter() - started
    assert took < 0.3, f"show blocked {took:.3f} s"  # a blocking show: 10 frames x ~90 ms
    assert oled.flush(5)
    assert ram.pages() == page_bytes(frames[-1])
    assert oled.pushed < len(frames)  # intermediate frames were skipped, not queued
    oled.close()


def test_an_i2c_glitch_is_retried_and_reported_and_never_raises():
    failures = {"left": 4}

    def flaky(kind, payload):
        if kind == "data" and failures["left"] > 0:
            failures["left"] -= 1
            raise OSError(121, "Remote I/O error")

    ram = ControllerRam("ssd1306")
    bus = I2CBusModel(block=False, ram=ram)
    oled = Oled(open_device("ssd1306", serial=bus), retry_pause=0.01)
    statuses = []
    oled.on_status = statuses.append
    bus.fail = flaky
    img = scene(7)
    assert oled.show(img)
    assert oled.flush(3)
    assert ram.pages() == page_bytes(img)
    assert oled.errors == 4
    assert statuses == [StatusEvent("display", False, "display stopped answering; retrying"),
                        StatusEvent("display", True, "display answers again")]
    oled.close()


def test_contrast_dimming_and_the_screen_saver_follow_the_config():
    clock = FakeClock(0.0)
    oled, _, ram = on_model("ssd1306", threaded=False, contrast=200, dim_after=60, dim_contrast=10,
                           saver_after=600, clock=clock)
    assert ram.contrast == 200
    oled.show(scene(1))
    clock.advance(61)
    oled.service()
    assert ram.contrast == 10 and oled.dimmed and ram.on
    oled.wake()  # a button
    assert ram.contrast == 200 and not oled.dimmed
    clock.advance(601)  # the same QR code for ten minutes and nobody touching anything
    oled.service()
    assert not ram.on and oled.blanked
    oled.show(scene(2))  # something happened in the game
    assert ram.on and not oled.blanked
    assert ram.pages() == page_bytes(scene(2))


def test_a_periodic_refresh_repairs_a_display_reset_by_a_brown_out():
    clock = FakeClock(0.0)
    oled, _, ram = on_model("ssd1306", threaded=False, refresh_every=60, clock=clock)
    img = scene(3)
    oled.show(img)
    ram.reset()  # the supply dipped: display off, page addressing, RAM scribbled
    for page in ram.ram:
        page[:] = bytes(random.Random(1).randrange(256) for _ in page)
    clock.advance(61)
    oled.service()
    assert ram.on and ram.mode == 0x00
    assert ram.pages() == page_bytes(img)


@pytest.mark.parametrize("rotate", [1, 3])
def test_a_quarter_turn_is_refused_when_the_display_opens(rotate):
    with pytest.raises(DisplayError, match="use 0 or 2"):
        open_device("ssd1306", serial=I2CBusModel(block=False), rotate=rotate)


def test_the_dummy_counts_the_bytes_a_real_display_would_need():
    oled = open_oled("dummy")
    oled.show(frame("A"))
    full = oled.last_push_bytes
    oled.show(frame("B"))
    assert full == 1034 and 0 < oled.last_push_bytes < full and oled.bytes_sent == full + oled.last_push_bytes
