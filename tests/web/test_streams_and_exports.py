"""Streams and seats per person, the island check's body, the CSV export.

- one guest who claimed every free seat of every open game cannot hold all the live streams:
  one address follows a few seats at most, and the tablet keeps slots of its own;
- the island check reads its body through the shared JSON check: 60 KB of ``[`` is one
  sentence and 400 (it was a RecursionError and 500);
- the CSV export quotes every cell and neutralises a formula after any separator (``,``,
  ``;``, tab): a French spreadsheet splits on ``;``.
"""

from __future__ import annotations

import csv
import io

from companion.table.journal import Journal
from tests.support.dashboard import Table
from web.hub import Hub, LiveFull


def guest(table: Table, address: str = "10.7.0.7"):
    c = table.client()
    c.environ_base["REMOTE_ADDR"] = address
    return c


def test_one_guest_holding_every_free_seat_cannot_take_the_tablets_streams(table: Table) -> None:
    hub = table.dashboard.hub
    hub.max_feeds = 40
    gids = [table.new_game("galerapagos", ["Ann", "Bob", "Cleo", "Dan"]) for _ in range(5)]
    g = guest(table)
    seats = []
    for gid in gids:  # the guest has the codes: he claims every free seat
        for seat in ("Ann", "Bob", "Cleo", "Dan"):
            r = g.post("/api/join", json={"code": table.dashboard.keys.join_code(gid), "seat": seat})
            assert r.status_code == 201, r.json
            seats.append((gid, seat, r.json["token"]))
    opened, refused = [], []
    for gid, _seat, token in seats:
        for _tab in range(4):
            r = g.get(f"/api/games/{gid}/events", headers={"Authorization": f"Bearer {token}"}, buffered=False)
            (opened if r.status_code == 200 else refused).append(r)
    try:
        assert len(opened) <= hub.per_address  # was: every slot (here 40) taken by one guest
        assert refused and all(r.status_code == 429 for r in refused)
        assert "This device already" in refused[-1].json["error"]["message"]
        # another phone still goes live, and so do the tablet's own pages
        other = guest(table, "10.7.0.8")
        gid, _seat, token = seats[-1]  # a seat whose streams the guest was refused
        r = other.get(f"/api/games/{gid}/events", headers={"Authorization": f"Bearer {token}"},
                      buffered=False)
        assert r.status_code == 200
        opened.append(r)
        tablet = [table.client().get(f"/api/games/{gid}/events", headers=table.auth(), buffered=False) for gid in gids]
        opened += tablet
        assert all(t.status_code == 200 for t in tablet)
    finally:
        for r in reversed(opened):  # the test client's request contexts end in the reverse order
            r.close()


def test_the_tablet_keeps_slots_of_its_own_when_the_phones_fill_the_rest(tmp_path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        hub = Hub(journal, max_feeds=30, per_seat=4, table_slots=6)
        phones = []
        for n in range(40):  # many phones, each from its own address: they fill what is theirs
            try:
                feed = hub.feed("g", owner=f"seat:g:P{n}", address=f"10.0.0.{n}")
            except LiveFull:
                feed = None
            if feed is not None:
                phones.append(feed)
        assert len(phones) == 24
        table_feeds = [hub.feed("g", owner="table") for _ in range(6)]
        assert all(f is not None for f in table_feeds)  # was: None, the server full of phones
        assert hub.feed("g", owner="table") is None  # the server as a whole is full now


def test_one_address_follows_a_few_seats(tmp_path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        hub = Hub(journal, max_feeds=100, seats_per_address=3)
        for seat in ("A", "B", "C"):
            assert hub.feed("g", owner=f"seat:g:{seat}", address="10.0.0.1") is not None
        try:
            hub.feed("g", owner="seat:g:D", address="10.0.0.1")
        except LiveFull as full:
            assert "3 seats" in full.sentence
        else:
            raise AssertionError("a fourth seat's stream from the same address was let in")
        assert hub.feed("g", owner="seat:g:A", address="10.0.0.1") is not None  # another tab of a seat it follows
        assert hub.feed("g", owner="seat:g:D", address="10.0.0.2") is not None


def test_the_island_check_refuses_deep_nesting_with_one_sentence(table: Table) -> None:
    c = table.client()
    r = c.post("/setup/galapagos-dice/island/check", data=b"[" * 60_000,
               headers={**table.auth(), "Content-Type": "application/json"})
    assert r.status_code == 400, r.status_code  # was: 500 (RecursionError)
    assert r.json["error"]["message"].count(".") == 1 and "nested" in r.json["error"]["message"]
    ok = c.post("/setup/galapagos-dice/island/check", json={"cells": [{"hex": [0, 1], "colour": "red", "number": 1}]},
                headers=table.auth())
    assert ok.status_code == 200 and ok.json["ok"] is False  # a partial island: the rules' own sentence


def finish_a_pocket_game(table: Table, name: str) -> str:
    gid = table.new_game("pocket-galapagos", [name], {"turns": 1})
    r = table.act(gid, {"type": "end_turn"})
    assert r.status_code == 200, r.json
    return gid


def test_the_csv_quotes_every_cell_and_neutralises_a_formula_after_any_separator(table: Table) -> None:
    finish_a_pocket_game(table, "a;=cmd|'/C calc'!A0;")
    finish_a_pocket_game(table, "b;+1, -2")
    finish_a_pocket_game(table, "Jean-Luc @home")
    c = table.client()
    text = c.get("/history.csv", headers=table.auth()).get_data(as_text=True)
    lines = [line for line in text.splitlines() if line]
    assert all(line.startswith('"') and line.endswith('"') for line in lines)  # every cell quoted
    players = [row["player"] for row in csv.DictReader(io.StringIO(text))]
    assert "a;'=cmd|'/C calc'!A0;" in players  # was: unquoted, and =cmd a cell of its own after « ; »
    assert "b;'+1, '-2" in players
    assert "Jean-Luc @home" in players  # a dash or an @ inside a word starts nothing
    for separator in (",", ";", "\t"):  # split as any spreadsheet may: no part starts a formula
        for name in players:
            for part in name.split(separator):
                assert not part.strip().startswith(("=", "+", "-", "@")), (separator, name)
