"""The HTTP API's games: create with the script header, read, list; errors are JSON with a status."""

from __future__ import annotations

from tests.support.dashboard import Table


def test_post_games_takes_the_script_header_line_and_returns_the_new_game(table: Table) -> None:
    """docs/design.md: line 1 is {"game": ID, "players": [...], "options": {...}}; the API takes the same body."""
    r = table.client().post("/api/games", json={"game": "galapagos-auction", "players": ["Ann", "Bob"], "options": {}},
                            headers=table.auth())
    assert r.status_code == 201
    assert r.headers["Location"] == f"/api/games/{r.json['id']}"
    state = r.json["state"]
    assert state["game"] == "galapagos-auction"
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob"]
    assert [p["money"] for p in state["players"]] == [1500, 1500]
    assert len(r.json["join_code"]) == 6 and r.json["join_code"].isdigit()


def test_options_may_be_left_out_like_in_a_script(table: Table) -> None:
    r = table.client().post("/api/games", json={"game": "pocket-galapagos", "players": ["Ann"]}, headers=table.auth())
    assert r.status_code == 201
    assert r.json["state"]["populations"] == {"rat": 3, "ant": 3, "finch": 3}


def test_get_game_returns_the_public_state_and_the_last_actions(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    assert table.act(gid, {"type": "end_turn"}).status_code == 200
    r = table.client().get(f"/api/games/{gid}", headers=table.auth())
    assert r.status_code == 200
    assert r.json["state"]["id"] == gid and r.json["state"]["version"] == 1
    assert r.json["state"]["turn"] == 2
    assert r.json["last_actions"][0]["action"] == {"type": "end_turn"}
    assert r.json["you"] == {"role": "table", "seat": None}


def test_list_games_shows_every_game_and_the_one_on_the_table(table: Table) -> None:
    first = table.new_game("pocket-galapagos", ["Ann"])
    second = table.new_game("galapagos-auction", ["Ann", "Bob"])
    r = table.client().get("/api/games", headers=table.auth())
    assert {g["id"] for g in r.json["games"]} == {first, second}
    assert r.json["current"] == second  # a new game goes on the table


def test_an_unknown_game_id_is_a_json_404(table: Table) -> None:
    r = table.client().get("/api/games/nosuchid", headers=table.auth())
    assert r.status_code == 404
    assert r.json["error"]["status"] == 404
    assert "nosuchid" in r.json["error"]["message"]


def test_an_unknown_game_type_is_400_naming_the_games(table: Table) -> None:
    r = table.client().post("/api/games", json={"game": "chess", "players": ["Ann", "Bob"]}, headers=table.auth())
    assert r.status_code == 400
    assert "galapagos-auction" in r.json["error"]["message"]


def test_a_player_count_the_rules_refuse_is_400_with_their_sentence(table: Table) -> None:
    r = table.client().post("/api/games", json={"game": "galapagos-auction", "players": ["Ann"]}, headers=table.auth())
    assert r.status_code == 400
    assert r.json["error"]["message"] == "Galapagos is played by 2 to 5 players, not 1."


def test_unknown_api_routes_and_methods_answer_json(table: Table) -> None:
    c = table.client()
    r = c.get("/api/nothing-here", headers=table.auth())
    assert r.status_code == 404 and r.is_json and r.json["error"]["message"]
    r = c.delete("/api/games", headers=table.auth())
    assert r.status_code == 405 and r.is_json
