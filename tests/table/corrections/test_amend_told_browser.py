"""A correction told, in Debian's Chromium against ``companion run``.

The auction's first round, typed in on the tablet; Bob then joins on his phone. The tablet
corrects Bob's two education steps into one: the table's story gets one line telling it
(« Correction: “Bob advances 2 education steps” became “Bob advances 1 education step”. …
Bob's figures: education 2 → 1, … »), every phone shows it once (Bob's own line said to
« you »), and the next move puts it away. Screenshots: docs/screenshots/amend-correction-*.png.
"""

from __future__ import annotations

import json

import pytest

from tests.table.corrections.test_amend_browser import SCRIPT, server  # noqa: F401,F811 - the same server fixture (the session's)
from tests.web.runner import Server
from tests.web.test_phone_moves import SHOTS, TABLET, join_phone

pytestmark = pytest.mark.browser


def test_a_correction_is_told_on_the_table_and_once_on_the_phone_it_changed(browser, server: Server) -> None:  # noqa: F811
    gid, code = server.new_game("galapagos-auction", ["Ann", "Bob", "Cid"])
    for line in SCRIPT.read_text().splitlines()[1:13]:
        server.act(gid, json.loads(line))
    target = server.api("GET", f"/api/games/{gid}/history")["entries"][-5]
    assert target["text"] == "Bob advances 2 education steps"
    for seat in ("Ann", "Bob"):
        server.consent(gid, seat)
    bob = join_phone(browser, server, code, "Bob")
    ann = join_phone(browser, server, code, "Ann")
    table = browser.new_page(**TABLET)
    table.goto(f"{server.base}/g/{gid}/table?token={server.token}")
    table.wait_for_selector("#live-status.ok")

    server.api("POST", f"/api/games/{gid}/history/{target['seq']}/edit",
               {"action": {"type": "education", "player": "Bob", "steps": 1}})
    line = table.locator(".story .log li", has_text="Correction:")
    line.wait_for()
    text = line.inner_text()
    assert "“Bob advances 2 education steps” became “Bob advances 1 education step”." in text
    assert "Bob's figures: education 2 → 1" in text and "— at the table" in text
    line.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    table.screenshot(path=str(SHOTS / "amend-correction-table.png"))

    notice = bob.locator(".banner.yours", has_text="Correction:")
    notice.wait_for()
    assert "Your figures: education 2 → 1" in notice.inner_text()
    bob.screenshot(path=str(SHOTS / "amend-correction-phone.png"))
    told_ann = ann.locator(".banner.yours", has_text="Correction:")  # every phone is told, in the third person
    told_ann.wait_for()
    assert "Bob's figures: education 2 → 1" in told_ann.inner_text()

    from companion.table.journal import Journal
    from companion.table.session import Session

    with Journal(server.db) as journal:  # the next move, any legal one: the correction is no longer news
        session = Session.open(journal, gid)
        server.act(gid, session.rules.candidates(session.state)[0])
    bob.wait_for_function("!document.querySelector('.banner.yours') || "
                          "!document.querySelector('.banner.yours').innerText.includes('Correction:')")
    for page in (bob, ann, table):
        page.close()
