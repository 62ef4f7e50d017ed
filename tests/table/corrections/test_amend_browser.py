"""Fixing a mistake five actions back from the tablet, in Debian's Chromium.

An auction's first round, typed in on the table: Bob's two education steps (five back)
should have been one. The tablet opens « Fix an earlier action », presses Edit on that
line, finds the move form the game offered then filled in with what was played, changes
the steps to 1 and sends it. The four actions after it are played again (the API holds
them), then Bob's « done » is removed and shows among nothing set aside; the undo
dialog says what moves back. Screenshots: docs/screenshots/amend-*.png.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.web.runner import Server
from tests.web.test_phone_moves import SHOTS, TABLET

pytestmark = pytest.mark.browser

SCRIPT = Path(__file__).parents[2] / "scenarios" / "auction_full_game.jsonl"


@pytest.fixture(scope="module")
def server(sim_server: Server) -> Server:
    """The session's ``companion run --sim`` (tests/support/browser.py); each test makes its own game."""
    return sim_server


def view(page, name: str) -> None:
    """What the tablet's screen shows (the dialog over the page), not the whole page behind it."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


def test_the_tablet_edits_an_action_five_back(browser, server: Server) -> None:
    gid, _ = server.new_game("galapagos-auction", ["Ann", "Bob", "Cid"])
    for line in SCRIPT.read_text().splitlines()[1:13]:
        server.act(gid, json.loads(line))
    before = server.api("GET", f"/api/games/{gid}/history")["entries"]
    target = before[-5]
    assert target["text"] == "Bob advances 2 education steps"
    page = browser.new_page(**TABLET)
    page.goto(f"{server.base}/g/{gid}/table?token={server.token}")
    page.click("button[data-amend-open]")
    page.wait_for_selector("dialog#amend[open] .amend-list")
    assert page.locator("dialog#amend .amend-list > li[data-seq]").count() == 12
    assert page.locator("dialog#amend .amend-list h4").first.inner_text() == "Round 1"  # grouped by rounds
    view(page, "amend-history.png")

    page.click(f"dialog#amend button[data-amend-edit='{target['seq']}']")
    form = page.locator("dialog#amend .amend-edit form.act[data-action='education'][data-player='Bob']").first
    form.wait_for()
    steps = form.locator("[data-field='steps']")
    assert steps.input_value() == "2"  # filled in with what was played
    steps.select_option(value="1")
    view(page, "amend-edit-form.png")
    form.locator("button.send, button.primary").last.click()
    page.wait_for_selector("dialog#amend[open] .amend-list")
    page.wait_for_selector(".toast:not([hidden])")
    assert "good" in page.get_attribute("#toast", "class")

    after = server.api("GET", f"/api/games/{gid}/history")
    assert [e["text"] for e in after["entries"]] == (
        [e["text"] for e in before[:-5]] + ["Bob advances 1 education step"] + [e["text"] for e in before[-4:]])
    assert after["aside"] == []
    assert page.locator("dialog#amend .amend-list").inner_text().count("Bob advances 1 education step") == 1
    view(page, "amend-after-edit.png")

    # Bob's « done » removed: Cid's two moves after it are no longer his to play now, and are set aside
    done = after["entries"][-3]
    assert done["text"] == "Bob is done"
    page.click(f"dialog#amend button[data-amend-remove='{done['seq']}']")
    page.wait_for_selector("dialog#confirm[open]")  # « Remove this action? », in the page's own dialog
    page.click("dialog#confirm button[value='ok']")
    page.wait_for_selector("dialog#amend .amend-aside li")
    aside = page.locator("dialog#amend .amend-aside li")
    assert aside.count() == 2 and "Cid takes an iguana" in aside.first.inner_text()
    view(page, "amend-set-aside.png")
    page.click("dialog#amend .amend-aside button[data-amend-drop]")
    page.wait_for_function("document.querySelectorAll('dialog#amend .amend-aside li').length === 1")
    assert [a["text"] for a in server.api("GET", f"/api/games/{gid}/history")["aside"]] == ["Cid sells 2 cards"]

    page.click("dialog#amend button[data-amend-close]")
    page.wait_for_function("!document.querySelector('dialog#amend').open")
    undo = page.locator("button[data-move='undo']")
    assert "Bob takes an iguana" in undo.get_attribute("data-confirm")  # the last action in play now
    assert "Bob's animals: iguana 1 → 0" in undo.get_attribute("data-confirm")
    page.close()
