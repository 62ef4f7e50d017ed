"""Device trouble at start never keeps the table down.

Each fault as the real part makes it: an OLED whose address NAKs makes smbus2's
ioctl fail with EREMOTEIO (luma turns it into ``DeviceNotFoundError``); another
process holding a line makes lgpio raise ``lgpio.error('GPIO busy')``; a pin factory
whose module is missing raises at load. The table opens without the device, says
which one and the fix (``status`` → every page's banner, the OLED), and retries it.
"""

from __future__ import annotations

import dataclasses
import errno

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from PIL import Image, ImageDraw

from companion.board.config import Config, DisplayConfig
from companion.board.devices import open_devices
from hw.events import ButtonEvent
from tests.hw.conftest import mock_factory, wait_until  # noqa: F401  (fixture)


class FakeSMBus:
    """smbus2.SMBus on a bus where nothing (or, once ``answering``, an SSD1306) is at the address."""

    answering = False
    writes: list[tuple[int, int, list[int]]] = []

    def __init__(self, port: int) -> None:
        self.port = port

    def _write(self, addr: int, mode: int, data: list[int]) -> None:
        if not FakeSMBus.answering:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")  # what the ioctl says on a NAK
        FakeSMBus.writes.append((addr, mode, list(data)))

    def write_i2c_block_data(self, addr: int, mode: int, data: list[int]) -> None:
        self._write(addr, mode, data)

    def i2c_rdwr(self, *msgs: object) -> None:
        for msg in msgs:
            raw = list(msg)  # smbus2.i2c_msg iterates its bytes
            self._write(msg.addr, raw[0], raw[1:])

    def close(self) -> None:
        pass


@pytest.fixture
def nak_bus(monkeypatch: pytest.MonkeyPatch) -> type[FakeSMBus]:
    import smbus2

    FakeSMBus.answering = False
    FakeSMBus.writes = []
    monkeypatch.setattr(smbus2, "SMBus", FakeSMBus)
    return FakeSMBus


def test_an_oled_that_does_not_answer_starts_the_table_on_a_stand_in_then_comes_back(
        mock_factory: MockFactory, nak_bus: type[FakeSMBus]) -> None:  # noqa: F811
    cfg = dataclasses.replace(Config(), display=DisplayConfig(type="ssd1306"))
    devices = open_devices(cfg)
    try:
        failing = devices.health()["failing"]
        assert any("No display answers at 0x3C on /dev/i2c-1" in f for f in failing), failing
        assert devices.oled.kind == "dummy"  # the frames go on: the dashboard mirror shows them
        image = Image.new("1", (128, 64))
        ImageDraw.Draw(image).text((0, 0), "hello", fill=1)
        devices.oled.show(image)
        assert devices.retries["display"](devices) is False  # still silent: still failing
        nak_bus.answering = True
        assert devices.retries["display"](devices) is True
        assert devices.oled.kind == "ssd1306"
        assert devices.oled.flush(2.0)
        data = [w for w in nak_bus.writes if w[1] == 0x40]
        assert sum(len(w[2]) for w in data) >= 128 * 8 // 8  # the latest frame reached the glass
        assert not devices.health()["failing"]
        assert devices.status["display"].ok
    finally:
        devices.close()


def test_a_missing_i2c_bus_says_enable_i2c_and_the_table_starts(mock_factory: MockFactory) -> None:  # noqa: F811
    cfg = dataclasses.replace(Config(), display=DisplayConfig(type="sh1106", i2c_port=9))
    devices = open_devices(cfg)
    try:
        (message,) = devices.health()["failing"]
        assert "/dev/i2c-9 does not exist: enable I2C" in message
    finally:
        devices.close()


class error(Exception):  # noqa: N801 - lgpio's own exception class is called error
    """lgpio.error as lgpio raises it (``lgpio.error('GPIO busy')``)."""


error.__module__ = "lgpio"


class BusyFactory:
    """Lines another process holds: gpiozero's MockFactory, whose claim of one raises lgpio's error."""

    busy: set[int] = set()


@pytest.fixture
def busy_factory(monkeypatch: pytest.MonkeyPatch):
    real_pin = MockFactory.pin

    def pin(self, name, pin_class=None, **kwargs):  # type: ignore[no-untyped-def]
        text = str(name).upper().removeprefix("GPIO").removeprefix("BCM")
        if text.isdigit() and int(text) in BusyFactory.busy:
            raise error("GPIO busy")
        return real_pin(self, name, pin_class=pin_class, **kwargs)

    monkeypatch.setattr(MockFactory, "pin", pin)
    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    BusyFactory.busy = set()
    yield factory
    BusyFactory.busy = set()
    factory.reset()
    factory.close()
    Device.pin_factory = previous


def test_a_busy_button_pin_costs_that_button_only_names_the_pin_and_is_claimed_once_free(busy_factory) -> None:
    cfg = Config()
    ok_pin = cfg.buttons()["ok"]
    BusyFactory.busy = {ok_pin}
    devices = open_devices(cfg)
    try:
        failing = devices.health()["failing"]
        assert any(f"GPIO{ok_pin} (button ok) is busy" in f for f in failing), failing
        assert "ok" not in devices.panel.buttons and "back" in devices.panel.buttons
        seen: list[object] = []
        devices.listeners.append(seen.append)
        back = busy_factory.pin(cfg.buttons()["back"])
        back.drive_low()
        assert wait_until(lambda: ButtonEvent("back", "press") in seen)  # the others work meanwhile
        back.drive_high()
        assert devices.retries["inputs"](devices) is False
        BusyFactory.busy = set()
        assert devices.retries["inputs"](devices) is True
        busy_factory.pin(ok_pin).drive_low()
        assert wait_until(lambda: ButtonEvent("ok", "press") in seen)
        assert not devices.health()["failing"]
    finally:
        devices.close()


def test_a_busy_buzzer_pin_leaves_the_table_silent_and_says_so(busy_factory) -> None:
    cfg = dataclasses.replace(Config(), buzzer=18)
    BusyFactory.busy = {18}
    devices = open_devices(cfg)
    try:
        assert any("GPIO18 (the buzzer) is busy" in f for f in devices.health()["failing"])
        BusyFactory.busy = set()
        assert devices.retries["outputs"](devices) is True
        assert devices.beeper.buzzer is not None
        assert not devices.health()["failing"]
    finally:
        devices.close()


def test_a_pin_factory_that_cannot_load_starts_the_table_on_mock_pins_and_says_the_fix(monkeypatch) -> None:
    import gpiozero.pins.mock

    previous = Device.pin_factory
    cfg = dataclasses.replace(Config(), pin_factory="pigpio")  # its module is not installed here
    try:
        devices = open_devices(cfg)
        try:
            (message,) = [f for f in devices.health()["failing"] if f.startswith("GPIO")]
            assert "pigpio" in message and "not installed" in message and "pip install" in message
            assert isinstance(Device.pin_factory, gpiozero.pins.mock.MockFactory)
            assert devices.panel.buttons  # the buttons exist (on mock pins): the dashboard works
            assert devices.retries["GPIO"](devices) is False
        finally:
            devices.close()
    finally:
        if Device.pin_factory is not None and Device.pin_factory is not previous:
            Device.pin_factory.close()
        Device.pin_factory = previous


def test_a_device_going_down_wakes_every_open_page_at_once(tmp_path) -> None:
    """The banner is on every page within 2 s: a status event wakes the live streams itself."""
    from companion.cli.app import build
    from hw.events import StatusEvent

    companion = build(Config(), tmp_path / "j.db", sim=True, port=0)
    try:
        companion.open_devices()
        feed = companion.hub.feed("games")
        assert feed is not None
        feed.wait(0.05)  # a new feed starts woken (the page's first state)
        assert not feed.wait(0.3)
        companion.devices.emit(StatusEvent("reader scan", False, "reader scan stopped answering; retrying"))
        assert feed.wait(1.0)
        assert "reader scan stopped answering; retrying" in companion.devices.health()["failing"]
    finally:
        companion.close()


def test_a_busy_pin_names_its_holder_when_lgpio_tells(monkeypatch) -> None:
    """lgpio's gpio_get_line_info gives the line's consumer label (the kernel's line info)."""
    import sys
    from types import SimpleNamespace

    from hw.pins import pin_trouble

    monkeypatch.setitem(sys.modules, "lgpio", SimpleNamespace(
        gpio_get_line_info=lambda handle, gpio: (0, gpio, 1, f"GPIO{gpio}", "gpioset")))
    monkeypatch.setattr(Device, "pin_factory", SimpleNamespace(_handle=3), raising=False)
    message = pin_trouble(16, "button ok", error("GPIO busy"))
    assert message.startswith("GPIO16 (button ok) is busy, held by « gpioset »: ")
