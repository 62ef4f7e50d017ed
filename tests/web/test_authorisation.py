"""Who may do what: the table token, seat passes from joining, CSRF on cookies, join rate limits.

"An action for a seat needs that seat's token; table-wide actions need the
table token." "A missing or wrong token gets 401 or 403."
"""

from __future__ import annotations

from tests.support.dashboard import Table

TILE = {"type": "tile", "direction": "N", "animals": ["sea_lion", "iguana"]}


def _auction_in_bidding(table: Table) -> str:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    for d, pair in zip("NESW", (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"], ["sea_lion", "crab"]), strict=True):
        assert table.act(gid, {"type": "tile", "direction": d, "animals": pair}).status_code == 200
    return gid


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_no_token_is_401_with_a_json_message(table: Table) -> None:
    r = table.client().post("/api/games", json={"game": "pocket-galapagos", "players": ["Ann"]})
    assert r.status_code == 401
    assert r.headers["WWW-Authenticate"].startswith("Bearer")
    assert "token" in r.json["error"]["message"]


def test_a_wrong_table_token_is_403(table: Table) -> None:
    r = table.client().get("/api/games", headers=bearer("0" * 32))
    assert r.status_code == 403


def test_the_table_token_works_as_a_bearer_header_and_as_a_query_parameter(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    c = table.client()
    assert c.get(f"/api/games/{gid}", headers=table.auth()).status_code == 200
    assert c.get(f"/api/games/{gid}?token={table.token}").status_code == 200
    assert c.get(f"/api/games/{gid}?token=nope").status_code == 403


def test_a_seat_may_act_for_itself_but_not_for_another_seat(table: Table) -> None:
    gid = _auction_in_bidding(table)
    ann = table.join(table.client(), gid, "Ann")
    r = table.act(gid, {"type": "pass", "player": "Bob"}, headers=bearer(ann))
    assert r.status_code == 403
    assert r.json["error"]["message"] == "Ann cannot act for Bob."
    session = table.dashboard.hub.session(gid)
    assert [e.action["type"] for e in session.history()].count("pass") == 0  # the refused pass left no trace
    assert table.act(gid, {"type": "bid", "player": "Ann", "direction": "N", "amount": 200}, headers=bearer(ann)).status_code == 200
    last = session.history()[-1]
    assert last.action["player"] == "Ann" and last.author.to_json() == {"via": "phone", "seat": "Ann"}


def test_a_table_wide_action_needs_the_table_token(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    ann = table.join(table.client(), gid, "Ann")
    r = table.act(gid, TILE, headers=bearer(ann))
    assert r.status_code == 403
    assert table.act(gid, TILE).status_code == 200


def test_a_phone_cannot_turn_the_weather_card_though_it_may_name_a_player(table: Table) -> None:
    """Galèrapagos' weather card takes an optional player; turning it is still the table's."""
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    ann = table.join(table.client(), gid, "Ann")
    for action in ({"type": "weather", "water": 3}, {"type": "weather", "water": 3, "player": "Ann"}):
        r = table.act(gid, action, headers=bearer(ann))
        assert r.status_code == 403, r.json
        assert "whole table" in r.json["error"]["message"]
    assert table.act(gid, {"type": "weather", "water": 3}).status_code == 200


def test_the_table_may_act_for_a_seat_whose_player_has_no_phone(table: Table) -> None:
    gid = _auction_in_bidding(table)
    assert table.act(gid, {"type": "pass", "player": "Ann"}).status_code == 200
    last = table.dashboard.hub.session(gid).history()[-1]
    assert last.action == {"type": "pass", "player": "Ann"}
    assert last.author.to_json() == {"via": "table"}  # the tablet's move, not Ann's phone's


def test_a_forged_seat_token_is_refused(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    table.join(table.client(), gid, "Ann")
    forged = f"s.{gid}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    assert table.act(gid, {"type": "end_turn"}, headers=bearer(forged)).status_code == 403
    assert table.client().get(f"/api/games/{gid}", headers=bearer(forged)).status_code == 403


def test_a_seat_pass_does_not_open_another_game(table: Table) -> None:
    first = table.new_game("pocket-galapagos", ["Ann"])
    second = table.new_game("pocket-galapagos", ["Ann"])
    ann = table.join(table.client(), first, "Ann")
    assert table.client().get(f"/api/games/{second}", headers=bearer(ann)).status_code == 403
    assert table.act(second, {"type": "end_turn"}, headers=bearer(ann)).status_code == 403


def test_only_the_table_creates_games_and_lists_them(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    ann = table.join(table.client(), gid, "Ann")
    assert table.client().post("/api/games", json={"game": "pocket-galapagos", "players": ["X"]},
                               headers=bearer(ann)).status_code == 403
    assert table.client().get("/api/games", headers=bearer(ann)).status_code == 403


def test_a_seat_undoes_only_its_own_last_action_and_never_redoes(table: Table) -> None:
    gid = _auction_in_bidding(table)
    ann = table.join(table.client(), gid, "Ann")
    bob = table.join(table.client(), gid, "Bob")
    assert table.act(gid, {"type": "bid", "player": "Ann", "direction": "N", "amount": 200}, headers=bearer(ann)).status_code == 200
    c = table.client()
    assert c.post(f"/api/games/{gid}/undo", headers=bearer(bob)).status_code == 403
    r = c.post(f"/api/games/{gid}/undo", headers=bearer(ann))
    assert r.status_code == 200 and r.json["undo"]["player"] == "Ann"
    assert c.post(f"/api/games/{gid}/redo", headers=bearer(ann)).status_code == 403
    # the tiles were laid by the table: Ann cannot take them back
    assert c.post(f"/api/games/{gid}/undo", headers=bearer(ann)).status_code == 403


def test_joining_needs_the_right_code_and_a_free_seat(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    code = table.dashboard.keys.join_code(gid)
    c = table.client()
    wrong = "000000" if code != "000000" else "111111"
    assert c.post("/api/join", json={"code": wrong, "seat": "Ann"}).status_code == 403
    assert c.post("/api/join", json={"code": code, "seat": "Zed"}).status_code == 400
    r = c.post("/api/join", json={"code": code, "seat": "Ann"})
    assert r.status_code == 201
    assert f"seat-{gid}=" in r.headers["Set-Cookie"] and "HttpOnly" in r.headers["Set-Cookie"]
    r = table.client().post("/api/join", json={"code": code, "seat": "Ann"})
    assert r.status_code == 409
    assert "taken" in r.json["error"]["message"]


def test_the_table_frees_a_seat_and_the_old_pass_stops_working(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    old = table.join(table.client(), gid, "Ann")
    assert table.client().post(f"/api/games/{gid}/seats/Ann/release", headers=bearer(old)).status_code == 403
    assert table.client().post(f"/api/games/{gid}/seats/Ann/release", headers=table.auth()).status_code == 200
    assert table.act(gid, {"type": "end_turn"}, headers=bearer(old)).status_code == 403
    new = table.join(table.client(), gid, "Ann")
    assert table.act(gid, {"type": "end_turn"}, headers=bearer(new)).status_code == 200


def test_joins_are_rate_limited_per_address(table: Table, monkeypatch) -> None:
    from web import joining

    monkeypatch.setattr(joining, "GUESSES", 1000)  # the address's own limit, apart from the table-wide budget
    table.dashboard.joins.limit = 5
    c = table.client()
    statuses = [c.post("/api/join", json={"code": "123456", "seat": "Ann"}).status_code for _ in range(7)]
    assert statuses[:5] == [403] * 5
    assert statuses[5:] == [429, 429]
    r = c.post("/api/join", json={"code": "123456", "seat": "Ann"})
    assert int(r.headers["Retry-After"]) >= 1


def test_a_join_that_took_its_seat_is_given_back_to_the_join_limit(table: Table, monkeypatch) -> None:
    """A table of phones behind one address (or one tester with many tabs) is never held up: the join page that
    lists the seats and the join that takes one say openly that the code was right, and are given back (every
    other request counts, right code or not: tests/web/test_join_flood.py)."""
    from web import joining

    monkeypatch.setattr(joining, "GUESSES", 1000)  # the address's own limit, apart from the table-wide budget
    table.dashboard.joins.limit = 3
    gids = [table.new_game("pocket-galapagos", ["Ann"]) for _ in range(5)]
    for gid in gids:
        c = table.client()
        assert c.get(f"/join?code={table.dashboard.keys.join_code(gid)}").status_code == 200
        table.join(c, gid, "Ann")
    c = table.client()
    assert [c.post("/api/join", json={"code": "999999", "seat": "Ann"}).status_code for _ in range(4)] == [403] * 3 + [429]


def test_a_cookie_pass_needs_the_pages_csrf_token(table: Table) -> None:
    """A page's own requests carry X-CSRF-Token; a forged cross-site form cannot."""
    gid = table.new_game("pocket-galapagos", ["Ann"])
    phone = table.client()
    token = table.join(phone, gid, "Ann")  # the cookie is now in the phone's jar
    r = phone.post(f"/api/games/{gid}/actions", json={"type": "end_turn"})
    assert r.status_code == 403 and "security token" in r.json["error"]["message"]
    r = phone.post(f"/api/games/{gid}/actions", json={"type": "end_turn"}, headers={"X-CSRF-Token": "f" * 32})
    assert r.status_code == 403
    r = phone.post(f"/api/games/{gid}/actions", json={"type": "end_turn"},
                   headers={"X-CSRF-Token": table.csrf(token), "Origin": "http://evil.example"})
    assert r.status_code == 403
    r = phone.post(f"/api/games/{gid}/actions", json={"type": "end_turn"}, headers={"X-CSRF-Token": table.csrf(token)})
    assert r.status_code == 200


def test_the_printed_link_puts_the_table_token_in_a_cookie_and_drops_it_from_the_url(table: Table) -> None:
    c = table.client()
    r = c.get(f"/?token={table.token}")
    assert r.status_code == 302 and r.headers["Location"] == "/"
    assert "table=" in r.headers["Set-Cookie"] and "HttpOnly" in r.headers["Set-Cookie"]
    r = c.get("/")
    assert r.status_code == 200 and b"Start a game" in r.data


def test_the_table_cookie_needs_csrf_for_unsafe_requests_too(table: Table) -> None:
    c = table.client()
    c.get(f"/?token={table.token}")
    r = c.post("/api/games", json={"game": "pocket-galapagos", "players": ["Ann"]})
    assert r.status_code == 403
    r = c.post("/api/games", json={"game": "pocket-galapagos", "players": ["Ann"]},
               headers={"X-CSRF-Token": table.csrf(table.token)})
    assert r.status_code == 201


def test_the_table_acts_for_a_seat_held_by_a_phone_only_when_it_says_so(table: Table) -> None:
    """The tablet acts only for seats without a phone; for a phone's seat it must say it acts for
    that player, and the journal shows it."""
    gid = _auction_in_bidding(table)
    table.join(table.client(), gid, "Ann")
    refused = table.act(gid, {"type": "pass", "player": "Ann"})
    assert refused.status_code == 403 and "Ann has a phone" in refused.json["error"]["message"]
    r = table.client().post(f"/api/games/{gid}/actions?act_for=Ann", json={"type": "pass", "player": "Ann"},
                            headers=table.auth())
    assert r.status_code == 200
    session = table.dashboard.hub.session(gid)
    assert session.history()[-1].author.to_json() == {"via": "table", "for": "Ann"}


def _cards(table: Table, gid: str) -> dict[str, int]:
    pub = table.client().get(f"/api/games/{gid}", headers=table.auth()).json["state"]
    return {p["name"]: p["cards"] for p in pub["players"]}


def test_a_phone_never_plays_another_seats_cards(table: Table) -> None:
    """Every seat-bearing field is checked, not only ``player``: Ann's phone sending ``sick`` or
    ``heal`` with ``by: Bob`` (Bob's cards) is refused and Bob keeps his cards; with her own card it goes."""
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    assert table.act(gid, {"type": "weather", "water": 0, "hurricane": False}).status_code == 200
    ann = table.join(table.client(), gid, "Ann")
    before = _cards(table, gid)
    for kind in ("sick", "heal"):
        r = table.act(gid, {"type": kind, "player": "Ann", "by": "Bob"}, headers=bearer(ann))
        assert r.status_code == 403, (kind, r.json)
        assert r.json["error"]["message"].startswith("Ann cannot play Bob's cards")
    r = table.act(gid, {"type": "sick", "by": "Bob"}, headers=bearer(ann))  # ``player`` left out: still Bob's card
    assert r.status_code == 403
    assert _cards(table, gid) == before
    r = table.act(gid, {"type": "sick", "player": "Ann", "by": "Ann"}, headers=bearer(ann))
    assert r.status_code == 200, r.json
    assert _cards(table, gid)["Ann"] == before["Ann"] - 1 and _cards(table, gid)["Bob"] == before["Bob"]


def test_the_table_spends_a_phones_cards_only_when_it_says_it_acts_for_that_seat(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    assert table.act(gid, {"type": "weather", "water": 0, "hurricane": False}).status_code == 200
    table.join(table.client(), gid, "Bob")
    r = table.act(gid, {"type": "sick", "player": "Cleo", "by": "Bob"})
    assert r.status_code == 403 and "Bob has a phone" in r.json["error"]["message"]
    r = table.client().post(f"/api/games/{gid}/actions?act_for=Bob", json={"type": "sick", "player": "Cleo", "by": "Bob"},
                            headers=table.auth())
    assert r.status_code == 200, r.json
    assert table.dashboard.hub.session(gid).history()[-1].author.to_json() == {"via": "table", "for": "Bob"}
