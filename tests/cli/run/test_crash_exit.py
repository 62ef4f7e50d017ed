"""A crash of ``companion run`` exits with a status systemd restarts, never 2."""

from __future__ import annotations

import signal
from pathlib import Path

from companion.cli.app import Companion
from companion.cli.main import main


def test_a_crash_while_serving_exits_70_with_one_sentence_and_the_details_beside_the_journal(
        tmp_path: Path, monkeypatch, capsys) -> None:
    def broken(self: Companion) -> None:
        raise RuntimeError("the server loop broke")

    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setattr(Companion, "serve", broken)
    before = signal.getsignal(signal.SIGINT)
    assert main(["run", "--sim", "--port", "0", "--db", str(tmp_path / "j.db")]) == 70
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "RuntimeError: the server loop broke" in err and "starts again" in err
    report = tmp_path / "j.db.crash.txt"
    assert "Traceback" in report.read_text() and "the server loop broke" in report.read_text()
    assert signal.getsignal(signal.SIGINT) is before  # the handlers are given back
