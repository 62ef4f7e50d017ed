"""Editing or removing an earlier action: the later ones are played again, those that no longer apply are set
aside (never lost), and the SQLite journal keeps both versions.

Each game's whole-game scenario is played part way; the action five back is edited (the
first other move the rules accept at that point) and, in another game, removed. The session's
state must equal a fresh replay of the corrected list, and every later action must be either
played again or kept aside.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.engine.rules import RuleError
from companion.table import amend, extras
from companion.table.authorship import phone, tablet
from companion.table.journal import Journal
from companion.table.session import Session
from tests.support.dashboard import TO_THE_VOTE
from tests.table.corrections.test_amend_undo_back import played

GAMES = [("auction_full_game", 20), ("dice_full_game", 20), ("galerapagos_full_game", 20), ("pocket_win_ten_turns", 20)]


def fresh_replay(session: Session, actions: list[dict[str, Any]]) -> str:
    rules = games.get(session.game)
    state = rules.setup(session.players, session.options)
    for action in actions:
        state, _ = rules.apply(state, action)
    return rules.fingerprint(state)


def rows(db: Path, game_id: str) -> list[tuple[int, dict[str, Any], str, int | None]]:
    """(seq, action, status, origin) of every row, read by another connection (as after a power cut)."""
    con = sqlite3.connect(db)
    try:
        found = con.execute("SELECT seq, action, status, origin FROM actions WHERE game_id = ? ORDER BY seq",
                            (game_id,)).fetchall()
    finally:
        con.close()
    return [(seq, json.loads(a), status, origin) for seq, a, status, origin in found]


def another_move(session: Session, index: int) -> dict[str, Any]:
    """The first move the rules accept just before the action at ``index`` other than the one played."""
    rules = session.rules
    history = session.history()
    state = rules.setup(session.players, session.options)
    for entry in history[:index]:
        state, _ = rules.apply(state, entry.action)
    auto = games.package(session.game).automatic
    for action in rules.candidates(state):
        if action != history[index].action and action.get("type") not in auto:
            return action
    raise AssertionError("no other move at that point")


def check_edit(db: Path, session: Session, index: int, replacement: dict[str, Any] | None) -> None:
    before = session.history()
    target, later = before[index], before[index + 1:]
    done = session.edit(target.seq, replacement, source="test")
    corrected = [e.action for e in before[:index]] + ([replacement] if replacement is not None else [])
    kept = [e.action for e in session.history()[len(corrected):]]
    # every later action is played again, kept aside or (an automatic one) dropped: none is lost
    accounted = kept + [e.action for e in done.aside + done.dropped]
    assert sorted(map(json.dumps, accounted)) == sorted(json.dumps(e.action) for e in later)
    assert done.replayed == len(kept)
    assert [e.action for e in session.history()] == corrected + kept
    assert session.rules.fingerprint(session.state) == fresh_replay(session, corrected + kept)
    resumed = Session.open(Journal(db), session.id)  # another process, or after a power cut
    assert resumed.rules.fingerprint(resumed.state) == session.rules.fingerprint(session.state)
    assert [e.seq for e, _ in resumed.set_aside()] == [e.seq for e in done.aside]
    # both versions stay in the file: the old rows with their status, the new ones saying what they stand for
    journal = {seq: (action, status, origin) for seq, action, status, origin in rows(db, session.id)}
    assert journal[target.seq] == (target.action, "replaced" if replacement is not None else "removed", None)
    for entry in later:
        assert journal[entry.seq][0] == entry.action
        assert journal[entry.seq][1] in ("replaced", "aside", "dropped")
    copies = [origin for _, status, origin in journal.values() if status == "active" and origin is not None]
    assert copies == ([target.seq] if replacement is not None else []) + [
        e.seq for e in later if journal[e.seq][1] == "replaced"]


@pytest.mark.parametrize(("name", "upto"), GAMES, ids=[g for g, _ in GAMES])
def test_editing_the_action_five_back(db_path: Path, name: str, upto: int) -> None:
    session = played(db_path, name, upto)
    index = len(session.history()) - 5
    check_edit(db_path, session, index, another_move(session, index))


@pytest.mark.parametrize(("name", "upto"), GAMES, ids=[g for g, _ in GAMES])
def test_removing_the_action_five_back(db_path: Path, name: str, upto: int) -> None:
    session = played(db_path, name, upto)
    check_edit(db_path, session, len(session.history()) - 5, None)


def test_a_later_action_that_no_longer_applies_is_set_aside_then_reentered_or_dropped(db_path: Path) -> None:
    """Bob's two education steps become « done »: his expedition card after it is no longer his to play."""
    session = played(db_path, "auction_full_game", 12)
    education = session.history()[-5]
    assert education.action == {"type": "education", "player": "Bob", "steps": 2}
    done = session.edit(education.seq, {"type": "done", "player": "Bob"}, source="test")
    assert [e.action for e in done.aside] == [{"type": "expedition", "player": "Bob", "animal": "iguana"},
                                              {"type": "done", "player": "Bob"}]
    aside = amend.set_aside(session)
    assert aside[0]["text"] == "Bob takes an iguana"
    assert aside[0]["why"] == "Bob cannot play an expedition card now: it is Cid's turn to play cards."
    with pytest.raises(RuleError):  # still not Bob's turn: refused, and it stays aside
        session.reenter(aside[0]["seq"])
    assert len(session.set_aside()) == 2
    assert session.drop(aside[1]["seq"]) and not session.drop(aside[1]["seq"])
    assert [e.seq for e, _ in session.set_aside()] == [aside[0]["seq"]]
    statuses = {seq: status for seq, _, status, _ in rows(db_path, session.id)}
    assert statuses[aside[1]["seq"]] == "dropped" and statuses[aside[0]["seq"]] == "aside"


def test_reentering_what_was_set_aside_gives_the_game_back(db_path: Path) -> None:
    """The fourth tile is removed: no bid may come before the four tiles, so every bid after it is set aside.
    Laying the tile again and re-entering them, one tap each, gives the very same game."""
    session = played(db_path, "auction_full_game", 8)
    original = session.rules.fingerprint(session.state)
    tile = session.history()[3]
    assert tile.action["type"] == "tile" and tile.action["direction"] == "W"
    done = session.edit(tile.seq, None, source="test")
    assert [e.action["type"] for e in done.aside] == ["bid", "bid", "bid", "education"]
    session.act(tile.action)
    for entry in done.aside:
        session.reenter(entry.seq, source="test")
    assert session.set_aside() == []
    assert session.rules.fingerprint(session.state) == original
    statuses = {s: st for s, _, st, _ in rows(db_path, session.id)}
    assert [statuses[e.seq] for e in done.aside] == ["reentered"] * 4


def test_a_refused_correction_changes_nothing(db_path: Path) -> None:
    session = played(db_path, "auction_full_game", 12)
    before = rows(db_path, session.id)
    with pytest.raises(RuleError):
        session.edit(session.history()[-5].seq, {"type": "bid", "player": "Bob", "direction": "N", "amount": 99999})
    with pytest.raises(RuleError):
        session.edit(10_000, None)
    assert rows(db_path, session.id) == before


def revealed_ballot(db: Path) -> Session:
    session = Session.new(Journal(db), "galerapagos", ["Ann", "Bob", "Cleo"])
    for action in TO_THE_VOTE:
        session.act(action, source=tablet())
    for voter, target in (("Ann", "Cleo"), ("Bob", "Cleo"), ("Cleo", "Ann")):
        session.act({"type": "vote", "player": voter, "target": target}, source=phone(voter))
    return session


def test_no_edit_across_a_revealed_ballot(db_path: Path) -> None:
    """An edit replays the votes: once they were all seen, re-voting would be done knowing them."""
    session = revealed_ballot(db_path)
    sentence = extras.undo_refusal(session, by_table=False)  # the package's own sentence for the reveal
    assert sentence
    listed = amend.history(session)
    assert all(row["edit"] == row["remove"] == sentence for row in listed)
    assert amend.refusal(session, listed[1]["seq"], removing=True) == sentence
    with Journal(db_path) as other:  # and nothing was touched
        assert len(other.active(session.id)) == len(listed)


def test_a_phones_secret_vote_is_never_opened_for_editing(db_path: Path) -> None:
    session = Session.new(Journal(db_path), "galerapagos", ["Ann", "Bob", "Cleo"])
    for action in TO_THE_VOTE:
        session.act(action)
    session.act({"type": "vote", "player": "Ann", "target": "Cleo"}, source=phone("Ann"))
    row = amend.history(session)[-1]
    assert row["text"] == "Ann votes" and "Cleo" not in row["text"]
    assert row["edit"] == "Only Ann's phone knows this move: remove it, and Ann plays it again."
    assert row["remove"] is None  # taking it out reveals nothing: Ann votes again


def test_the_sands_expiry_stays_coherent(db_path: Path) -> None:
    """Editing a plan five back in the dice game: an expiry that no longer applies is dropped (not offered for
    re-entry: the companion journals the sand's end by itself) and the timer follows the corrected state."""
    session = played(db_path, "dice_full_game", 20)
    listed = amend.history(session)
    for row, entry in zip(listed, session.history(), strict=True):
        if entry.action["type"] == "timer_expired":
            assert row["edit"] and row["remove"]
    index = len(session.history()) - 5
    done = session.edit(session.history()[index].seq, another_move(session, index), source="test")
    assert all(e.action["type"] != "timer_expired" for e in done.aside)
    running = session.rules.view(session.state).get("timer") == "running"
    assert (session.timer is not None) == running


def test_an_old_journal_is_migrated_and_keeps_every_row(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    con = sqlite3.connect(db)
    con.executescript("""
        CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL, options TEXT NOT NULL,
            created REAL NOT NULL, finished REAL, result TEXT, rev INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, action TEXT NOT NULL,
            source TEXT NOT NULL DEFAULT '', at REAL NOT NULL,
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'undone', 'discarded')),
            PRIMARY KEY (game_id, seq));
        INSERT INTO games VALUES ('g1', 'pocket-galapagos', '["Ann"]', '{}', 1.0, NULL, NULL, 3);
        INSERT INTO actions VALUES ('g1', 1, '{"type":"end_turn"}', 'cli', 2.0, 'active');
        INSERT INTO actions VALUES ('g1', 2, '{"type":"end_turn"}', 'cli', 3.0, 'active');
        INSERT INTO actions VALUES ('g1', 3, '{"type":"end_turn"}', 'cli', 4.0, 'undone');
    """)
    con.commit()
    con.close()
    session = Session.open(Journal(db), "g1")
    assert session.version == 2 and session.can_redo
    session.edit(1, None, source="test")
    assert [(s, st) for s, _, st, _ in rows(db, "g1")] == [(1, "removed"), (2, "replaced"), (3, "discarded"),
                                                          (4, "active")]
