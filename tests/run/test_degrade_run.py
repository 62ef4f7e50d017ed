"""``companion run`` with a display that is not there starts the table and says so (issue 22, point 3)."""

from __future__ import annotations

import json
import signal
import urllib.request
from pathlib import Path


def test_run_without_its_display_serves_the_dashboard_and_names_the_device_and_fix(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[gpio]\nfactory = "mock"\n[display]\ntype = "ssd1306"\ni2c_port = 9\n', encoding="utf-8")
    proc, base, token = _start_real(tmp_path / "j.db", config)
    try:
        req = urllib.request.Request(base + "/api/games", data=json.dumps(
            {"game": "galapagos-auction", "players": ["Ann", "Bob", "Cid"], "options": {}}).encode(), method="POST",
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        gid = json.loads(urllib.request.urlopen(req, timeout=10).read())["id"]
        page = urllib.request.urlopen(urllib.request.Request(base + f"/g/{gid}/table", headers={"Authorization": f"Bearer {token}"}), timeout=10).read()
        assert "/dev/i2c-9 does not exist: enable I2C" in page.decode(), "the page does not say which device"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
    assert proc.returncode == 0


def _start_real(db: Path, config: Path):  # type: ignore[no-untyped-def]
    """``companion run`` (not --sim) with ``config``."""
    import os
    import re
    import subprocess
    import sys
    import time

    from test_signals import ROOT

    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--config", str(config), "--host", "127.0.0.1",
                             "--port", "0", "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=env, cwd=ROOT)
    assert proc.stdout is not None
    lines = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"(http://[\d.]+:(\d+))/\?token=([0-9a-f]+)", line)
        if m:
            return proc, m.group(1), m.group(3)
    proc.kill()
    raise AssertionError("companion run did not start:\n" + "".join(lines))
