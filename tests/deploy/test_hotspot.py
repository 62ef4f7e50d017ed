"""deploy/hotspot.sh (and install.sh's call to it) into a scratch root: the config's [network] table with
a generated WPA2 password kept across runs, NetworkManager's profile written by the real ``nmcli
--offline`` (0600), the boot check's units read the way systemd reads them; a saved Wi-Fi turns the
hotspot's default off.
"""

from __future__ import annotations

import configparser
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from companion.board import config as configuration
from companion.board.network import settings_of
from tests.deploy.test_install import run_install, tree

ROOT = Path(__file__).resolve().parents[2]
PROFILE = "etc/NetworkManager/system-connections/galapagos-hotspot.nmconnection"
pytestmark = pytest.mark.skipif(shutil.which("nmcli") is None, reason="nmcli writes the profile (network-manager)")

#: what Raspberry Pi Imager writes for the Wi-Fi it is given (a client, not an access point)
IMAGER_WIFI = """[connection]
id=preconfigured
uuid=2a1d04c2-5cde-4d3f-a5f5-0c1e3a2b9f10
type=wifi

[wifi]
mode=infrastructure
ssid=alfa

[wifi-security]
key-mgmt=wpa-psk
psk=caffeine-long

[ipv4]
method=auto
"""


def run_hotspot(prefix: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PREFIX=str(prefix), SKIP_APT="1")
    return subprocess.run(["bash", str(ROOT / "deploy" / "hotspot.sh"), *args], env=env,
                          capture_output=True, text=True, timeout=120)


def fresh(prefix: Path) -> Path:
    config = prefix / "etc/galapagos-companion/config.toml"
    config.parent.mkdir(parents=True)
    shutil.copy(ROOT / "deploy" / "pi.toml", config)
    return config


def profile(prefix: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string((prefix / PROFILE).read_text())
    return parser


def test_a_fresh_table_gets_a_hotspot_with_a_generated_password_kept_on_later_runs(tmp_path: Path) -> None:
    config = fresh(tmp_path)
    first = run_hotspot(tmp_path)
    assert first.returncode == 0, first.stderr
    net = settings_of(configuration.load(config))
    assert net.hotspot and net.ssid.startswith("Galapagos-") and len(net.password) == 12
    assert "[gpio]" in config.read_text() and "[first_boot]" in config.read_text()  # the rest kept
    p = profile(tmp_path)
    assert (p["wifi"]["mode"], p["wifi"]["ssid"], p["wifi-security"]["psk"]) == ("ap", net.ssid, net.password)
    assert p["connection"]["autoconnect"] == "false" and p["ipv4"]["method"] == "shared"
    assert stat.S_IMODE((tmp_path / PROFILE).stat().st_mode) == 0o600  # NetworkManager reads no other
    service = (tmp_path / "etc/systemd/system/galapagos-hotspot.service").read_text()
    assert f"ExecStart={ROOT}/.venv/bin/companion network check" in service and "@APP_DIR@" not in service
    assert (tmp_path / "etc/systemd/system/galapagos-hotspot.timer").exists()

    snapshot = tree(tmp_path)
    again = run_hotspot(tmp_path, "on")
    assert again.returncode == 0, again.stderr
    assert tree(tmp_path) == snapshot  # same password, same profile (its uuid kept)


def test_a_saved_wifi_turns_the_default_off_and_on_turns_it_back_on(tmp_path: Path) -> None:
    config = fresh(tmp_path)
    saved = tmp_path / "etc/NetworkManager/system-connections/preconfigured.nmconnection"
    saved.parent.mkdir(parents=True)
    saved.write_text(IMAGER_WIFI)
    result = run_hotspot(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "NetworkManager knows a Wi-Fi (preconfigured): hotspot off" in result.stdout
    off = settings_of(configuration.load(config))
    assert not off.hotspot and off.password  # ready, never started
    assert run_hotspot(tmp_path, "on").returncode == 0
    on = settings_of(configuration.load(config))
    assert on.hotspot and on.password == off.password
    assert saved.read_text() == IMAGER_WIFI  # the known Wi-Fi untouched


def test_a_bad_mode_is_refused(tmp_path: Path) -> None:
    fresh(tmp_path)
    result = run_hotspot(tmp_path, "maybe")
    assert result.returncode == 2 and "usage: deploy/hotspot.sh [on|off]" in result.stderr


def test_a_fresh_install_sets_the_hotspot_up_and_a_later_one_leaves_it(tmp_path: Path) -> None:
    assert run_install(tmp_path).returncode == 0
    config = tmp_path / "etc/galapagos-companion/config.toml"
    assert settings_of(configuration.load(config)).hotspot
    edited = config.read_text().replace("hotspot = true", "hotspot = false")
    config.write_text(edited)
    assert run_install(tmp_path).returncode == 0
    assert config.read_text() == edited  # not fresh: the builder's choice stays


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_systemd_reads_every_line_of_the_hotspot_units(tmp_path: Path) -> None:
    fresh(tmp_path)
    assert run_hotspot(tmp_path).returncode == 0
    units = tmp_path / "etc/systemd/system"
    for name in ("galapagos-hotspot.service", "galapagos-hotspot.timer"):
        result = subprocess.run(["systemd-analyze", "verify", str(units / name)], capture_output=True, text=True,
                                timeout=60, cwd=units)
        complaints = [line for line in result.stderr.splitlines() if name in line and "Unit" not in line[:5]]
        assert not complaints, complaints


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_the_boot_check_runs_hardened(tmp_path: Path) -> None:
    """Root, to activate a connection, but nothing else: ``systemd-analyze security`` at most 2.0."""
    import re

    fresh(tmp_path)
    assert run_hotspot(tmp_path).returncode == 0
    units = tmp_path / "etc/systemd/system"
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", "galapagos-hotspot.service"],
                            capture_output=True, text=True, timeout=60, cwd=units)
    found = re.search(r"Overall exposure level for galapagos-hotspot\.service: ([\d.]+)", result.stdout)
    if found is None:
        pytest.skip(f"this systemd-analyze cannot score a unit file offline: {result.stderr.strip()[:200]}")
    assert float(found.group(1)) <= 2.0
