"""Digital draws when a component is missing: proposed by the game's randomiser, journaled, seed recorded."""

from __future__ import annotations

import json
import random
import sqlite3

from companion.games.galerapagos.draws import draw_weather
from companion.table.journal import Journal
from companion.table.session import Session
from tests.support.dashboard import Table


def journal_row(table: Table, gid: str) -> tuple[str, str]:
    con = sqlite3.connect(table.db)
    try:
        return con.execute(
            "SELECT action, author FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (gid,)).fetchone()
    finally:
        con.close()


def test_the_weather_card_is_drawn_journaled_and_reproducible_from_its_seed(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    before = Session.open(Journal(table.db), gid)
    r = table.client().post(f"/api/games/{gid}/draw", json={"what": "weather"}, headers=table.auth())
    assert r.status_code == 200, r.json
    drawn = r.json["drawn"]
    assert drawn["type"] == "weather" and r.json["state"]["weather"] is not None
    _action, author = journal_row(table, gid)
    seed = json.loads(author)["seed"]  # the author record keeps the seed as data
    # the same seed on the same state draws the same card: a disputed draw can be checked
    assert draw_weather(before.state, random.Random(seed)) == drawn


def test_a_phone_draws_its_own_dice_but_not_someone_elses(table: Table) -> None:
    gid = table.new_game("galapagos-dice", ["Ann", "Bob"])
    for _ in range(10):  # pawns and the first turtles, as the table would lay them
        session = Session.open(Journal(table.db), gid)
        if session.public()["phase"] != "setup":
            break
        assert table.act(gid, session.rules.candidates(session.state)[0]).status_code == 200
    phone = table.client()
    table.join(phone, gid, "Ann")
    csrf = {"X-CSRF-Token": table.csrf(phone.get_cookie(f"seat-{gid}").value)}
    ok = phone.post(f"/api/games/{gid}/draw", json={"what": "dice"}, headers=csrf)
    assert ok.status_code == 200, ok.json
    assert ok.json["drawn"]["player"] == "Ann" and len(ok.json["drawn"]["dice"]) == 5
    other = phone.post(f"/api/games/{gid}/draw", json={"what": "dice", "player": "Bob"}, headers=csrf)
    assert other.status_code == 403


def test_a_draw_the_game_does_not_know_is_400(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    r = table.client().post(f"/api/games/{gid}/draw", json={"what": "dice"}, headers=table.auth())
    assert r.status_code == 400
