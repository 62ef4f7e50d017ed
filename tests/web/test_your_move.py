"""« Your move » on a 390×844 phone, in Debian's Chromium.

A phone during its turn shows one sentence of what to do and only the moves it can make now; it must
fit in about one and a half screens (measured here: the document's height during a turn, for each game,
at most 1.6 × 844). The inputs are the ones people like: chips to tap, a list of chips (tap adds, a
chosen one tapped again goes back, what is left is counted), − / + steppers with what the value brings,
the picture to tap (``companion:pick``, the contract with pick.js). The sand timer stays in view and
rings (a buzz and a beep) at 5 s and at the end, never before the player touched the page.
Screenshots: docs/screenshots/phone-turn-*.png (looked at).
"""

from __future__ import annotations

import pytest

from tests.support.dashboard import TO_THE_VOTE
from tests.web.runner import Server
from tests.web.test_phone_moves import (
    TABLET,
    field,
    join_phone,
    json_value,
    move_form,
    offered,
    play,
    shot,
    synced,
)

pytestmark = pytest.mark.browser

LIMIT = 1.6 * 844
#: records the page's buzzes and beeps (navigator.vibrate, WebAudio) instead of making them
RECORD_ALARMS = """
window.__buzz = []; window.__beeps = 0; window.__audio = 0;
navigator.vibrate = function (p) { window.__buzz.push(JSON.stringify(p)); return true; };
window.AudioContext = function () {
  window.__audio += 1;
  this.state = "running"; this.currentTime = 0; this.destination = {};
  this.resume = function () {};
  this.createGain = function () { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect() {}}; };
  this.createOscillator = function () { return {frequency: {}, connect() {}, start() { window.__beeps += 1; }, stop() {}}; };
};
"""


@pytest.fixture(scope="module")
def server(sim_server: Server) -> Server:
    """The session's ``companion run --sim`` (tests/support/browser.py); each test makes its own game."""
    return sim_server


def phone(browser, server: Server, code: str, seat: str, alarms: bool = False):
    return join_phone(browser, server, code, seat, RECORD_ALARMS if alarms else None)


def height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def fits(server: Server, gid: str, page, name: str) -> int:
    """The phone during its turn: the sentence on top, the page at most 1.6 screens tall (screenshot kept)."""
    synced(server, gid, page)
    assert page.locator(".banner.you-must").count() == 1, "not this phone's turn"
    h = height(page)
    shot(page, f"phone-turn-{name}.png")
    assert h <= LIMIT, f"{name}: the turn is {h}px tall ({h / 844:.2f} screens)"
    return h


@pytest.mark.slow(reason="a turn of each of the four games laid out on a phone in Chromium, measured and photographed")
def test_every_games_turn_fits_in_one_and_a_half_screens(browser, server: Server) -> None:
    # the auction: bidding, then the cards of a player who holds an animal (every card move offered)
    gid, code = server.new_game("galapagos-auction", ["Ann", "Bob"])
    for d, pair in zip("NESW", (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"],
                                ["sea_lion", "crab"]), strict=True):
        server.act(gid, {"type": "tile", "direction": d, "animals": pair})
    ann, bob = phone(browser, server, code, "Ann"), phone(browser, server, code, "Bob")
    fits(server, gid, ann, "auction-bid")
    assert "You must bid or pass." in ann.inner_text(".banner")
    assert bob.inner_text(".banner").strip().endswith("Ann: bid or pass.")
    assert ann.locator("form.act").evaluate_all("fs => fs.map(f => f.dataset.action)") == ["bid", "pass"]
    server.act_for(gid, {"type": "bid", "player": "Ann", "direction": "E", "amount": 300})
    server.act_for(gid, {"type": "pass", "player": "Bob"})
    server.act_for(gid, {"type": "expedition", "player": "Ann", "animal": "tortoise"})
    fits(server, gid, ann, "auction-cards")
    shown = ann.locator(".your-move > form.act").evaluate_all("fs => fs.map(f => f.dataset.action)")
    assert shown == ["education", "expedition", "sale", "exhibition", "sell_cards", "done"], shown
    assert "You must play your East cards, then say done." in ann.inner_text(".banner")
    assert ann.locator("details.mine:not([open])").count() == 1  # her state, one tap away
    for p in (ann, bob):
        p.context.close()

    # the dice game: the start field, the roll, the plan with its suggestion first, the walk
    gid, code = server.new_game("galapagos-dice", ["Ann", "Bob"], {"layout_seed": 7, "timer_seconds": 120})
    ann = phone(browser, server, code, "Ann")
    fits(server, gid, ann, "dice-start")
    server.act_for(gid, {"type": "start", "player": "Ann", "field": 1})
    server.act(gid, {"type": "start", "player": "Bob", "field": 19})
    synced(server, gid, ann)
    assert "Waiting for the tablet to place the first turtles." in ann.inner_text(".banner")
    server.act(gid, {"type": "place_turtles", "numbers": [2, 3, 8, 20, 36]})
    fits(server, gid, ann, "dice-roll")
    server.act_for(gid, {"type": "roll", "player": "Ann", "dice": ["white", "red", "red", "blue", "black"]})
    fits(server, gid, ann, "dice-plan")
    first = ann.locator(".your-move button").first  # the first, prominent button: the suggested plan
    assert "hint-plan" in first.get_attribute("class") and "Plan the suggestion" in first.inner_text()
    server.act_for(gid, {"type": "plan", "player": "Ann", "dice": ["white", "red"]})
    server.act(gid, {"type": "plan", "player": "Bob", "dice": ["white"]})
    server.act(gid, {"type": "done", "player": "Bob"})
    fits(server, gid, ann, "dice-move")
    ann.context.close()

    # Galèrapagos: the castaway's action, then the vote
    gid, code = server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    ann = phone(browser, server, code, "Ann")
    server.act(gid, TO_THE_VOTE[0])
    fits(server, gid, ann, "galerapagos-action")
    assert "You must fish, collect water or wood, or search the wreck." in ann.inner_text(".banner")
    for action in TO_THE_VOTE[1:]:
        (server.act_for if action.get("player") == "Ann" else server.act)(gid, action)
    server.act(gid, {"type": "survival"})  # everyone has acted: the first player starts the survival step, then the vote
    fits(server, gid, ann, "galerapagos-vote")
    ann.context.close()

    # Pocket Galapagos: a turn
    gid, code = server.new_game("pocket-galapagos", ["Ann"])
    ann = phone(browser, server, code, "Ann")
    fits(server, gid, ann, "pocket")
    ann.context.close()


@pytest.mark.slow(reason="chips, steppers and a tap on the picture, each tried on a phone in Chromium")
def test_chips_steppers_and_a_tap_on_the_picture(browser, server: Server) -> None:
    gid, code = server.new_game("galapagos-dice", ["Ann", "Bob"], {"layout_seed": 7, "timer_seconds": 120})
    ann = phone(browser, server, code, "Ann")
    server.act_for(gid, {"type": "start", "player": "Ann", "field": 1})
    server.act(gid, {"type": "start", "player": "Bob", "field": 19})
    server.act(gid, {"type": "place_turtles", "numbers": [2, 3, 8, 20, 36]})
    synced(server, gid, ann)
    roll = move_form(ann, "roll", "Ann")
    dice = field(roll, "dice")
    assert roll.locator("select").count() == 0  # no drop-downs: chips
    left = roll.locator(".items-left")
    assert left.inner_text() == "5 left"
    for c in ("red", "red", "blue"):
        dice.locator(f".palette .chip[data-value='{json_value(c)}']").click()
    assert left.inner_text() == "2 left"
    dice.locator(".picked .chip").nth(1).click()  # the second red tapped again goes back
    assert dice.locator(".picked .chip").evaluate_all("cs => cs.map(c => c.dataset.label)") == ["red", "blue"]
    assert left.inner_text() == "3 left"
    for c in ("green", "white"):
        dice.locator(f".palette .chip[data-value='{json_value(c)}']").click()
    assert left.inner_text() == "1 left"
    dice.locator(f".palette .chip[data-value='{json_value('black')}']").click()  # the fifth die sends the throw
    ann.wait_for_selector("form.act[data-action='roll']", state="detached", timeout=5000)
    assert server.api("GET", f"/api/games/{gid}")["state"]["rolls"]["Ann"] == ["red", "blue", "green", "white", "black"]
    synced(server, gid, ann)
    # a tap on the island (pick.js's event) puts a die into the plan being made
    plan = move_form(ann, "plan", "Ann")
    ann.evaluate("document.dispatchEvent(new CustomEvent('companion:pick', {detail: {field: 'dice', value: 'red'}}))")
    assert field(plan, "dice").locator(".picked .chip").evaluate_all("cs => cs.map(c => c.dataset.value)") == \
        [json_value("red")]
    ann.evaluate("document.dispatchEvent(new CustomEvent('companion:pick', {detail: {field: 'dice', value: 'red'}}))")
    assert field(plan, "dice").locator(".picked .chip").count() == 1  # one red rolled: not twice
    server.act_for(gid, {"type": "plan", "player": "Ann", "dice": ["red", "blue"]})
    server.act(gid, {"type": "plan", "player": "Bob", "dice": ["white"]})
    server.act(gid, {"type": "done", "player": "Bob"})
    synced(server, gid, ann)
    move = move_form(ann, "move", "Ann")
    walk = next(w for w in offered(move, "path") if len(w) == 2)
    for n in walk:  # the walk tapped field by field on the island
        ann.evaluate("n => document.dispatchEvent(new CustomEvent('companion:pick', {detail: {field: 'path', value: n}}))",
                     n)
    assert field(move, "path").input_value() == json_value(walk)
    assert move.locator(f".chip.on[data-value='{json_value(walk)}']").count() == 1
    ann.context.close()

    # a − / + stepper shows its value and what it brings: the auction's sale of cards
    gid, code = server.new_game("galapagos-auction", ["Ann", "Bob"])
    for d, pair in zip("NESW", (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"],
                                ["sea_lion", "crab"]), strict=True):
        server.act(gid, {"type": "tile", "direction": d, "animals": pair})
    ann = phone(browser, server, code, "Ann")
    bid = move_form(ann, "bid", "Ann")
    amount = field(bid, "amount")
    plus = bid.locator(".step[data-step='1']")
    plus.click()
    plus.click()
    assert amount.input_value() == "200" and "£1300 left in hand" in bid.locator(".range-preview").inner_text()
    bid.locator(".step[data-step='-1']").click()
    assert amount.input_value() == "100"
    assert bid.locator(".step[data-step='-1']").is_disabled()  # the least bid: no lower
    assert bid.locator(".step[data-step='-1']").get_attribute("aria-label") == "Less"
    ann.context.close()


@pytest.mark.slow(reason="a 7 s sand timer runs out in real time on two "
                         "phones in Chromium (the rings at 5 s and at the end)")
def test_the_sand_timer_stays_in_view_and_rings_at_five_seconds_and_at_the_end(browser, server: Server) -> None:
    gid, code = server.new_game("galapagos-dice", ["Ann", "Bob"], {"layout_seed": 7, "timer_seconds": 7})
    ann = phone(browser, server, code, "Ann", alarms=True)
    bob = phone(browser, server, code, "Bob", alarms=True)  # Bob never touches his phone: it stays quiet
    server.act_for(gid, {"type": "start", "player": "Ann", "field": 1})
    server.act_for(gid, {"type": "start", "player": "Bob", "field": 19})
    server.act(gid, {"type": "place_turtles", "numbers": [2, 3, 8, 20, 36]})
    synced(server, gid, ann, bob)
    play(ann, "plan", {"dice": ["red", "blue"]})  # Ann taps: her first plan turns the sand timer
    ann.wait_for_selector(".timer.running")
    bob.wait_for_selector(".timer.running")
    assert ann.evaluate("window.__audio") == 1 and bob.evaluate("window.__audio") == 0  # sound only after a tap
    ann.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    box = ann.locator(".timer").bounding_box()
    assert box is not None and 0 <= box["y"] <= 120, box  # sticky under the header while it runs
    ann.wait_for_function("window.__buzz.length >= 1", timeout=6000)
    assert ann.evaluate("window.__buzz") == ["150"] and ann.evaluate("window.__beeps") == 1  # 5 s left
    ann.wait_for_function("window.__buzz.length >= 2", timeout=8000)
    assert ann.evaluate("window.__buzz")[1] == "[300,120,300]" and ann.evaluate("window.__beeps") == 2  # the end
    assert bob.evaluate("window.__beeps") == 0 and bob.evaluate("window.__buzz") == []
    for p in (ann, bob):
        p.context.close()


def test_the_keyboard_reaches_the_move_before_the_folded_state(browser, server: Server) -> None:
    gid, code = server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    ann = phone(browser, server, code, "Ann")
    server.act(gid, TO_THE_VOTE[0])
    synced(server, gid, ann)
    assert ann.evaluate("document.querySelectorAll('[tabindex]:not([tabindex=\"0\"]):not([tabindex=\"-1\"])').length") == 0
    order = []
    for _ in range(40):
        ann.keyboard.press("Tab")
        order.append(ann.evaluate("(() => { const a = document.activeElement; return a.closest('.your-move') ? 'move'"
                                  " : a.closest('details.mine') ? 'state' : a.closest('header') ? 'header'"
                                  " : 'other ' + a.outerHTML.slice(0, 80); })()"))
        if order[-1] == "state":
            break
    assert "move" in order and order.index("move") < order.index("state"), order
    assert order[:order.index("move")] == ["header"] * order.index("move")  # nothing between the header and the move
    ann.context.close()


def test_a_tap_on_the_tablets_picture_fills_its_drop_down_or_its_list(browser, server: Server) -> None:
    """The same contract on the tablet: a square tapped chooses it in the tile's drop-down; turtles tapped
    one by one go into the list of turtles drawn, each once."""
    gid, _ = server.new_game("galapagos-auction", ["Ann", "Bob"])
    tablet = browser.new_context(**TABLET).new_page()
    tablet.goto(f"{server.base}/g/{gid}/table?token={server.token}")
    tablet.wait_for_selector("#live-status.ok")
    pick = "([f, v]) => document.dispatchEvent(new CustomEvent('companion:pick', {detail: {field: f, value: v}}))"
    tablet.evaluate(pick, ["direction", "E"])
    assert field(move_form(tablet, "tile", table=True), "direction").input_value() == json_value("E")
    gid, _ = server.new_game("galapagos-dice", ["Ann", "Bob"], {"layout_seed": 7})
    server.act(gid, {"type": "start", "player": "Ann", "field": 1})
    server.act(gid, {"type": "start", "player": "Bob", "field": 19})
    tablet.goto(f"{server.base}/g/{gid}/table?token={server.token}")
    tablet.wait_for_selector("#live-status.ok")
    for n in (2, 3, 3):
        tablet.evaluate(pick, ["numbers", n])
    drawn = field(move_form(tablet, "place_turtles", table=True), "numbers")
    assert drawn.locator(".picked .chip").evaluate_all("cs => cs.map(c => c.dataset.value)") == ["2", "3"]
    tablet.context.close()
