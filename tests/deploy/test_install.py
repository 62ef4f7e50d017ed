"""deploy/install.sh into a scratch root: it does its job, and running it twice changes nothing."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_install(prefix: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PREFIX=str(prefix), SKIP_APT="1", SKIP_VENV="1", APP_USER="pi")
    return subprocess.run(["bash", str(ROOT / "deploy" / "install.sh")], env=env,
                          capture_output=True, text=True, timeout=120)


def tree(prefix: Path) -> dict[str, str]:
    return {str(p.relative_to(prefix)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(prefix.rglob("*")) if p.is_file()}


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
    assert lines.count("dtparam=spi=on") == 1

    unit = (tmp_path / "etc/systemd/system/galapagos-companion.service").read_text()
    assert "Restart=on-failure" in unit
    assert "After=network-online.target" in unit
    assert "@" not in unit.replace("@.service", "")
    assert f"WorkingDirectory={ROOT}" in unit and "User=pi" in unit
    assert "COMPANION_DB=/var/lib/galapagos-companion/companion.db" in unit
    assert (tmp_path / "etc/galapagos-companion/config.toml").exists()
    assert list((tmp_path / "etc/udev/rules.d").glob("*.rules")), "the udev rule is installed"


def test_install_keeps_an_edited_config(tmp_path: Path) -> None:
    assert run_install(tmp_path).returncode == 0
    config = tmp_path / "etc/galapagos-companion/config.toml"
    config.write_text("# mine\n")
    assert run_install(tmp_path).returncode == 0
    assert config.read_text() == "# mine\n"
