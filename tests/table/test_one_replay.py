"""One replay: the session keeps what its replay computed, and the story, corrections and extras read it.

docs/design.md, « The journal », and docs/layout.md, « One replay »: a live session's story, its tablet history, the undo
preview and the score history never run the rules again; they read ``Session.steps()``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.table import amend, extras, story
from companion.table.journal import Journal
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
