"""One replay: the session keeps what its replay computed, and the story, corrections and extras read it.

docs/design.md, « The journal », and docs/layout.md, « One replay »: a live session's story, its tablet history, the undo
preview and the score history never run the rules again; they read ``Session.steps()``. The club's
outbox, which runs inside the journal's transaction where no session is at hand, replays with the
same function and the same policy (:mod:`companion.table.played`), so it publishes the game the
session plays, or nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.club.outbox import Outbox, Reader
from companion.table import amend, extras, story
from companion.table.journal import Journal
from companion.table.played import ReplayError
from companion.table.session import Session


@pytest.fixture
def session(tmp_path: Path) -> Session:
    journal = Journal(tmp_path / "j.db")
    s = Session.new(journal, "pocket-galapagos", ["Ann"])
    for _ in range(3):
        s.act({"type": "end_turn"}, source="cli")
    return s


def test_the_steps_follow_the_actions_in_play_through_an_undo(session: Session) -> None:
    steps = session.steps()
    assert [s.entry.seq for s in steps] == [e.seq for e in session.history()] == [1, 2, 3]
    assert all(a.after is b.before for a, b in zip(steps, steps[1:], strict=False))  # one chain of states
    assert steps[-1].after is session.state
    session.undo()
    assert [s.entry.seq for s in session.steps()] == [1, 2]
    assert session.state_before(2) is session.state  # past the last action: the current state
    assert session.state_before(0) == session.rules.setup(session.players, session.options)


def test_a_reopened_session_replays_once_and_tells_the_same_story(session: Session) -> None:
    again = Session.open(session.journal, session.id)
    assert [s.entry.seq for s in again.steps()] == [1, 2, 3]
    assert [e["sentences"] for e in story.told(again)] == [e["sentences"] for e in story.told(session)]


def test_the_story_corrections_and_extras_never_run_the_rules_again(session: Session,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> object:
        raise AssertionError("replayed the game instead of reading the session's steps")

    monkeypatch.setattr(type(session.rules), "apply", refuse)
    monkeypatch.setattr(type(session.rules), "setup", refuse)
    told = story.told(session, "fr")  # a language not cached yet
    assert [e["seq"] for e in told] == [1, 2, 3] and all(e["sentences"] for e in told)
    assert [r["seq"] for r in amend.history(session)] == [1, 2, 3]
    assert amend.undo_preview(session, None)["what"]
    assert amend.edit_forms(session, 2)["text"]
    assert [r["round"] for r in extras.score_history(session)][0] == 0
    assert extras.undo_refusal(session, by_table=True) is None


TILES = {"N": ["crab", "iguana"], "E": ["sea_lion", "booby"], "S": ["tortoise", "penguin"], "W": ["crab", "booby"]}


def _club(path: Path, game_id: str) -> list[dict[str, object]]:
    """What the club's outbox wrote for ``game_id``, oldest first (each payload with its kind)."""
    reader = Reader(str(path))
    try:
        return [{"kind": r.kind, **json.loads(r.payload)} for r in reader.pending(limit=10_000)
                if json.loads(r.payload).get("game_id", json.loads(r.payload).get("id")) == game_id]
    finally:
        reader.close()


def test_the_club_and_the_session_tell_the_same_game_after_a_line_was_set_aside(tmp_path: Path) -> None:
    """The fourth tile removed: no bid may come before the four tiles, so Ann's bid is set aside. The
    session and the club's messages both count the three tiles, and the club's status is the session's."""
    path = tmp_path / "j.db"
    journal = Journal(path)
    Outbox(journal, "t1").install()
    session = Session.new(journal, "galapagos-auction", ["Ann", "Bob", "Cy"])
    for direction, animals in TILES.items():
        session.act({"type": "tile", "direction": direction, "animals": animals}, source="cli")
    session.act({"type": "bid", "player": "Ann", "direction": "N", "amount": 200}, source="cli")
    done = session.edit(4, None, source="cli")
    assert [e.action["type"] for e in done.aside] == ["bid"]
    status = [m for m in _club(path, session.id) if m["kind"] == "status"][-1]
    assert status["actions"] == len(session.steps()) == 3
    assert status["round"] == session.public().get("round") and status["phase"] == session.public().get("phase")
    told = [m["seq"] for m in _club(path, session.id) if m["kind"] == "story"]
    assert set(told) >= {s.entry.seq for s in session.steps()}  # each line in play was told


def test_a_line_todays_rules_refuse_stops_the_session_and_the_club_alike(tmp_path: Path) -> None:
    """A line written by another version that today's rules refuse: the session will not open the game
    (ReplayError) and the club publishes nothing of it either, rather than a game with the line skipped."""
    path = tmp_path / "j.db"
    journal = Journal(path)
    Outbox(journal, "t1").install()
    session = Session.new(journal, "pocket-galapagos", ["Ann"])
    session.act({"type": "end_turn"}, source="cli")
    before = _club(path, session.id)
    with journal.transaction() as db:
        journal.append(db, session.id, {"type": "end_turn", "from_a_newer_version": 1}, "old")
        journal.append(db, session.id, {"type": "end_turn"}, "old")
    with pytest.raises(ReplayError, match="cannot be replayed at journal entry 2"):
        Session.open(Journal(path), session.id)
    assert _club(path, session.id) == before  # no status counting 2 actions, no story of line 3
