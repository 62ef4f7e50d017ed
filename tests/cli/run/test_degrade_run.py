"""``companion run`` with a display that is not there starts the table and says so."""

from __future__ import annotations

import json
import signal
import urllib.request
from pathlib import Path

from tests.cli.run.test_signals import start


def test_run_without_its_display_serves_the_dashboard_and_names_the_device_and_fix(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[gpio]\nfactory = "mock"\n[display]\ntype = "ssd1306"\ni2c_port = 9\n', encoding="utf-8")
    proc, base, token = start(tmp_path / "j.db", "--config", str(config), "--host", "127.0.0.1", "--port", "0",
                              sim=False)
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
