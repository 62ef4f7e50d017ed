"""Galèrapagos' hidden moments in Debian's Chromium, the second half of one scripted game: a death's
cards, the raft that can leave, the end; the most prominent button is the first ``next`` move at each.

The first half (everyone acted, a shortage, the vote) is test_lead_browser_galerapagos.py's: the game is
brought to its vote through the API here, and every moment from the votes on is checked on the pages.
The checks themselves (every enabled button against the moves, an override asking first) are
test_lead_browser.py's.
"""

from __future__ import annotations

import pytest

from tests.web.runner import Server
from tests.web.test_lead_browser import close, enter, look, to_the_end
from tests.web.test_lead_browser_galerapagos import PHONES, TO_THE_VOTE, four_castaways

pytestmark = pytest.mark.browser


@pytest.fixture
def server(sim_server: Server) -> Server:
    return sim_server


# -- Galèrapagos: a death's cards, the raft that can leave, the end ------------------------------------------
@pytest.mark.slow(reason="four players (two phones, two tablet seats) through the last hidden moments of a whole "
                         "game, each page reloaded and every enabled button listed and compared with the moves")
def test_galerapagos_death_and_raft_lead_with_the_rulebooks_next_step(browser, server: Server) -> None:
    gid, tab, pages, lines = four_castaways(browser, server)
    phones = PHONES
    try:
        enter(server, gid, phones, lines[:TO_THE_VOTE])  # the first half's moments: its own module
        enter(server, gid, phones, lines[TO_THE_VOTE:30], pages)  # the votes, the tie broken, the moment closed: Dan dies
        look(server, gid, pages, phones, "death")
        assert tab.locator(".banner.hand-off").count() >= 1
        # the raft can leave: « Embark » leads, another weather card is an override that asks
        enter(server, gid, phones, lines[30:37])
        seen = look(server, gid, pages, phones, "raft")
        lead = tab.locator(".lead-step")
        assert "The raft can leave now" in lead.inner_text()
        assert lead.locator("form.act.lead[data-action='embark'] button.big").count() == 1
        weather = [b for b in seen[None] if b["action"] == "weather"]
        assert weather and all(b["step"] == "override" for b in weather)
        to_the_end(server, gid, pages, phones, lines[37:], "galerapagos")  # « Embark » on the tablet
    finally:
        close(*pages.values())
