"""The service's log names each device once when it goes down and once when it comes back.

A reader that stays dead is re-opened every few seconds for as long as the table runs: each
attempt used to log « re-open failed » (about 17,000 lines a day on the SD card), while a busy
pin, a missing OLED or a GPIO chip that could not be opened at start were never logged at all
(only the dashboard said so). And after the pin-factory fallback (the table started on mock
pins) the readers' chip selects stayed on the closed mock factory: they never came back.
"""

from __future__ import annotations

import logging
import sys
import time

import pytest
from gpiozero import Device

import hw.rfid.mfrc522 as mfrc522_backend
from companion.board.config import Config, DisplayConfig
from companion.board.config_values import ReaderConfig
from companion.board.devices import open_devices
from firmware_bridge.chip import Tag
from hw.rfid import ReaderGroup
from tests.hw.conftest import wait_until
from tests.hw.kernel_gpio import GpioKernel
from tests.hw.kernel_i2c import DisplayTarget, I2CKernel
from tests.hw.kernel_spi import SPI_NO_CS
from tests.hw.test_mfrc522 import UID4, reader, wiring  # noqa: F401  (fixture)


def lines(caplog, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if text in r.getMessage()]


def test_a_dead_reader_logs_its_failed_reopen_once_and_its_return_once(wiring, caplog) -> None:  # noqa: F811
    chip = wiring.chip(("ce", 0), Tag(UID4), present=False)
    group = ReaderGroup([reader("scan")], interval=0.005, retry_max=0.01)
    caplog.set_level(logging.DEBUG, logger="hw")
    group.start()
    try:
        r = group.readers["scan"]
        assert wait_until(lambda: r.reopen_failures >= 20, 5.0)
        assert len(lines(caplog, "re-open failed:")) == 1  # the rest are counted
        assert group.health()["scan"]["reopen_failures"] >= 20
        chip.present = True
        assert wait_until(lambda: r.healthy and r.uid == UID4.hex().upper(), 5.0)
    finally:
        group.stop()
    back = lines(caplog, "re-opened after")
    assert len(back) == 1 and int(back[0].split("after ")[1].split()[0]) >= 20
    assert [rec for rec in caplog.records if "re-open failed" in rec.getMessage() and rec.levelno >= logging.WARNING
            ].__len__() == 1


@pytest.fixture
def pi(monkeypatch, tmp_path):
    """A Pi 4's gpiochip (lgpio), its spidev nodes with an MFRC522 on GPIO 22's select, its I2C adapter."""
    from gpiozero.pins.local import LocalPiFactory

    from tests.hw.kernel_spi import SpiKernel

    gpio = GpioKernel({})  # no gpiochip at first: the lgpio factory cannot start
    monkeypatch.setitem(sys.modules, "lgpio", gpio.module())
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    monkeypatch.setattr(LocalPiFactory, "_get_revision", lambda self: 0xC03111)
    monkeypatch.setattr("hw.pins.header_chip", lambda labels=None: 0)
    chip = Tag(UID4)
    from firmware_bridge.chip import MFRC522Chip, RealClock

    mfrc522 = MFRC522Chip([chip], clock=RealClock())

    def transfer(node, mode, data):
        line = gpio.lines.get((0, 22))
        if mode & SPI_NO_CS and line is not None and line.mode and line.level() == 0:
            return mfrc522.transaction(data)
        return bytes(len(data))

    spi = SpiKernel(tmp_path / "dev", transfer)
    spi.add_node(0, 1)
    monkeypatch.setitem(sys.modules, "spidev", spi.module())
    monkeypatch.setattr(mfrc522_backend, "SPIDEV_DIR", str(tmp_path / "dev"))
    i2c = I2CKernel()
    i2c.install(monkeypatch.setattr)
    previous = Device.pin_factory
    yield gpio, i2c
    if Device.pin_factory is not previous and Device.pin_factory is not None:
        Device.pin_factory.close()
    Device.pin_factory = previous
    gpio.stop()
    sys.modules.pop("gpiozero.pins.lgpio", None)  # bound to this kernel's lgpio: not for the next test


def table_config() -> Config:
    return Config(pin_factory="lgpio", display=DisplayConfig(type="ssd1306"), poll_interval=0.01,
                  readers=(ReaderConfig("bag", "mfrc522", {"spi_device": 1, "cs_pin": 22}),))


def test_every_device_down_is_named_once_and_once_again_when_back(pi, caplog) -> None:
    gpio, i2c = pi
    caplog.set_level(logging.INFO)
    cfg = table_config()
    devices = open_devices(cfg)
    try:
        devices.start()
        assert wait_until(lambda: "reader bag" in devices.status, 2.0)
        for _ in range(3):  # the retries of a table left on
            assert not devices.reopen_gpio(cfg)
            assert not devices.reopen_display(cfg.display)
        down = lines(caplog, " is down: ")
        assert sum(line.startswith("GPIO is down: GPIO: The lgpio pin factory cannot start") for line in down) == 1
        assert sum(line.startswith("display is down: No display answers at 0x3C on /dev/i2c-1") for line in down) == 1
        assert sum(line.startswith("reader bag is down: ") for line in down) == 1
        gpio.chips[0] = "pinctrl-bcm2711"  # the chip is there at last (a permission fixed, a module loaded)
        gpio.busy[(0, 16)] = "pigpiod"  # and another program holds the OK button's pin
        assert devices.reopen_gpio(cfg)
        assert devices.retry_inputs() is False
        assert devices.retry_inputs() is False
        i2c.attach(0x3C, DisplayTarget())
        assert devices.reopen_display(cfg.display)
        assert wait_until(lambda: devices.status["reader bag"].ok, 5.0), devices.status["reader bag"]
        del gpio.busy[(0, 16)]
        assert devices.retry_inputs()
        devices.drain()
    finally:
        devices.close()
    down = lines(caplog, " is down: ")
    assert sum("button ok is down: GPIO16 (button ok) is busy, held by « pigpiod »" in line for line in down) == 1
    assert lines(caplog, "GPIO: GPIO works again") == ["GPIO: GPIO works again"]
    assert lines(caplog, "display: display works again") == ["display: display works again"]
    assert lines(caplog, "button ok: button ok works again") == ["button ok: button ok works again"]
    assert lines(caplog, "reader bag: reader bag answers again") == ["reader bag: reader bag answers again"]


def test_readers_come_back_after_the_pin_factory_fallback(pi) -> None:
    gpio, _ = pi
    cfg = table_config()
    devices = open_devices(cfg)
    try:
        devices.start()
        assert devices.status["GPIO"].ok is False
        reader_ = devices.readers.readers["bag"]
        time.sleep(0.1)
        assert not reader_.healthy  # its select is a mock pin: no chip hears it
        gpio.chips[0] = "pinctrl-bcm2711"
        assert devices.reopen_gpio(cfg)
        assert wait_until(lambda: reader_.uid == UID4.hex().upper(), 5.0)
        assert reader_.healthy and devices.status["reader bag"].ok
    finally:
        devices.close()


def test_the_bridge_lost_and_back_is_logged_once_each_however_often_it_is_said(mock_factory, caplog) -> None:
    """The bridge hub says « bridge lost » at each failed reconnect round and its readers report
    their own state: the table's log has one line when it goes, one when it is back."""
    from hw.events import StatusEvent

    caplog.set_level(logging.INFO)
    devices = open_devices(Config())
    try:
        for _ in range(4):
            devices.emit(StatusEvent("bridge", False, "bridge lost"))
        for _ in range(2):
            devices.emit(StatusEvent("bridge", True, "bridge connected"))
        devices.emit(StatusEvent("bridge", True, "bridge connected"))
    finally:
        devices.close()
    assert lines(caplog, "bridge lost") == ["bridge is down: bridge lost"]
    assert lines(caplog, "bridge connected") == ["bridge: bridge connected"]
