"""The dice game's moments in Debian's Chromium: the roll, the sand running, a plan laid; the most
prominent button is the first ``next`` move at each, and a draw never the biggest.

The checks themselves (every enabled button against the moves, an override asking first) are
test_lead_browser.py's.
"""

from __future__ import annotations

import pytest

from tests.web.runner import Server
from tests.web.test_lead_browser import close, enter, look, script, tablet, to_the_end
from tests.web.test_phone_moves import join_phone

pytestmark = pytest.mark.browser


@pytest.fixture
def server(sim_server: Server) -> Server:
    return sim_server


# -- the dice game: the sand running --------------------------------------------------------------------
@pytest.mark.slow(reason="three players, two on phones, every enabled button of each page listed and compared "
                         "with the moves before and while the sand runs")
def test_dice_sand_running_leads_each_phone_with_its_plan(browser, server: Server) -> None:
    gid, code = server.new_game("galapagos-dice", ["Ann", "Bob", "Cid"], {"layout_seed": 7, "timer_seconds": 60})
    phones = {"Ann", "Bob"}
    tab = tablet(browser, server, gid)
    pages = {None: tab, **{p: join_phone(browser, server, code, p) for p in sorted(phones)}}
    try:
        for p, field in (("Ann", 1), ("Bob", 19), ("Cid", 36)):
            enter(server, gid, phones, [{"type": "start", "player": p, "field": field}])
        enter(server, gid, phones, [{"type": "place_turtles", "numbers": [2, 3, 8, 20, 30, 35]}])
        look(server, gid, pages, phones, "dice-roll")  # each rolls: the draw fills the roll, never the big button
        enter(server, gid, phones, [{"type": "plan", "player": "Ann", "dice": ["red"]}])  # the sand turns
        seen = look(server, gid, pages, phones, "sand")
        assert any(b["action"] == "timer_expired" and b["step"] == "override" for b in seen[None])
    finally:
        close(*pages.values())


@pytest.mark.slow(reason="a whole dice game played to its end on the tablet and a phone, every button compared "
                         "with the moves at the sand")
def test_dice_full_game_to_its_end_on_the_tablet(browser, server: Server) -> None:
    head, lines = script("dice_full_game.jsonl")
    phones = {"Bob"}  # Ann is played on the tablet
    gid, code = server.new_game("galapagos-dice", head["players"], {**head["options"], "timer_seconds": 900})
    tab = tablet(browser, server, gid)
    pages = {None: tab, "Bob": join_phone(browser, server, code, "Bob")}
    try:
        enter(server, gid, phones, lines[:10])  # round 2: Ann has planned, the sand runs for Bob
        look(server, gid, pages, phones, "dice-sand")
        enter(server, gid, phones, lines[10:11])  # Bob's plan laid, not yet done
        look(server, gid, pages, phones, "dice-planned")
        to_the_end(server, gid, pages, phones, lines[11:], "dice")
    finally:
        close(*pages.values())
