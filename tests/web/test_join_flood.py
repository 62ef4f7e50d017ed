"""Joining that cannot be probed or flooded, from many loopback addresses.

- every request counts against its address and the table, right code or wrong, real seat or made-up:
  ten candidate codes and one more request get the same answers whether a candidate was right;
- once the table's budget of wrong codes is spent, the codes of the open games are renewed and
  shown on the tablet (and the OLED follows the current game);
- waiting requests are capped per address and per seat name, one prompt per name with its count;
  a flood from a hundred addresses never evicts another address's request;
- refusing a name refuses every phone that asked for it and renews the game's code.
"""

from __future__ import annotations

import itertools

import pytest

from tests.support.dashboard import Table
from web import joining


def phone(table: Table, address: str):
    c = table.client()
    c.environ_base["REMOTE_ADDR"] = address
    return c


def wrong_codes(table: Table, gids: list[str], start: int = 0):
    taken = {table.dashboard.keys.join_code(g) for g in gids}
    return (c for c in (f"{i:06d}" for i in itertools.count(start)) if c not in taken)


def spend_the_budget(table: Table, gids: list[str]) -> None:
    codes = wrong_codes(table, gids, 900_000)
    for n in range(joining.GUESSES):
        phone(table, f"127.0.9.{n + 1}").post("/api/join", json={"code": next(codes), "seat": "Ann"})
    with table.app.app_context():
        assert joining.needs_tap()


def shape(r) -> tuple:
    """What a guesser sees of an answer: its status, headers that vary, and its body without the handle."""
    body = r.get_json(silent=True) or {}
    if isinstance(body.get("pending"), str):
        body = {**body, "pending": len(body["pending"])}
    return r.status_code, r.headers.get("Retry-After"), r.headers.get("Content-Length") is not None, body


@pytest.mark.parametrize("budget_spent", [False, True])
def test_ten_candidates_then_one_more_tell_nothing_of_a_right_code(tmp_path, budget_spent: bool) -> None:
    """The oracle of a lock that counted wrong codes only: ten candidates with a made-up seat, then one more
    request. Whether one of the ten was right, every answer is the same (past the budget) and the lock
    falls at the same request."""
    from tests.support.dashboard import open_table

    seen = []
    for right_among_them in (False, True):
        opened = open_table(tmp_path / str(right_among_them))
        table = next(opened)
        table.dashboard.joins.limit = 10
        gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
        if budget_spent:
            spend_the_budget(table, [gid])
        candidates = list(itertools.islice(wrong_codes(table, [gid], 500_000), 10))
        if right_among_them:
            candidates[4] = table.dashboard.keys.join_code(gid)
        c = phone(table, "127.0.5.5")
        answers = [c.post("/api/join", json={"code": code, "seat": "Nobody-at-this-table"}) for code in candidates]
        answers.append(c.post("/api/join", json={"code": candidates[0], "seat": "Nobody-at-this-table"}))
        seen.append([shape(r) for r in answers])
        assert answers[-1].status_code == 429  # the eleventh request, right code or not among the ten
        opened.close()
    if budget_spent:
        assert seen[0] == seen[1]
    else:  # before the budget a wrong code is told wrong (that is what the budget pays for); the lock still
        assert [s[0] for s in seen[0]][-1] == [s[0] for s in seen[1]][-1] == 429  # counts the right code too


def test_a_right_code_with_a_made_up_seat_counts_against_the_address(table: Table) -> None:
    table.dashboard.joins.limit = 3
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    code = table.dashboard.keys.join_code(gid)
    c = phone(table, "127.0.6.1")
    got = [c.post("/api/join", json={"code": code, "seat": "Zed"}).status_code for _ in range(4)]
    assert got == [400, 400, 400, 429]
    assert phone(table, "127.0.6.2").post("/api/join", json={"code": code, "seat": "Ann"}).status_code == 201


def test_spending_the_budget_renews_every_open_games_code_and_the_tablet_shows_it(table: Table) -> None:
    gids = [table.new_game("galerapagos", ["Ann", "Bob", "Cleo"]) for _ in range(3)]
    old = {g: table.dashboard.keys.join_code(g) for g in gids}
    table.dashboard.hub.set_current(gids[2])
    oled: list[str] = []  # the OLED's controller is made anew with the join link of the current game
    table.dashboard.hub.on_current(lambda s: oled.append(table.dashboard.keys.join_code(s.id)))
    spend_the_budget(table, gids)
    new = {g: table.dashboard.keys.join_code(g) for g in gids}
    assert all(new[g] != old[g] for g in gids)
    assert oled == [new[gids[2]]]
    page = table.client().get(f"/g/{gids[0]}/table", headers=table.auth()).get_data(as_text=True)
    assert f"{new[gids[0]][:3]} {new[gids[0]][3:]}" in page and f"{old[gids[0]][:3]} {old[gids[0]][3:]}" not in page
    page = table.client().get(f"/g/{gids[1]}/table", headers=table.auth()).get_data(as_text=True)
    assert f"{new[gids[1]][:3]} {new[gids[1]][3:]}" in page
    # the old code now asks the tablet nothing: its request is never shown
    r = phone(table, "127.0.7.1").post("/api/join", json={"code": old[gids[0]], "seat": "Ann"})
    assert r.status_code == 202
    assert table.client().get(f"/api/games/{gids[0]}/join-requests", headers=table.auth()).json["requests"] == []


def test_a_flood_from_a_hundred_addresses_never_evicts_a_real_phones_request(table: Table) -> None:
    """Someone glimpsed the QR: the right code from a hundred addresses, for every name and made-up ones.
    The real phone that asked first keeps its request; the tablet shows one prompt per name, with its count."""
    table.dashboard.joins.limit = 10**6
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    spend_the_budget(table, [gid])
    code = table.dashboard.keys.join_code(gid)
    real = phone(table, "127.0.1.1")
    mine = real.post("/api/join", json={"code": code, "seat": "Cleo"}).json["pending"]
    for i in range(100):
        flood = phone(table, f"127.1.{i}.1")
        for n in range(12):
            seat = ["Ann", "Bob", "Cleo", f"X{n}"][(i + n) % 4]
            assert flood.post("/api/join", json={"code": code, "seat": seat}).status_code == 202
    assert real.post(f"/api/join/requests/{mine}").status_code == 202  # still waiting: not evicted
    prompts = table.client().get(f"/api/games/{gid}/join-requests", headers=table.auth()).json["requests"]
    assert sorted(p["seat"] for p in prompts) == ["Ann", "Bob", "Cleo"]  # one prompt per name, real names only
    cleo = next(p for p in prompts if p["seat"] == "Cleo")
    assert cleo["id"] == mine and cleo["count"] == joining.PER_SEAT  # capped per name, the real phone first
    with table.app.app_context():
        waiting = joining.requests().items.values()
        assert max(sum(1 for r in waiting if r.address == a) for a in {r.address for r in waiting}) <= joining.PER_ADDRESS
    page = table.client().get(f"/g/{gid}/table", headers=table.auth()).get_data(as_text=True)
    assert page.count('class="banner warn join-request"') == 3
    assert f"{joining.PER_SEAT} phones want to join as Cleo" in page
    # several phones for one name cannot be told apart: allowing is refused, refusing renews the code
    r = table.client().post(f"/api/games/{gid}/join-requests/{mine}", json={"allow": True}, headers=table.auth())
    assert r.status_code == 409 and "refuse them" in r.json["error"]["message"]
    r = table.client().post(f"/api/games/{gid}/join-requests/{mine}", json={"allow": False}, headers=table.auth())
    assert r.status_code == 200
    assert real.post(f"/api/join/requests/{mine}").status_code == 403
    assert table.dashboard.keys.join_code(gid) != code
    left = table.client().get(f"/api/games/{gid}/join-requests", headers=table.auth()).json["requests"]
    assert sorted(p["seat"] for p in left) == ["Ann", "Bob"]


def test_an_address_keeps_only_its_own_newest_requests(table: Table) -> None:
    table.dashboard.joins.limit = 10**6
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    spend_the_budget(table, [gid])
    code = table.dashboard.keys.join_code(gid)
    other = phone(table, "127.0.2.2").post("/api/join", json={"code": code, "seat": "Bob"}).json["pending"]
    c = phone(table, "127.0.2.1")
    handles = [c.post("/api/join", json={"code": code, "seat": "Ann"}).json["pending"] for _ in range(5)]
    answers = [c.post(f"/api/join/requests/{h}").status_code for h in handles]
    assert answers == [403] * (5 - joining.PER_ADDRESS) + [202] * joining.PER_ADDRESS
    assert phone(table, "127.0.2.2").post(f"/api/join/requests/{other}").status_code == 202
