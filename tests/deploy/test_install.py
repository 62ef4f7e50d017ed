"""deploy/install.sh into a scratch root: it does its job, and running it twice changes nothing.

The unit it installs is read the way systemd reads it (``systemd-analyze verify`` when the
machine has it) and checked for the hardening the issue asks for, and for what would take the
table's devices away (a DeviceAllow= rule, implied by ProtectClock=, closes every other node).
"""

from __future__ import annotations

import configparser
import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = "etc/systemd/system/galapagos-companion.service"
SPI_AND_UART = """
[gpio]
factory = "lgpio"

[display]
type = "sh1106"

[[readers]]
point = "scan"
backend = "mfrc522"

[[readers]]
point = "bag"
backend = "pn532"
interface = "uart"
"""


def run_install(prefix: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PREFIX=str(prefix), SKIP_APT="1", SKIP_VENV="1", APP_USER="pi")
    return subprocess.run(["bash", str(ROOT / "deploy" / "install.sh")], env=env,
                          capture_output=True, text=True, timeout=120)


def tree(prefix: Path) -> dict[str, str]:
    return {str(p.relative_to(prefix)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(prefix.rglob("*")) if p.is_file()}


def unit_settings(text: str) -> dict[str, list[str]]:
    """Every Key=value of [Service] (a key may repeat, e.g. Environment=)."""
    parser = configparser.RawConfigParser(strict=False, delimiters=("=",), comment_prefixes=("#",))
    parser.optionxform = str  # type: ignore[assignment]
    out: dict[str, list[str]] = {}
    section = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]":
            key, _, value = line.partition("=")
            out.setdefault(key, []).append(value)
    return out


def test_install_is_idempotent_and_complete(tmp_path: Path) -> None:
    boot = tmp_path / "boot" / "firmware" / "config.txt"
    boot.parent.mkdir(parents=True)
    boot.write_text("# Raspberry Pi config\n#dtparam=i2c_arm=on\n")
    first = run_install(tmp_path)
    assert first.returncode == 0, first.stderr
    snapshot = tree(tmp_path)
    second = run_install(tmp_path)
    assert second.returncode == 0, second.stderr
    assert tree(tmp_path) == snapshot

    lines = boot.read_text().splitlines()
    assert lines.count("dtparam=i2c_arm=on") == 1 and "#dtparam=i2c_arm=on" not in lines
    assert lines.count("dtparam=i2c_arm_baudrate=400000") == 1  # the OLED at 400 kHz
    assert "dtparam=spi=on" not in lines and "enable_uart=1" not in lines  # the minimal config needs neither

    unit = (tmp_path / UNIT).read_text()
    assert "Restart=on-failure" in unit
    assert "After=network-online.target" in unit
    assert not re.search(r"@[A-Z_]+@", unit)  # every placeholder filled (@system-service is systemd's own)
    assert f"WorkingDirectory={ROOT}" in unit and "User=pi" in unit
    assert "COMPANION_DB=/var/lib/galapagos-companion/companion.db" in unit
    assert (tmp_path / "etc/galapagos-companion/config.toml").exists()
    assert list((tmp_path / "etc/udev/rules.d").glob("*.rules")), "the udev rule is installed"


def test_the_default_config_is_the_minimal_one_and_starts_without_readers(tmp_path: Path) -> None:
    from companion.board.config import load

    assert run_install(tmp_path).returncode == 0
    cfg = load(tmp_path / "etc/galapagos-companion/config.toml")
    assert cfg.readers == () and cfg.display.type == "ssd1306" and cfg.pin_factory == "lgpio"
    assert not (cfg.bridge.buttons or cfg.bridge.dice)


def test_config_txt_lines_go_under_all_not_the_last_conditional_section(tmp_path: Path) -> None:
    boot = tmp_path / "boot" / "firmware" / "config.txt"
    boot.parent.mkdir(parents=True)
    boot.write_text("dtoverlay=vc4-kms-v3d\n[cm4]\notg_mode=1\n[pi4]\narm_boost=1\n")
    assert run_install(tmp_path).returncode == 0
    lines = boot.read_text().splitlines()
    tail = lines[lines.index("arm_boost=1") + 1:]
    assert [x for x in tail if x] == ["[all]", "dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000"]
    before = boot.read_text()
    assert run_install(tmp_path).returncode == 0
    assert boot.read_text() == before


def test_a_pn532_on_the_header_uart_and_an_mfrc522_enable_uart_and_spi_on_a_pi_5(tmp_path: Path) -> None:
    (tmp_path / "etc/galapagos-companion").mkdir(parents=True)
    (tmp_path / "etc/galapagos-companion/config.toml").write_text(SPI_AND_UART)
    (tmp_path / "proc/device-tree").mkdir(parents=True)
    (tmp_path / "proc/device-tree/model").write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    boot = tmp_path / "boot" / "firmware" / "config.txt"
    boot.parent.mkdir(parents=True)
    boot.write_text("")
    (boot.parent / "cmdline.txt").write_text("console=serial0,115200 console=tty1 root=PARTUUID=1 rootwait\n")
    result = run_install(tmp_path)
    assert result.returncode == 0, result.stderr
    lines = boot.read_text().splitlines()
    for line in ("dtparam=spi=on", "enable_uart=1", "dtparam=uart0=on", "dtparam=i2c_arm=on"):
        assert lines.count(line) == 1, line
    assert (boot.parent / "cmdline.txt").read_text() == "console=tty1 root=PARTUUID=1 rootwait\n"


def test_a_bad_config_stops_the_install_with_the_key_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "etc/galapagos-companion").mkdir(parents=True)
    (tmp_path / "etc/galapagos-companion/config.toml").write_text("[tags]\nmisses = 0\n")
    result = run_install(tmp_path)
    assert result.returncode == 2
    assert "tags.misses must be" in result.stderr
    assert "Fix" in result.stderr


def test_install_keeps_an_edited_config(tmp_path: Path) -> None:
    assert run_install(tmp_path).returncode == 0
    config = tmp_path / "etc/galapagos-companion/config.toml"
    config.write_text("# mine\n")
    assert run_install(tmp_path).returncode == 0
    assert config.read_text() == "# mine\n"


def test_the_unit_is_hardened_and_does_not_restart_a_bad_config(tmp_path: Path) -> None:
    assert run_install(tmp_path).returncode == 0
    service = unit_settings((tmp_path / UNIT).read_text())

    def one(key: str) -> str:
        assert len(service.get(key, [])) == 1, f"{key} set {len(service.get(key, []))} times"
        return service[key][0]

    assert one("NoNewPrivileges") == "yes"
    assert one("ProtectSystem") == "strict"
    assert one("PrivateTmp") == "yes"
    assert one("ProtectHome") in ("yes", "read-only")
    assert set(one("RestrictAddressFamilies").split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    assert one("RestartPreventExitStatus") == "2"  # companion exits 2 on a bad config
    # with ProtectSystem=strict only the state and runtime directories are writable
    state, runtime = one("StateDirectory"), one("RuntimeDirectory")
    env = dict(e.split("=", 1) for e in service["Environment"])
    assert env["LG_WD"] == f"/run/{runtime}"  # lgpio's .lgd-nfy* files, not the checkout
    assert env["COMPANION_DB"].startswith(f"/var/lib/{state}/")
    assert one("ExecStart").endswith("--config /etc/galapagos-companion/config.toml")


def test_the_hardening_leaves_gpio_i2c_spi_and_serial_reachable(tmp_path: Path) -> None:
    """Device nodes closed but the table's own; nothing hides them; the owning groups are granted."""
    assert run_install(tmp_path).returncode == 0
    service = unit_settings((tmp_path / UNIT).read_text())
    for hides in ("PrivateDevices", "InaccessiblePaths", "TemporaryFileSystem", "PrivateUsers"):
        assert hides not in service, f"{hides}= would take /dev/gpiochip*, /dev/i2c-*, /dev/spidev* away"
    assert service["DevicePolicy"] == ["closed"]
    allowed = {line.split()[0]: line.split()[1] for line in service["DeviceAllow"]}
    for node in ("char-gpiochip", "char-i2c", "char-spi", "char-ttyACM", "char-ttyAMA", "char-ttyS",
                 "/dev/galapagos-bridge"):
        assert allowed.get(node) == "rw", node
    assert set(service["SupplementaryGroups"][0].split()) == {"gpio", "i2c", "spi", "dialout"}
    writable = " ".join(service.get("ReadWritePaths", []))
    assert "/dev" not in writable  # devices are not files under ProtectSystem: nothing to open up


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_systemd_reads_every_line_of_the_unit(tmp_path: Path) -> None:
    assert run_install(tmp_path).returncode == 0
    unit = tmp_path / UNIT
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    complaints = [line for line in result.stderr.splitlines() if unit.name in line]
    assert not complaints, complaints
