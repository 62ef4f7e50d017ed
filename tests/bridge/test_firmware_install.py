"""``companion firmware install``: asks the running bridge for maintenance, then copies the firmware
with mpremote (a stand-in here that logs its calls), and refuses while the service holds the port."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from companion.cli import firmware as cli_firmware
from companion.cli.main import main
from firmware_bridge.firmware import config
from firmware_bridge.simulator import Simulator
from hw import doctor


@pytest.fixture
def mpremote(tmp_path: Path) -> tuple[Path, Path]:
    log = tmp_path / "mpremote.log"
    tool = tmp_path / "mpremote"
    tool.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$*\" >>{log}\n")
    tool.chmod(0o755)
    return tool, log


@pytest.fixture(autouse=True)
def no_service(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No companion runs here: the status files looked at are this test's."""
    monkeypatch.setattr("companion.cli.service_state.status_paths", lambda env=None: [tmp_path / "status.json"])
    monkeypatch.setattr("hw.doctor.service", lambda path, **kw: doctor.Service(False))


def test_install_asks_for_maintenance_then_copies_every_file_and_resets(mpremote, capsys) -> None:
    tool, log = mpremote
    sim = Simulator(readers=2, buttons=2, slots=0, firmware=(1, 0, 0)).start()
    try:
        code = main(["firmware", "install", "--port", sim.path or "", "--mpremote", str(tool), "--timeout", "5"])
    finally:
        sim.stop()
    assert code == 0, capsys.readouterr()
    assert ("MAINTENANCE", ()) in sim.executed
    calls = log.read_text().splitlines()
    assert calls[0].startswith(f"connect {sim.path} exec ")
    copy = calls[-1].split(" + ")
    modules = sorted(p.name for p in cli_firmware.FIRMWARE.glob("*.py"))
    copied = sorted(c.split(":firmware/")[1] for c in copy if ":firmware/" in c)
    assert copied == modules
    assert any(c.endswith(":boot.py") for c in copy) and any(c.endswith(":main.py") for c in copy)
    assert copy[-1].endswith("reset")
    out = json.loads(capsys.readouterr().out)
    assert out["installed"] == ".".join(map(str, config.FIRMWARE))


def test_install_refuses_while_the_service_holds_the_port(mpremote, monkeypatch, capsys) -> None:
    tool, log = mpremote
    monkeypatch.setattr("hw.doctor.service", lambda path, **kw: doctor.Service(True, os.getpid() + 1, "systemd"))
    assert main(["firmware", "install", "--port", "/dev/null", "--mpremote", str(tool)]) == 2
    assert "systemctl stop galapagos-companion" in capsys.readouterr().err
    assert not log.exists()


def test_version_says_whether_the_pico_runs_the_shipped_firmware(capsys) -> None:
    sim = Simulator(readers=1, buttons=1, slots=0, firmware=(1, 0, 0)).start()
    try:
        assert main(["firmware", "version", "--port", sim.path or ""]) == 1
    finally:
        sim.stop()
    out = json.loads(capsys.readouterr().out)
    assert out == {"port": sim.path, "pico": "1.0.0", "shipped": ".".join(map(str, config.FIRMWARE)), "matches": False}
