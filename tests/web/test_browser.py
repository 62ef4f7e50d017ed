"""The dashboard in a real browser: Debian's Chromium driven by Playwright, against `companion run --sim`.

A server of its own for the module (one test restarts a server; Home's games are counted in
test_island_browser.py) and the session's Chromium. Moves are entered
through the game package's move forms only (test_phone_moves.py's helpers:
choose in the selects, fill a range, Send, answer the question); the API only
sets a game up. Screenshots of the main pages go to docs/screenshots/ (the
README and docs/api.md show them): phone 390×844, tablet 1280×800.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest

from tests.support.dashboard import TO_THE_VOTE
from tests.web.runner import Server, free_port, start_server
from tests.web.test_phone_moves import (
    PHONE,
    SHOTS,
    TABLET,
    answered_without_sending,
    field,
    fill,
    join_phone,
    move_form,
    play,
    send,
    synced,
    watch_posts,
)

pytestmark = pytest.mark.browser
RECORD = """document.addEventListener('companion:state', function (e) {
  (window.__seen = window.__seen || []).push(JSON.stringify(e.detail));
});"""


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    srv = start_server(tmp_path_factory.mktemp("run") / "journal.db", 0)
    yield srv
    srv.stop()


def table_page(browser, server: Server, path: str):
    ctx = browser.new_context(**TABLET)
    page = ctx.new_page()
    page.goto(f"{server.base}{path}?token={server.token}" if "?" not in path else f"{server.base}{path}&token={server.token}")
    return page


def phone_joins(browser, server: Server, code: str, seat: str):
    """A phone that records every live message it receives (``window.__seen``)."""
    return join_phone(browser, server, code, seat, RECORD)


def shot(page, name: str, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0); document.getElementById('toast').hidden = true")  # header on top, no toast
    page.screenshot(path=str(SHOTS / name), full_page=full)


def lay_tiles(server: Server, gid: str) -> None:
    for d, pair in zip("NESW", (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"], ["sea_lion", "crab"]), strict=True):
        server.act(gid, {"type": "tile", "direction": d, "animals": pair})


def test_a_phone_joins_acts_and_the_table_view_updates_within_a_second(browser, server: Server) -> None:
    gid, code = server.new_game("galapagos-auction", ["Ann", "Bob", "Cleo"])
    lay_tiles(server, gid)
    server.act(gid, {"type": "bid", "player": "Ann", "direction": "E", "amount": 300})
    tablet = table_page(browser, server, f"/g/{gid}/table")
    tablet.wait_for_selector("#live-status.ok")
    phone = phone_joins(browser, server, code, "Bob")
    assert "£1500" in phone.inner_text(".mine")
    shot(phone, "phone-seat-auction.png")
    bid = move_form(phone, "bid", "Bob")
    fill(bid, {"direction": "E", "amount": 400})
    bid.locator("button.primary").click()
    dialog = phone.wait_for_selector("dialog#confirm[open]")  # a bid spends money: the phone asks first
    assert "Bid?" in dialog.inner_text() and "400" in dialog.inner_text()
    phone.screenshot(path=str(SHOTS / "phone-confirm-bid.png"))  # the question repeats what is sent
    phone.click("dialog#confirm button[value='ok']")
    started = time.monotonic()  # from the tap's dispatch, not Playwright's own wait for the button
    tablet.wait_for_selector(".seat-turn[data-seat='Cleo']", timeout=1000)  # Cleo plays on the tablet: her banner
    assert time.monotonic() - started < 1.0
    assert "Bob bids £400 on East" in tablet.inner_text("ol.log")  # the game's narration
    phone.wait_for_selector(".toast.good")
    shot(tablet, "table-auction.png")
    watch_posts(tablet)
    tablet.click("button[data-move='undo']")  # undo asks first: Cancel keeps the bid
    tablet.wait_for_selector("dialog#confirm[open]")
    tablet.click("dialog#confirm button[value='cancel']")
    answered_without_sending(tablet)
    assert server.api("GET", f"/api/games/{gid}")["state"]["version"] == 6
    tablet.click("button[data-move='undo']")
    dialog = tablet.wait_for_selector("dialog#confirm[open]")
    assert "Undo the last action?" in dialog.inner_text() and "Bob bids £400 on East" in dialog.inner_text()
    tablet.click("dialog#confirm button[value='ok']")
    tablet.wait_for_function("(document.querySelector('.banner.prompt') || {textContent: ''}).textContent.includes('Bob')",
                             timeout=2000)  # « Bob: bid or pass. » (Bob has a phone)
    phone.wait_for_selector(".banner.yours")  # Bob's phone: his turn again
    tablet.context.close()
    phone.context.close()


def test_a_refused_action_is_kept_and_the_plan_offers_only_the_dice_rolled(browser, server: Server) -> None:
    gid, code = server.new_game("galapagos-auction", ["Ann", "Bob"])
    lay_tiles(server, gid)
    phone = phone_joins(browser, server, code, "Ann")
    bid = move_form(phone, "bid", "Ann")
    fill(bid, {"direction": "N", "amount": 3000})  # beyond the range offered: the browser keeps it
    bid.locator("button.primary").click()
    phone.wait_for_timeout(300)
    assert field(bid, "amount").evaluate("i => i.validity.rangeOverflow")
    assert phone.locator("dialog#confirm[open]").count() == 0
    assert server.api("GET", f"/api/games/{gid}")["state"]["bids"] == []
    phone.context.close()
    gid, code = server.new_game("galapagos-dice", ["Ann", "Bob"], {"layout_seed": 7})
    phone = phone_joins(browser, server, code, "Ann")  # before the tablet acts for her seat (she holds it)
    for action in ({"type": "start", "player": "Ann", "field": 1}, {"type": "start", "player": "Bob", "field": 19},
                   {"type": "place_turtles", "numbers": [2, 3, 8, 20, 36]},
                   {"type": "roll", "player": "Ann", "dice": ["white", "red", "red", "blue", "black"]}):
        (server.act_for if action.get("player") == "Ann" else server.act)(gid, action)
    synced(server, gid, phone)
    plan = move_form(phone, "plan", "Ann")
    dice = field(plan, "dice")
    red = dice.locator(".palette .chip[data-value='\"red\"']")
    red.click()
    red.click()  # the two reds rolled: no third one can be tapped (the tester's finding)
    assert red.is_disabled() and red.inner_text().split() == ["red", "×0"]
    assert dice.locator(".picked .chip").count() == 2
    sent = send(phone, plan)  # what the phone lets her send is what the rules accept
    assert sent.question is not None and "red, red" in sent.question
    assert server.api("GET", f"/api/games/{gid}")["state"]["dice"]["Ann"] == ["red", "red"]
    phone.context.close()


@pytest.mark.slow(reason="two phones vote in Chromium, each page read before and after the reveal")
def test_two_phones_vote_and_neither_sees_the_other_vote_before_the_reveal(browser, server: Server) -> None:
    gid, code = server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    ann = phone_joins(browser, server, code, "Ann")  # the phones hold their seats before the tablet acts for them
    bob = phone_joins(browser, server, code, "Bob")
    for action in TO_THE_VOTE:
        (server.act_for if action.get("player") in ("Ann", "Bob") else server.act)(gid, action)
    synced(server, gid, ann, bob)
    assert field(move_form(ann, "vote", "Ann"), "target").input_value() == ""  # nobody is preselected
    play(ann, "vote", {"target": "Cleo"})
    ann.wait_for_selector(".vote-mine")
    assert "Cleo" in ann.inner_text(".vote-mine")
    shot(ann, "phone-vote.png")
    bob.wait_for_function("document.querySelector('ol.log').textContent.includes('Ann votes')")
    seen = " ".join(bob.evaluate("window.__seen || []"))
    assert seen and '"vote":"Cleo"' not in seen and '"target":"Cleo"' not in seen
    assert "Cleo" not in bob.inner_text("ol.log") and "Cleo" not in bob.inner_text(".mine")
    assert bob.query_selector(".vote-mine") is None
    play(bob, "vote", {"target": "Cleo"})
    bob.wait_for_selector(".vote-mine")
    for payload in ann.evaluate("window.__seen || []"):  # everything Ann's phone received
        data = json.loads(payload)
        bob_entry = next(p for p in data["state"]["players"] if p["name"] == "Bob")
        assert "vote" not in bob_entry
        assert all(a["action"].get("target") in (None, "hidden") for a in data["last_actions"]
                   if a["action"].get("player") == "Bob" and a["action"]["type"] == "vote")
    server.act(gid, {"type": "vote", "player": "Cleo", "target": "Ann"})
    ann.wait_for_function("(window.__seen || []).some(s => s.includes('\"last_vote\":{\"Ann\":\"Cleo\"'))")
    table = table_page(browser, server, f"/g/{gid}/table")
    shot(table, "table-galerapagos.png")
    for p in (ann, bob, table):
        p.context.close()


def test_the_simulation_panel_button_press_changes_the_oled_mirror(browser, server: Server) -> None:
    server.new_game("pocket-galapagos", ["Ann"])  # the new game goes on the table
    page = table_page(browser, server, "/sim")
    page.wait_for_function("document.getElementById('oled').src.startsWith('data:image/png')")
    before = page.get_attribute("#oled", "src")
    page.click("button[data-press='down']")  # the press draws a new picture within 2 s, or this times out
    page.wait_for_function("prev => document.getElementById('oled').src !== prev", arg=before, timeout=2000)
    page.click("button.point[data-point='N']")
    page.wait_for_selector("button.point.on[data-point='N']")
    shot(page, "simulation-panel.png")
    page.context.close()


def test_home_setup_and_dice_island_screenshots(browser, server: Server) -> None:
    gid, code = server.new_game("galapagos-dice", ["Ann", "Bob"], {"layout_seed": 7})
    state = server.api("GET", f"/api/games/{gid}")["state"]
    fields = sorted(int(n) for n in state["layout"])
    server.act(gid, {"type": "start", "player": "Ann", "field": fields[0]})
    server.act(gid, {"type": "start", "player": "Bob", "field": fields[20]})
    server.act(gid, {"type": "place_turtles", "numbers": [n for n in fields if n not in (fields[0], fields[20])][3:8]})
    page = table_page(browser, server, f"/g/{gid}/table")
    assert page.locator("g.hex").count() == 36
    assert page.locator("g.pawn").count() == 2 and page.locator("g.turtle").count() == 5
    shot(page, "table-dice.png")
    page.goto(f"{server.base}/")
    shot(page, "home.png")
    page.goto(f"{server.base}/setup?seed=7")
    shot(page, "setup.png")
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{server.base}/join")
    shot(phone, "phone-join.png")
    for p in (page, phone):
        p.context.close()


def test_a_page_reconnects_after_the_server_restarts(browser, tmp_path) -> None:
    port = free_port()
    db = tmp_path / "journal.db"
    first = start_server(db, port)
    try:
        gid, _ = first.new_game("pocket-galapagos", ["Ann"])
        page = table_page(browser, first, f"/g/{gid}/table")
        page.wait_for_selector("#live-status.ok")
    finally:
        first.stop()
    page.wait_for_selector("#live-status.bad", timeout=5000)
    second = start_server(db, port)
    try:
        assert second.token == first.token  # the printed link and the cookies survive a restart
        page.wait_for_selector("#live-status.ok", timeout=10000)
        synced(second, gid, page)
        send(page, move_form(page, "end_turn", "Ann"))  # Ann has no phone: the tablet plays her seat
        page.wait_for_function("document.querySelector('.track-turns .now').textContent.trim() === '2'", timeout=2000)
    finally:
        page.context.close()
        second.stop()
