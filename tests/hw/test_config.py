"""The table configuration: simulation by default, the commented example parses, files by env."""

from __future__ import annotations

from pathlib import Path

from companion.board.config import Config, load

ROOT = Path(__file__).resolve().parents[2]


def test_no_file_means_a_fully_simulated_table():
    cfg = load()
    assert cfg.simulated and cfg.pin_factory == "mock" and cfg.display.type == "dummy"
    assert {"N", "E", "S", "W", "scan", "bag", "seat4.slot5"} <= {r.point for r in cfg.readers}


def test_the_example_names_pins_display_readers_and_registry():
    cfg = load(ROOT / "docs" / "config.example.toml")
    assert not cfg.simulated
    assert (cfg.display.type, cfg.display.i2c_port, cfg.display.address) == ("ssd1306", 1, 0x3C)
    assert {r.point: r.backend for r in cfg.readers} == {"scan": "mfrc522", "bag": "pn532", "N": "bridge", "E": "bridge", "S": "bridge", "W": "bridge"}
    assert cfg.buttons()["ok"] == 16 and cfg.encoder == (17, 27) and cfg.bridge.buttons[0] == "seat6"
    assert cfg.tags_db is None  # the journal database


def test_companion_config_env_points_at_a_file(tmp_path, monkeypatch):
    path = tmp_path / "t.toml"
    path.write_text("[display]\ntype = 'sh1106'\naddress = 0x3D\n")
    monkeypatch.setenv("COMPANION_CONFIG", str(path))
    cfg = load()
    assert (cfg.display.type, cfg.display.address, cfg.source) == ("sh1106", 0x3D, str(path))


def test_seat_buttons_are_numbered_from_one():
    assert list(Config(seats=(4, 5)).buttons())[:2] == ["seat1", "seat2"]
