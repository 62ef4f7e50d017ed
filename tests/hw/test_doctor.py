"""``companion doctor``: every configured device is reported, each failure with its fix."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest
import serial

from companion.board.config import Config
from companion.cli.main import main
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
    assert "/dev/serial/by-id/" in fixes["find the board"]  # port = "auto" found no board here
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
    from companion.board.config import ConfigError, load

    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=words.replace("[", r"\[").replace("(", r"\(")):
        load(path)


# ---- bad values: one sentence, exit 2, nothing opened ------------------------------------------

BAD = [
    ("[tags]\nmisses = 0\n", "tags.misses must be a whole number of polls from 1 to 100"),
    ("[tags]\nhold = -1\n", "tags.hold must be a number of seconds from 0 to 10, not -1"),
    ("[tags]\npoll_interval = 0\n", "tags.poll_interval must be a number of seconds from 0.01 to 5, not 0"),
    ("[display]\ntype = 'ssd1306'\naddress = 999\n", "display.address must be a 7-bit I2C address from 0x03 to 0x77"),
    ("[display]\ntype = 'ssd1306'\n[buttons]\nseats = [2, 5]\n", "button seat1 is on GPIO 2, which the I2C display needs"),
    ("[display]\ntype = 'sh1106'\n[buttons]\nok = 3\n", "button ok is on GPIO 3, which the I2C display needs"),
    ("[display]\nrotate = 1\n", "display.rotate must be 0 or 2"),
    ("[display]\nrotate = 3\n", "display.rotate must be 0 or 2"),
    ("[[readers]]\npoint = 'scan'\nbackend = 'mfrc522'\n[buttons]\nup = 10\n", "button up is on GPIO 10, which SPI0 (reader scan) needs"),
    ("[[readers]]\npoint = 'scan'\nbackend = 'mfrc522'\ncs_pin = 8\n", "reader scan cs_pin is on GPIO 8, which SPI0 (reader scan) needs"),
    ("[[readers]]\npoint = 'scan'\nbackend = 'mfrc522'\nspi_bus = 1\n", "button seat4 is on GPIO 19, which SPI1 (reader scan) needs"),
    ("[[readers]]\npoint = 'bag'\nbackend = 'pn532'\n[leds]\nready = 14\n", "LED ready is on GPIO 14, which the UART (reader bag) needs"),
    ("[[readers]]\npoint = 'bag'\nbackend = 'pn532'\nport = '/dev/ttyAMA0'\n[buzzer]\npin = 15\n", "buzzer is on GPIO 15, which the UART"),
    ("[[readers]]\npoint = 'bag'\nbackend = 'pn532'\ninterface = 'spi'\n", "cs_pin is needed for a PN532 on SPI"),
    ("[[readers]]\npoint = 'scan'\nbackend = 'mfrc522'\nantenna_gain = 9\n", "antenna_gain must be the receiver gain step, 0 to 7"),
    ("[[readers]]\npoint = 'scan'\nbackend = 'mfrc522'\nrst = 25\n", "readers #1 (scan).rst is not a setting"),
    ("[buttons]\nhold_ms = -1\n", "buttons.hold_ms must be"),
    ("[web]\nport = 70000\n", "web.port must be a TCP port"),
    ("[bridge]\nbaud = 12345\n", "bridge.baud must be one of"),
    ("[bridge]\nusb_id = '2E8A'\n", 'bridge.usb_id must be "VID:PID"'),
    ("[gpio]\nchip = -1\n", "gpio.chip must be"),
]


@pytest.mark.parametrize("text, words", BAD)
def test_doctor_refuses_each_bad_value_with_one_sentence_and_exit_2(capsys, tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert main(["doctor", "--config", str(path)]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert words in err
    assert err.count("\n") == 0 and err.endswith(".") and "Traceback" not in err
    assert "DEVICE" not in captured.out  # refused before any device was looked at


def test_a_pin_held_by_another_device_is_a_row_of_the_table(capsys, mock_factory):
    """The companion already running holds GPIO 16: doctor prints its table and says so."""
    from gpiozero import Button

    held = Button(16)
    try:
        code, rows = run_json(capsys)
    finally:
        held.close()
    assert code == 1
    (busy,) = [r for r in rows if not r["ok"]]
    assert (busy["device"], busy["check"]) == ("button ok", "GPIO 16 free")
    assert "is a companion already running?" in busy["fix"] and "busy" in busy["detail"].lower()
    assert sum(r["ok"] for r in rows) == len(rows) - 1  # every other device still checked


def test_a_busy_pin_raising_the_librarys_own_error_is_still_a_row(capsys, monkeypatch):
    """lgpio raises ``lgpio.error: 'GPIO busy'``, neither GPIOZeroError nor OSError."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPin

    error = type("error", (Exception,), {"__module__": "lgpio"})

    class HeldPin(MockPin):
        def __init__(self, factory, info):
            if info.name == "GPIO20":
                raise error("GPIO busy")
            super().__init__(factory, info)

    previous = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=HeldPin)
    try:
        assert main(["doctor"]) == 1
    finally:
        Device.pin_factory.close()
        Device.pin_factory = previous
    out = capsys.readouterr().out
    (row,) = [line for line in out.splitlines() if "GPIO 20 free" in line]
    assert "FAIL" in row and "GPIO busy" in row and "is a companion already running?" in row
    assert out.splitlines()[1].split()[:3] == ["DEVICE", "CHECK", "STATUS"]


class QuickWriteBus:
    """smbus2.SMBus as i2cdetect -q uses it: ``write_quick`` ACKs only at the present addresses."""

    present = {0x3D}

    def __init__(self, port: int) -> None:
        self.port = port

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def write_quick(self, address: int) -> None:
        if address not in self.present:
            raise OSError(121, "Remote I/O error")

    def read_byte(self, address: int) -> int:  # an SSD1306 is write-only: a read NAKs
        raise OSError(121, "Remote I/O error")


def test_i2c_is_probed_with_a_quick_write_and_a_wrong_address_names_the_ones_that_answer():
    ok = doctor.probe_i2c("display ssd1306", 1, 0x3D, QuickWriteBus)
    assert ok.ok
    wrong = doctor.probe_i2c("display ssd1306", 1, 0x3C, QuickWriteBus)
    assert not wrong.ok and "0x3d" in wrong.detail and "address printed on the module" in wrong.fix


def test_doctor_finds_an_auto_bridge_by_its_link_and_shakes_hands(capsys, tmp_path):
    from firmware_bridge.simulator import Simulator

    link = tmp_path / "galapagos-bridge"
    sim = Simulator(readers=1, link=str(link)).start()
    try:
        path = tmp_path / "auto.toml"
        path.write_text(f"[[readers]]\npoint = 'N'\nbackend = 'bridge'\nreader = 0\n\n"
                        f"[bridge]\nport = 'auto'\nsymlink = '{link}'\nby_id = '{tmp_path}/none-*'\n\n[web]\nport = 0\n")
        code, rows = run_json(capsys, "--config", str(path))
    finally:
        sim.stop()
    found = {r["check"]: r for r in rows if r["device"] == "bridge"}
    assert code == 0, rows
    assert found["find the board"]["ok"] and found["find the board"]["detail"] == f"found {sim.path}"
    assert found["handshake"]["ok"]


def test_doctor_says_where_it_looked_when_no_board_is_found(capsys, tmp_path):
    path = tmp_path / "auto.toml"
    path.write_text(f"[[readers]]\npoint = 'N'\nbackend = 'bridge'\nreader = 0\n\n"
                    f"[bridge]\nport = 'auto'\nsymlink = '{tmp_path}/absent'\nby_id = '{tmp_path}/none-*'\n"
                    f"usb_id = 'FFFF:FFFE'\n\n[web]\nport = 0\n")
    code, rows = run_json(capsys, "--config", str(path))
    (row,) = [r for r in rows if r["check"] == "find the board"]
    assert code == 1 and not row["ok"]
    assert f"{tmp_path}/absent" in row["detail"] and "USB FFFF:FFFE" in row["detail"] and "by-id" in row["fix"]
