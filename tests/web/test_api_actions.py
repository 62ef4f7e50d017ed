"""Acting through the API: accepted actions change the game, refused ones change nothing; undo/redo."""

from __future__ import annotations

from tests.web.conftest import Table

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
