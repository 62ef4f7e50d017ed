"""Each error root's one answer in the CLI and the terminal table (``companion play``): a refusal, the card
or a game's rows failing, a device down, each in one sentence with exit status 2 and no traceback; the
terminal table says the card's sentence and plays on (the tree itself: ``tests/house/test_error_roots.py``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import companion.cli.session  # noqa: F401 - registers « show » before a test replaces it
from companion.cli import main as cli_main
from companion.cli import terminal
from companion.table.journal import Journal
from companion.table.rows import NOT_RECORDED
from companion.table.session import Session
from hw import oled_device
from tests.support.cli import run

POCKET = "pocket-galapagos"


def _game(db: Path) -> str:
    out = run("--db", str(db), "new", POCKET, "--players", "Ann")
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_the_cli_says_a_game_it_cannot_replay_in_one_sentence(db_path: Path) -> None:
    gid = _game(db_path)
    with Journal(db_path) as journal, journal.transaction() as db:  # a line from another version of the rules
        journal.append(db, gid, {"type": "end_turn", "from_a_newer_version": 1}, "old")
    out = run("--db", str(db_path), "show", gid)
    assert out.returncode == 2 and "Traceback" not in out.stderr and "internal error" not in out.stderr
    assert f"Game {gid} cannot be replayed at journal entry 1" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_the_cli_says_a_damaged_game_in_one_sentence(db_path: Path) -> None:
    gid = _game(db_path)
    with sqlite3.connect(db_path) as db:  # a flipped bit in its players
        db.execute("UPDATE games SET players = ? WHERE id = ?", ('{"Ann"]', gid))
    out = run("--db", str(db_path), "act", gid, '{"type": "end_turn"}')
    assert out.returncode == 2 and "is damaged in the journal" in out.stderr and "Traceback" not in out.stderr


def test_the_cli_says_a_device_down_in_its_sentence(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def down(_args: object) -> int:
        raise oled_device.DisplayError("No display answers at 0x3c on /dev/i2c-1: check its wiring.")

    monkeypatch.setitem(cli_main._COMMANDS, "show", down)
    out = run("--db", str(db_path), "show", "x")
    assert out.returncode == 2
    assert out.stderr == "companion: No display answers at 0x3c on /dev/i2c-1: check its wiring.\n"


# -- the terminal table: a refusal is « Refused: … », a full card its sentence, and play goes on ---------------

def test_the_terminal_table_tells_a_full_card_from_a_refused_move_and_plays_on(db_path: Path) -> None:
    journal = Journal(db_path)
    session = Session.new(journal, POCKET, ["Ann"])
    # (what is typed, whether the card refuses writes then)
    typed = iter([('{"type": "teleport"}', False), ("end_turn", True), ("end_turn", False), ("quit", False)])
    said: list[str] = []

    def read(prompt: str) -> str:
        line, journal.readonly = next(typed)
        return line

    assert terminal.play(journal, session.id, read=read, out=said.append) == 0
    refused = [s for s in said if s.startswith("Refused:")]
    assert len(refused) == 1 and "teleport" in refused[0]
    assert said.count(NOT_RECORDED) == 1  # the card's sentence, not a refusal
    assert Session.open(Journal(db_path), session.id).version == 1  # the second end_turn was recorded
