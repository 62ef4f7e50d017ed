"""The supply watched while the table runs, through the kernel's get_throttled file as the firmware writes it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from hw.events import StatusEvent
from hw.health import HealthLog
from hw.supply import DEVICE, UNDER_VOLTAGE_NOW, UNDER_VOLTAGE_SINCE_BOOT, SupplyWatch, throttled


class Firmware:
    """``/sys/devices/platform/soc/soc:firmware/get_throttled``: the word in hex and a newline, as the
    raspberrypi-firmware driver prints it (``%x\\n``); no vcgencmd on the path."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "get_throttled"
        self.set(0)

    def set(self, bits: int) -> None:
        self.path.write_text(f"{bits:x}\n")

    def read(self) -> int | None:
        return throttled(self.path, vcgencmd="no-such-vcgencmd")


@pytest.fixture
def watched(tmp_path: Path):
    firmware = Firmware(tmp_path)
    now = [0.0]
    said: list[StatusEvent] = []
    health = HealthLog(logging.getLogger("test.supply"))

    def emit(event: StatusEvent) -> None:
        said.append(event)
        health.note(event)

    return firmware, SupplyWatch(emit, firmware.read, every=30.0, clock=lambda: now[0]), said, now


def test_a_sag_while_running_is_said_once_and_its_end_once(watched, caplog) -> None:
    firmware, watch, said, now = watched
    with caplog.at_level(logging.INFO, logger="test.supply"):
        assert watch.check() is None  # a steady supply at start: nothing said
        firmware.set(UNDER_VOLTAGE_NOW | UNDER_VOLTAGE_SINCE_BOOT)  # the supply sags
        assert not watch.due()
        now[0] += 30
        assert watch.due()
        down = watch.check()
        assert down is not None and down.device == DEVICE and not down.ok and "too weak now" in down.message
        for _ in range(3):  # still sagging: said once
            now[0] += 30
            assert watch.check() is None
        firmware.set(UNDER_VOLTAGE_SINCE_BOOT)  # over; the firmware keeps the since-boot bit until the next boot
        now[0] += 30
        back = watch.check()
        assert back is not None and back.ok and "steady again" in back.message and "sagged since boot" in back.message
        now[0] += 30
        assert watch.check() is None
    assert said == [down, back]
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and "is down" in lines[0] and "steady again" in lines[1]


def test_a_sag_before_the_table_started_is_said_then_cleared_once_seen_steady(watched) -> None:
    firmware, watch, said, now = watched
    firmware.set(UNDER_VOLTAGE_SINCE_BOOT)
    first = watch.check()
    assert first is not None and not first.ok and "since boot" in first.message
    now[0] += 30
    back = watch.check()
    assert back is not None and back.ok
    assert [e.ok for e in said] == [False, True]


def test_off_a_pi_nothing_is_said_and_the_file_is_read_only_when_due(tmp_path: Path) -> None:
    said: list[StatusEvent] = []
    now = [0.0]
    watch = SupplyWatch(said.append, lambda: throttled(tmp_path / "absent", vcgencmd="no-such-vcgencmd"),
                        clock=lambda: now[0])
    for _ in range(5):
        if watch.due():
            watch.check()
        now[0] += 10
    assert said == [] and watch.reads == 2  # at 0 s and 30 s: a read every CHECK_EVERY, not every pass
