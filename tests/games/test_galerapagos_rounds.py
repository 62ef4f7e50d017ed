"""The review games played round by round through the script runner, as a table would check them.

Each ``tests/scenarios/galerapagos_review_*.jsonl`` (3, 5, 8 and 12 castaways) has a
``.checkpoints.json`` worked out by hand (the working is in the ``.md`` beside it): after line N,
these public fields hold. ``alive``, ``sick`` and ``cards`` name players; anything else is a
top-level field of the printed state. The final state is checked by ``tests/games/test_scenarios.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.engine.script import run_lines

SCENARIOS = Path(__file__).parent.parent / "scenarios"
GAMES = sorted(SCENARIOS.glob("galerapagos_review_*.checkpoints.json"))
PER_PLAYER = ("alive", "sick", "cards")


def checkpoints() -> list[tuple[str, list[str], dict[str, Any]]]:
    out = []
    for path in GAMES:
        name = path.name.removesuffix(".checkpoints.json")
        lines = (SCENARIOS / f"{name}.jsonl").read_text().splitlines()
        for point in json.loads(path.read_text()):
            out.append((f"{name}@{point['after_line']}", lines[: point["after_line"]], point))
    return out


CHECKPOINTS = checkpoints()


def test_every_review_game_has_checkpoints() -> None:
    assert {p.name.split(".")[0] for p in GAMES} == {
        f"galerapagos_review_{n}p" for n in (3, 5, 8, 12)}
    assert len(CHECKPOINTS) >= 40


@pytest.mark.parametrize(("label", "lines", "point"), CHECKPOINTS, ids=[c[0] for c in CHECKPOINTS])
def test_the_state_after_each_checkpoint(label: str, lines: list[str], point: dict[str, Any]) -> None:
    result = run_lines(lines)
    assert result.exit_code == 0, result.output
    out = result.output
    players = {p["name"]: p for p in out["players"]}
    for key, want in point["expect"].items():
        got = {n: players[n][key] for n in want} if key in PER_PLAYER else out.get(key)
        assert got == want, f"{label} ({point['why']}): {key}"
