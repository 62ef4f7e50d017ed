"""A digital draw fills a move offered now: it carries that move's step and question, and is refused when
the move is not offered (the dashboard's draw endpoint and the game packages' moves)."""

from __future__ import annotations

import json
from pathlib import Path

from companion import games
from companion.engine import moves
from tests.support.dashboard import Table

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def test_the_weather_draw_sits_in_the_weather_move_with_its_step() -> None:
    pkg = games.package("galerapagos")
    state = pkg.rules.setup(["Ann", "Bob", "Cleo"], {})
    first = [f for f in pkg.moves(state) if f.get("draw")]
    assert [(f["type"], f["step"]) for f in first] == [("weather", "next")]
    assert first[0]["draw"] == {"what": "weather", "label": "Draw a weather card"}
    assert [f["draw"]["label"] for f in pkg.moves(state, "fr") if f.get("draw")] == ["Tirer une carte Météo"]
    head, *lines = [json.loads(x) for x in (SCENARIOS / "galerapagos_full_game.jsonl").read_text().splitlines() if x]
    state = pkg.rules.setup(head["players"], head["options"])
    for line in lines[:10]:  # round 2, everyone has acted: the survival step is due
        state, _ = pkg.rules.apply(state, line)
    assert pkg.rules.view(state)["phase"] == "acted"
    drawn = [f for f in pkg.moves(state) if f.get("draw")]
    assert [(f["type"], f["step"]) for f in drawn] == [("weather", "override")]
    assert drawn[0]["ask"] and drawn[0]["confirm"]


def test_each_players_roll_carries_his_own_dice_draw_and_the_table_none() -> None:
    pkg = games.package("galapagos-dice")
    state = pkg.rules.setup(["Ann", "Bob"], {"layout_seed": 7})
    for a in ({"type": "start", "player": "Ann", "field": 1}, {"type": "start", "player": "Bob", "field": 19},
              {"type": "place_turtles", "numbers": [2, 3, 8, 20, 36]}):
        state, _ = pkg.rules.apply(state, a)
    forms = pkg.moves(state)
    assert sorted((f["type"], f["player"]) for f in forms if f.get("draw")) == [("roll", "Ann"), ("roll", "Bob")]
    assert moves.draw_form(forms, "dice", "Ann")["type"] == "roll"
    assert moves.draw_form(forms, "dice", None) is None


def test_a_draw_whose_move_is_not_offered_is_refused_and_nothing_changes(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    for d, pair in zip("NESW", (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"],
                                ["sea_lion", "crab"]), strict=True):
        assert table.act(gid, {"type": "tile", "direction": d, "animals": pair}).status_code == 200
    before = table.client().get(f"/api/games/{gid}", headers=table.auth()).json["state"]["version"]
    r = table.client().post(f"/api/games/{gid}/draw", json={"what": "tile"}, headers=table.auth())
    assert r.status_code == 409 and "not offered" in r.json["error"]["message"], r.json
    assert table.client().get(f"/api/games/{gid}", headers=table.auth()).json["state"]["version"] == before
