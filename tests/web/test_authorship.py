"""Who sent an action is a record on the journal entry, never a string read back.

Each test failed on the version that kept ``web:{seat}`` / ``web:table...`` texts and split them
apart again: a player named « table » was taken for the tablet, an edited tablet move stopped
counting for the seat's consent, and a phone could undo a move the tablet had made for it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from urllib.parse import quote

import pytest

from companion.table import amend, story
from companion.table.authorship import Author, from_legacy
from companion.table.journal import Journal
from companion.table.session import Session
from tests.support.dashboard import TO_THE_VOTE, Table


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def renamed(action: dict, name: str) -> dict:
    return {k: (name if v == "Cleo" else v) for k, v in action.items()}


@pytest.mark.parametrize("name", ["table", "table:edit", "web:x", ".."])
def test_a_phones_vote_stays_its_phones_whatever_the_players_name(table: Table, name: str) -> None:
    """« table » (or « table:edit », « web:x », « .. ») voting on his phone: the tablet may not open that
    vote for editing, the form is refused, and the story says it came from his phone."""
    gid = table.new_game("galerapagos", ["Ann", "Bob", name])
    for action in TO_THE_VOTE:
        assert table.act(gid, renamed(action, name)).status_code == 200
    token = table.join(table.client(), gid, name)
    r = table.act(gid, {"type": "vote", "player": name, "target": "Ann"}, headers=bearer(token))
    assert r.status_code == 200, r.json
    session = table.dashboard.hub.session(gid)
    entry = session.history()[-1]
    assert entry.author == Author("phone", seat=name)
    row = amend.history(session)[-1]
    assert row["edit"] == f"Only {name}'s phone knows this move: remove it, and {name} plays it again."
    form = table.client().get(f"/api/games/{gid}/history/{entry.seq}/form", headers=table.auth())
    assert form.status_code == 409 and "Ann" not in json.dumps(form.json)
    assert story.told(session)[-1]["from"] == f"from {name}'s phone"


def test_an_edited_tablet_move_keeps_the_seat_the_tablets(table: Table) -> None:
    """The tablet plays Dan (no phone), then corrects one of Dan's moves: a phone still may not take Dan's
    seat without the table's consent (the edit used to be written ``web:table:edit`` and not counted)."""
    gid = table.new_game("galerapagos", ["Dan", "Bob", "Ann"])
    assert table.act(gid, {"type": "weather", "water": 0, "hurricane": False}).status_code == 200
    assert table.act(gid, {"type": "fish", "player": "Dan", "fish": 1}).status_code == 200
    session = table.dashboard.hub.session(gid)
    seq = session.history()[-1].seq
    r = table.client().post(f"/api/games/{gid}/history/{seq}/edit", json={"action": {"type": "search", "player": "Dan"}},
                            headers=table.auth())
    assert r.status_code == 200, r.json
    assert session.history()[-1].author.to_json() == {"via": "table", "as": "edit"}
    joined = table.client().post("/api/join", json={"code": table.dashboard.keys.join_code(gid), "seat": "Dan"})
    assert joined.status_code == 409, joined.json
    assert "played on the tablet" in joined.json["error"]["message"]


def test_a_phone_undoes_only_what_it_sent_itself(table: Table) -> None:
    """The tablet entered Ann's move before her phone joined: her phone may not take it back (judged by who
    sent it, not by the action's ``player``); her own move it may."""
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    assert table.act(gid, {"type": "weather", "water": 0, "hurricane": False}).status_code == 200
    assert table.act(gid, {"type": "search", "player": "Ann"}).status_code == 200
    ann = table.join(table.client(), gid, "Ann")
    preview = table.client().get(f"/api/games/{gid}/undo-preview", headers=bearer(ann))
    assert preview.json["can_undo"] is False
    r = table.client().post(f"/api/games/{gid}/undo", headers=bearer(ann))
    assert r.status_code == 403
    assert table.act(gid, {"type": "search", "player": "Bob"}).status_code == 200  # Bob's turn, by the tablet
    session = table.dashboard.hub.session(gid)
    assert session.version == 3
    # a move of her own phone she may take back
    gid2 = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    assert table.act(gid2, {"type": "weather", "water": 0, "hurricane": False}).status_code == 200
    ann2 = table.join(table.client(), gid2, "Ann", consent=False)
    assert table.act(gid2, {"type": "search", "player": "Ann"}, headers=bearer(ann2)).status_code == 200
    assert table.client().get(f"/api/games/{gid2}/undo-preview", headers=bearer(ann2)).json["can_undo"] is True
    assert table.client().post(f"/api/games/{gid2}/undo", headers=bearer(ann2)).status_code == 200


def test_the_sands_expiry_is_marked_automatic_when_it_is_written(tmp_path: Path) -> None:
    """The session's timer writes ``auto`` on its entry; a person ending the sand (an override) is that
    person's action, which an undo takes back by itself, not with the plan before it."""
    from tests.support.clock import FakeClock
    from tests.table.test_session_timer import until_timer_runs

    mono, wall = FakeClock(50.0), FakeClock(10_000.0)
    session = Session.new(Journal(tmp_path / "j.db", clock=wall), "galapagos-dice", ["Ann", "Bob"], {"layout_seed": 3},
                          clock=mono, wall=wall)
    until_timer_runs(session)
    mono.now += 31
    wall.now += 31
    assert session.tick() is not None
    assert session.history()[-1].author == Author("companion", auto=True)
    assert amend.history(session)[-1]["edit"]  # the companion's own line: edit the plan before it
    second = Session.new(Journal(tmp_path / "k.db"), "galapagos-dice", ["Ann", "Bob"], {"layout_seed": 3})
    until_timer_runs(second)
    second.act({"type": "timer_expired"}, source=Author("table"))
    assert second.history()[-1].author.auto is False
    assert amend.history(second)[-1]["edit"] is None  # the tablet's override is its own, to edit


OLD_SCHEMA = """
CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL, options TEXT NOT NULL,
    created REAL NOT NULL, finished REAL, result TEXT, rev INTEGER NOT NULL DEFAULT 0,
    touched INTEGER NOT NULL DEFAULT 0);
CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, action TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT '', at REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'undone', 'discarded', 'replaced',
                                                              'removed', 'aside', 'reentered', 'dropped')),
    edit INTEGER, origin INTEGER, note TEXT, PRIMARY KEY (game_id, seq));
CREATE TABLE edits (game_id TEXT NOT NULL REFERENCES games(id), id INTEGER NOT NULL, kind TEXT NOT NULL,
    seq INTEGER NOT NULL, source TEXT NOT NULL DEFAULT '', at REAL NOT NULL, PRIMARY KEY (game_id, id));
"""


def test_an_older_journal_is_migrated_once_when_opened(tmp_path: Path) -> None:
    """A journal written before authors: every source text becomes an author record when it is opened,
    read as that version read it; the game replays and the seat the tablet played stays the tablet's."""
    db = tmp_path / "old.db"
    con = sqlite3.connect(db)
    con.executescript(OLD_SCHEMA)
    con.execute("INSERT INTO games VALUES ('g1', 'galerapagos', '[\"Ann\",\"Bob\",\"Cleo\"]', '{}', 1.0, NULL, NULL, 5, 1)")
    rows = [({"type": "weather", "water": 0, "hurricane": False}, "web:table:digital:42"),
            ({"type": "search", "player": "Ann"}, "web:Ann"),
            ({"type": "search", "player": "Bob"}, "web:table:act-for:Bob"),
            ({"type": "search", "player": "Cleo"}, "web:table:edit"),
            ({"type": "weather", "water": 0, "hurricane": False}, "table")]
    for seq, (action, source) in enumerate(rows, start=1):
        con.execute("INSERT INTO actions (game_id, seq, action, source, at) VALUES ('g1', ?, ?, ?, ?)",
                    (seq, json.dumps(action), source, float(seq)))
    con.commit()
    con.close()
    session = Session.open(Journal(db), "g1")
    assert [e.author.to_json() for e in session.history()] == [
        {"via": "table", "seed": 42}, {"via": "phone", "seat": "Ann"}, {"via": "table", "for": "Bob"},
        {"via": "table", "as": "edit"}, {"via": "buttons"}]
    assert [e.author.tablet_played for e in session.history()] == [True, False, False, True, False]
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM actions WHERE author IS NULL").fetchone() == (0,)
    con.close()
    again = Session.open(Journal(db), "g1")  # opened again: nothing to convert, the same authors
    assert [e.author for e in again.history()] == [e.author for e in session.history()]


def test_the_old_texts_read_as_the_old_version_read_them() -> None:
    assert from_legacy("web:Ann:digital:7") == Author("phone", seat="Ann", seed=7)
    assert from_legacy("web:a:b") == Author("phone", seat="a:b")
    assert from_legacy("timer") == Author("companion", auto=True)
    assert from_legacy("lanes") == Author("buttons", auto=True)
    assert from_legacy("web:table:reenter") == Author("table", as_="reenter")
    assert Author.from_json('{"via": "phone", "seat": "table"}') == Author("phone", seat="table")
    assert Author.from_json("not json").via == "cli"  # a damaged record is nobody's phone


def test_any_name_round_trips_through_the_record() -> None:
    for name in ("table", "web:table:act-for:Ann", "..", "~2", "Zoë", ""):
        author = Author("phone", seat=name)
        assert Author.from_json(author.dumps()) == author
    assert quote("..", safe="") == ".."
