"""Galèrapagos' hidden moments in Debian's Chromium, the first half of one scripted game: everyone
acted, a shortage, the vote; the most prominent button is the first ``next`` move at each.

The second half (a death's cards, the raft that can leave, the end) is test_lead_browser_galerapagos_end.py's,
a module of its own so that xdist can hand the two halves to different workers. The checks themselves
(every enabled button against the moves, an override asking first) are test_lead_browser.py's.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.runner import Server
from tests.web.test_lead_browser import close, enter, look, script, tablet
from tests.web.test_phone_moves import join_phone

pytestmark = pytest.mark.browser


#: one whole game of four: Ann, Bob, Cid, Dan; Ann and Cid on phones, Bob and Dan played on the tablet
SCRIPT = "galerapagos_full_game.jsonl"
PHONES = {"Ann", "Cid"}
#: the script's lines up to the vote's first ballot (the first half's last moment)
TO_THE_VOTE = 24


@pytest.fixture
def server(sim_server: Server) -> Server:
    return sim_server


def four_castaways(browser, server: Server) -> tuple[str, Any, dict[str | None, Any], list[dict[str, Any]]]:
    """The script's game on the table: its id, the tablet, every page (None: the tablet; Ann's and
    Cid's phones) and the script's lines."""
    head, lines = script(SCRIPT)
    gid, code = server.new_game("galerapagos", head["players"])
    tab = tablet(browser, server, gid)
    return gid, tab, {None: tab, **{p: join_phone(browser, server, code, p) for p in sorted(PHONES)}}, lines


# -- Galèrapagos: everyone acted, a shortage, the vote ------------------------------------------------------
@pytest.mark.slow(reason="four players (two phones, two tablet seats) through the first hidden moments of a whole "
                         "game, each page reloaded and every enabled button listed and compared with the moves")
def test_galerapagos_hidden_moments_lead_with_the_rulebooks_next_step(browser, server: Server) -> None:
    gid, tab, pages, lines = four_castaways(browser, server)
    phones = PHONES
    try:
        # round 2, everyone acted: Dan, sick since the snake, holds the first-player card and plays on the tablet
        enter(server, gid, phones, lines[:10])
        seen = look(server, gid, pages, phones, "acted")
        strip = tab.locator(".ribbon .rb.now").all_inner_texts()
        assert len(strip) == 1 and "Dan" in strip[0], strip  # one « plays now », as the rules' Expected
        side = tab.inner_text(".side-col")
        assert "Dan, everyone has acted" in side and "Waiting for" not in side
        assert tab.locator("[data-private-open]").count() == 0  # no vote before the survival step
        weather = [b for b in seen[None] if b["action"] == "weather"]
        assert weather and all(b["step"] == "override" for b in weather)
        assert [b for b in weather if b["draw"]], "the weather draw sits in the weather move, as an override"
        # round 4: the survival step finds food short; the debate (cards, then the vote)
        enter(server, gid, phones, lines[10:23])
        look(server, gid, pages, phones, "shortage")
        # the vote: each tablet seat's ballot behind its own hand-over, the first of them leading
        enter(server, gid, phones, lines[23:TO_THE_VOTE])
        look(server, gid, pages, phones, "vote")
    finally:
        close(*pages.values())
