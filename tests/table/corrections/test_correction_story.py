"""A correction told as a story: one sentence per seat it touched, in each reader's language.

A change list (« Ann : plus peut voter; … et 8 autres changements ») made the table read a diff in
broken French. Each seat now gets one sentence: its moves that no longer count, its figures, and
whether it acts again now; its own phone reads it as « you »; a hidden vote is never told.
"""

from __future__ import annotations

from pathlib import Path

from companion.table import amend, story
from companion.table.authorship import tablet
from companion.table.journal import Journal
from companion.table.session import Session
from tests.support.galerapagos import FIVE, FOUR, search, searches, survival, vote, weather, wood


def _round_two(db_path: Path) -> Session:
    """Four castaways: round 1 (Bob collects wood), round 2 all search; then Bob's wood is removed."""
    session = Session.new(Journal(db_path), "galerapagos", FOUR, {})
    for action in (weather(0), search("Ann"), wood("Bob"), search("Cid"), search("Dan")):
        session.act(action)
    session.act(survival(session.state))
    session.act(weather(3))
    while session.rules.view(session.state)["phase"] == "actions":
        session.act(search(session.rules.view(session.state)["turn"]))
    session.act(survival(session.state))
    bob = next(e for e in session.history() if e.action == wood("Bob"))
    session.edit(bob.seq, None, source=tablet())
    return session


def test_each_seat_touched_gets_one_sentence_in_correct_french(db_path: Path) -> None:
    session = _round_two(db_path)
    told = story.corrections(session, "fr")[-1]
    assert told["text"].startswith("Correction : « Bob collecte du bois » est retiré de l'historique.")
    seats = dict(told["seats"])
    assert set(seats) == {"Ann", "Cid", "Dan"}  # Bob's own search was played again: nothing of his moved
    assert seats["Cid"] == ("Le coup de Cid « Cid fouille l'épave » ne compte plus : la correction le précède ; "
                            "chiffres de Cid : cartes 6 → 5.")
    assert seats["Dan"].endswith("; Dan peut agir de nouveau maintenant.")  # it is Dan's turn again
    assert "« Dan fouille l'épave » ×2" in seats["Dan"]
    for broken in ("plus peut voter", "autres changements", "; cartes", "retiré de l'historique. action"):
        assert broken not in told["text"]
    english = dict(story.corrections(session, "en")[-1]["seats"])
    assert english["Cid"] == ("Cid's move “Cid searches the wreck” no longer counts: the correction came before it; "
                              "Cid's figures: cards 6 → 5.")


def test_the_seat_reading_it_is_told_in_the_second_person(db_path: Path) -> None:
    session = _round_two(db_path)
    mine = dict(story.corrections(session, "en", "Dan")[-1]["seats"])["Dan"]
    assert mine.startswith("Your moves “Dan searches the wreck” ×2") and mine.endswith("; you may act again now.")
    assert dict(story.corrections(session, "fr", "Dan")[-1]["seats"])["Dan"].startswith("Vos coups « Dan fouille")
    assert "Dan's" not in mine


def _votes_then_removal(db_path: Path, target: str) -> Session:
    session = Session.new(Journal(db_path), "galerapagos", FIVE, {})
    for action in (weather(0), *searches(*FIVE), weather(1), *searches("Eve", "Ann", "Bob", "Cid", "Dan")):
        session.act(action)
    session.act(survival(session.state))
    for action in ({"type": "debate", "player": "Eve"}, vote("Ann", target), vote("Bob", target)):
        session.act(action)
    cid = [e for e in session.history() if e.action == search("Cid")][-1]
    session.edit(cid.seq, None, source=tablet())
    return session


def test_a_hidden_vote_set_aside_is_told_without_its_value_whoever_reads(tmp_path: Path) -> None:
    against_eve = _votes_then_removal(tmp_path / "a.db", "Eve")
    against_dan = _votes_then_removal(tmp_path / "b.db", "Dan")
    for lang in ("en", "fr"):
        for viewer in (None, "Ann", "Cid"):
            said = story.corrections(against_eve, lang, viewer)[-1]["text"]
            assert said == story.corrections(against_dan, lang, viewer)[-1]["text"]  # the target changes nothing
    assert "Ann's move “Ann votes” no longer counts" in story.corrections(against_eve, "en")[-1]["text"]


def test_a_set_aside_action_s_reason_is_asked_again_after_later_moves(db_path: Path) -> None:
    session = _round_two(db_path)
    stored = {e.seq: note["message"] for e, note in session.set_aside()}
    dan = next(a for a in amend.set_aside(session) if a["text"] == "Dan searches the wreck")
    assert stored[dan["seq"]] == "It is Bob's turn to act, not Dan's."  # when the edit set it aside ...
    assert dan["why"] == "It can be entered now."  # ... but Bob's search was played again: Dan's turn now
    session.act(search("Dan"))  # Dan acts again: the round's actions are over
    dan = next(a for a in amend.set_aside(session) if a["seq"] == dan["seq"])
    assert dan["why"].startswith("Dan cannot search the wreck now: everyone has acted")
    french = next(a for a in amend.set_aside(session, "fr") if a["text"] == "Dan fouille l'épave")
    assert "everyone" not in french["why"] and "tout le monde" in french["why"]  # the phrase inside it is French too


def test_the_undo_preview_says_a_yes_no_figure_in_correct_words() -> None:
    now = {"players": [{"name": "Ann", "can_vote": True, "alive": False}]}
    then = {"players": [{"name": "Ann", "can_vote": False, "alive": True}]}
    assert amend.changes("galerapagos", now, then, "en") == ["Ann: no longer allowed to vote", "Ann: alive again"]
    assert amend.changes("galerapagos", now, then, "fr") == ["Ann : peut voter — plus maintenant",
                                                             "Ann : en vie de nouveau"]
