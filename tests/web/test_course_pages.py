"""The course and history routes through the Flask test client: who may look, the
exports' figures, BG Stats' link and file."""

from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

from tests.support.dashboard import Table
from tests.table.history_games import EXPECTED, lines


def _play(table: Table, name: str, before: object = None) -> str:
    head, actions = lines(name)
    gid = table.new_game(head["game"], head["players"], head.get("options"))
    if before is not None:
        before(gid)  # e.g. a phone joins while seats are open
    for action in actions:
        r = table.act(gid, action)
        assert r.status_code in (200, 201), r.json
    return gid


def test_the_course_page_and_the_results_charts(table: Table) -> None:
    gid = _play(table, "auction_full_game")
    c = table.client()
    page = c.get(f"/g/{gid}/course", headers=table.auth()).data.decode()
    assert page.count('class="course-chart"') == 4 and page.count("<svg") >= 4
    assert "<script" not in page.split("<main>")[1].split("</main>")[0]  # pygal's own script left out (CSP)
    assert "Bob takes bonus tile 2" in page
    table_page = c.get(f"/g/{gid}/table", headers=table.auth()).data.decode()
    assert table_page.count('class="course-chart"') == 4  # the results screen shows them too
    assert c.get(f"/g/{gid}/course").status_code == 401  # nobody without the table's token or a seat
    # a phone holding a seat may look at its own game's course, not at another game's
    other = table.new_game("pocket-galapagos", ["Ann"])
    phone = table.app.test_client()
    table.join(phone, other, "Ann")
    assert phone.get(f"/g/{other}/course").status_code == 200
    assert phone.get(f"/g/{gid}/course").status_code in (401, 403)


def test_during_play_the_link_is_there_and_the_course_grows(table: Table) -> None:
    head, actions = lines("galerapagos_full_game")
    gid = table.new_game(head["game"], head["players"])
    c = table.client()
    assert 'class="course-link"' in c.get(f"/g/{gid}/table", headers=table.auth()).data.decode()
    assert "Nothing played yet" in c.get(f"/g/{gid}/course", headers=table.auth()).data.decode()
    for action in actions[:6]:
        table.act(gid, action)
    page = c.get(f"/g/{gid}/course", headers=table.auth()).data.decode()
    assert "Weather: 2 water" in page and 'data-chart="rations"' in page


def test_french_pages(table: Table) -> None:
    gid = _play(table, "pocket_complete_loss_collapse")
    c = table.client()
    c.set_cookie("lang", "fr")
    page = c.get(f"/g/{gid}/course", headers=table.auth()).data.decode()
    assert "Le déroulement de la partie" in page and "Populations" in page and "Tour" in page
    assert "Les chiffres en tableau" in page


def test_the_history_counts_one_game_in_the_singular(table: Table) -> None:
    """The history said « 1 games played to the end » (and « 1 parties jouées »)."""
    _play(table, "galerapagos_full_game")
    c = table.client()
    assert "1 game played to the end, 0 abandoned." in c.get("/history", headers=table.auth()).data.decode()
    c.set_cookie("lang", "fr")
    assert "1 partie jouée jusqu&#39;au bout, 0 abandonnée(s)." in c.get("/history", headers=table.auth()).data.decode()
    _play(table, "galerapagos_review_3p")
    c.set_cookie("lang", "en")
    assert "2 games played to the end, 0 abandoned." in c.get("/history", headers=table.auth()).data.decode()


def test_a_game_that_is_not_there_is_said_in_the_readers_language(table: Table) -> None:
    """/g/<id>/course and the BG Stats file of an unknown id said « There is no game 'nope'. » on a French page."""
    c = table.client()
    c.set_cookie("lang", "fr")
    for path in ("/g/nope/course", "/games/nope/bgstats.bgsplay", "/g/%3Cb%3E/course"):
        r = c.get(path, headers=table.auth())
        assert r.status_code == 404
        page = r.data.decode()
        assert "Il n&#39;y a pas de partie &#39;" in page and "There is no game" not in page and "<b>" not in page
    r = c.get("/api/games/nope", headers=table.auth())  # the API speaks English, as before
    assert r.status_code == 404 and r.json["error"]["message"] == "There is no game 'nope'."


def test_history_exports_carry_the_same_figures(table: Table) -> None:
    for name in ("dice_full_game", "dice_review_four_players_tie", "dice_two_player_variant"):
        _play(table, name)
    c = table.client()
    page = c.get("/history", headers=table.auth()).data.decode()
    assert re.search(r'<tr data-player="Ann"><th scope="row">Ann</th><td data-k="played">3</td><td data-k="won">2</td>', page)
    data = json.loads(c.get("/history/players.json", headers=table.auth()).data)
    ann = next(p for p in data["players"] if p["name"] == "Ann")
    assert (ann["played"], ann["won"], ann["shared"], ann["best_streak"]) == (3, 2, 1, 2)
    assert ann["head_to_head"]["Bob"] == {"together": 3, "ahead": 1, "behind": 1, "even": 1}
    rows = list(csv.DictReader(io.StringIO(c.get("/history/players.csv", headers=table.auth()).data.decode())))
    mine = next(r for r in rows if r["player"] == "Ann" and r["game"] == "*" and not r["opponent"])
    assert (mine["played"], mine["won"], mine["shared"]) == ("3", "2", "1")
    assert json.loads(c.get("/history.json", headers=table.auth()).data)["players"] == data["players"]
    assert c.get("/history", headers={}).status_code in (302, 401)
    other = json.loads(c.get("/history/players.json?game=galapagos-auction", headers=table.auth()).data)
    assert other["players"] == []
    assert EXPECTED  # the browser test checks the dozen; here three are enough


def test_bg_stats_link_and_file(table: Table) -> None:
    gid = _play(table, "dice_review_four_players_tie")
    c = table.client()
    home = c.get("/", headers=table.auth()).data.decode()
    link = re.search(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"', home).group(1)
    data = json.loads(parse_qs(urlsplit(link.replace("&amp;", "&")).query)["data"][0])
    assert [(p["name"], p["score"], p["winner"], p["rank"]) for p in data["players"]] == [
        ("Ann", 8, True, 1), ("Bob", 8, True, 1), ("Cy", 1, False, 3), ("Dee", 1, False, 3)]
    assert data["durationMin"] >= 1 and data["game"]["name"]
    f = json.loads(c.get(f"/games/{gid}/bgstats.bgsplay", headers=table.auth()).data)
    assert [p["name"] for p in f["players"]] == ["Ann", "Bob", "Cy", "Dee"]
    (play,) = f["plays"]
    assert play["gameRefId"] == f["games"][0]["id"]
    by_id = {p["id"]: p["name"] for p in f["players"]}
    assert {by_id[s["playerRefId"]]: (s["score"], s["winner"]) for s in play["playerScores"]} == {
        "Ann": ("8", True), "Bob": ("8", True), "Cy": ("1", False), "Dee": ("1", False)}
    unfinished = table.new_game("pocket-galapagos", ["Ann"])
    r = c.get(f"/games/{unfinished}/bgstats.bgsplay", headers=table.auth())
    assert r.status_code == 409 and "not over yet" in r.get_data(as_text=True)
