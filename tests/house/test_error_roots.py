"""One error tree per trade: a refusal of the rules, a storage failure and a device down are three roots.

A full card is not a refused move: ``StorageError`` (the card, the journal's rows) and ``DeviceError`` (the
parts of the table) are no ``RuleError``, and no handler has to let a storage error through before it
catches refusals. Each interface answers each root with its one sentence: the CLI and the terminal table
in ``tests/cli/test_error_answers.py``, the dashboard in ``tests/web/test_hardening.py``, the board's OLED
in ``tests/board/test_controller.py``.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from companion.engine.rules import RuleError
from companion.table import played, rows
from companion.table.rows import NOT_RECORDED, JournalUnavailable, StorageError, UnknownGame
from hw import network, oled_device, pins
from hw.errors import DeviceError
from hw.rfid import base as rfid_base
from tests.support.syntax import parse

ROOT = Path(__file__).resolve().parents[2]

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
    for node in ast.walk(parse(source)):
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
