"""One error tree per trade: a refusal of the rules, a storage failure and a device down are three roots.

A full card is not a refused move: ``StorageError`` (the card, the journal's rows) and ``DeviceError`` (the
parts of the table) are no ``RuleError``, and no handler has to let a storage error through before it
catches refusals. Each interface answers each root with its one sentence: the CLI here and the terminal
table (``companion play``); the dashboard in ``tests/web/test_hardening.py``; the board's OLED in
``tests/test_controller.py``.
"""

from __future__ import annotations

import ast
import inspect
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main as cli_main
from companion.cli import terminal
from companion.engine.rules import RuleError
from companion.table import played, rows
from companion.table.journal import Journal
from companion.table.rows import NOT_RECORDED, JournalUnavailable, StorageError, UnknownGame
from companion.table.session import Session
from hw import network, oled_device, pins
from hw.errors import DeviceError
from hw.rfid import base as rfid_base
from tests.support.cli import run

ROOT = Path(__file__).resolve().parents[1]
POCKET = "pocket-galapagos"

STORAGE = [c for m in (rows, played) for _, c in inspect.getmembers(m, inspect.isclass)
           if issubclass(c, Exception) and c.__module__ == m.__name__ and c is not UnknownGame]
DEVICES = [rfid_base.ReaderError, oled_device.DisplayError, pins.PinFactoryError, network.NetworkError]


def test_the_three_roots_are_disjoint() -> None:
    """No storage failure or device down is a refusal, and none of them is another root's."""
    assert {c.__name__ for c in STORAGE} >= {"StorageError", "JournalUnavailable", "JournalDamaged", "GameDamaged",
                                             "ReplayError"}
    for cls in STORAGE:
        assert issubclass(cls, StorageError) and not issubclass(cls, (RuleError, DeviceError)), cls
    for cls in DEVICES:
        assert issubclass(cls, DeviceError) and not issubclass(cls, (RuleError, StorageError)), cls
    assert not issubclass(RuleError, (StorageError, DeviceError))
    assert not issubclass(UnknownGame, (RuleError, StorageError, DeviceError)) and issubclass(UnknownGame, LookupError)
    err = JournalUnavailable("disk is full")
    with pytest.raises(StorageError):  # what used to be caught as a refused move is not any more
        try:
            raise err
        except RuleError:
            pytest.fail("a full card was taken for a refused move")
    assert err.message == NOT_RECORDED and err.retry_after == 30


def _storage_names() -> set[str]:
    return {c.__name__ for c in STORAGE}


def _reraised_before_refusals(source: str) -> list[int]:
    """Lines of ``except <storage error>: raise`` (a handler letting a storage error through so that the
    next clause, for refusals, does not swallow it): the order-dependent handlers the roots made useless."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Try):
            for handler in node.handlers:
                names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
                caught = {n.id if isinstance(n, ast.Name) else getattr(n, "attr", "") for n in names if n}
                bare = len(handler.body) == 1 and isinstance(handler.body[0], ast.Raise) and handler.body[0].exc is None
                if caught & _storage_names() and bare:
                    found.append(handler.lineno)
    return found


def test_no_handler_lets_a_storage_error_through_before_catching_refusals() -> None:
    offenders = [f"{path.relative_to(ROOT)}:{line}"
                 for folder in ("companion", "web", "hw", "firmware_bridge")
                 for path in sorted((ROOT / folder).rglob("*.py"))
                 for line in _reraised_before_refusals(path.read_text(encoding="utf-8"))]
    assert offenders == []
    # the check sees the pattern it forbids
    assert _reraised_before_refusals("try:\n    f()\nexcept JournalUnavailable:\n    raise\nexcept RuleError:\n    pass\n")


# -- the CLI: each root its one sentence, exit status 2, no traceback -----------------------------------------

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
