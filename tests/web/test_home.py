"""Home: games by name, players, date and state; abandon and delete (the history keeps
them, nothing leaves the journal); statistics per player; a refused Start keeps what was typed; the
sand timer's length chosen at the start."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import sqlite3
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.board.config import Config
from companion.cli.app import build
from companion.table.journal import Journal
from companion.table.library import Library
from tests.support.dashboard import Table


def tablet(table: Table) -> tuple[FlaskClient, str]:
    c = table.client()
    assert c.get(f"/?token={table.token}").status_code == 302
    return c, table.csrf(table.token)


def home(c: FlaskClient) -> str:
    return c.get("/").data.decode()


def entry(page: str, gid: str) -> str:
    """The <li> of one game on Home ('' when Home does not list it)."""
    m = re.search(rf'<li class="game [a-z]+" data-game-id="{gid}">(.*?)</li>', page, re.S)
    return m.group(1) if m else ""


def lose_a_pocket_game(table: Table, players: list[str]) -> str:
    """Three turns of the solo game from the default start: every population reaches 0 (seed 003's loss)."""
    gid = table.new_game("pocket-galapagos", players)
    for _ in range(3):
        assert table.act(gid, {"type": "end_turn"}).status_code == 200
    assert table.dashboard.hub.journal.game(gid).finished is not None
    return gid


def actions_in_journal(db: Path, gid: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (gid,)).fetchone()[0]


def test_home_lists_each_game_by_its_name_players_date_and_state(table: Table) -> None:
    playing = table.new_game("galapagos-auction", ["Ann", "Bob"])
    over = lose_a_pocket_game(table, ["Cleo"])
    c, _ = tablet(table)
    page = home(c)
    assert "Galapagos (auction)" in entry(page, playing) or "Galapagos" in entry(page, playing)
    assert "galapagos-auction" not in entry(page, playing)  # the title, never the raw id
    assert "Ann, Bob" in entry(page, playing) and "state-playing" in entry(page, playing)
    assert "Pocket Galapagos" in entry(page, over) and "state-over" in entry(page, over)
    created = table.dashboard.hub.journal.game(playing).created
    from datetime import datetime

    at = datetime.fromtimestamp(created)
    assert f"{at.day} {at:%B} {at.year}, {at:%H:%M}" in entry(page, playing)
    c.get("/lang/fr")
    fr = home(c)
    months = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
              "novembre", "décembre"]
    assert f"{at.day} {months[at.month - 1]} {at.year}" in entry(fr, playing) and "en cours" in entry(fr, playing)


def test_an_abandoned_game_is_listed_so_never_resumed_and_its_actions_stay(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    assert table.act(gid, {"type": "end_turn"}).status_code == 200
    table.dashboard.hub.set_current(gid)
    c, csrf = tablet(table)
    assert c.post(f"/games/{gid}/abandon", data={}).status_code == 403  # no csrf: refused
    r = c.post(f"/games/{gid}/abandon", data={"csrf": csrf})
    assert r.status_code == 302 and r.headers["Location"] == "/"
    assert "state-abandoned" in entry(home(c), gid) and "On the table" not in entry(home(c), gid)
    assert table.dashboard.hub.current is None
    assert actions_in_journal(table.db, gid) == 1
    assert Library(table.dashboard.hub.journal).resumable(table.dashboard.hub.journal.last_acted()) == []
    rows = list(csv.DictReader(io.StringIO(c.get("/history.csv").data.decode())))
    assert [(r["game_id"], r["reason"], r["finished"]) for r in rows] == [(gid, "abandoned", "")]


def test_a_finished_game_cannot_be_abandoned(table: Table) -> None:
    gid = lose_a_pocket_game(table, ["Ann"])
    c, csrf = tablet(table)
    r = c.post(f"/games/{gid}/abandon", data={"csrf": csrf})
    assert r.status_code == 409 and b"only an unfinished game can be abandoned" in r.data
    assert "state-over" in entry(home(c), gid)
    assert c.post("/games/nosuchid/abandon", data={"csrf": csrf}).status_code == 404


def test_a_deleted_game_leaves_home_and_its_statistics_but_the_history_keeps_it(table: Table) -> None:
    kept = lose_a_pocket_game(table, ["Ann"])
    gone = lose_a_pocket_game(table, ["Ann"])
    unfinished = table.new_game("galapagos-auction", ["Ann", "Bob"])
    c, csrf = tablet(table)
    assert re.search(r"<th>Ann</th><td>2</td><td>0</td>", home(c))
    for gid in (gone, unfinished):
        assert c.post(f"/games/{gid}/delete", data={"csrf": csrf}).status_code == 302
    page = home(c)
    assert entry(page, kept) and not entry(page, gone) and not entry(page, unfinished)
    assert re.search(r"<th>Ann</th><td>1</td><td>0</td>", page)
    rows = list(csv.DictReader(io.StringIO(c.get("/history.csv").data.decode())))
    assert sorted((r["game_id"], r["reason"]) for r in rows) == sorted(
        [(kept, "populations_collapsed"), (gone, "populations_collapsed"), (unfinished, "abandoned"),
         (unfinished, "abandoned")])
    exported = {g["id"]: g for g in json.loads(c.get("/history.json").data)["games"]}
    assert exported[unfinished]["state"] == "abandoned" and exported[unfinished]["deleted"]
    assert exported[gone]["state"] == "over" and exported[gone]["deleted"] and not exported[kept]["deleted"]
    assert len(table.dashboard.hub.journal.games()) == 3  # nothing is deleted from the journal
    assert actions_in_journal(table.db, gone) == 3


def test_statistics_count_games_played_and_won_per_player_and_per_game(table: Table) -> None:
    """Each finished game counts once for each of its players; a win only for its winners."""
    lose_a_pocket_game(table, ["Ann"])
    lose_a_pocket_game(table, ["Bob"])
    journal = table.dashboard.hub.journal
    rec = journal.create_game("galapagos-dice", ["Ann", "Cleo"], {})
    with journal.transaction() as db:
        journal.set_result(db, rec.id, {"winners": ["Ann"], "scores": {"Ann": 9, "Cleo": 4}})
    stats = {s["name"]: s for s in Library(journal).stats()}
    assert (stats["Ann"]["played"], stats["Ann"]["won"], stats["Ann"]["best"]) == (2, 1, 9)
    assert stats["Ann"]["games"] == {"pocket-galapagos": {"played": 1, "won": 0},
                                     "galapagos-dice": {"played": 1, "won": 1}}
    assert (stats["Bob"]["played"], stats["Bob"]["won"]) == (1, 0) and stats["Cleo"]["games"]["galapagos-dice"]["won"] == 0
    c, _ = tablet(table)
    page = home(c)
    assert re.search(r"<th>Ann</th><td>2</td><td>1</td>", page)
    ann = re.search(r"<th>Ann</th>.*?</tr>", page, re.S).group(0)
    assert "Galapagos (dice) 1 won of 1" in html.unescape(ann) or "1 won of 1" in ann


def test_the_table_at_start_up_resumes_the_last_game_not_abandoned(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.db")
    older = journal.create_game("pocket-galapagos", ["Ann"], {})
    newer = journal.create_game("pocket-galapagos", ["Bob"], {})
    Library(journal).abandon(newer.id)
    journal.close()
    companion = build(Config(), tmp_path / "journal.db", sim=False, port=0)
    try:
        assert companion.resume().id == older.id
        Library(companion.journal).delete(older.id)
        assert companion.resume() is None and companion.hub.current is None
    finally:
        companion.close()


def test_a_refused_start_keeps_the_names_and_options_typed(table: Table) -> None:
    c, csrf = tablet(table)
    form = {"csrf": csrf, "game": "galapagos-dice", "players": "Zoé\nYann\nXavier\nWalid\nVera",
            "opt:two_player_variant": "false", "opt:timer_seconds": "75", "options": '{"layout_seed": 12}'}
    r = c.post("/games", data=form)
    assert r.status_code == 400 and table.dashboard.hub.journal.games() == []
    page = html.unescape(r.data.decode())
    assert re.search(r'class="banner over refusal" role="alert">[^<]*2 to 4 players, not 5\.<', page)
    assert ">Zoé\nYann\nXavier\nWalid\nVera</textarea>" in page
    assert '{"layout_seed": 12}</textarea>' in page
    assert re.search(r'<option value="galapagos-dice"[^>]*selected', page)
    assert re.search(r'name="opt:timer_seconds"[^>]*value="75"', page)


@pytest.mark.parametrize("seconds, ok", [("45", True), ("120", True), ("5", False), ("100000", False),
                                          ("1e999", False), ("NaN", False), ('"30"', False)])
def test_the_sand_timer_is_set_at_the_start_within_bounds(table: Table, seconds: str, ok: bool) -> None:
    c, csrf = tablet(table)
    r = c.post("/games", data={"csrf": csrf, "game": "galapagos-dice", "players": "Ann\nBob",
                               "opt:timer_seconds": seconds})
    if ok:
        gid = r.headers["Location"].split("/")[2]
        assert c.get(f"/api/games/{gid}").json["state"]["timer_seconds"] == float(seconds)
    else:
        assert r.status_code == 400 and table.dashboard.hub.journal.games() == []
        assert b"Traceback" not in r.data and b'class="banner over refusal"' in r.data


def test_another_game_s_readings_left_in_the_form_are_not_sent(table: Table) -> None:
    c, csrf = tablet(table)
    r = c.post("/games", data={"csrf": csrf, "game": "galapagos-auction", "players": "Ann\nBob",
                               "opt:timer_seconds": "45"})
    assert r.status_code == 302
    (record,) = table.dashboard.hub.journal.games()
    assert record.game == "galapagos-auction" and "timer_seconds" not in record.options  # the dice game's option


def test_an_abandoned_game_can_be_played_on_and_goes_back_on_the_table(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    c, csrf = tablet(table)
    assert c.post(f"/games/{gid}/play-on", data={"csrf": csrf}).status_code == 409  # not abandoned
    c.post(f"/games/{gid}/abandon", data={"csrf": csrf})
    assert 'action="/games/' + gid + '/play-on"' in entry(home(c), gid)
    r = c.post(f"/games/{gid}/play-on", data={"csrf": csrf})
    assert r.status_code == 302 and r.headers["Location"] == f"/g/{gid}/table"
    assert "state-playing" in entry(home(c), gid) and table.dashboard.hub.current == gid
    assert table.act(gid, {"type": "end_turn"}).status_code == 200
    c.post(f"/games/{gid}/delete", data={"csrf": csrf})
    assert c.post(f"/games/{gid}/play-on", data={"csrf": csrf}).status_code == 409  # deleted: gone from Home


def test_a_full_card_refuses_abandon_with_the_journal_s_sentence(table: Table, monkeypatch) -> None:
    from companion.table.rows import JournalUnavailable

    gid = table.new_game("pocket-galapagos", ["Ann"])
    c, csrf = tablet(table)

    def full(self):
        raise JournalUnavailable("disk is full")

    monkeypatch.setattr(type(table.dashboard.hub.journal), "transaction", full)
    r = c.post(f"/games/{gid}/abandon", data={"csrf": csrf})
    assert r.status_code == 503 and b"Nothing changed." in r.data
    monkeypatch.undo()
    assert "state-playing" in entry(home(c), gid)


def test_a_journal_from_before_the_library_lists_every_game_as_it_is(tmp_path: Path) -> None:
    """No ``library`` table yet (an older journal): nothing abandoned; the first mark creates it."""
    journal = Journal(tmp_path / "journal.db")
    rec = journal.create_game("pocket-galapagos", ["Ann"], {})
    library = Library(journal)
    assert library.marks() == {} and library.listed() == [(rec, "playing")] and library.history() == []
    library.abandon(rec.id)
    assert library.listed() == [(journal.game(rec.id), "abandoned")]
    journal.close()
    with sqlite3.connect(tmp_path / "journal.db") as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "actions", "library"} <= tables


def test_home_and_the_island_page_read_in_french(table: Table) -> None:
    """Every word these pages show (their text, labels and questions) is in the reader's language."""
    table.new_game("galapagos-auction", ["Ann", "Bob"])
    c, _ = tablet(table)
    c.get("/lang/fr")
    pages = {"/": ["Games", "Abandon", "Delete", "playing", "Statistics per player", "per game", "Start a game"],
             "/setup/galapagos-dice/island": ["The island you built", "Clear this hex", "Empty the island",
                                              "Tap again", "Start the game on this island", "No hex chosen",
                                              "Tap a hex", "black", "yellow"],
             "/setup?seed=3": ["Start a game on this island", "Correct it hex by hex", "Enter the island you built"]}
    for path, english in pages.items():
        page = c.get(path).data.decode()
        said = re.findall(r'(?:aria-label|data-again|data-ask|title)="([^"]*)"', page)
        shown = html.unescape(" | ".join([re.sub(r"<[^>]+>", " | ", page), *said]))
        assert [e for e in english if re.search(rf"\b{e}\b", shown)] == [], path
