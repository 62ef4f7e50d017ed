"""The input path writes its own frame to the OLED when the bus is free (button to photons).

A press used to cross two thread hand-offs before its first byte reached the bus: the
device-event worker, then the OLED's pusher thread. On a busy machine each wake-up can wait
milliseconds for a core, which made the figure's tail. Now the worker writes the frame it
caused itself, after its locks are released, when the bus is idle; with the bus busy or more
events waiting, the pusher sends the latest frame as before. Transfers are attributed to
threads through the bus model's hook, with luma's real SSD1306 driver above it.
"""

from __future__ import annotations

import threading
import time

from PIL import Image, ImageDraw

from hw.busmodel import ControllerRam, I2CBusModel
from hw.oled import Oled, open_device, page_bytes


def frame(text: str) -> Image.Image:
    img = Image.new("1", (128, 64))
    ImageDraw.Draw(img).text((4, 20), text, fill=1)
    return img


def on_model(rate: int = 400_000, block: bool = False) -> tuple[Oled, I2CBusModel, ControllerRam, list[str]]:
    ram = ControllerRam("ssd1306")
    writers: list[str] = []
    bus = I2CBusModel(rate, block=block, ram=ram, fail=lambda kind, payload: writers.append(
        threading.current_thread().name))
    oled = Oled(open_device("ssd1306", serial=bus), threaded=True)
    assert oled.flush(2)
    writers.clear()  # luma's own set-up
    return oled, bus, ram, writers


def test_a_frame_shown_on_the_input_path_is_on_the_glass_when_the_block_ends_written_by_that_thread():
    oled, _, ram, writers = on_model()
    try:
        with oled.on_this_thread():
            assert oled.show(frame("North"))
            assert oled.show(frame("East"))  # a second redraw in the same event: only the last goes
        assert ram.pages() == page_bytes(frame("East"))  # no waiting: already written
        assert writers and set(writers) == {threading.current_thread().name}
        assert oled.pushed == 1
    finally:
        oled.close()


def test_with_more_events_waiting_the_pusher_sends_the_frame():
    oled, _, ram, writers = on_model()
    try:
        with oled.on_this_thread(push=lambda: False):
            oled.show(frame("South"))
        assert oled.flush(2)
        assert ram.pages() == page_bytes(frame("South"))
        assert set(writers) == {"oled"}
    finally:
        oled.close()


def test_with_the_bus_busy_the_pusher_sends_the_newest_frame_after_the_one_on_the_bus():
    oled, _, ram, writers = on_model(100_000, block=True)  # a whole frame takes ~93 ms
    try:
        blank = Image.new("1", (128, 64), 1)
        oled.show(blank)  # the pusher is sending it now
        time.sleep(0.02)
        with oled.on_this_thread():
            oled.show(frame("West"))  # the bus is taken: handed to the pusher, no waiting here
        assert oled.flush(3)
        assert ram.pages() == page_bytes(frame("West"))  # never the older frame after it
        assert set(writers) == {"oled"}
    finally:
        oled.close()


def test_a_failing_display_is_left_to_the_pushers_retries():
    failing = [True]
    writers: list[str] = []

    def nak(kind: str, payload: list[int]) -> None:
        writers.append(threading.current_thread().name)
        if failing[0]:
            raise OSError(121, "Remote I/O error")

    ram = ControllerRam("ssd1306")
    bus = I2CBusModel(400_000, block=False, ram=ram)
    oled = Oled(open_device("ssd1306", serial=bus), threaded=True, retry_pause=0.02)
    bus.fail = nak
    try:
        with oled.on_this_thread():
            oled.show(frame("gone"))  # written here: the NAK counts, the frame stays pending
        assert oled.errors >= 1 and writers[0] == threading.current_thread().name
        del writers[:]
        with oled.on_this_thread():
            oled.show(frame("again"))  # failing: the pusher retries with its pause, not the input path
        failing[0] = False
        assert oled.flush(2)
        assert ram.pages() == page_bytes(frame("again"))
        assert set(writers) == {"oled"}
    finally:
        oled.close()


def test_a_press_through_the_table_devices_is_written_by_the_event_worker(mock_factory, db_path):
    """The whole path: a gpiozero mock pin, the leading-edge debounce, the worker, the controller."""
    from companion.board.config import Config
    from companion.board.controller import TableController
    from companion.board.devices import open_devices
    from companion.table.journal import Journal
    from companion.table.session import Session

    cfg = Config(readers=())
    devices = open_devices(cfg)
    devices.oled.close()
    devices.oled, bus, ram, writers = on_model()
    session = Session.new(Journal(db_path), "galapagos-auction", ["Ann", "Bob", "Cy"])
    ctl = TableController(session, devices.oled)
    devices.attach(ctl)
    devices.start()
    try:
        assert devices.oled.flush(2)
        writers.clear()
        pin = mock_factory.pin(cfg.buttons()["down"])
        sent = devices.oled.sent
        pin.drive_low()
        assert devices.oled.wait_pushed(sent, 2)
        assert set(writers) == {"device-events"}
        assert ram.pages() == page_bytes(devices.oled.frame)
    finally:
        ctl.close()
        devices.close()
        session.close()
