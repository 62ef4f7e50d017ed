"""Issue 21.5 on the pages: the phones whose figures a correction changed show it once."""

from __future__ import annotations

import json

from tests.support.dashboard import Table
from tests.test_amend_undo_back import SCENARIOS


def test_a_phone_whose_figures_changed_shows_the_correction_once(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob", "Cid"])
    for line in (SCENARIOS / "auction_full_game.jsonl").read_text().splitlines()[1:13]:
        assert table.act(gid, json.loads(line)).status_code == 200
    tokens = {seat: table.join(table.client(), gid, seat) for seat in ("Ann", "Bob")}
    session = table.dashboard.hub.session(gid)
    seq = next(e.seq for e in session.history() if e.action.get("type") == "education" and e.action["player"] == "Bob")
    r = table.client().post(f"/api/games/{gid}/history/{seq}/edit",
                            json={"action": {"type": "education", "player": "Bob", "steps": 1}}, headers=table.auth())
    assert r.status_code == 200, r.json

    def banner(seat: str) -> bool:
        page = table.client().get(f"/g/{gid}/seat/{seat}", headers={"Authorization": f"Bearer {tokens[seat]}"})
        html = page.get_data(as_text=True)
        return 'class="banner yours" role="status">Correction:' in html

    assert banner("Bob") and not banner("Ann")
    assert table.act(gid, session.rules.candidates(session.state)[0]).status_code == 200
    assert not banner("Bob")  # once: the next move puts it away (the story keeps the line)
