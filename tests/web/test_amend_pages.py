"""Fixing mistakes on the pages: Redo only when there is something to redo; the undo says what moves back."""

from __future__ import annotations

from tests.web.conftest import Table
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
