"""Joining that cannot be guessed, and the code typed as it is shown.

- a locked address gets its refusal before any comparison (it used to learn the right code: 201);
- the wrong codes of every address share one budget; past it no code opens a seat by itself, the
  answer is the same for a right and a wrong code, and the tablet's tap lets a phone in;
- the target, by computation and by a brute force at full speed from many addresses: the chance
  of a seat without the tablet's tap over six hours against 25 open games is below 1 in 10,000;
- a code expires once its game's seats are all taken, or when the tablet closes joining;
- a renewal a full or read-only card refuses never clears the counter.
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


def wrong_code(table: Table, gids: list[str], n: int = 0) -> str:
    taken = {table.dashboard.keys.join_code(g) for g in gids}
    return next(c for c in (f"{i:06d}" for i in itertools.count(n)) if c not in taken)


def test_a_locked_address_is_refused_before_its_code_is_compared(table: Table) -> None:
    table.dashboard.joins.limit = 2
    gid = table.new_game("pocket-galapagos", ["Ann"])
    c = phone(table, "10.0.0.9")
    bad = wrong_code(table, [gid])
    assert [c.post("/api/join", json={"code": bad, "seat": "Ann"}).status_code for _ in range(2)] == [403, 403]
    right = table.dashboard.keys.join_code(gid)
    r = c.post("/api/join", json={"code": right, "seat": "Ann"})
    assert r.status_code == 429 and "wait" in r.json["error"]["message"]  # was 201: the lock told right from wrong
    assert "wait" in c.get(f"/join?code={right}").get_data(as_text=True)
    assert phone(table, "10.0.0.10").post("/api/join", json={"code": right, "seat": "Ann"}).status_code == 201


@pytest.mark.parametrize("shown", ["{a} {b}", "{a}-{b}", " {a}  {b} ", "{a}\u202f{b}", "{a}.{b}"])
def test_the_code_is_accepted_as_the_screen_shows_it(table: Table, shown: str) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    code = table.dashboard.keys.join_code(gid)
    typed = shown.format(a=code[:3], b=code[3:])
    c = table.client()
    page = c.get("/join", query_string={"code": typed}).get_data(as_text=True)
    assert 'value="Ann" class="seat-button"' in page and f'name="code" value="{code}"' in page
    r = c.post("/join", data={"code": typed, "seat": "Ann"})  # the form, as the page posts it
    assert r.status_code == 302 and "/seat/Ann" in r.headers["Location"]
    gid2 = table.new_game("pocket-galapagos", ["Bob"])
    code2 = table.dashboard.keys.join_code(gid2)
    r = table.client().post("/api/join", json={"code": shown.format(a=code2[:3], b=code2[3:]), "seat": "Bob"})
    assert r.status_code == 201, r.json


def test_the_join_box_accepts_what_the_screen_shows(table: Table) -> None:
    page = table.client().get("/join").get_data(as_text=True)
    assert 'maxlength="6"' not in page and 'pattern="[0-9]{6}"' not in page
    assert table.client().post("/api/join", json={"code": "12 34", "seat": "Ann"}).status_code == 400


def spend_the_budget(table: Table, gids: list[str]) -> None:
    for n in range(joining.GUESSES):  # from as many addresses: the budget is the table's
        phone(table, f"10.1.0.{n}").post("/api/join", json={"code": wrong_code(table, gids, n), "seat": "Ann"})
    with table.app.app_context():
        assert joining.needs_tap()


def test_past_the_budget_a_right_code_needs_the_tablets_tap(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    spend_the_budget(table, [gid])
    c = phone(table, "10.2.0.1")
    right = c.post("/api/join", json={"code": table.dashboard.keys.join_code(gid), "seat": "Cleo"})
    wrong = phone(table, "10.2.0.2").post("/api/join", json={"code": wrong_code(table, [gid], 50), "seat": "Cleo"})
    assert right.status_code == wrong.status_code == 202  # the guesser cannot tell them apart
    assert right.json["message"] == wrong.json["message"] and set(right.json) == set(wrong.json) == {"pending", "message"}
    assert "token" not in right.json
    # the tablet is asked, only for the right code
    listed = table.client().get(f"/api/games/{gid}/join-requests", headers=table.auth()).json["requests"]
    assert [r["seat"] for r in listed] == ["Cleo"]
    page = table.client().get(f"/g/{gid}/table", headers=table.auth()).get_data(as_text=True)
    assert "Someone wants to join as Cleo — allow?" in page
    ask = right.json["pending"]
    assert c.post(f"/api/join/requests/{ask}").status_code == 202  # still waiting
    r = table.client().post(f"/api/games/{gid}/join-requests/{ask}", json={"allow": True}, headers=table.auth())
    assert r.status_code == 200
    got = c.post(f"/api/join/requests/{ask}")
    assert got.status_code == 201 and got.json["seat"] == "Cleo" and got.json["token"]
    assert c.post(f"/api/join/requests/{ask}").status_code == 403  # used once
    # the wrong code's request is never shown and never opens anything
    assert phone(table, "10.2.0.2").post(f"/api/join/requests/{wrong.json['pending']}").status_code == 202
    assert table.client().get(f"/api/games/{gid}/join-requests", headers=table.auth()).json["requests"] == []


def test_the_tablet_can_refuse_and_the_form_waits_for_it(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    spend_the_budget(table, [gid])
    c = phone(table, "10.3.0.1")
    code = table.dashboard.keys.join_code(gid)
    assert "Say which seat is yours" in c.get(f"/join?code={code}").get_data(as_text=True)
    r = c.post("/join", data={"code": code, "seat": "Bob"})
    assert r.status_code == 302 and "request=" in r.headers["Location"]
    waiting = c.get(r.headers["Location"]).get_data(as_text=True)
    assert "Ask the table to let you in" in waiting and 'http-equiv="refresh"' in waiting
    [req] = table.client().get(f"/api/games/{gid}/join-requests", headers=table.auth()).json["requests"]
    table.client().post(f"/api/games/{gid}/join-requests/{req['id']}", json={"allow": False}, headers=table.auth())
    assert "did not let this phone in" in c.get(r.headers["Location"]).get_data(as_text=True)


def test_brute_force_at_full_speed_never_gets_a_seat_without_the_tap(table: Table, monkeypatch) -> None:
    """Unlimited requests from 1,000 addresses against 25 open games, over six simulated hours.

    The guesser is given the worst case: besides counting up from 000000 he also tries the
    right codes themselves. Only the first ``GUESSES`` wrong codes are compared with a chance
    of a seat by themselves; every later answer is « ask the table ».
    """
    table.dashboard.joins.limit = 10**6  # addresses without number: the per-address lock does not help
    now = [1000.0]
    gids = [table.new_game("pocket-galapagos", [f"P{i}"]) for i in range(25)]
    codes = [table.dashboard.keys.join_code(g) for g in gids]
    with table.app.app_context():
        joining.guesses()._clock = lambda: now[0]
    seats, asked, compared = 0, 0, 0
    guesses = (f"{n:06d}" for n in itertools.count())
    for i in range(1200):
        now[0] += 6 * 3600 / 1200  # six hours of requests, spread evenly (bench/join_guessing.py: 5,000)
        code = codes[i % 25] if i % 100 == 99 else next(guesses)
        r = phone(table, f"10.9.{i % 250}.{i // 250 % 4}").post("/api/join", json={"code": code, "seat": f"P{i % 25}"})
        if r.status_code == 201:
            seats += 1
        elif r.status_code == 202:
            asked += 1
        elif r.status_code == 403:
            compared += 1
    assert seats == 0 and compared < joining.GUESSES and asked > 1150
    # the same figure by computation: at most GUESSES codes are ever compared with a chance of a seat
    chance = 1 - (1 - 25 / 10**6) ** joining.GUESSES
    assert chance < 1e-4
    assert joining.GUESS_WINDOW >= 6 * 3600  # the budget does not refill within the six hours


def test_a_code_expires_once_every_seat_is_taken(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    code = table.dashboard.keys.join_code(gid)
    for seat in ("Ann", "Bob", "Cleo"):
        assert table.client().post("/api/join", json={"code": code, "seat": seat}).status_code == 201
    r = table.client().post("/api/join", json={"code": code, "seat": "Ann"})
    assert r.status_code == 403 and "does not open any game" in r.json["error"]["message"]


def test_the_tablet_closes_joining_and_opens_it_with_a_new_code(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    old = table.dashboard.keys.join_code(gid)
    r = table.client().post(f"/api/games/{gid}/joining", json={"open": False}, headers=table.auth())
    assert r.status_code == 200 and r.json == {"joining_closed": True, "join_code": None}
    assert table.client().post("/api/join", json={"code": old, "seat": "Ann"}).status_code == 403
    page = table.client().get(f"/g/{gid}/table", headers=table.auth()).get_data(as_text=True)
    assert "Joining is closed" in page and old[:3] + " " + old[3:] not in page
    r = table.client().post(f"/api/games/{gid}/joining", json={"open": True}, headers=table.auth())
    new = r.json["join_code"]
    assert new and new != old
    assert table.client().post("/api/join", json={"code": new, "seat": "Ann"}).status_code == 201


def test_a_renewal_the_card_refuses_never_clears_the_counter(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    spend_the_budget(table, [gid])
    code = table.dashboard.keys.join_code(gid)
    table.dashboard.seats._db.execute("PRAGMA query_only = ON")  # SQLite refuses every write: a read-only card
    r = table.client().post(f"/api/games/{gid}/join-code", headers=table.auth())
    assert r.status_code == 503
    table.dashboard.seats._db.execute("PRAGMA query_only = OFF")
    assert table.dashboard.keys.join_code(gid) == code
    r = phone(table, "10.4.0.1").post("/api/join", json={"code": code, "seat": "Ann"})
    assert r.status_code == 202  # still the tablet's tap: the old code did not open the game again
