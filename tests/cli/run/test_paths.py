"""A relative ``--db`` stays where it was typed, though importing lgpio changes directory.

lgpio ``chdir``s to ``$LG_WD`` when it is imported (tmpfs under the unit): the tag registry,
opened after the pin factory loads, used to land there. The stand-in ``lgpio`` on the path
does what the real one does at import, then lacks the rest, so the lgpio pin factory cannot
start and the table starts on simulated pins (saying so) — as on a machine without GPIO.
"""

from __future__ import annotations

import json
import os
import signal
import urllib.request
from pathlib import Path

from tests.cli.run.test_signals import start


def test_a_relative_db_is_made_absolute_before_lgpio_loads(tmp_path: Path, monkeypatch) -> None:
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "lgpio.py").write_text("import os\nos.chdir(os.environ['FAKE_LG_WD'])\n", encoding="utf-8")
    lg_wd, here = tmp_path / "lgwd", tmp_path / "here"
    lg_wd.mkdir()
    here.mkdir()
    config = here / "table.toml"
    config.write_text('[gpio]\nfactory = "lgpio"\n', encoding="utf-8")
    monkeypatch.setenv("FAKE_LG_WD", str(lg_wd))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(fake), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.chdir(here)
    proc, base, token = start(Path("journal.db"), "--config", str(config), "--host", "127.0.0.1", "--port", "0",
                              sim=False, cwd=here)
    try:
        req = urllib.request.Request(base + "/api/games", data=json.dumps(
            {"game": "galapagos-auction", "players": ["Ann", "Bob", "Cid"], "options": {}}).encode(), method="POST",
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        urllib.request.urlopen(req, timeout=10).read()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
    assert (here / "journal.db").exists()
    assert not list(lg_wd.iterdir()), f"files landed in LG_WD: {list(lg_wd.iterdir())}"
