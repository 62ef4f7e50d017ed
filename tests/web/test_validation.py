"""Every JSON body is checked before the session sees it: type, size, depth, values."""

from __future__ import annotations

import json

import pytest

from tests.support.dashboard import Table


@pytest.fixture
def gid(table: Table) -> str:
    return table.new_game("pocket-galapagos", ["Ann"])


def post_raw(table: Table, url: str, data: bytes | str, content_type: str = "application/json"):
    return table.client().post(url, data=data, content_type=content_type, headers=table.auth())


def test_malformed_json_is_400_saying_where(table: Table, gid: str) -> None:
    r = post_raw(table, f"/api/games/{gid}/actions", '{"type": "end_turn",')
    assert r.status_code == 400
    assert "not valid JSON" in r.json["error"]["message"] and "column" in r.json["error"]["message"]


def test_a_body_that_is_not_json_content_is_415(table: Table, gid: str) -> None:
    r = post_raw(table, f"/api/games/{gid}/actions", "type=end_turn", "application/x-www-form-urlencoded")
    assert r.status_code == 415


def test_an_action_must_be_an_object_with_a_type(table: Table, gid: str) -> None:
    assert post_raw(table, f"/api/games/{gid}/actions", "[1, 2]").status_code == 400
    r = post_raw(table, f"/api/games/{gid}/actions", '{"player": "Ann"}')
    assert r.status_code == 400 and "type" in r.json["error"]["message"]


def test_nan_and_deep_nesting_and_huge_numbers_are_refused(table: Table, gid: str) -> None:
    assert post_raw(table, f"/api/games/{gid}/actions", '{"type": "population", "species": "rat", "change": NaN}').status_code == 400
    deep = '{"type": "end_turn", "x": ' + "[" * 10 + "]" * 10 + "}"
    r = post_raw(table, f"/api/games/{gid}/actions", deep)
    assert r.status_code == 400 and "nested" in r.json["error"]["message"]
    r = post_raw(table, f"/api/games/{gid}/actions", '{"type": "population", "species": "rat", "change": 1e400}')
    assert r.status_code == 400


def test_an_oversized_action_is_413(table: Table, gid: str) -> None:
    body = json.dumps({"type": "end_turn", "note": ["x" * 150] * 40})
    r = post_raw(table, f"/api/games/{gid}/actions", body)
    assert r.status_code == 413
    assert "limit" in r.json["error"]["message"]


def test_a_body_over_the_app_limit_is_413_before_it_is_read(table: Table) -> None:
    r = post_raw(table, "/api/games", "x" * (70 * 1024))
    assert r.status_code == 413 and r.is_json


def test_long_strings_are_refused(table: Table, gid: str) -> None:
    r = post_raw(table, f"/api/games/{gid}/actions", json.dumps({"type": "end_turn", "player": "A" * 300}))
    assert r.status_code == 400


def test_the_game_header_is_checked_field_by_field(table: Table) -> None:
    cases = [
        ({"game": "pocket-galapagos", "players": ["Ann"], "extra": 1}, "no field \"extra\""),
        ({"game": "pocket-galapagos", "players": "Ann"}, "list of names"),
        ({"game": "pocket-galapagos", "players": [""]}, "non-empty"),
        ({"game": "pocket-galapagos", "players": ["A" * 30]}, "longer than"),
        ({"game": "pocket-galapagos", "players": ["Ann"], "options": []}, "options"),
        ({"game": "galerapagos", "players": [f"P{i}" for i in range(13)]}, "At most 12"),
    ]
    for body, words in cases:
        r = post_raw(table, "/api/games", json.dumps(body))
        assert r.status_code == 400, body
        assert words in r.json["error"]["message"], (body, r.json)


def test_a_refused_body_journals_nothing(table: Table, gid: str) -> None:
    post_raw(table, f"/api/games/{gid}/actions", '{"type": "end_turn",')
    post_raw(table, f"/api/games/{gid}/actions", json.dumps({"type": "end_turn", "note": "x" * 5000}))
    state = table.client().get(f"/api/games/{gid}", headers=table.auth()).json["state"]
    assert state["version"] == 0
