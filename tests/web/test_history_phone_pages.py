"""The players' history, open to a joined phone for the players of its table.

A phone tapping « History » got 401: /history read only the table's credential, and a phone
carries only its game's pass. Now its pass opens the page, which lists the players of its table
(their rows and head-to-head among themselves), without the exports (the table's).
"""

from __future__ import annotations

import re

from tests.support.dashboard import Table
from tests.web.test_course_pages import _play


def test_a_joined_phone_opens_the_history_of_the_players_of_its_table(table: Table) -> None:
    for name in ("dice_full_game", "dice_review_four_players_tie"):  # Ann, Bob, Cy, Dee have played
        _play(table, name)
    gid = table.new_game("galapagos-dice", ["Ann", "Bob"])  # tonight's table: Ann and Bob
    phone = table.client()
    token = table.join(phone, gid, "Ann")
    assert table.client().get("/history").status_code == 401  # nobody's pass: as before
    for r in (phone.get("/history"), table.client().get("/history", headers={"Authorization": f"Bearer {token}"})):
        assert r.status_code == 200
        page = r.get_data(as_text=True)
        assert sorted(re.findall(r'<tr data-player="([^"]+)"><th scope="row">', page)) == ["Ann", "Bob"]
        assert 'data-opponent="Cy"' not in page and 'data-opponent="Bob"' in page
        assert "/history/players.csv" not in page and "bgstats" not in page  # the exports stay the table's
    assert phone.get("/history/players.csv").status_code in (401, 403)
    every = table.client().get("/history", headers=table.auth()).get_data(as_text=True)
    assert {"Cy", "Dee"} <= set(re.findall(r'<tr data-player="([^"]+)">', every))  # the table sees everyone


def test_a_phone_with_a_pass_no_longer_valid_is_refused(table: Table) -> None:
    gid = table.new_game("galapagos-dice", ["Ann", "Bob"])
    phone = table.client()
    table.join(phone, gid, "Ann")
    phone.set_cookie(f"seat-{gid}", "forged", domain="localhost")
    assert phone.get("/history").status_code == 401
