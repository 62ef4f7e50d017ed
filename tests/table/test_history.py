"""A player's history across games: counts after a dozen recorded games, with shared wins,
a tie broken by the rules, an abandoned game and a deleted one; filters by game and period; head-to-head."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.table import history
from companion.table.journal import Journal
from companion.table.library import Library
from tests.table.history_games import EXPECTED, record


@pytest.fixture(scope="module")
def recorded_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The dozen games recorded once for the module (a journal's worth of play costs seconds)."""
    db = tmp_path_factory.mktemp("history") / "j.db"
    record(db)
    return db


@pytest.fixture(autouse=True)
def _journal(recorded_journal: Path, tmp_path: Path) -> None:
    """Each test reads its own copy of that journal."""
    shutil.copyfile(recorded_journal, tmp_path / "j.db")


def _figures(tmp_path, **filters):
    db = tmp_path / "j.db"
    if not db.exists():
        record(db)
    journal = Journal(db)
    try:
        return history.figures(Library(journal), **filters)
    finally:
        journal.close()


def test_counts_after_a_dozen_games(tmp_path) -> None:
    figures = _figures(tmp_path)
    by = {p["name"]: p for p in figures["players"]}
    for name, want in EXPECTED.items():
        assert {k: by[name][k] for k in want} == want, name
    assert len(figures["games"]) == 12  # the deleted game is gone; the abandoned one is listed
    assert [g["state"] for g in figures["games"]].count("abandoned") == 1
    assert by["Eli"]["won"] == 1 and by["Eli"]["shared"] == 1
    # a tie the rules break is a win for the one they name: Ann and Cid scored 33 and 19 like the winner
    assert by["Cid"]["per_game"]["galapagos-auction"]["won"] == 1
    assert by["Ann"]["per_game"]["galapagos-auction"] == {**by["Ann"]["per_game"]["galapagos-auction"],
                                                          "played": 2, "won": 0, "best": 33}
    # the deleted pocket win counts nowhere: one pocket win left out of two
    assert by["Ann"]["per_game"]["pocket-galapagos"]["played"] == 2
    assert by["Ann"]["per_game"]["pocket-galapagos"]["won"] == 1
    assert by["Ann"]["per_game"]["pocket-galapagos"]["best"] == 10


def test_head_to_head(tmp_path) -> None:
    by = {p["name"]: p for p in _figures(tmp_path)["players"]}
    ann_bob = by["Ann"]["head_to_head"]["Bob"]
    bob_ann = by["Bob"]["head_to_head"]["Ann"]
    assert ann_bob["together"] == 7 == bob_ann["together"]
    assert (ann_bob["ahead"], ann_bob["behind"]) == (bob_ann["behind"], bob_ann["ahead"])
    # by hand: auction (Bob won) behind, tie-on-money (Ann 13 < Bob 19) behind, dice tie even, the variant
    # ahead, dice full behind, the 3p raft (Ann left, Bob died) ahead, the 4p raft (both left) even
    assert ann_bob == {"together": 7, "ahead": 2, "behind": 3, "even": 2}


def test_filters(tmp_path) -> None:
    dice = _figures(tmp_path, game="galapagos-dice")
    by = {p["name"]: p for p in dice["players"]}
    assert by["Ann"]["played"] == 3 and by["Ann"]["won"] == 2 and by["Ann"]["abandoned"] == 1
    assert "Eve" not in by
    # the period counts from the journal's clock: the last day holds only the last few games
    last = _figures(tmp_path, period="week", now=1_790_000_000.0 + 13 * 3600 + 2000)
    assert len(last["games"]) == 12
    none = _figures(tmp_path, period="week", now=1_790_000_000.0 + 30 * 86400)
    assert none["games"] == [] and none["players"] == []


def test_timeline_and_csv_rows(tmp_path) -> None:
    figures = _figures(tmp_path)
    tl = figures["timeline"]
    assert len(tl["x"]) == 11  # the finished games, oldest first
    assert tl["scores"]["Eve"] == [None, None, None, 55] + [None] * 7
    rows = history.rows(figures)
    ann = next(r for r in rows if r["player"] == "Ann" and r["game"] == "*" and not r["opponent"])
    assert (ann["played"], ann["won"], ann["abandoned"]) == (9, 5, 1)
    assert any(r["player"] == "Ann" and r["opponent"] == "Bob" and r["behind"] == 3 for r in rows)
