"""The contract every interface relies on, checked over every scenario of every game.

- ``companion script --audit``: every line was offered before it was applied, every
  move offered is accepted, a refused line was never offered (Galèrapagos' scenarios are audited by
  tests/games/test_galerapagos_moves.py, with every value of every form rather than twelve);
- ``companion replay --via table``: every scenario can be played through the simulated
  table alone (buttons, encoder, tags) and ends in the state ``companion script`` prints
  (the one place each scenario is replayed through the table; the games' own table tests
  add what is theirs, such as the dice laid in the lanes);
- no file outside the game packages (and tests, benchmarks, docs) names a game;
- the committed gettext catalogs are the compiled form of their ``.po`` files.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from companion import games
from companion.board.replay import replay_via_table
from companion.engine import audit, catalogs

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "tests" / "scenarios").glob("*.jsonl"))


def _readable(path: Path) -> bool:
    try:
        audit.replay(path.read_text(encoding="utf-8").splitlines())
        return True
    except audit.ScriptError:
        return False


PLAYABLE = [p for p in SCENARIOS if _readable(p)]
#: games whose own moves test audits each of their scenarios with every value of every form (tests/games/
#: test_galerapagos_moves.py, ``per_form=400``, the same three checks as ``report["ok"]``): audited there once
AUDITED_BY_THE_GAME = ("galerapagos_",)
AUDITED_HERE = [p for p in PLAYABLE if not p.stem.startswith(AUDITED_BY_THE_GAME)]


def test_the_scenarios_audited_by_their_game_are_every_one_of_that_game() -> None:
    from tests.games.test_galerapagos_moves import SCENARIOS as GALERAPAGOS

    assert {p.name for p in PLAYABLE if p.stem.startswith(AUDITED_BY_THE_GAME)} <= {p.name for p in GALERAPAGOS}
    assert len(AUDITED_HERE) < len(PLAYABLE)


@pytest.mark.parametrize("path", AUDITED_HERE, ids=lambda p: p.stem)
def test_every_line_of_every_scenario_was_offered_and_every_move_offered_is_legal(path: Path) -> None:
    report = audit.audit(path.read_text(encoding="utf-8").splitlines(), per_form=12)
    assert report["offered"] == report["actions"], report["gaps"][:3]
    assert report["offered_refused"] == 0, report["gaps"][:3]
    assert not report["refused_line_offered"], report["gaps"][:3]


@pytest.mark.parametrize("path", PLAYABLE, ids=lambda p: p.stem)
def test_every_scenario_plays_through_the_simulated_table_alone(path: Path) -> None:
    report = replay_via_table(path.read_text(encoding="utf-8").splitlines())
    assert report["ok"], report


def test_a_line_that_was_not_offered_is_a_gap_and_the_audit_fails(tmp_path: Path) -> None:
    header = {"game": games.ids()[0], "players": ["Ann", "Bob", "Cleo"], "options": {}}
    lines = [json.dumps(header),
             '{"type": "no_such_move"}']
    report = audit.audit(lines)
    assert report["refused_line_offered"] is False and report["actions"] == 0
    assert not audit.audit(lines[:1])["gaps"]


def test_no_file_outside_the_game_packages_names_a_game() -> None:
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    allowed = ("companion/games/", "tests/", "bench/", "docs/", "seeds/")
    pattern = re.compile("|".join(re.escape(gid) for gid in games.ids()))
    named = []
    for name in files:
        if name.startswith(allowed) or not (ROOT / name).is_file():
            continue
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        named += [f"{name}: {m.group(0)}" for m in pattern.finditer(text)]
    assert named == []


def test_the_compiled_catalogs_are_current() -> None:
    pos = catalogs.po_files()
    assert pos, "no catalog found"
    for _domain, po in pos:
        mo = Path(po[:-3] + ".mo")
        assert mo.exists() and mo.read_bytes() == catalogs.compiled(po), f"run make catalogs: {mo} is stale"
