"""doctor talks to each reader's chip: an unwired or clone reader shows."""

from __future__ import annotations

import dataclasses

from companion.board.config import Config, ReaderConfig
from companion.cli.hw import chip_checks
from firmware_bridge.chip import Tag
from tests.hw.test_mfrc522 import UID7, wiring  # noqa: F401  (fixture)


def cfg_with(*readers: ReaderConfig) -> Config:
    return dataclasses.replace(Config(), readers=readers)


def test_doctor_reads_each_version_register_and_with_tags_each_uid(wiring, capsys) -> None:  # noqa: F811
    wiring.chip(("ce", 0), Tag(UID7), version=0x89)
    wiring.chip(("ce", 1), present=False)
    readers = (ReaderConfig("scan", "mfrc522", {"spi_device": 0}), ReaderConfig("bag", "mfrc522", {"spi_device": 1}))
    checks = chip_checks(cfg_with(*readers), list(readers), True, 0.5)
    rows = {(c.device, c.what): c for c in checks}
    scan = rows[("reader scan", "the chip answers")]
    assert scan.ok and "0x89" in scan.detail and "FM17522E" in scan.detail
    assert rows[("reader scan", "reads a tag")].detail == UID7.hex().upper()
    bag = rows[("reader bag", "the chip answers")]
    assert not bag.ok and "reads 0x00" in bag.detail
    assert f"reader scan: {UID7.hex().upper()}" in capsys.readouterr().out


def test_an_unknown_version_passes_with_a_warning(wiring) -> None:  # noqa: F811
    wiring.chip(("ce", 0), version=0x42)
    readers = (ReaderConfig("scan", "mfrc522", {}),)
    (check,) = chip_checks(cfg_with(*readers), list(readers), False, 0.1)
    assert check.ok and "0x42" in check.detail and "clone" in check.detail
