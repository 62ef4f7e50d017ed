"""A reader chip that goes deaf is not « no tag ».

The faults as the parts make them, on the datasheet model (firmware_bridge/chip.py): MISO
stuck at 0x00 (a lost wire, pulled down) or 0xFF (pulled up), and a brown-out that resets
the chip's registers (TModeReg back to 0x00: the timer no longer starts, no TimerIRq).
Before, each read as an empty field, ~1 s a poll while holding the bus lock, « healthy ».
"""

from __future__ import annotations

import logging
import time

import pytest

from firmware_bridge.chip import Tag
from firmware_bridge.firmware.mfrc522 import CHECK_EVERY, ChipGone
from hw.rfid import ReaderError, ReaderGroup
from tests.hw.conftest import wait_until
from tests.hw.test_mfrc522 import UID4, UID7, reader, wiring  # noqa: F401  (fixture)


@pytest.mark.parametrize("level", [0x00, 0xFF])
def test_a_stuck_miso_raises_within_a_few_polls_and_never_holds_the_bus_long(wiring, level) -> None:  # noqa: F811
    chip = wiring.chip(("ce", 0))
    r = reader("scan")
    r.open()
    try:
        assert r.read_uid() is None  # an empty field: no error
        chip.stuck = level
        longest = 0.0
        with pytest.raises(ChipGone):
            for _ in range(CHECK_EVERY + 1):
                start = time.perf_counter()
                try:
                    r.read_uid()
                finally:
                    longest = max(longest, time.perf_counter() - start)
        assert longest < 0.15, f"a poll of a deaf chip held the bus {longest:.3f} s"
    finally:
        r.close()


def test_a_brown_out_reset_is_seen_and_the_reader_reinitialised_comes_back(wiring) -> None:  # noqa: F811
    chip = wiring.chip(("ce", 0), Tag(UID4))
    group = ReaderGroup([reader("scan")], interval=0.01, retry_max=0.05)
    status: list[object] = []
    seen: list[object] = []
    group.subscribe_status(status.append)
    group.subscribe(seen.append)
    group.start()
    try:
        assert wait_until(lambda: any(e.present for e in seen), 3.0)
        chip.brown_out()
        went = time.monotonic()
        assert wait_until(lambda: any(not e.ok for e in status), 3.0)
        assert time.monotonic() - went < 2.0
        down = next(e for e in status if not e.ok)
        assert "TModeReg" in down.message or "TimerIRq" in down.message, down.message
        assert wait_until(lambda: any(e.ok for e in status), 3.0)  # re-initialised: back, no restart
        assert chip.regs[0x2A] == 0x80  # TModeReg set again
        assert group.readers["scan"].healthy
    finally:
        group.stop()


def test_a_dead_reader_is_down_within_2_s_and_its_neighbour_on_the_bus_keeps_its_rate(wiring) -> None:  # noqa: F811
    wiring.chip(("gpio", 22), Tag(UID4))
    dead = wiring.chip(("gpio", 23), Tag(UID7))
    group = ReaderGroup([reader("N", cs_pin=22), reader("E", cs_pin=23)], interval=0.01, retry_max=0.2)
    status: list[object] = []
    group.subscribe_status(status.append)
    group.start()
    try:
        time.sleep(0.3)
        dead.stuck = 0x00
        went = time.monotonic()
        assert wait_until(lambda: any(e.device == "reader E" and not e.ok for e in status), 2.0)
        assert time.monotonic() - went < 2.0
        healthy = group.readers["N"]
        before, start = healthy.debouncer, time.monotonic()
        polls_before = wiring.chips[("gpio", 22)].transceives
        time.sleep(1.0)
        rate = (wiring.chips[("gpio", 22)].transceives - polls_before) / (time.monotonic() - start)
        assert rate > 20, f"the healthy reader polled at {rate:.0f} transceives/s beside a dead one"
        assert healthy.healthy and healthy.errors == 0
        del before
        dead.stuck = None
        assert wait_until(lambda: any(e.device == "reader E" and e.ok for e in status), 3.0)
    finally:
        group.stop()


@pytest.mark.parametrize("version", [0x89, 0x90, 0x88, 0x92])
def test_clone_chips_are_accepted(wiring, version) -> None:  # noqa: F811
    wiring.chip(("ce", 0), Tag(UID4), version=version)
    r = reader("scan")
    r.open()
    try:
        assert r.read_uid() == UID4
    finally:
        r.close()


def test_an_unknown_version_is_a_warning_not_a_refusal(wiring, caplog) -> None:  # noqa: F811
    wiring.chip(("ce", 0), Tag(UID4), version=0x42)
    r = reader("scan")
    with caplog.at_level(logging.WARNING):
        r.open()
    try:
        assert r.read_uid() == UID4
        assert "0x42" in caplog.text
    finally:
        r.close()


@pytest.mark.parametrize("level", [0x00, 0xFF])
def test_only_0x00_and_0xff_are_refused(wiring, level) -> None:  # noqa: F811
    chip = wiring.chip(("ce", 0))
    chip.stuck = level
    with pytest.raises(ReaderError, match=f"reads {level:#04x}"):
        reader("scan").open()


def test_gain_keeps_rfcfgregs_reserved_bits(wiring) -> None:  # noqa: F811
    chip = wiring.chip(("ce", 0))
    chip.regs[0x26] = 0x48 | 0x8F & 0x8A  # reserved bits 7 and 3..0 set to something of the chip's own
    r = reader("scan", antenna_gain=7)
    chip.reset = lambda: None  # type: ignore[method-assign]  (the soft reset keeps the register here)
    r.open()
    try:
        assert chip.regs[0x26] == (0x8A | 0x70)
    finally:
        r.close()


def test_a_failed_open_leaves_its_gpio_select_driven_inactive(wiring) -> None:  # noqa: F811
    wiring.chip(("gpio", 22), present=False)
    r = reader("p22", cs_pin=22)
    with pytest.raises(ReaderError):
        r.open()
    pin = wiring.factory.pin(22)
    assert pin.function == "output" and pin.state == 1  # driven high, not released to float
    r.close()


@pytest.mark.parametrize("fault", ["miso_low", "miso_high", "brown_out"])
def test_a_dead_or_reset_chip_is_found_before_its_field_goes_on(wiring, fault) -> None:  # noqa: F811
    """The first poll after the fault raises, after two register reads under the bus lock: no field,
    no 5 ms settle, no ComIrqReg loop for the readers beside it to wait through."""
    chip = wiring.chip(("ce", 0), Tag(UID4))
    r = reader("scan")
    r.open()
    try:
        assert r.read_uid() is not None
        if fault == "brown_out":
            chip.brown_out()
        else:
            chip.stuck = 0x00 if fault == "miso_low" else 0xFF
        before = chip.transfers
        with pytest.raises(ChipGone):
            r.read_uid()
        assert chip.transfers - before <= 2, f"{chip.transfers - before} transfers while holding the bus"
    finally:
        r.close()
