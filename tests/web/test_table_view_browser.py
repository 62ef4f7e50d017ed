"""The tablet's turn ribbon, story and results screen in Debian's Chromium, 1280×800.

The session's ``companion run --sim`` (a new game per test); the moves a test needs before it looks are sent through
the API (the phones' own forms are tested in test_phone_moves.py). Screenshots go to
docs/screenshots/table-*.png and are looked at.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.web.runner import Server
from tests.web.test_phone_moves import PHONE, SHOTS, TABLET, synced

pytestmark = pytest.mark.browser

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
TILES = [("N", ["sea_lion", "iguana"]), ("E", ["tortoise", "booby"]), ("S", ["penguin", "crab"]), ("W", ["sea_lion", "crab"])]


@pytest.fixture(scope="module")
def server(sim_server: Server) -> Server:
    """The session's ``companion run --sim`` (tests/support/browser.py); each test makes its own game."""
    return sim_server


def scenario(name: str) -> tuple[dict, list[dict]]:
    lines = [json.loads(line) for line in (SCENARIOS / f"{name}.jsonl").read_text().splitlines() if line.strip()]
    return lines[0], lines[1:]


def open_tablet(browser, server: Server, gid: str, lang: str = "en", motion: str = "reduce"):
    ctx = browser.new_context(**TABLET, reduced_motion=motion)
    if lang != "en":
        ctx.add_cookies([{"name": "lang", "value": lang, "url": server.base}])
    page = ctx.new_page()
    page.goto(f"{server.base}/g/{gid}/table?token={server.token}")
    page.wait_for_selector("#live-status.ok")
    return page


#: every mark the pages animate (a figure that changed, a new line of the story, the banner of a reader's own
#: turn, a picked chip, the sand's last seconds), as a probe element, with its animation's name
STILL_WITH_LESS_MOTION = (
    ('<table><tr><td class="changed" data-probe>1</td></tr></table>', "figure-changed"),
    ('<div class="story"><ol class="log"><li class="fresh" data-probe>x</li></ol></div>', "line-fresh"),
    ('<div class="banner yours" data-probe>x</div>', "pulse"),
    ('<div class="picked-flash" data-probe>x</div>', "flash"),
    ('<div class="timer low" data-probe>x</div>', "timer-low"),
)


def running_animations(page) -> list[str]:
    """The CSS animations running on the page now (their names)."""
    return page.evaluate("document.getAnimations().filter(a => a.playState === 'running').map(a => a.animationName)")


def snap(page, name: str) -> None:
    """What the tablet shows at 1280×800 (the screen, not the whole scrolled page)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / name), animations="disabled")  # the flashes of the last update ended


def test_the_ribbon_and_the_story_follow_the_play(browser, server: Server) -> None:
    out = server.api("POST", "/api/games", {"game": "galapagos-auction", "players": ["Ann", "Bob", "Cid"], "options": {}})
    gid, code = out["id"], out["join_code"]
    tablet = open_tablet(browser, server, gid, motion="no-preference")  # the flashes as most tablets show them
    still = open_tablet(browser, server, gid)  # a tablet whose reader asked for less motion
    assert tablet.inner_text(".ribbon .rb.now .rb-name") == "The table"  # the tiles are the table's to lay
    ann = browser.new_context(**PHONE).new_page()
    ann.goto(f"{server.base}/join?code={code}")
    ann.click("button.seat-button[value='Ann']")
    ann.wait_for_selector("#live-status.ok")
    for square, pair in TILES:
        server.act(gid, {"type": "tile", "direction": square, "animals": pair})
    synced(server, gid, tablet, ann)
    ribbon = tablet.locator(".ribbon")
    assert ribbon.locator(".rb.now .rb-name").inner_text() == "Ann"
    assert ribbon.locator(".rb.next .rb-name").inner_text() == "Bob"
    assert ribbon.locator(".rb[data-seat='Ann'] svg.figure").count() == 1  # the start player's figure
    assert ribbon.locator(".rb[data-seat='Ann'] .ic-phone").count() == 1 and ribbon.locator(".rb[data-seat='Bob'] .ic-phone").count() == 0
    # Ann's phone sends her bid (through live.js's contract; its forms are test_phone_moves.py's)
    ann.evaluate("([url, data]) => window.companionPost(url, data)",
                 [f"/api/games/{gid}/actions", {"type": "bid", "player": "Ann", "direction": "N", "amount": 300}])
    synced(server, gid, tablet)
    assert ribbon.locator(".rb.now .rb-name").inner_text() == "Bob" and ribbon.locator(".rb.next .rb-name").inner_text() == "Cid"
    server.act(gid, {"type": "pass", "player": "Bob"})
    server.act(gid, {"type": "pass", "player": "Cid"})  # North wins: Ann pays her £300
    synced(server, gid, tablet)
    tablet.wait_for_selector("tr[data-figs='player:Ann'] .changed", timeout=3000)  # her money flashes
    assert tablet.locator("tr[data-figs='player:Bob'] .changed").count() == 0  # Bob's figures did not change
    assert "figure-changed" in running_animations(tablet)
    # with less motion asked for, the same marks stand still: an outline, no animation, on every animated kind
    for page, moving in ((tablet, True), (still, False)):
        for selector, name in STILL_WITH_LESS_MOTION:
            shown = page.evaluate("""([sel]) => { const host = document.createElement('div');
                host.innerHTML = sel; document.querySelector('main').append(host);
                const el = host.querySelector('[data-probe]'), style = getComputedStyle(el);
                const out = [style.animationName, style.outlineStyle]; host.remove(); return out; }""", [selector])
            assert (shown[0] == name) if moving else (shown[0] == "none"), (selector, shown, moving)
    assert still.locator("tr[data-figs='player:Ann'] .money").evaluate(
        "e => { e.classList.add('changed'); return getComputedStyle(e).outlineStyle; }") == "solid"
    still.context.close()
    story = tablet.locator(".story")
    assert story.locator("h3").first.inner_text().lower() == "round 1"
    newest = story.locator("li.newest")
    assert newest.count() == 1 and newest.inner_text().startswith("Cid passes. North wins with £300.")
    lines = story.locator("li").all_inner_texts()
    assert "Ann bids £300 on North. — from Ann's phone" in lines
    assert "web:" not in story.inner_text()
    assert tablet.locator(".joinbox").is_visible()
    snap(tablet, "table-ribbon-auction.png")
    ann.context.close()
    tablet.context.close()


def test_the_results_of_an_auction_decided_on_money_then_play_again(browser, server: Server) -> None:
    head, actions = scenario("auction_table_tie_on_money")
    out = server.api("POST", "/api/games", {"game": head["game"], "players": head["players"], "options": head["options"]})
    gid = out["id"]
    for action in actions[:-1]:
        server.act(gid, action)
    tablet = open_tablet(browser, server, gid)
    assert tablet.locator(".joinbox").is_visible() and tablet.locator(".results").count() == 0
    server.act(gid, actions[-1])  # Cid's last "done": the twelfth round ends
    tablet.wait_for_selector(".results")
    tablet.wait_for_selector(".joinbox", state="hidden")  # no joining a game that is over
    rows = tablet.locator("table.ranking tbody tr")
    assert [rows.nth(i).get_attribute("data-player") for i in range(3)] == ["Cid", "Bob", "Ann"]
    cid = rows.nth(0).locator("td").all_inner_texts()
    assert cid[0].strip() == "1" and cid[-2] == "19" and cid[-1] == "£1800"
    assert rows.nth(1).locator("td").all_inner_texts()[-2:] == ["19", "£1400"]
    assert "rk-winner" in rows.nth(0).get_attribute("class") and "rk-tied" in rows.nth(1).get_attribute("class")
    assert tablet.inner_text(".results .outcome.tie") == "Cid wins with 19 points; Bob also has 19 and loses on money."
    assert "Education 6: Cid +4." in tablet.inner_text(".result-lines")
    assert tablet.locator(".ribbon").count() == 0
    snap(tablet, "table-results-auction.png")
    tablet.click("form.play-again button")
    tablet.wait_for_url("**/table")
    tablet.wait_for_selector("#live-status.ok")
    new_gid = tablet.url.split("/g/")[1].split("/")[0]
    assert new_gid != gid
    fresh = server.api("GET", f"/api/games/{new_gid}")["state"]
    assert [p["name"] for p in fresh["players"]] == ["Ann", "Bob", "Cid"] and fresh["round"] == 1 and not fresh["over"]
    assert fresh["shared_field"] == "not_counted"  # the same readings
    assert tablet.locator(".joinbox").is_visible()
    tablet.context.close()


def test_the_results_of_galerapagos_and_dice_in_french(browser, server: Server) -> None:
    for name, shot in (("galerapagos_full_game", "table-results-galerapagos-fr.png"),
                       ("dice_review_four_players_tie", "table-results-dice-fr.png")):
        head, actions = scenario(name)
        gid = server.api("POST", "/api/games", {"game": head["game"], "players": head["players"],
                                                "options": head.get("options") or {}})["id"]
        for action in actions:
            server.act(gid, action)
        tablet = open_tablet(browser, server, gid, "fr")
        text = tablet.inner_text(".results")
        if name.startswith("galerapagos"):
            assert "Dan est mort de faim." in text and "Sur le radeau" in text
        else:
            assert "tous les ex æquo gagnent" in text
        snap(tablet, shot)
        tablet.context.close()


def test_the_ribbon_while_everyone_plans_at_once(browser, server: Server) -> None:
    gid = server.api("POST", "/api/games", {"game": "galapagos-dice", "players": ["Ann", "Bob", "Cleo"],
                                            "options": {"layout_seed": 7, "timer_seconds": 120}})["id"]
    for name, start in (("Ann", 1), ("Bob", 19), ("Cleo", 30)):
        server.act(gid, {"type": "start", "player": name, "field": start})
    server.act(gid, {"type": "place_turtles", "numbers": [2, 3, 8, 20, 36, 12]})
    tablet = open_tablet(browser, server, gid)
    ribbon = tablet.locator(".ribbon")
    assert ribbon.locator(".rb.now .rb-name").all_inner_texts() == ["Ann", "Bob", "Cleo"]  # planning is simultaneous
    assert ribbon.locator(".rb.next").count() == 0 and ribbon.locator("svg.figure").count() == 0  # no start figure
    snap(tablet, "table-ribbon-dice.png")
    tablet.context.close()


def test_a_galerapagos_round_told_in_french(browser, server: Server) -> None:
    from tests.support.dashboard import TO_THE_VOTE

    gid = server.api("POST", "/api/games", {"game": "galerapagos", "players": ["Ann", "Bob", "Cleo"], "options": {}})["id"]
    for action in TO_THE_VOTE:
        server.act(gid, action)
    tablet = open_tablet(browser, server, gid, "fr")
    story = tablet.locator(".story")
    assert story.locator("h3").all_inner_texts()[:2] == ["MANCHE 2", "MANCHE 1"]  # shown in capitals
    assert "à la table" in story.inner_text() and "web:" not in story.inner_text()
    ribbon = tablet.locator(".ribbon")
    # "La carte Premier joueur passe à Cleo": the first player's figure moved with the card
    assert ribbon.locator("svg.figure").count() == 1 and ribbon.locator(".rb[data-seat='Cleo'] svg.figure").count() == 1
    snap(tablet, "table-story-galerapagos-fr.png")
    tablet.context.close()
