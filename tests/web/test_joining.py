"""Joining a seat: a correct code always joins, guessing stays hopeless,
a seat the tablet plays needs its consent, and any name the rules accept has a URL."""

from __future__ import annotations

from urllib.parse import unquote

from tests.support.dashboard import Table
from web import joining


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_correct_code_joins_from_another_address_behind_the_same_table(table: Table) -> None:
    """The joining budget turned the old rule round: a locked address is refused before any comparison
    (tests/web/test_joining_budget.py); the other phones of the family still join."""
    table.dashboard.joins.limit = 2
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    wrong = "000000" if table.dashboard.keys.join_code(gid) != "000000" else "111111"
    c = table.client()
    c.environ_base["REMOTE_ADDR"] = "10.0.0.1"
    assert [c.post("/api/join", json={"code": wrong, "seat": "Ann"}).status_code for _ in range(3)] == [403, 403, 429]
    other = table.client()
    other.environ_base["REMOTE_ADDR"] = "10.0.0.2"
    r = other.post("/api/join", json={"code": table.dashboard.keys.join_code(gid), "seat": "Ann"})
    assert r.status_code == 201, r.json


def test_past_the_table_wide_guess_budget_a_join_needs_the_tablet(table: Table, monkeypatch) -> None:
    monkeypatch.setattr(joining, "GUESSES", 8)
    table.dashboard.joins.limit = 1000  # many addresses behind one: only the table-wide count is at work
    gids = [table.new_game("pocket-galapagos", ["Ann"]) for _ in range(2)]
    old = {g: table.dashboard.keys.join_code(g) for g in gids}
    guesses = [f"{n:06d}" for n in range(200) if f"{n:06d}" not in old.values()][:8]
    c = table.client()
    assert [c.post("/api/join", json={"code": code, "seat": "Ann"}).status_code for code in guesses] == [403] * 7 + [202]
    assert c.post("/api/join", json={"code": old[gids[0]], "seat": "Ann"}).status_code == 202  # the tablet's tap


def test_a_seat_the_tablet_plays_is_not_taken_without_its_consent(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    assert table.act(gid, {"type": "end_turn"}).status_code == 200  # the tablet plays Ann's turn
    code = table.dashboard.keys.join_code(gid)
    phone = table.client()
    r = phone.post("/api/join", json={"code": code, "seat": "Ann"})
    assert r.status_code == 409 and "played on the tablet" in r.json["error"]["message"]
    page = phone.get(f"/join?code={code}").get_data(as_text=True)
    assert 'value="Ann" class="seat-button" disabled' in page
    assert table.client().post(f"/api/games/{gid}/seats/Ann/open", headers=bearer("x" * 40)).status_code in (401, 403)
    assert phone.post(f"/api/games/{gid}/seats/Ann/open").status_code in (401, 403)  # a phone cannot consent
    assert table.join(phone, gid, "Ann", consent=True)  # the table lets a phone take it


def test_a_seat_nobody_played_from_the_tablet_is_free_and_freeing_a_seat_is_consent(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    first = table.join(table.client(), gid, "Ann", consent=False)
    assert table.act(gid, {"type": "end_turn"}, headers=bearer(first)).status_code == 200  # from the phone
    assert table.client().post(f"/api/games/{gid}/seats/Ann/release", headers=table.auth()).status_code == 200
    assert table.join(table.client(), gid, "Ann", consent=False)  # the table freed it: a new phone may take it


def test_names_made_of_dots_have_a_seat_page_a_link_and_a_release(table: Table) -> None:
    players = [".", "..", "Ann"]
    gid = table.new_game("pocket-galapagos", ["..."]) and table.new_game("galerapagos", players)
    tablet = table.client().get(f"/g/{gid}", headers=table.auth()).get_data(as_text=True)
    assert f'href="/g/{gid}/seat/~1"' in tablet and f'href="/g/{gid}/seat/~2"' in tablet
    phone = table.client()
    code = table.dashboard.keys.join_code(gid)
    r = phone.post("/join", data={"code": code, "seat": ".."})
    assert r.status_code == 302 and unquote(r.headers["Location"]).endswith(f"/g/{gid}/seat/~2")
    page = phone.get(r.headers["Location"])
    assert page.status_code == 200 and 'data-seat=".."' in page.get_data(as_text=True)
    assert phone.get(f"/g/{gid}/seat/~1").status_code == 403  # another seat, not a 404
    assert table.client().post(f"/api/games/{gid}/seats/~2/release", headers=table.auth()).status_code == 200
    assert ".." not in table.dashboard.seats.claimed(gid)


def test_seat_segments_read_back_to_the_name() -> None:
    players = [".", "..", "~2", "Jo #2", "a/b"]
    for name in players:
        seg = joining.seat_segment(name)
        assert "." * len(seg) != seg or not seg
        assert joining.seat_from_segment(unquote(seg), players) == name


def test_an_abandoned_games_code_no_longer_opens_it(table: Table) -> None:
    from companion.table.library import Library

    gid = table.new_game("pocket-galapagos", ["Ann"])
    code = table.dashboard.keys.join_code(gid)
    Library(table.dashboard.hub.journal).abandon(gid)
    r = table.client().post("/api/join", json={"code": code, "seat": "Ann"})
    assert r.status_code == 403 and "does not open any game" in r.json["error"]["message"]
    assert "does not open any game" in table.client().get(f"/join?code={code}").get_data(as_text=True)
