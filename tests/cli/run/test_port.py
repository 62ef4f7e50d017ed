"""``make run PORT=N`` / ``companion run --sim --port N``."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.cli.run.test_signals import ROOT, start
from tests.web.runner import free_port


def test_run_listens_on_the_port_asked_for(tmp_path: Path) -> None:
    port = free_port()
    proc, base, _token = start(tmp_path / "j.db", "--port", str(port))
    try:
        assert base.endswith(f":{port}")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/join", timeout=10) as r:
            assert r.status == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)


def test_make_run_passes_port_to_companion_run() -> None:
    """The Makefile's ``run`` target: PORT set → ``--port $(PORT)``, unset → the config's port."""
    with_port = subprocess.run(["make", "-n", "run", "PORT=8091", f"STAMP={os.devnull}"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout
    assert re.search(r"companion run --sim --port 8091\b", with_port), with_port
    without = subprocess.run(["make", "-n", "run", f"STAMP={os.devnull}"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    assert "companion run --sim" in without and "--port" not in without


def test_a_busy_port_is_one_sentence_naming_both_ways_and_not_a_crash(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        env = dict(os.environ)
        env.pop("COMPANION_CONFIG", None)
        done = subprocess.run([sys.executable, "-m", "companion", "run", "--sim", "--port", str(port), "--db",
                               str(tmp_path / "j.db")], capture_output=True, text=True, timeout=60, env=env, cwd=ROOT)
    err = done.stderr.strip()
    assert done.returncode == 75, (done.returncode, err)  # EX_TEMPFAIL: systemd tries again; not 2 (a bad config)
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert f"Port {port}" in err and "--port" in err and "PORT=" in err, err
