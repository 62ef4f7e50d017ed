"""The engine and the table are type-checked: ``make test`` fails when mypy does (pyproject's [tool.mypy])."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.support.syntax import parse

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_finds_no_error_in_the_engine_and_the_table(tmp_path: Path) -> None:
    # its cache in the test's temporary folder: a test run writes nothing into the checkout
    proc = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "Success: no issues found" in proc.stdout


def test_the_shapes_every_interface_reads_hold_no_any() -> None:
    """docs/design.md's forms, fields, choices, previews and actions are typed JSON, not ``Any``."""
    import ast

    source = (ROOT / "companion" / "engine" / "shapes.py").read_text(encoding="utf-8")
    names = {n.id for n in ast.walk(parse(source)) if isinstance(n, ast.Name)}
    assert "Any" not in names
    moves = (ROOT / "companion" / "engine" / "moves.py").read_text(encoding="utf-8")
    assert "dict[str, Any]" not in moves.split("# -- building forms")[0]
