"""``companion doctor``: every configured device is reported, each failure with its fix."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest
import serial

from companion.cli import main
from companion.config import Config
from hw import doctor

ROOT = Path(__file__).resolve().parents[2]
SIM_BRIDGE = """
[[readers]]
point = "N"
backend = "bridge"
reader = 0

[[readers]]
point = "scan"

[bridge]
port = "sim"

[web]
port = 0
"""


def run_json(capsys, *argv):
    code = main(["doctor", "--json", *argv])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return code, rows


def test_doctor_on_the_simulated_config_reports_every_device_ok(capsys):
    code, rows = run_json(capsys)
    assert code == 0 and all(r["ok"] for r in rows)
    devices = {r["device"] for r in rows}
    cfg = Config()
    assert {f"button {b}" for b in cfg.buttons()} <= devices
    assert {"encoder A", "encoder B", "buzzer", "LED ready", "LED error", "display", "tag registry", "dashboard"} <= devices
    assert {f"reader {r.point}" for r in cfg.readers} <= devices


def test_doctor_prints_a_table_with_a_summary(capsys):
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].split() == ["DEVICE", "CHECK", "STATUS", "DETAIL", "/", "FIX"]
    assert out.rstrip().endswith("checks ok")


def test_doctor_shakes_hands_with_the_simulated_bridge(capsys, tmp_path):
    path = tmp_path / "table.toml"
    path.write_text(SIM_BRIDGE)
    code, rows = run_json(capsys, "--config", str(path))
    assert code == 0
    handshake = [r for r in rows if r["device"] == "bridge" and r["check"] == "handshake"]
    assert handshake and handshake[0]["ok"] and handshake[0]["detail"].startswith("firmware ")


def test_real_devices_missing_here_fail_with_their_fixes(capsys):
    """This machine has no I2C bus, no SPI and no bridge: each is named with the fix."""
    code, rows = run_json(capsys, "--config", str(ROOT / "docs" / "config.example.toml"), "--bridge-timeout", "0.2")
    assert code == 1
    fixes = {r["check"]: r["fix"] for r in rows if not r["ok"]}
    if not os.path.exists("/dev/i2c-1"):
        assert "raspi-config nonint do_i2c 0" in fixes["I2C bus 1"]
    if not os.path.exists("/dev/spidev0.0"):
        assert "raspi-config nonint do_spi 0" in fixes["SPI 0.0"]
    if not os.path.exists("/dev/ttyACM0"):
        assert "/dev/serial/by-id/" in fixes["serial /dev/ttyACM0"]
    assert all(r["fix"] for r in rows if not r["ok"])


def test_a_device_node_without_permission_names_the_group_to_join(tmp_path, monkeypatch):
    node = tmp_path / "i2c-1"
    node.touch()
    group = __import__("grp").getgrgid(node.stat().st_gid).gr_name
    monkeypatch.setattr(os, "access", lambda path, mode: False)  # as a user outside the group
    (check,) = doctor.node("display", "I2C bus 1", node, "enable I2C")
    assert not check.ok and f"add the user to group {group}" in check.fix


def test_a_serial_port_held_by_another_program_is_reported():
    master, slave = os.openpty()
    path = os.ttyname(slave)
    holder = serial.Serial(path, exclusive=True)
    try:
        checks = doctor.serial_port("bridge", path)
    finally:
        holder.close()
        os.close(master)
        os.close(slave)
    assert checks[0].ok and not checks[1].ok
    assert "stop the other program" in checks[1].fix


def test_a_dashboard_port_in_use_is_reported():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        (check,) = doctor.tcp_port_free("dashboard", "127.0.0.1", port)
    assert not check.ok and "[web] port" in check.fix


def test_pins_are_claimed_with_the_mock_factory():
    checks = doctor.pins({"button ok": 16, "buzzer": 18}, "mock")
    assert [c.ok for c in checks] == [True, True, True]


def test_an_unloadable_pin_factory_says_to_install_the_pi_extra():
    checks = doctor.pins({"button ok": 16}, "lgpio")
    failed = [c for c in checks if not c.ok]
    if failed:  # on a Pi with lgpio installed every check passes instead
        assert any("galapagos-companion[pi]" in c.fix or "Raspberry Pi" in c.fix for c in failed)


def test_a_bad_config_is_one_sentence_and_exit_2(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[display]\ntype = 'st7735'\n")
    assert main(["doctor", "--config", str(path)]) == 2
    assert "display.type must be one of dummy, ssd1306, sh1106" in capsys.readouterr().err


@pytest.mark.parametrize("text, words", [
    ("[buttons]\nok = 18\n", "buzzer and button ok are both on GPIO 18"),
    ("[buttons]\nseats = [5, 99]\n", "GPIO 0 to 27"),
    ("[display]\nadress = 60\n", "display.adress is not a setting"),
    ("[encoder]\na = 'x'\n", "encoder.a must be a whole number"),
    ("[[readers]]\npoint = 'N'\n[[readers]]\npoint = 'N'\n", "names the point 'N' twice"),
    ("[[readers]]\npoint = 'N'\nbackend = 'rc999'\n", "backend must be one of sim, mfrc522, pn532, bridge"),
])
def test_config_errors_name_the_key(tmp_path, text, words):
    from companion.config import ConfigError, load

    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=words.replace("[", r"\[").replace("(", r"\(")):
        load(path)
