"""The server-rendered pages: home, table, seat, joining, languages, set-up, history exports."""

from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

from flask.testing import FlaskClient

from tests.support.dashboard import Table


def tablet(table: Table) -> FlaskClient:
    """A browser that opened the printed link (the table cookie is set)."""
    c = table.client()
    assert c.get(f"/?token={table.token}").status_code == 302
    return c


def csrf_of(html: bytes) -> str:
    return re.search(rb'name="csrf-token" content="([0-9a-f]*)"', html).group(1).decode()


def lose_a_pocket_game(table: Table) -> str:
    """Three turns from the default start: every population reaches 0 (seed 003's loss)."""
    gid = table.new_game("pocket-galapagos", ["Ann"])
    for _ in range(3):
        assert table.act(gid, {"type": "end_turn"}).status_code == 200
    return gid


def test_home_without_the_table_token_sends_a_phone_to_the_join_page(table: Table) -> None:
    r = table.client().get("/")
    assert r.status_code == 302 and r.headers["Location"] == "/join"
    r = table.client().get("/join")
    assert r.status_code == 200 and b"six digits" in r.data


def test_home_lists_games_to_start_and_games_to_resume(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    page = tablet(table).get("/").data.decode()
    for name in ("Galapagos", "Pocket Galapagos", "Galèrapagos"):
        assert name in page
    assert f'href="/g/{gid}/table"' in page and "On the table" in page


def test_starting_a_game_from_the_form_needs_the_csrf_field(table: Table) -> None:
    c = tablet(table)
    form = {"game": "galapagos-auction", "players": "Ann\nBob\nCleo", "options": "{}"}
    assert c.post("/games", data=form).status_code == 403
    csrf = csrf_of(c.get("/").data)
    r = c.post("/games", data={**form, "csrf": csrf})
    assert r.status_code == 302
    gid = r.headers["Location"].split("/")[2]
    state = c.get(f"/api/games/{gid}").json["state"]
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob", "Cleo"]


def test_a_dice_game_started_from_the_form_gets_a_random_island(table: Table) -> None:
    c = tablet(table)
    csrf = csrf_of(c.get("/").data)
    r = c.post("/games", data={"game": "galapagos-dice", "players": "Ann\nBob", "options": "{}", "csrf": csrf})
    gid = r.headers["Location"].split("/")[2]
    page = c.get(f"/g/{gid}/table").data.decode()
    assert page.count('class="hex"') == 36


def test_the_table_view_shows_the_join_code_and_a_qr_code(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    c = tablet(table)
    page = c.get(f"/g/{gid}/table").data.decode()
    code = table.dashboard.keys.join_code(gid)
    assert f"{code[:3]} {code[3:]}" in page
    qr = c.get(f"/g/{gid}/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and b"<svg" in qr.data


def test_a_phone_joins_through_the_pages_and_lands_on_its_seat(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    code = table.dashboard.keys.join_code(gid)
    phone = table.client()
    page = phone.get(f"/join?code={code}").data.decode()
    assert 'value="Ann"' in page and 'value="Bob"' in page
    r = phone.post("/join", data={"code": code, "seat": "Bob"})
    assert r.status_code == 302 and r.headers["Location"] == f"/g/{gid}/seat/Bob"
    seat = phone.get(f"/g/{gid}/seat/Bob")
    assert seat.status_code == 200 and "£1500" in seat.data.decode()
    assert phone.get(f"/g/{gid}/seat/Ann").status_code == 403
    taken = table.client().get(f"/join?code={code}").data.decode()
    assert re.search(r'value="Bob"[^>]*disabled', taken)


def test_the_auction_phone_shows_costs_before_the_player_chooses(table: Table) -> None:
    """A player sees "crab £600" before choosing; the phone shows the education prices."""
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    c = tablet(table)
    page = c.get(f"/g/{gid}/seat/Ann").data.decode()
    for step, price in ((1, 100), (2, 300), (3, 600), (4, 1000)):
        assert f"+{step}</td><td class=\"\">£{price}" in page


def test_a_stale_seat_cookie_on_a_page_is_403_not_a_crash(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    phone = table.client()
    table.join(phone, gid, "Ann")
    table.client().post(f"/api/games/{gid}/seats/Ann/release", headers=table.auth())
    r = phone.get(f"/g/{gid}/seat/Ann")
    assert r.status_code == 403 and b"join the table again" in r.data


def test_each_phone_chooses_its_language(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    fr, en = table.client(), table.client()
    table.join(fr, gid, "Ann")
    table.join(en, gid, "Bob")
    r = fr.get(f"/lang/fr?next=/g/{gid}/seat/Ann")
    assert r.headers["Location"] == f"/g/{gid}/seat/Ann"
    page = fr.get(f"/g/{gid}/seat/Ann").data.decode()
    assert '<html lang="fr">' in page and "En attente de" in page and "nourriture" in page
    assert "Waiting for" in en.get(f"/g/{gid}/seat/Bob").data.decode()


def test_the_language_switch_only_redirects_inside_the_site(table: Table) -> None:
    r = table.client().get("/lang/fr?next=https://evil.example/")
    assert r.headers["Location"] == "/"
    r = table.client().get("/lang/fr?next=//evil.example/")
    assert r.headers["Location"] == "/"


def test_history_exports_csv_and_json_with_the_result(table: Table) -> None:
    gid = lose_a_pocket_game(table)
    c = tablet(table)
    rows = list(csv.DictReader(io.StringIO(c.get("/history.csv").data.decode())))
    assert rows == [{"game_id": gid, "game": "pocket-galapagos", "created": rows[0]["created"],
                     "finished": rows[0]["finished"], "seat": "1", "player": "Ann", "score": "2",
                     "winner": "False", "reason": "populations_collapsed"}]
    games = json.loads(c.get("/history.json").data)["games"]
    assert games[0]["id"] == gid and games[0]["result"]["reason"] == "populations_collapsed"
    assert table.client().get("/history.csv").status_code == 401


def test_finished_games_have_a_bg_stats_import_link_and_statistics(table: Table) -> None:
    lose_a_pocket_game(table)
    page = tablet(table).get("/").data.decode()
    link = re.search(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"', page).group(1)
    data = json.loads(parse_qs(urlsplit(link.replace("&amp;", "&")).query)["data"][0])
    assert data["game"]["name"] == "Pocket Galapagos"
    assert data["players"] == [{"name": "Ann", "score": 2, "winner": False, "startPlayer": True, "rank": 1,
                                "sourcePlayerId": "Ann"}]
    assert re.search(r"<th>Ann</th><td>1</td><td>0</td>", page)


def test_setup_draws_an_island_to_build_and_the_weather_deck(table: Table) -> None:
    c = tablet(table)
    page = c.get("/setup?seed=42").data.decode()
    assert page.count('class="hex"') == 36
    assert "seed <b>42</b>" in page
    assert page == c.get("/setup?seed=42").data.decode()  # the same seed builds the same island
    assert "Weather deck" in page and "hurricane" in page.lower()


def test_pages_send_security_headers(table: Table) -> None:
    r = table.client().get("/join")
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["Referrer-Policy"] == "no-referrer"


def test_a_phone_that_already_holds_a_seat_is_sent_back_to_it(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    phone = table.client()
    table.join(phone, gid, "Ann")
    page = phone.get(f"/join?code={table.dashboard.keys.join_code(gid)}").data.decode()
    assert f'href="/g/{gid}/seat/Ann"' in page
