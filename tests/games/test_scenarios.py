"""Whole-game scenarios: every ``tests/scenarios/NAME.jsonl`` is replayed with the script runner.

Beside each script, ``NAME.expect.json`` holds what must be true afterwards:
``{"exit": 0 or 2, "output": {...}}`` where ``output`` is matched as a deep
subset of the printed object (lists compared whole). The expectations are
worked out by hand from the rulebook, not copied from the program's output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.engine.script import run_file

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").glob("*.jsonl"))


def assert_subset(expected: Any, actual: Any, path: str = "$") -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key} is missing"
            assert_subset(value, actual[key], f"{path}.{key}")
    else:
        assert actual == expected, f"{path}: expected {expected!r}, got {actual!r}"


@pytest.mark.parametrize("script", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(script: Path) -> None:
    expect = json.loads(script.with_suffix(".expect.json").read_text())
    result = run_file(str(script))
    assert result.exit_code == expect.get("exit", 0), result.output
    assert_subset(expect.get("output", {}), result.output)
