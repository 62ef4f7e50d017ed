"""Hostile and unlucky input on the dashboard: names that break URLs, the open redirect, the CSV,
a freed seat's open stream, one pass holding every slot, numbers JSON cannot write, a full card."""

from __future__ import annotations

import csv
import html
import io
import re
import threading
import time
from urllib.parse import quote, urljoin, urlsplit

import pytest

from companion.table.rows import NOT_RECORDED
from companion.table.session import Session
from hw.network import NetworkError
from tests.support.dashboard import Table
from tests.web.test_events import open_stream

NAMES = ["Jo #2", "A/B", "Zoé?x"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# -- names in URLs ------------------------------------------------------------------------------

def test_a_seat_whose_name_holds_slash_hash_or_question_mark_is_reachable(table: Table) -> None:
    gid = table.new_game("galapagos-auction", NAMES)
    for name in NAMES:
        r = table.client().get(f"/g/{gid}/seat/{quote(name, safe='')}", headers=table.auth())
        assert r.status_code == 200, (name, r.status_code)
        assert html.escape(name) in r.data.decode()


def test_the_tablet_links_each_seat_to_its_own_page(table: Table) -> None:
    gid = table.new_game("galapagos-auction", NAMES)
    html = table.client().get(f"/g/{gid}/table", headers=table.auth()).data.decode()
    links = re.findall(rf'href="(/g/{gid}/seat/[^"]*)"', html)
    assert links, "the table page links no seat"
    for link in links:  # each link opens a seat page, and together they open every seat
        assert "#" not in link and "?" not in link
        assert table.client().get(link, headers=table.auth()).status_code == 200
    assert len(set(links)) == len(NAMES)


def test_joining_a_seat_named_with_a_slash_lands_on_that_seat_and_it_can_be_freed(table: Table) -> None:
    gid = table.new_game("galapagos-auction", NAMES)
    phone = table.client()
    code = table.dashboard.keys.join_code(gid)
    r = phone.post("/join", data={"code": code, "seat": "A/B"})
    assert r.status_code == 302
    assert phone.get(r.headers["Location"]).status_code == 200  # not a 404 with the seat taken
    r = table.client().post(f"/api/games/{gid}/seats/{quote('A/B', safe='')}/release", headers=table.auth())
    assert r.status_code == 200 and r.json["released"] == "A/B"
    assert "A/B" not in table.dashboard.seats.claimed(gid)


# -- the open redirect --------------------------------------------------------------------------

@pytest.mark.parametrize("target", ["/\t/evil.example/", "//evil.example/", "/\\evil.example", "https://evil.example/",
                                    "/\n/evil.example", "\t//evil.example", "/%09/evil.example/"])
def test_the_language_switch_never_sends_a_phone_to_another_site(table: Table, target: str) -> None:
    r = table.client().get("/lang/fr", query_string={"next": target})
    assert r.status_code == 302
    location = r.headers["Location"]
    assert location.startswith("/") and not location.startswith(("//", "/\\"))
    assert not any(ord(c) < 33 for c in location)  # browsers drop tabs and newlines: none may be left
    assert urlsplit(urljoin("http://table.local/g/x", location)).netloc == "table.local"


def test_the_language_switch_keeps_a_seat_page_with_an_odd_name(table: Table) -> None:
    r = table.client().get("/lang/fr", query_string={"next": "/g/abc/seat/Jo #2"})
    assert r.headers["Location"] == "/g/abc/seat/Jo%20%232"


# -- the CSV ------------------------------------------------------------------------------------

def test_the_history_csv_cannot_carry_a_formula(table: Table) -> None:
    journal = table.dashboard.hub.journal
    names = ['=HYPERLINK("http://evil.example","x")', "+1", "-2+3", "@SUM(A1)", "Ann"]
    rec = journal.create_game("galerapagos", names, {})
    with journal.transaction() as db:
        journal.set_result(db, rec.id, {"reason": "=cmd|' /C calc'!A0", "text": "", "winners": ["Ann"],
                                        "scores": {n: 1 for n in names}})
    r = table.client().get("/history.csv", headers=table.auth())
    rows = list(csv.DictReader(io.StringIO(r.data.decode())))
    assert [row["player"] for row in rows] == ["'" + n for n in names[:4]] + ["Ann"]
    assert all(not row["reason"].startswith("=") for row in rows)
    assert all(row["score"] == "1" for row in rows)  # numbers stay numbers


# -- live streams: a freed seat, a revoked pass, one pass holding every slot ----------------------

def test_freeing_a_seat_ends_its_open_stream_at_once(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    token = table.join(table.client(), gid, "Ann")
    stream = open_stream(table, gid, headers=bearer(token))
    stream.next_state()
    release = lambda: table.client().post(f"/api/games/{gid}/seats/Ann/release", headers=table.auth())  # noqa: E731
    started = time.monotonic()
    threading.Timer(0.1, release).start()
    messages = []
    with pytest.raises(StopIteration):
        while time.monotonic() - started < 5:
            messages.append(stream.next_message())
    assert time.monotonic() - started < 3, "the freed seat's stream kept running"
    assert not any('"state"' in m for m in messages)  # nothing of the game after the seat was freed
    assert any(m.startswith("event: revoked") for m in messages)  # but the page is told why
    assert table.dashboard.hub.feed_count() == 0


def test_a_stream_whose_pass_was_revoked_elsewhere_sends_nothing_more(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    token = table.join(table.client(), gid, "Ann")
    stream = open_stream(table, gid, headers=bearer(token))
    stream.next_state()
    table.dashboard.seats.release(gid, "Ann")  # as another process would: no hub call
    table.act(gid, {"type": "tile", "direction": "N", "animals": ["sea_lion", "iguana"]})
    text = stream.next_message()
    while text.startswith(":"):
        text = stream.next_message()
    assert text.startswith("event: revoked") and '"state"' not in text
    with pytest.raises(StopIteration):
        stream.next_message()


def test_one_seat_cannot_take_every_live_slot(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    token = table.join(table.client(), gid, "Ann")
    hub = table.dashboard.hub
    streams = [open_stream(table, gid, headers=bearer(token)) for _ in range(hub.per_seat)]
    try:
        r = table.client().get(f"/api/games/{gid}/events", headers=bearer(token))
        assert r.status_code == 429 and r.is_json and "Retry-After" in r.headers
        assert "live pages open" in r.json["error"]["message"]
        bob = table.join(table.client(), gid, "Bob")
        other = open_stream(table, gid, headers=bearer(bob))  # everyone else still gets a slot
        other.close()
    finally:
        for s in reversed(streams):
            s.close()


def test_a_seat_link_with_its_token_goes_live(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    token = table.join(table.client(), gid, "Ann")
    phone = table.client()
    r = phone.get(f"/g/{gid}/seat/Ann?token={token}")
    assert r.status_code == 302 and "token=" not in r.headers["Location"]
    assert phone.get(r.headers["Location"]).status_code == 200
    live = phone.get(f"/api/games/{gid}/events?view=seat&seat=Ann&role=seat", buffered=False)
    try:
        assert live.status_code == 200  # the page's EventSource carries the cookie: it goes live
    finally:
        live.close()


def test_a_new_join_code_on_request_closes_the_old_one(table: Table) -> None:
    keys, seats = table.dashboard.keys, table.dashboard.seats
    keys.nonces = seats.code_nonce  # as companion/cli/app.py wires it
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    old = keys.join_code(gid)
    r = table.client().post(f"/api/games/{gid}/join-code", headers=table.auth())
    assert r.status_code == 200 and r.json["join_code"] != old
    assert table.client().post("/api/join", json={"code": old, "seat": "Ann"}).status_code == 403
    assert table.client().post("/api/join", json={"code": r.json["join_code"], "seat": "Ann"}).status_code == 201
    token = table.join(table.client(), gid, "Bob")
    assert table.client().post(f"/api/games/{gid}/join-code", headers=bearer(token)).status_code == 403


# -- numbers and JSON -------------------------------------------------------------------------

@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_non_finite_option_is_refused_by_the_api_and_nothing_is_stored(table: Table, literal: str) -> None:
    body = '{"game": "galapagos-dice", "players": ["Ann", "Bob"], "options": {"timer_seconds": ' + literal + "}}"
    r = table.client().post("/api/games", data=body, content_type="application/json", headers=table.auth())
    assert r.status_code == 400 and r.is_json
    assert table.dashboard.hub.journal.games() == []


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "1e999", "1" + "0" * 5000, "[" * 20000])
def test_a_non_finite_option_from_the_form_is_refused_with_a_sentence(table: Table, literal: str) -> None:
    c = table.client()
    c.get(f"/?token={table.token}")
    csrf = table.csrf(table.token)
    r = c.post("/games", data={"game": "galapagos-dice", "players": "Ann\nBob", "csrf": csrf,
                               "options": '{"timer_seconds": ' + literal + '}'},
               headers={"X-Companion-Role": "table"})
    assert r.status_code == 400
    assert b"Traceback" not in r.data
    assert table.dashboard.hub.journal.games() == []


@pytest.mark.parametrize("body", [
    '{"type": "end_turn", "x": ' + "[" * 1800 + "]" * 1800 + "}",
    '{"type": "population", "species": "\\ud800", "change": 1}',
    '{"type": "population", "species": "rat", "change": NaN}',
])
def test_hostile_action_bodies_get_a_400_not_a_500(table: Table, body: str) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    r = table.client().post(f"/api/games/{gid}/actions", data=body, content_type="application/json",
                            headers=table.auth())
    assert r.status_code == 400 and r.is_json, r.data[:200]


def test_an_integer_over_python_s_digit_limit_is_a_400(table: Table) -> None:
    body = '{"game": "galapagos-dice", "players": ["Ann", "Bob"], "options": {"timer_seconds": 1%s}}' % ("0" * 5000)
    r = table.client().post("/api/games", data=body, content_type="application/json", headers=table.auth())
    assert r.status_code == 400 and r.is_json


def test_an_unknown_field_is_a_400_as_the_api_doc_says(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    r = table.act(gid, {"type": "end_turn", "colour": "red"})
    assert r.status_code == 400 and "colour" in r.json["error"]["message"]


def test_a_refusal_never_echoes_control_characters(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    r = table.act(gid, {"type": "x\r\nSet-Cookie: evil=1"})
    message = r.json["error"]["message"]
    assert "\r" not in message and "\n" not in message


def test_the_setup_page_takes_any_seed_text(table: Table) -> None:
    c = table.client()
    for seed in ["1" * 5000, "²", "-3", "12abc"]:
        assert c.get("/setup", query_string={"seed": seed}, headers=table.auth()).status_code == 200


def test_a_body_over_the_limit_is_a_json_413(table: Table) -> None:
    r = table.client().post("/api/games", data=b"{" + b" " * (300 * 1024) + b"}", content_type="application/json",
                            headers=table.auth())
    assert r.status_code == 413 and r.is_json


# -- a full or read-only card -------------------------------------------------------------------

def test_a_card_that_refuses_writes_is_a_503_with_the_sentence(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    journal = table.dashboard.hub.journal
    journal.readonly = True  # what Journal does when the card is read-only
    try:
        r = table.act(gid, {"type": "end_turn"})
        assert r.status_code == 503 and r.json["error"]["message"] == NOT_RECORDED
        assert r.headers["Retry-After"] == "30"
        page = table.client().post(f"/games/{gid}/abandon", data={"csrf": table.csrf(table.token)},
                                   headers=table.auth())
        assert page.status_code == 503 and html.escape(NOT_RECORDED, quote=False) in page.get_data(as_text=True)
        r = table.client().post(f"/api/games/{gid}/undo", headers=table.auth())
        assert r.status_code in (409, 503)
        r = table.client().post("/api/games", json={"game": "pocket-galapagos", "players": ["B"], "options": {}},
                                headers=table.auth())
        assert r.status_code == 503 and r.json["error"]["message"] == NOT_RECORDED
        assert table.client().get(f"/api/games/{gid}", headers=table.auth()).status_code == 200  # reading works
    finally:
        journal.readonly = False
    assert table.act(gid, {"type": "end_turn"}).status_code == 200
    r = table.act(gid, {"type": "population", "species": "dodo", "change": 1})  # a refusal: never the card's answer
    assert r.status_code == 409 and "dodo" in r.json["error"]["message"] and "Retry-After" not in r.headers, r.json


def test_a_game_the_journal_cannot_replay_is_its_own_sentence_and_a_missing_one_a_404(table: Table) -> None:
    """A storage failure of one game (a line today's rules refuse) is a 409 with its sentence, page and API
    alike, and the other games play on; a game looked up and not there is a 404."""
    good, journal = table.new_game("pocket-galapagos", ["Bob"]), table.dashboard.hub.journal
    bad = Session.new(journal, "pocket-galapagos", ["Ann"]).id  # journalled by another process, not yet opened here
    with journal.transaction() as db:
        journal.append(db, bad, {"type": "end_turn", "from_a_newer_version": 1}, "old")
    r = table.client().get(f"/api/games/{bad}", headers=table.auth())
    assert r.status_code == 409 and "cannot be replayed at journal entry 1" in r.json["error"]["message"]
    page = table.client().get(f"/g/{bad}/table", headers=table.auth())
    assert page.status_code == 409 and "cannot be replayed" in page.get_data(as_text=True)
    assert table.act(good, {"type": "end_turn"}).status_code == 200
    r = table.client().get("/api/games/nosuchgame", headers=table.auth())
    assert r.status_code == 404 and "There is no game 'nosuchgame'" in r.json["error"]["message"]


def test_a_device_down_under_a_route_is_a_503_with_its_sentence(table: Table) -> None:
    """nmcli failing while the tablet asks for the hotspot's QR: the device's sentence, never a 500."""
    def down() -> None:
        raise NetworkError("NetworkManager is not running: sudo systemctl start NetworkManager.")

    table.dashboard.wifi = down
    r = table.client().get("/wifi.svg", headers=table.auth())
    assert r.status_code == 503 and "NetworkManager is not running" in r.get_data(as_text=True)
