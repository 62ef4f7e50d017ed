"""``companion run`` on real devices names what is missing at start in its log, once, and keeps a
status file; ``companion doctor`` beside it reads that instead of claiming pins or resetting
readers, checks the service's journal, and reports the supply."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hw import doctor
from tests.cli.run.test_signals import ROOT, STARTED

MISSING_DISPLAY = '[gpio]\nfactory = "mock"\n[display]\ntype = "ssd1306"\ni2c_port = 9\n[web]\nport = 0\n'


def start_logged(*args: str) -> tuple[subprocess.Popen, list[str]]:
    """``companion run`` on real (here: missing) devices; its process and what it printed up to its URL."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("COMPANION_CONFIG", None)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    STARTED.append(proc)
    lines: list[str] = []
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "Press Ctrl-C" in line:
            return proc, lines
    proc.kill()
    raise AssertionError("companion run did not start:\n" + "".join(lines))


def doctor_json(env: dict[str, str], *argv: str) -> tuple[int, list[dict]]:
    result = subprocess.run([sys.executable, "-m", "companion", "doctor", "--json", *argv], capture_output=True,
                            text=True, env=env, cwd=ROOT, timeout=60)
    return result.returncode, [json.loads(line) for line in result.stdout.splitlines()]


def test_start_up_faults_are_logged_once_and_the_doctor_reads_the_running_table(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    config = tmp_path / "config.toml"
    config.write_text(MISSING_DISPLAY, encoding="utf-8")
    proc, lines = start_logged("--db", str(tmp_path / "j.db"), "--config", str(config), "--host", "127.0.0.1", "--port", "0")
    status = tmp_path / "run" / "galapagos-companion" / "status.json"
    try:
        deadline = time.monotonic() + 10
        while not status.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        state = json.loads(status.read_text())
        assert state["pid"] == proc.pid
        assert state["devices"]["display"]["ok"] is False
        assert "/dev/i2c-9 does not exist" in state["devices"]["display"]["message"]

        env = dict(os.environ, COMPANION_DB=str(tmp_path / "j.db"))
        code, rows = doctor_json(env, "--config", str(config))
        assert code == 1  # the display is down
        service = [r for r in rows if r["device"] == "service"]
        assert service and service[0]["ok"] and f"pid {proc.pid}" in service[0]["detail"]
        assert not any(r["check"].startswith("GPIO ") and r["check"].endswith(" free") for r in rows), \
            "pins were claimed under a running table"
        display = [r for r in rows if r["device"] == "display"]
        assert display and not display[0]["ok"] and display[0]["check"] == "as the service sees it"
        journal = [r for r in rows if r["device"] == "journal"]
        assert journal and journal[0]["ok"] and str(tmp_path / "j.db") in journal[0]["check"]
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=15)
    out = "".join(lines) + out
    said = [line for line in out.splitlines() if "/dev/i2c-9 does not exist" in line]
    assert len(said) == 1, out  # the missing display named in the log, once
    assert not status.exists(), "the status file outlives the table"


def test_the_doctor_finds_the_installed_services_journal(tmp_path: Path) -> None:
    unit = tmp_path / "galapagos-companion.service"
    unit.write_text("[Service]\nEnvironment=PYTHONUNBUFFERED=1\nEnvironment=COMPANION_DB=/var/lib/galapagos-companion/companion.db\n")
    assert doctor.unit_db(unit) == Path("/var/lib/galapagos-companion/companion.db")
    assert doctor.unit_db(tmp_path / "absent.service") is None


def test_a_damaged_journal_is_named(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    db.write_bytes(b"SQLite format 3\0" + b"\xff" * 4096)
    rows = doctor.journal("journal", db, service_running=True)
    assert not rows[0].ok and "companion run" in rows[0].fix


@pytest.mark.parametrize(("bits", "ok", "says"), [
    (0x0, True, "no under-voltage since boot"),
    (0x50005, False, "too weak now"),
    (0x50000, False, "sagged since boot"),
    (0x20002, True, "no under-voltage"),  # a frequency cap alone is no supply problem
])
def test_the_supply_bits_are_read_as_the_firmware_defines_them(tmp_path: Path, bits: int, ok: bool, says: str) -> None:
    sysfs = tmp_path / "get_throttled"
    sysfs.write_text(f"{bits:x}\n")
    read = doctor.throttled(sysfs, vcgencmd="no-such-vcgencmd")
    assert read == bits
    row = doctor.supply(read)[0]
    assert row.ok is ok and says in row.detail


def test_off_a_pi_the_supply_is_not_checked_and_not_failed(tmp_path: Path) -> None:
    assert doctor.throttled(tmp_path / "absent", vcgencmd="no-such-vcgencmd") is None
    assert doctor.supply(None)[0].ok


def test_a_sagging_supply_is_a_device_problem_for_the_oled() -> None:
    from companion.cli.service_state import supply_event

    event = supply_event(doctor.UNDER_VOLTAGE_SINCE_BOOT)
    assert event is not None and event.device == "power supply" and not event.ok
    assert supply_event(0) is None and supply_event(None) is None


def test_a_sagging_supply_reaches_the_table_and_the_log_once(caplog: pytest.LogCaptureFixture) -> None:
    from companion.cli.service_state import announce_supply
    from hw.supply import SupplyWatch

    class Devices:
        def __init__(self) -> None:
            self.emitted: list[object] = []

        def emit(self, event: object) -> None:
            self.emitted.append(event)

    devices = Devices()
    with caplog.at_level("WARNING"):
        event = announce_supply(devices, SupplyWatch(devices.emit, lambda: doctor.UNDER_VOLTAGE_NOW | doctor.UNDER_VOLTAGE_SINCE_BOOT))
    assert devices.emitted == [event]
    assert [r.getMessage() for r in caplog.records] == [f"at start: {event.message}"]
    assert announce_supply(devices, SupplyWatch(devices.emit, lambda: 0)) is None and len(devices.emitted) == 1


def test_a_stale_status_file_is_no_running_service(tmp_path: Path) -> None:
    path = tmp_path / "status.json"
    path.write_text(json.dumps({"pid": 2 ** 22 + 12345, "devices": {}}))
    found = doctor.service(path, systemctl="no-such-systemctl")
    assert not found.running
