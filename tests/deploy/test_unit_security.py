"""The systemd unit: device nodes closed but the table's own, a watchdog, rate-limited logs, and a
security score <= 2.0.

Scored by the real ``systemd-analyze security --offline=true`` on the unit as install.sh
fills it in; where systemd-analyze is not installed (``apt-get install systemd``) the
score test is skipped (and reported so), the unit's own lines are checked everywhere.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[2] / "deploy" / "galapagos-companion.service"


def filled(tmp_path: Path) -> Path:
    text = UNIT.read_text(encoding="utf-8")
    for key, value in {"@APP_DIR@": "/opt/galapagos", "@USER@": "galapagos",
                       "@DB@": "/var/lib/galapagos-companion/journal.db"}.items():
        text = text.replace(key, value)
    out = tmp_path / "galapagos-companion.service"
    out.write_text(text, encoding="utf-8")
    return out


def settings() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.lstrip().startswith(("#", "[")):
            key, _, value = line.partition("=")
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def test_the_unit_closes_every_device_but_the_tables() -> None:
    s = settings()
    assert s["DevicePolicy"] == ["closed"]
    allowed = " ".join(s["DeviceAllow"])
    for node in ("char-gpiochip", "char-i2c", "char-spi", "char-ttyACM", "/dev/galapagos-bridge"):
        assert node in allowed, node
    assert s["RestartPreventExitStatus"] == ["2"]  # only a bad config is not retried
    assert s["Restart"] == ["on-failure"]


def test_the_unit_waits_for_ready_and_restarts_a_hung_table() -> None:
    s = settings()
    assert s["Type"] == ["notify"] and s["NotifyAccess"] == ["main"]  # READY=1 and pings from the main process
    watchdog = s["WatchdogSec"][0]
    assert watchdog.isdigit() and 10 <= int(watchdog) <= 120  # long enough for a Pi Zero's slowest pass
    assert s["Restart"] == ["on-failure"]  # a watchdog kill (SIGABRT) is a failure: restarted


def test_the_unit_rate_limits_what_it_logs() -> None:
    s = settings()
    assert s["LogRateLimitIntervalSec"] == ["30s"] and int(s["LogRateLimitBurst"][0]) <= 500


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed (apt-get install systemd)")
def test_systemd_analyze_scores_the_unit_at_most_2_0(tmp_path: Path) -> None:
    unit = filled(tmp_path)
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", str(unit)], capture_output=True,
                          text=True, timeout=60)
    text = done.stdout + done.stderr
    match = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", text)
    assert match, text
    assert float(match.group(1)) <= 2.0, text
