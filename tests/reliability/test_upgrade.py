"""Upgrades lose nothing: a dice game journalled before the planning rules changed
(written by the previous release's own CLI: tests/reliability/data/README.md) is resumed by
``companion run``, its lines migrated to today's vocabulary, and the table finishes it."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from companion import games
from companion.board.config import Config
from companion.cli.app import build
from companion.table.journal import Journal
from companion.table.session import Session

OLD = Path(__file__).parent / "data" / "dice-previous-release.sqlite"
GAME = "f6334dee"
#: the rest of the game, in today's vocabulary (tests/scenarios/dice_full_game.jsonl, its last lines)
REST = [{"type": "plan", "player": "Bob", "dice": ["green"]},
        {"type": "plan", "player": "Ann", "dice": ["green", "black", "blue", "yellow"]},
        {"type": "done", "player": "Ann"},
        {"type": "move", "player": "Bob", "path": [4]},
        {"type": "move", "player": "Ann", "path": [22, 19, 36, 35]}]


def old_journal(tmp_path: Path) -> Path:
    db = tmp_path / "companion.db"
    shutil.copyfile(OLD, db)
    return db


def test_a_dice_game_of_the_previous_release_is_resumed_and_finished(tmp_path: Path) -> None:
    db = old_journal(tmp_path)
    companion = build(Config(), db, sim=True, port=0)
    try:
        session = companion.resume()
        assert session is not None and session.id == GAME  # was: « could not be resumed », skipped
        assert not any("could not be resumed" in n for n in companion.notices)
        assert session.record.rules_version == games.package("galapagos-dice").rules_version == 2
        assert session.public()["round"] == 4 and session.public()["phase"] == "plan"
        client = companion.app.test_client()
        client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {companion.keys.table_token}"
        for action in REST:
            r = client.post(f"/api/games/{GAME}/actions", json=action)
            assert r.status_code == 200, r.json
        state = client.get(f"/api/games/{GAME}").json["state"]
        assert state["over"] is True and state["scores"] == {"Ann": 6, "Bob": 8}  # as the game was scored then
    finally:
        companion.close()


def test_the_old_lines_are_kept_beside_the_migrated_ones(tmp_path: Path) -> None:
    db = old_journal(tmp_path)
    before = sqlite3.connect(str(db)).execute("SELECT seq, action FROM actions ORDER BY seq").fetchall()
    with Journal(db) as journal:
        Session.open(journal, GAME)
        rows = journal.versions(GAME)
    old = {r["seq"]: r for r in rows if r["status"] == "replaced"}
    assert [(seq, r["action"]) for seq, r in sorted(old.items())] == [(s, __import__("json").loads(a)) for s, a in before]
    new = [r for r in rows if r["status"] == "active"]
    plans = [r["action"] for r in new if r["action"]["type"] in ("plan", "done")]
    assert plans[0]["type"] == "plan" and plans[1] == {"type": "done", "player": "Ann", "dice": ["white", "red"]}
    added = [r for r in new if r["origin"] is None]
    assert [r["action"] for r in added] == [{"type": "move", "player": "Ann", "path": []}]  # skipped then, moves now
    with Journal(db) as journal:  # opened again: nothing more to do
        rev = journal.rev(GAME)
        Session.open(journal, GAME)
        assert journal.rev(GAME) == rev


def test_new_games_record_their_rules_version_and_an_unrecorded_current_game_is_only_stamped(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        dice = Session.new(journal, "galapagos-dice", ["Ann", "Bob"], {})
        pocket = Session.new(journal, "pocket-galapagos", ["Ann"], {})
        assert journal.game(dice.id).rules_version == 2 and journal.game(pocket.id).rules_version == 1
        pocket.act({"type": "end_turn"})
        with journal.transaction() as db:  # as a journal from before versions were recorded
            db.execute("UPDATE games SET rules_version = NULL")
        rows = len(journal.versions(pocket.id))
        again = Session.open(journal, pocket.id)
        assert again.record.rules_version == 1 and len(journal.versions(pocket.id)) == rows  # no line rewritten
