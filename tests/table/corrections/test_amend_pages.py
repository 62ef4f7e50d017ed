"""Fixing mistakes on the pages: Redo only when there is something to redo; the undo says what moves back."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.dashboard import Table
from tests.web.test_pages import tablet


def test_redo_shows_only_once_something_was_undone(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    page = tablet(table)
    assert table.act(gid, {"type": "end_turn"}).status_code == 200
    assert b'data-move="redo"' not in page.get(f"/g/{gid}").data
    r = page.post(f"/api/games/{gid}/redo", headers=table.auth())
    assert r.status_code == 409 and r.json["error"]["message"] == "There is nothing to redo."
    assert page.post(f"/api/games/{gid}/undo", headers=table.auth()).status_code == 200
    html = page.get(f"/g/{gid}").data.decode()
    assert 'data-move="redo"' in html
    r = page.post(f"/api/games/{gid}/redo", headers=table.auth())
    assert r.status_code == 200 and r.json["redo"] == {"type": "end_turn"}
    assert b'data-move="redo"' not in page.get(f"/g/{gid}").data


def auction_after_bobs_education(table: Table) -> str:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob", "Cid"])
    script = Path(__file__).parents[2] / "scenarios" / "auction_full_game.jsonl"
    for line in script.read_text().splitlines()[1:9]:
        assert table.act(gid, json.loads(line)).status_code == 200
    return gid


def test_the_undo_button_says_what_moves_back(table: Table) -> None:
    gid = auction_after_bobs_education(table)
    html = tablet(table).get(f"/g/{gid}").data.decode()
    button = html[html.index('data-move="undo"'):]
    button = button[:button.index(">")]
    assert "Bob advances 2 education steps" in button and "• Bob&#39;s money: £900 → £1200" in button


def test_the_undo_preview_api_follows_who_asks(table: Table) -> None:
    gid = auction_after_bobs_education(table)
    c = table.client()
    r = c.get(f"/api/games/{gid}/undo-preview", headers=table.auth())
    assert r.status_code == 200 and r.json["can_undo"] and "Bob's money: £900 → £1200" in r.json["back"]
    assert r.json["can_redo"] is False
    bob, ann = table.client(), table.client()
    bob_token, ann_token = table.join(bob, gid, "Bob"), table.join(ann, gid, "Ann")
    mine = bob.get(f"/api/games/{gid}/undo-preview", headers={"Authorization": f"Bearer {bob_token}"})
    # the tablet entered Bob's move: his phone may not take it back (by who sent it, not by ``player``)
    assert mine.status_code == 200 and mine.json["can_undo"] is False
    other = ann.get(f"/api/games/{gid}/undo-preview", headers={"Authorization": f"Bearer {ann_token}"})
    assert other.status_code == 200 and other.json == {"can_undo": False, "what": "", "back": [], "can_redo": False}
    assert table.client().get(f"/api/games/{gid}/undo-preview").status_code == 401
