"""Acting through the API: accepted actions change the game, refused ones change nothing; undo/redo."""

from __future__ import annotations

from tests.support.dashboard import Table

TILE = {"type": "tile", "direction": "N", "animals": ["sea_lion", "iguana"]}


def test_an_accepted_action_returns_the_new_state(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    r = table.act(gid, TILE)
    assert r.status_code == 200
    assert r.json["state"]["tiles"]["N"] == ["sea_lion", "iguana"]
    assert r.json["state"]["version"] == 1


def test_a_refused_action_is_409_with_the_rules_sentence_and_changes_nothing(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    for d, pair in zip("NESW", (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"], ["sea_lion", "crab"]), strict=True):
        assert table.act(gid, {"type": "tile", "direction": d, "animals": pair}).status_code == 200
    before = table.client().get(f"/api/games/{gid}", headers=table.auth()).json["state"]
    r = table.act(gid, {"type": "bid", "player": "Ann", "direction": "N", "amount": 3000})
    assert r.status_code == 409
    assert r.json["error"]["message"] == "Ann has £1500 and cannot bid £3000."
    after = table.client().get(f"/api/games/{gid}", headers=table.auth()).json["state"]
    assert after == before


def test_an_action_the_game_does_not_know_is_400(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    r = table.act(gid, {"type": "teleport"})
    assert r.status_code == 400
    assert "teleport" in r.json["error"]["message"]


def test_undo_takes_back_the_last_action_and_redo_plays_it_again(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    table.act(gid, {"type": "end_turn"})
    c = table.client()
    r = c.post(f"/api/games/{gid}/undo", headers=table.auth())
    assert r.status_code == 200
    assert r.json["undo"] == {"type": "end_turn"}
    assert r.json["state"]["turn"] == 1 and r.json["state"]["version"] == 0
    r = c.post(f"/api/games/{gid}/redo", headers=table.auth())
    assert r.status_code == 200 and r.json["state"]["turn"] == 2


def test_undo_with_nothing_to_undo_is_409(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    r = table.client().post(f"/api/games/{gid}/undo", headers=table.auth())
    assert r.status_code == 409
    assert r.json["error"]["message"] == "There is nothing to undo."


def test_a_seat_acts_for_itself_without_naming_the_player(table: Table) -> None:
    """A one-player game's phone sends {"type": "end_turn"}; the seat is filled in from its pass."""
    gid = table.new_game("pocket-galapagos", ["Ann"])
    phone = table.client()
    token = table.join(phone, gid, "Ann")
    r = table.act(gid, {"type": "end_turn"}, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    history = table.client().get(f"/api/games/{gid}", headers=table.auth()).json["last_actions"]
    assert history[0]["action"] == {"type": "end_turn", "player": "Ann"}
    assert history[0]["source"] == "web"


def test_undo_after_the_sand_timer_ran_out_takes_back_the_plan_that_turned_it(table: Table) -> None:
    """Undoing only the automatic expiry would do nothing: the sand turned 31 s ago, so the
    timer would run out again at once. The plan that turned it goes back with it."""
    import time

    late = [0.0]
    table.dashboard.hub.session_kwargs.update(clock=lambda: time.monotonic() + late[0],
                                              wall=lambda: time.time() + late[0])
    gid = table.new_game("galapagos-dice", ["Ann", "Bob"], {"layout_seed": 7})
    fields = sorted(int(n) for n in table.act(gid, {"type": "start", "player": "Ann", "field": 1}).json["state"]["layout"])
    table.act(gid, {"type": "start", "player": "Bob", "field": fields[20]})
    table.act(gid, {"type": "place_turtles", "numbers": [n for n in fields if n not in (1, fields[20])][:5]})
    c = table.client()
    bob = table.join(c, gid, "Bob")
    assert table.act(gid, {"type": "plan", "dice": ["red"]}, {"Authorization": f"Bearer {bob}"}).status_code == 200
    session = table.dashboard.hub.session(gid)
    late[0] = 31.0
    session.tick()
    assert session.history()[-1].action == {"type": "timer_expired"}
    r = c.post(f"/api/games/{gid}/undo", headers={"Authorization": f"Bearer {bob}"})  # Bob's own plan
    assert r.status_code == 200, r.json
    assert r.json["undo"] == {"type": "plan", "player": "Bob", "dice": ["red"]}
    assert r.json["state"]["plans"] == [] and not r.json["timer"]["running"] and r.json["timer"]["remaining"] == 30
    assert [e.action["type"] for e in session.history()] == ["start", "start", "place_turtles"]
