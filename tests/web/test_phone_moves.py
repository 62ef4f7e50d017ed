"""A round of each game played on phones through the move forms only.

Against a real ``companion run --sim`` in Debian's Chromium: every seat has a
phone, and each move is entered the way a player enters it, by choosing in the
selects the game package offers (a choice's own fields appear once it is
chosen), filling a range and pressing Send, answering the question a form asks
first. The tablet only enters what the table does (a species tile, a weather
card, the turtles drawn from the bag). After each step the API must hold the
exact action the form meant (so each value was read back as its JSON) and the
state it leads to. Galèrapagos's vote form preselects nobody: pressing Send
without choosing sends nothing.

Each kind of control is entered through its form here at least once (a chip, a choice's own
fields, a list of chips, a stepper, a one-tap form, a default, a question); a move whose form is
entered so elsewhere is sent the way the phone's script sends it (``post_as``: the seat's own
page posts the action) or by the table, so the round still reaches the moments this module
checks without a browser round trip per move. Every state the round passes through is still
checked. Where each such form is entered in a browser: the tiles, the weather card, the turtles
from the bag (on the tablet), a second bid and the search (on a phone) in test_walkthrough.py;
a second start, roll, plan, walk, expedition, catch and « done » by the same forms in this module.

The helpers here (``move_form``, ``fill``, ``send``, ``play``) are the only way
the browser tests enter a move; test_browser.py and test_walkthrough.py use them.
Screenshots go to docs/screenshots/ (phone 390×844, tablet 1280×800).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.runner import Server

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
#: where the browser tests leave their screenshots: a temporary folder, unless ``SCREENSHOTS`` names
#: one (``make screenshots`` sets it to docs/screenshots to renew the documentation's pictures)
SHOTS = Path(os.environ.get("SCREENSHOTS") or tempfile.mkdtemp(prefix="galapagos-screenshots-"))
# bypass_csp: Playwright's wait_for_function evaluates strings, which the dashboard's CSP forbids
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1,
         "bypass_csp": True}
TABLET = {"viewport": {"width": 1280, "height": 800}, "bypass_csp": True}


# -- entering a move through its form -------------------------------------------------------
def json_value(value: Any) -> str:
    """A choice's value as its <option> carries it (web/forms.py's value_json)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def move_form(page, action: str, player: str | None = None, table: bool = False):
    """The form of ``action`` on the page (``player``'s, or the table's own), "More moves" opened if need be."""
    sel = f"form.act[data-action='{action}']"
    if player is not None:
        sel += f"[data-player='{player}']"
    elif table:
        sel += ":not([data-player])"
    form = page.locator(sel).first
    form.wait_for(state="attached", timeout=5000)
    # a live update may swap the page between a look and a tap (the form unfolded, or its fold redrawn):
    # look again until the form shows, tapping the fold that holds it now
    deadline = time.monotonic() + 15
    while not form.is_visible():
        assert time.monotonic() < deadline, f"the form of {action!r} never showed"
        try:
            page.locator(f"details:not([open]):has({sel}) > summary").first.click(timeout=2000)
        except PlaywrightTimeout:
            pass
    return form


def field(form, name: str):
    """The control of field ``name`` as shown now (a choice's own fields are hidden until it is chosen):
    a drop-down (the tablet), the hidden value of a row of chips (the phone), a list of chips, a stepper's number."""
    box = form.locator(f"[data-field='{name}']:not(.sub[hidden] *)")
    assert box.count() == 1, f"{box.count()} fields {name!r} shown"
    return box


def offered(form, name: str) -> list[Any]:
    """The values field ``name`` offers now, decoded: its chips (or a drop-down's options), without "choose"."""
    ctl = field(form, name)
    if ctl.evaluate("e => e.tagName") == "SELECT":
        raw = ctl.locator("option:not([disabled])").evaluate_all("os => os.map(o => o.value)")
    else:
        raw = ctl.evaluate("e => Array.from(e.closest('.fld').querySelectorAll('.chip[data-value]:not(.picked-chip)'))"
                           ".map(c => c.dataset.value)")
    return [json.loads(v) for v in raw if v]


def chip_texts(form, name: str) -> list[str]:
    """What each chip of field ``name`` says (its label and preview), as the player reads it."""
    return [" ".join(t.split()) for t in field(form, name).evaluate_all(
        "es => Array.from(es[0].closest('.fld').querySelectorAll('.chip[data-value]:not(.picked-chip)'))"
        ".map(c => c.dataset.label + (c.querySelector('small') ? ' ' + c.querySelector('small').innerText : ''))")]


def _sent_already(form) -> bool:
    """A tap completed the form: its question is open or its answer shown (nothing more to tap)."""
    return form.page.locator("dialog#confirm[open], #toast:not([hidden])").count() > 0


def tap_chip(ctl, json_value_: str) -> None:
    """Tap the chip of that value beside the control (opening « n more » if it is folded there)."""
    box = ctl.locator("xpath=ancestor::*[contains(concat(' ', @class, ' '), ' fld ')][1]")
    chip = box.locator(f".chip[data-value='{json_value_}']:not(.picked-chip)").first
    if not chip.is_visible():
        box.locator("details.more-chips > summary").first.click()
    chip.click()


def fill(form, values: dict[str, Any], sending: bool = False) -> None:
    """Enter each value as a player does, in order: tap its chip, tap the chips of a list in order (taking back
    what was there), step a range with − / + (typing it only when no tap reaches it), choose in a drop-down.
    A tap that completes a one-tap form sends it (``sending``: the taps of ``play``): the rest is then left alone."""
    for name, value in values.items():
        if sending and _sent_already(form):
            return
        ctl = field(form, name)
        kind = ctl.get_attribute("data-kind")
        tag = ctl.evaluate("e => e.tagName")
        if kind == "items":
            while ctl.locator(".picked .chip").count():  # a chip tapped again goes back
                ctl.locator(".picked .chip").first.click()
            for v in value:
                ctl.locator(f".palette .chip[data-value='{json_value(v)}']").click()
        elif tag == "SELECT":
            ctl.select_option(value=json_value(value))
        elif ctl.get_attribute("type") == "hidden":
            if ctl.input_value() == json_value(value) and form.get_attribute("data-tap") is None:
                continue  # already chosen (a default): nothing to tap
            tap_chip(ctl, json_value(value))
        else:
            step(ctl, value)


def step(ctl, value: int) -> None:
    """A range: − / + until it shows ``value``; a value no tap reaches (beyond the range) is typed."""
    lo, hi, by = (int(ctl.get_attribute(a) or d) for a, d in (("min", "0"), ("max", "0"), ("step", "1")))
    if not (lo <= value <= hi) or (value - lo) % by:
        ctl.fill(str(value))
        return
    box = ctl.locator("xpath=..")
    for _ in range(200):
        now = ctl.input_value()
        if now != "" and int(now) == value:
            return
        box.locator(".step[data-step='1']" if now == "" or int(now) < value else ".step[data-step='-1']").click()
    raise AssertionError(f"the stepper never showed {value}")


@dataclass
class Sent:
    toast: str
    question: str | None  # what the form asked first (None: it sent at once)


def version(page) -> int:
    return page.evaluate("Number(document.body.dataset.version)")


def send(page, form, good: bool = True, answer: str = "ok", press=None) -> Sent:
    """Press the form's button (or ``press()``: the taps that send a one-tap form); answer its question if it
    asks one; read the toast (and wait for the update)."""
    page.evaluate("document.getElementById('toast').hidden = true")
    before = version(page)
    if press is not None:
        press()
    else:
        form.locator("button.send, button.primary").last.click()
    page.wait_for_selector("dialog#confirm[open], #toast:not([hidden])", timeout=5000)
    question = None
    if page.locator("dialog#confirm[open]").count():
        question = page.inner_text("dialog#confirm .q")
        page.click(f"dialog#confirm button[value='{answer}']")
        if answer != "ok":
            return Sent("", question)
    toast = page.wait_for_selector(".toast.good:not([hidden]), .toast.bad:not([hidden])")
    assert ("good" in toast.get_attribute("class")) == good, f"{question!r} answered: {toast.inner_text()!r}"
    if good:
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=5000)
    return Sent(toast.inner_text(), question)


def watch_posts(page) -> None:
    """From now on the page notes every POST its scripts start (``window.__posted``), until it reloads."""
    page.evaluate("""() => {
      window.__posted = [];
      if (window.__watching) return;
      window.__watching = true;
      const fetch = window.fetch;
      window.fetch = function (url, options) {
        if (options && String(options.method).toUpperCase() === 'POST') window.__posted.push(String(url));
        return fetch.apply(this, arguments);
      };
    }""")


def answered_without_sending(page) -> None:
    """Once the page has handled the answer to its question (the dialog closed and its close handler
    ran, emptying the question: a send would have started its POST by then), nothing was posted since
    ``watch_posts`` but the dice a phone lays as its player taps (``/draft``, which changes no game).
    A wait on the handler, not on a clock."""
    page.wait_for_function("() => { const d = document.getElementById('confirm');"
                           " return !d.open && d.querySelector('.q').textContent === ''; }", timeout=5000)
    posted = page.evaluate("window.__posted")
    assert [url for url in posted if not url.endswith("/draft")] == [], posted


def play(page, action: str, values: dict[str, Any] | None = None, *, player: str | None = None,
         table: bool = False, good: bool = True, answer: str = "ok") -> Sent:
    """Fill the form of ``action`` with ``values`` (in order: a choice before its own fields) and send it."""
    form = move_form(page, action, player, table)
    if form.get_attribute("data-tap") is not None and values:  # the tap that completes it sends it
        return send(page, form, good, answer, press=lambda: fill(form, values, sending=True))
    if form.get_attribute("data-full-sends") is not None and values:  # a full list sends itself, a shorter one Send
        (name, value), = values.items()
        if len(value) == int(field(form, name).get_attribute("data-max")):
            return send(page, form, good, answer, press=lambda: fill(form, values, sending=True))
    fill(form, values or {})
    return send(page, form, good, answer)


def synced(server: Server, gid: str, *pages) -> None:
    """Wait until every page shows the game's latest version (live updates are asynchronous; 10 s: four
    test workers and their Chromiums share two cores, and a lost update never arrives at all)."""
    latest = server.api("GET", f"/api/games/{gid}")["state"]["version"]
    for page in pages:
        page.wait_for_function(f"Number(document.body.dataset.version) === {latest}", timeout=10_000)


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")  # the sticky header back on top
    page.screenshot(path=str(SHOTS / name), full_page=True)


# -- one table, its phones and the API ----------------------------------------------------------
@dataclass
class Round:
    server: Server
    gid: str
    code: str

    def state(self) -> dict[str, Any]:
        return self.server.api("GET", f"/api/games/{self.gid}")["state"]

    def last(self) -> dict[str, Any]:
        return self.server.api("GET", f"/api/games/{self.gid}")["last_actions"][0]["action"]

    def player(self, name: str) -> dict[str, Any]:
        return next(p for p in self.state()["players"] if p["name"] == name)

    def step(self, page, action: str, values: dict[str, Any] | None = None, *, also: dict[str, Any] | None = None,
             player: str | None = None, table: bool = False) -> Sent:
        """Play a move through its form; the API must have recorded exactly that action.

        ``also``: what the API shows besides ``values`` (a default the form preselected; a secret as "hidden").
        """
        seat = page.evaluate("document.body.dataset.seat || ''") or None
        sent = play(page, action, values, player=player, table=table)
        who = player or (None if table else seat)
        expected = {"type": action, **({"player": who} if who else {}), **(values or {}), **(also or {})}
        assert self.last() == expected
        return sent


def post_as(page, action: dict[str, Any]) -> None:
    """The seat's own page sends ``action`` to the API, as its script does once a form is read (a move
    whose form is entered elsewhere): the seat's cookie and CSRF token, no taps; refused, it raises."""
    page.evaluate("a => window.companionPost('/api/games/' + document.body.dataset.game + '/actions', a)", action)


@pytest.fixture(scope="module")
def server(sim_server: Server) -> Server:
    """The session's ``companion run --sim`` (tests/support/browser.py); each test makes its own game."""
    return sim_server


def join_phone(browser, server: Server, code: str, seat: str, init_script: str | None = None):
    """A 390×844 phone that joins ``seat`` with the join code, as a player does, once its page is live."""
    ctx = browser.new_context(**PHONE)
    if init_script:
        ctx.add_init_script(init_script)
    page = ctx.new_page()
    page.goto(f"{server.base}/join?code={code}")
    page.click(f"button.seat-button[value='{seat}']")
    page.wait_for_selector("#live-status.ok")
    return page


def begin(browser, server: Server, game: str, players: list[str], options: dict | None = None,
          phones: list[str] | None = None, tablet: bool = True):
    """A new game on the table: its Round, the tablet (None without ``tablet``) and a phone for each of
    ``phones`` (every seat unless named)."""
    out = server.api("POST", "/api/games", {"game": game, "players": players, "options": options or {}})
    game_round = Round(server, out["id"], out["join_code"])
    page = None
    if tablet:
        page = browser.new_context(**TABLET).new_page()
        page.goto(f"{server.base}/g/{game_round.gid}/table?token={server.token}")
        page.wait_for_selector("#live-status.ok")
    held = {name: join_phone(browser, server, game_round.code, name) for name in (players if phones is None else phones)}
    synced(server, game_round.gid, *([page] if page else []), *held.values())
    return game_round, page, held


def close(*pages) -> None:
    for p in pages:
        p.context.close()


# -- the four games -------------------------------------------------------------------------------
@pytest.mark.slow(reason="a whole auction round entered through the move forms of two phones "
                         "and the tablet in Chromium, each step read back from the API")
def test_an_auction_round_on_two_phones(browser, server: Server) -> None:
    g, tablet, ph = begin(browser, server, "galapagos-auction", ["Ann", "Bob"])
    ann, bob = ph["Ann"], ph["Bob"]
    assert ann.locator("form.act").count() == 0  # the tiles are the table's to lay
    for square, pair in zip("NESW", (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"],
                                     ["sea_lion", "crab"]), strict=True):  # the tablet's tile form: test_walkthrough.py
        server.act(g.gid, {"type": "tile", "direction": square, "animals": pair})
    assert g.state()["tiles"] == {"N": ["sea_lion", "iguana"], "E": ["tortoise", "booby"],
                                  "S": ["penguin", "crab"], "W": ["sea_lion", "crab"]}
    synced(server, g.gid, ann, bob)
    bid = move_form(ann, "bid", "Ann")
    assert field(bid, "direction").input_value() == ""  # nothing chosen for the player
    assert bid.locator("[data-field='amount']").get_attribute("max") == "1500"
    sent = g.step(ann, "bid", {"direction": "E", "amount": 300})
    assert sent.question is not None and sent.question.startswith("Bid?") and "£300" not in sent.toast
    assert "East" in sent.question and "Amount: £300" in sent.question  # what is sent, its amount with its unit
    post_as(bob, {"type": "bid", "player": "Bob", "direction": "E", "amount": 400})  # a bid's form: Ann's above
    s = g.state()
    assert s["phase"] == "actions" and s["direction"] == "E" and s["turn"] == "Bob"
    assert (g.player("Ann")["money"], g.player("Bob")["money"]) == (1200, 1100)  # both bids on East are paid
    synced(server, g.gid, bob)
    expedition = move_form(bob, "expedition", "Bob")
    assert chip_texts(expedition, "animal") == ["tortoise £400", "booby £600"]  # the tile's animals, priced
    assert field(expedition, "wildcard").input_value() == "false"  # the form's own default: one card
    g.step(bob, "expedition", {"animal": "tortoise"}, also={"wildcard": False})
    assert g.player("Bob")["money"] == 700 and g.player("Bob")["animals"]["tortoise"] == 1
    synced(server, g.gid, bob)
    exhibition = move_form(bob, "exhibition", "Bob")
    assert chip_texts(exhibition, "animals") == ["tortoise 3 points (bonus 1)"]  # the one bonus tile it fulfils
    sent = g.step(bob, "exhibition", {"animals": ["tortoise"]}, also={"wildcard": False, "bonus": "1"})  # one tap
    assert sent.question is not None and "3 points" in sent.question
    assert g.player("Bob")["points"] == 3 and g.state()["bonus_face_up"] == []
    synced(server, g.gid, bob)
    shot(bob, "phone-moves-auction.png")
    post_as(bob, {"type": "done", "player": "Bob"})  # a form without fields: Ann's « done » below
    synced(server, g.gid, ann)
    g.step(ann, "education", {"steps": 2}, also={"wildcard": False})
    assert (g.player("Ann")["money"], g.player("Ann")["education"]) == (900, 2)
    post_as(ann, {"type": "expedition", "player": "Ann", "animal": "booby", "wildcard": False})  # Bob's form above
    synced(server, g.gid, ann)
    sell = move_form(ann, "sell_cards", "Ann")
    assert sell.locator("[data-field='count']").get_attribute("max") == "5"  # 7 cards, two played
    g.step(ann, "sell_cards", {"count": 2})
    assert g.player("Ann")["money"] == 500
    synced(server, g.gid, ann)
    g.step(ann, "done")
    s = g.state()  # the round's upkeep: £200 each, the tile's animals advance, a bonus tile turns
    assert s["round"] == 2 and s["phase"] == "tile" and s["bonus_face_up"] == ["2"]
    assert (g.player("Ann")["money"], g.player("Bob")["money"]) == (700, 900)
    assert s["education_track"]["tortoise"] == 7 and s["education_track"]["booby"] == 10
    synced(server, g.gid, tablet, ann, bob)
    assert "Bob" in tablet.inner_text("ol.log") and ann.locator("form.act").count() == 0
    shot(tablet, "table-moves-auction.png")
    close(tablet, ann, bob)


@pytest.mark.slow(reason="a whole dice round entered through the move forms of two phones "
                         "and the tablet in Chromium, each step read back from the API")
def test_a_dice_round_on_two_phones(browser, server: Server) -> None:
    g, tablet, ph = begin(browser, server, "galapagos-dice", ["Ann", "Bob"], {"layout_seed": 7, "timer_seconds": 120})
    ann, bob = ph["Ann"], ph["Bob"]
    g.step(ann, "start", {"field": 1})
    post_as(bob, {"type": "start", "player": "Bob", "field": 19})  # the same form as Ann's
    assert [p["field"] for p in g.state()["players"]] == [1, 19]
    server.act(g.gid, {"type": "place_turtles", "numbers": [2, 3, 8, 20, 36]})  # the tablet's form: test_walkthrough.py
    assert sorted(g.state()["island"]) == ["2", "20", "3", "36", "8"]
    synced(server, g.gid, ann, bob)
    roll = move_form(ann, "roll", "Ann")
    fill(roll, {"dice": ["white", "red", "red", "blue"]})  # a roll is five dice: four are not sent
    assert roll.locator(".items-left").inner_text() == "1 left"
    assert "Dice rolled" in send(ann, roll, good=False).toast  # the phone says what is missing, sends nothing
    assert g.state()["rolls"] == {}
    g.step(ann, "roll", {"dice": ["white", "red", "red", "blue", "black"]})
    assert g.state()["rolls"]["Ann"] == ["white", "red", "red", "blue", "black"]
    synced(server, g.gid, ann)
    plan = move_form(ann, "plan", "Ann")
    assert set(offered(plan, "dice")) == {"white", "red", "blue", "black"}  # only the colours Ann rolled
    assert plan.locator(".picked .chip").count() == 0
    sent = g.step(ann, "plan", {"dice": ["white", "red"]})
    assert sent.question is not None  # planning is final: the form asks first
    assert g.state()["timer"] == "running"  # the first plan turned the sand timer
    post_as(bob, {"type": "roll", "player": "Bob", "dice": ["white", "green", "yellow", "blue", "black"]})  # Ann's forms
    post_as(bob, {"type": "plan", "player": "Bob", "dice": ["white", "black"]})
    synced(server, g.gid, bob)
    if done_if_asked(server, g.gid, bob, "Bob"):  # a later plan may be re-ordered until its player is done
        assert g.last() == {"type": "done", "player": "Bob"}
    s = g.state()
    assert s["phase"] == "move" and s["mover"] == "Ann"
    synced(server, g.gid, ann)
    walks = offered(move_form(ann, "move", "Ann"), "path")
    assert [] in walks and all(len(p) <= 2 for p in walks)  # at most one step a planned die; staying is offered
    walk = next(p for p in walks if p)
    shot(ann, "phone-moves-dice.png")
    g.step(ann, "move", {"path": walk})
    assert g.player("Ann")["field"] == walk[-1] and sum(g.player("Ann")["turtles"].values()) >= 1
    synced(server, g.gid, bob)
    walk = offered(move_form(bob, "move", "Bob"), "path")[0]
    post_as(bob, {"type": "move", "player": "Bob", "path": walk})  # Ann's form above
    s = g.state()  # both moved: the round ends and the table draws turtles from the bag again
    assert (s["round"], s["phase"], s["plans"], s["timer"]) == (2, "place", [], "idle")
    synced(server, g.gid, tablet)
    assert tablet.locator("form.act[data-action='place_turtles']:not([data-player])").count() == 1
    close(tablet, ann, bob)


def done_if_asked(server: Server, gid: str, page, player: str) -> bool:
    """Say "I am done" after a plan where the dice game asks for it (the first plan is done by itself)."""
    synced(server, gid, page)
    if not page.locator(f"form.act[data-action='done'][data-player='{player}']").count():
        return False
    play(page, "done", player=player)
    return True


@pytest.mark.slow(reason="a whole Galèrapagos round with a secret vote entered through "
                         "the forms of three phones and the tablet in Chromium")
def test_a_galerapagos_round_with_a_secret_vote_on_three_phones(browser, server: Server) -> None:
    g, tablet, ph = begin(browser, server, "galerapagos", ["Ann", "Bob", "Cleo"])
    ann, bob, cleo = ph["Ann"], ph["Bob"], ph["Cleo"]
    assert ann.locator("form.act[data-action='weather']").count() == 0  # the table turns the weather card
    server.act(g.gid, {"type": "weather", "water": 0, "hurricane": False})  # the tablet's form: test_walkthrough.py
    synced(server, g.gid, ann)
    g.step(ann, "fish", {"fish": 0})
    post_as(bob, {"type": "water", "player": "Bob"})  # a form without fields: Cleo's « no card » below
    assert g.state()["turn"] == "Cleo"
    synced(server, g.gid, cleo)
    wood = move_form(cleo, "wood", "Cleo")
    fill(wood, {"extra": 1})  # an extra ball drawn: the snake question follows
    assert field(wood, "snake").input_value() == ""
    g.step(cleo, "wood", {"extra": 1, "snake": False})
    assert g.state()["wood"] == 2
    # the next weather card also starts the survival step: everyone eats and drinks
    server.act(g.gid, {"type": "weather", "water": 0, "hurricane": False})
    s = g.state()
    assert (s["round"], s["food"], s["water"], s["wood"], s["turn"]) == (2, 2, 3, 2, "Cleo")
    for name, action, values in (("Cleo", "search", None), ("Ann", "search", None), ("Bob", "fish", {"fish": 0})):
        post_as(ph[name], {"type": action, "player": name, **(values or {})})  # the forms entered above
    assert g.state()["food"] == 2  # two rations for three castaways: a vote, which starts the survival step
    synced(server, g.gid, ann, bob, cleo)
    vote = move_form(ann, "vote", "Ann")
    target = field(vote, "target")
    assert target.input_value() == "" and vote.locator(".chip.on").count() == 0  # nobody preselected
    assert offered(vote, "target") == ["Ann", "Bob", "Cleo"]
    assert vote.locator("button.send").count() == 0  # nothing to send before a name is tapped
    assert g.last() == {"type": "fish", "player": "Bob", "fish": 0}
    bob_vote = move_form(bob, "vote", "Bob")
    tap_chip(field(bob_vote, "target"), json_value("Cleo"))  # Bob taps Cleo: his phone asks first
    bob.wait_for_selector("dialog#confirm[open]")
    assert "Cleo" in bob.inner_text("dialog#confirm .q")
    sent = g.step(ann, "vote", {"target": "Cleo"}, also={"target": "hidden"})
    assert sent.question is not None and "Cleo" in sent.question
    assert g.state()["vote"] == "food"
    synced(server, g.gid, bob)  # Ann's vote redrew Bob's page: his question is still open
    shot(bob, "phone-moves-vote.png")
    assert "Cleo" not in json.dumps(server.api("GET", f"/api/games/{g.gid}")["state"].get("last_vote"))
    bob.click("dialog#confirm button[value='ok']")
    bob.wait_for_selector(".toast.good:not([hidden])")
    assert g.last() == {"type": "vote", "player": "Bob", "target": "hidden"}
    synced(server, g.gid, cleo)
    g.step(cleo, "vote", {"target": "Ann"}, also={"target": "hidden"})
    synced(server, g.gid, cleo)
    assert g.state()["phase"] == "show_cards"  # the target may still save himself (docs/design.md)
    g.step(cleo, "no_card")
    s = g.state()
    assert s["last_vote"] == {"Ann": "Cleo", "Bob": "Cleo", "Cleo": "Ann"}
    assert [p["alive"] for p in s["players"]] == [True, True, False] and s["phase"] == "end"
    synced(server, g.gid, tablet, cleo)
    left = set(cleo.locator("form.act").evaluate_all("fs => fs.map(f => f.dataset.action)"))
    assert not left & {"fish", "water", "wood", "search", "vote", "resource"}, left  # a dead castaway plays no more
    shot(tablet, "table-moves-galerapagos.png")
    close(tablet, ann, bob, cleo)


def test_the_first_player_starts_the_survival_step_from_her_phone(browser, server: Server) -> None:
    """Everyone has acted: the first player's phone offers to go to survival, and sending it is accepted."""
    g, _, ph = begin(browser, server, "galerapagos", ["Ann", "Bob", "Cleo"], phones=["Ann"], tablet=False)
    for action in ({"type": "weather", "water": 0, "hurricane": False}, {"type": "fish", "player": "Ann", "fish": 0},
                   {"type": "water", "player": "Bob"}, {"type": "search", "player": "Cleo"}):
        (server.act_for if action.get("player") == "Ann" else server.act)(g.gid, action)  # Ann's phone holds her seat
    synced(server, g.gid, ph["Ann"])
    assert ph["Ann"].locator("form.act[data-action='survival']").count(), "the first player is offered the survival step"
    sent = g.step(ph["Ann"], "survival")
    assert sent.question is not None and g.state()["phase"] == "end"
    close(*ph.values())


def test_a_pocket_galapagos_turn_on_the_phone(browser, server: Server) -> None:
    g, _, ph = begin(browser, server, "pocket-galapagos", ["Ann"], tablet=False)
    ann = ph["Ann"]
    g.step(ann, "ocean", {"species": "rat", "icons": 2, "mode": "inhabit"})
    assert g.state()["populations"] == {"rat": 5, "ant": 3, "finch": 3}
    synced(server, g.gid, ann)
    assert field(move_form(ann, "ocean", "Ann"), "species").input_value() == ""  # a move sent is not offered again
    g.step(ann, "species", {"species": "ant", "space": "dominant"})
    assert g.state()["spaces"]["dominant"] == ["ant"]
    synced(server, g.gid, ann)
    g.step(ann, "population", {"species": "finch", "change": 1})
    assert g.state()["populations"]["finch"] == 4
    synced(server, g.gid, ann)
    move = move_form(ann, "move", "Ann")
    fill(move, {"species": "ant", "from": "dominant"})  # a card's destination, two choices deep
    assert "dominant" not in offered(move, "to") and "biome" in offered(move, "to")  # not back where it lies
    shot(ann, "phone-moves-pocket.png")
    g.step(ann, "move", {"species": "ant", "from": "dominant", "to": "biome"})
    assert g.state()["spaces"] == {"dominant": [], "biome": ["ant"], "invasive": []}
    synced(server, g.gid, ann)
    g.step(ann, "end_turn")
    s = g.state()
    assert s["turn"] == 2 and s["populations"] == {"rat": 4, "ant": 2, "finch": 3}
    synced(server, g.gid, ann)  # the table view's turn track at turn 2: test_walkthrough.py's watcher
    close(ann)
