"""A correction is told. An edit or removal of an earlier action adds one story line naming
what changed, from the public views before and after it (never a secret), in English and French; the
phones whose figures changed show it once; the tablet's history is grouped by rounds.

Each test failed on the version where an edit left no line in the story and no word on the phones.
"""

from __future__ import annotations

from pathlib import Path

from companion.table import amend, story
from companion.table.authorship import tablet
from tests.table.corrections.test_amend_undo_back import played


def _bob_educates_once(session) -> int:
    target = next(e for e in session.history() if e.action == {"type": "education", "player": "Bob", "steps": 2})
    session.edit(target.seq, {"type": "education", "player": "Bob", "steps": 1}, source=tablet())
    return target.seq


def test_an_edit_adds_a_story_line_naming_what_changed_in_both_languages(db_path: Path) -> None:
    session = played(db_path, "auction_full_game", 12)
    _bob_educates_once(session)
    newest = story.recent(session, "en")[0]
    assert newest["source"] == "correction"
    assert newest["text"] == ("Correction: “Bob advances 2 education steps” became “Bob advances 1 education step”. "
                              "On the table: bank £800 → £600. Bob's figures: education 2 → 1, money £700 → £900.")
    fr = story.recent(session, "fr")[0]["text"]
    assert fr.startswith("Correction : « ") and "Chiffres de Bob : éducation 2 → 1" in fr
    assert story.corrections(session)[0]["players"] == ["Bob"]
    rounds = story.by_round(session, "en")
    assert rounds[0]["lines"][0]["correction"] and rounds[0]["lines"][0]["from"] == "at the table"


def test_a_removal_is_told_and_the_next_line_follows_it(db_path: Path) -> None:
    session = played(db_path, "auction_full_game", 30)
    exhibition = next(e for e in session.history() if e.action.get("type") == "exhibition")
    session.edit(exhibition.seq, None, source=tablet())
    line = story.recent(session)[0]["text"]
    assert line.startswith("Correction: “Bob exhibits sea lion and iguana (bonus tile 2)” removed from the history.")
    assert "Bob's figures: animals (iguana 0 → 1, sea lion 0 → 1), points 6 → 0." in line
    session.act(session.rules.candidates(session.state)[0])
    assert story.recent(session)[0]["source"] != "correction" and story.recent(session)[1]["source"] == "correction"


def test_the_history_to_edit_is_grouped_by_rounds(db_path: Path) -> None:
    session = played(db_path, "auction_full_game", 30)
    rows = amend.history(session)
    assert {r["round"] for r in rows} == {1, 2} and rows[0]["heading"] == "Round 1" and rows[-1]["heading"] == "Round 2"
