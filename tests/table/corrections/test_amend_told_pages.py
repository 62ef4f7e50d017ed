"""A correction on the pages: every phone shows it once, its own seat's sentence said to « you »."""

from __future__ import annotations

import html
import json
import re

from tests.support.dashboard import Table
from tests.table.corrections.test_amend_undo_back import SCENARIOS


def test_every_phone_shows_the_correction_once_in_the_second_person_for_its_own_seat(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob", "Cid"])
    for line in (SCENARIOS / "auction_full_game.jsonl").read_text().splitlines()[1:13]:
        assert table.act(gid, json.loads(line)).status_code == 200
    tokens = {seat: table.join(table.client(), gid, seat) for seat in ("Ann", "Bob")}
    session = table.dashboard.hub.session(gid)
    seq = next(e.seq for e in session.history() if e.action.get("type") == "education" and e.action["player"] == "Bob")
    r = table.client().post(f"/api/games/{gid}/history/{seq}/edit",
                            json={"action": {"type": "education", "player": "Bob", "steps": 1}}, headers=table.auth())
    assert r.status_code == 200, r.json

    def said(seat: str) -> str:
        page = table.client().get(f"/g/{gid}/seat/{seat}", headers={"Authorization": f"Bearer {tokens[seat]}"})
        found = re.search(r'class="banner yours notice" role="status">(Correction:[^<]*)<', page.get_data(as_text=True))
        return html.unescape(found.group(1)) if found else ""

    def banner(seat: str) -> bool:
        return bool(said(seat))

    assert "Your figures: education 2 → 1, money £700 → £900." in said("Bob") and "Bob's figures" not in said("Bob")
    assert "Bob's figures: education 2 → 1" in said("Ann")  # every phone, in the third person
    assert table.act(gid, session.rules.candidates(session.state)[0]).status_code == 200
    assert not banner("Bob")  # once: the next move puts it away (the story keeps the line)
