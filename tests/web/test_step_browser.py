"""The next step in Debian's Chromium: a seat played on the tablet leads its page and casts its secret vote
behind a privacy screen; an override asks its question first; a phone's plan laid but not sent counts
at the sand's end, and the phone says so at 5 s. The session's ``companion run --sim``;
screenshots in docs/screenshots/next-*.png (looked at)."""

from __future__ import annotations

import re

import pytest

from tests.support.dashboard import TO_THE_VOTE
from tests.web.runner import Server
from tests.web.test_phone_moves import SHOTS, TABLET, join_phone, json_value, move_form, synced

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(sim_server: Server) -> Server:
    return sim_server


def tablet(browser, server: Server, gid: str):
    page = browser.new_context(**TABLET).new_page()
    page.goto(f"{server.base}/g/{gid}/table?token={server.token}")
    page.wait_for_selector("#live-status.ok")
    return page


def snap(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), animations="disabled")


def answer(page, ok: bool = True) -> str:
    """The question the page asks, answered; returns it."""
    page.wait_for_selector("dialog#confirm[open]", timeout=5000)
    q = page.inner_text("dialog#confirm .q")
    page.click(f"dialog#confirm button[value='{'ok' if ok else 'cancel'}']")
    return q


def test_a_tablet_seat_leads_the_page_and_votes_behind_the_privacy_screen(browser, server: Server) -> None:
    gid, code = server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    ann = join_phone(browser, server, code, "Ann")
    tab = tablet(browser, server, gid)
    server.act(gid, TO_THE_VOTE[0])
    server.act_for(gid, TO_THE_VOTE[1])  # Ann searches; Bob, played on the tablet, is next
    synced(server, gid, tab, ann)
    banner = tab.locator(".seat-turn[data-seat='Bob']")
    assert banner.locator(".you-must").inner_text().strip().startswith("Bob, you must")
    assert "Waiting for Bob" not in tab.inner_text("main")
    box = banner.bounding_box()
    assert box is not None and box["y"] < 400, box  # at the top of the page, in view
    snap(tab, "next-tablet-seat-banner.png")
    tab.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    banner.locator("form.act[data-action='search'] button").click()
    if tab.locator("dialog#confirm[open]").count():
        answer(tab)
    tab.wait_for_selector(".seat-turn[data-seat='Cleo']", timeout=5000)
    assert tab.evaluate("window.scrollY") == 0  # back at the top for the next seat
    for a in TO_THE_VOTE[3:]:
        (server.act_for if a.get("player") == "Ann" else server.act)(gid, a)
    assert tab.locator("[data-private-open]").count() == 0  # everyone acted: no vote before the survival step
    for a in ({"type": "survival"}, {"type": "debate"}):  # the survival step, no card played: the vote
        server.act(gid, a)
    synced(server, gid, tab, ann)
    # the vote: Bob's choice is made behind the screen, and nothing of it stays
    assert tab.locator(".seat-turn[data-seat='Bob'] form.act[data-action='vote']").count() == 0
    tab.click("[data-private-open='Bob']")
    screen = tab.locator(".privacy")
    assert screen.locator("h2").inner_text() == "Pass the tablet to Bob"
    assert screen.locator("form.act").count() == 0  # nothing to see before Bob shows it
    snap(tab, "next-privacy-pass.png")
    screen.locator("button.show").click()
    vote = screen.locator("form.act[data-action='vote'][data-player='Bob']")
    vote.locator(f".chip[data-value='{json_value('Cleo')}']").click()
    if vote.locator("button.send").count():
        vote.locator("button.send").click()
    question = answer(tab)
    assert "Cleo" in question
    tab.wait_for_selector(".privacy", state="detached", timeout=5000)
    assert tab.inner_text("dialog#confirm .q") == ""  # the question that named Cleo is gone too
    assert tab.locator("form.act[data-action='vote'][data-player='Bob']").count() == 0
    synced(server, gid, tab)
    snap(tab, "next-privacy-after.png")
    votes = [e for e in server.api("GET", f"/api/games/{gid}")["last_actions"] if (e.get("action") or {}).get("type") == "vote"]
    assert votes and votes[0]["action"].get("player") == "Bob"
    for p in (ann, tab):
        p.context.close()


@pytest.mark.slow(reason="the dice game's sand timer (10 s, the shortest a table may choose) runs out in real time on "
                         "the server, as a phone's laid plan must count then")
def test_an_override_asks_first_and_a_laid_plan_counts_at_the_sand_with_a_warning(browser, server: Server) -> None:
    gid, code = server.new_game("galapagos-dice", ["Ann", "Bob"], {"layout_seed": 7, "timer_seconds": 10})
    ann = join_phone(browser, server, code, "Ann")
    bob = join_phone(browser, server, code, "Bob")
    tab = tablet(browser, server, gid)
    server.act_for(gid, {"type": "start", "player": "Ann", "field": 1})
    server.act_for(gid, {"type": "start", "player": "Bob", "field": 19})
    server.act(gid, {"type": "place_turtles", "numbers": [2, 3, 8, 20, 36]})
    server.act_for(gid, {"type": "plan", "player": "Ann", "dice": ["red"]})  # the sand turns
    synced(server, gid, bob)
    # Bob lays red, blue in his plan at once (well before the last 5 s) and never sends it
    plan = move_form(bob, "plan", "Bob")
    assert plan.get_attribute("data-draft") == "dice"
    for c in ("red", "blue"):
        plan.locator(f".palette .chip[data-value='{json_value(c)}']").click()
    assert bob.locator("p[data-draft-warning]").is_hidden()  # not before 5 s
    synced(server, gid, ann, tab)  # a draft is no new state: the pages stay at this version
    # the tablet acting for Bob's phone is an override: it asks first (no is the answer here)
    tab.click("details.act-for > summary")
    tab.locator("details.act-for form.act[data-action='done'][data-player='Bob'] button").click()
    tab.wait_for_selector("dialog#confirm[open]")
    snap(tab, "next-override-question.png")
    assert answer(tab, ok=False).startswith("Bob has a phone: send « I am done » for Bob from the tablet?")
    said = tab.evaluate("companionWithTime('The sand is still running: end planning for everyone?')")
    assert re.fullmatch(r"The sand is still running \(\d+\u00a0s\): end planning for everyone\?", said), said
    said = bob.wait_for_function("() => { const p = document.querySelector('p[data-draft-warning]');"
                                 " return p && !p.hidden && p.textContent.trim(); }", timeout=15000).json_value()
    bob.evaluate("window.scrollTo(0, 0)")
    snap(bob, "next-phone-draft-warning.png")
    assert said == "5 s: your dice in order as laid will count"
    for _ in range(100):  # the sand runs out (the server's own tick)
        if server.api("GET", f"/api/games/{gid}")["state"]["phase"] != "plan":
            break
        bob.wait_for_timeout(250)
    actions = [e["action"] for e in server.api("GET", f"/api/games/{gid}")["last_actions"]]
    assert {"type": "plan", "player": "Bob", "dice": ["red", "blue"]} in actions, actions
    for p in (ann, bob, tab):
        p.context.close()
