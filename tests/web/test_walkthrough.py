"""The newcomer's walkthrough (as a newcomer checks the dashboard), in a real browser.

Against a real ``companion run --sim``: each of the four games is started from
the home page, two phone-sized pages join with the code they read on the table
view and play through the game package's move forms only (choose in the
selects, fill a range, Send, answer the question a form asks; the tablet plays
the table's moves and the seats without a phone), undo asks first, Galèrapagos
votes from two phones (one in French), the simulation panel's tags, buttons and
encoder reach the game and the OLED mirror, the server restarts under open
pages, and forged or malformed requests are refused. Assertions are on what a
player sees: the forms' choices, the banners and the game's narration.

Set ``WALKTHROUGH_SHOTS=DIR`` to keep the screenshots for a look.
"""

from __future__ import annotations

import http.client
import json
import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.web.runner import Server, free_port, start_server
from tests.web.test_phone_moves import (
    PHONE,
    TABLET,
    answered_without_sending,
    chip_texts,
    done_if_asked,
    field,
    move_form,
    offered,
    play,
    synced,
    watch_posts,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Iterator[dict]:
    """One server (restarted by the restart test, same port and journal) for the module."""
    db = tmp_path_factory.mktemp("walk") / "journal.db"
    port = free_port()
    state = {"server": start_server(db, port), "db": db, "port": port,
             "shots": Path(os.environ.get("WALKTHROUGH_SHOTS") or tmp_path_factory.mktemp("shots"))}
    yield state
    state["server"].stop()


# -- what a player does ------------------------------------------------------------------
def shot(run: dict, page, name: str) -> None:
    run["shots"].mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0); document.getElementById('toast').hidden = true")  # header on top, no toast
    page.screenshot(path=str(run["shots"] / f"{name}.png"), full_page=True)


def tablet(browser, server: Server):
    """The printed link opened on the tablet in the middle of the table."""
    page = browser.new_context(**TABLET).new_page()
    page.goto(f"{server.base}/?token={server.token}")
    return page


def start_game(page, game: str, players: list[str]) -> tuple[str, str]:
    """Home page → start ``game``; returns the game id and the join code the table view shows."""
    page.select_option("#start-game", game)
    page.fill("#start-players", "\n".join(players))
    page.click("#start-form button.primary")
    page.wait_for_selector("#live-status.ok")
    gid = page.url.split("/g/")[1].split("/")[0]
    return gid, page.inner_text(".joinbox .code").replace(" ", "")


def join(browser, server: Server, code: str, seat: str, lang: str | None = None):
    """A phone types the code, picks its seat and lands on its own page."""
    ctx = browser.new_context(**PHONE)
    if lang:
        ctx.add_cookies([{"name": "lang", "value": lang, "url": server.base}])
    page = ctx.new_page()
    page.goto(f"{server.base}/join")
    page.fill("input[name=code]", code)
    page.click("form.join-code button")
    page.click(f"button.seat-button[value='{seat}']")
    page.wait_for_selector("#live-status.ok")
    return page


def values(select) -> list:
    """The values a select (or a row of chips: the tablet's next step) offers, each choice's JSON decoded,
    without its "choose" placeholder."""
    if select.evaluate("e => e.tagName") != "SELECT":
        return offered(select.locator("xpath=ancestor::form[1]"), select.get_attribute("data-field"))
    return [json.loads(v) for v in select.locator("option:not([disabled])").evaluate_all("os => os.map(o => o.value)")
            if v]


def confirm(page, button, ok: bool = True) -> str:
    """Tap a button that asks first; answer the question; return it."""
    button.click()
    dialog = page.wait_for_selector("dialog#confirm[open]")
    question = dialog.inner_text()
    page.click(f"dialog#confirm button[value='{'ok' if ok else 'cancel'}']")
    return question


def banner(page) -> str:
    return page.inner_text(".banner")


def revealed(log: str, target: str) -> bool:
    """Whether a log names a vote's target ("Ann → Cleo", "votes for Cleo", "vote pour Cleo")."""
    return any(f"{arrow}{target}" in log for arrow in ("→", "→ ", "for ", "pour "))


def wait_text(page, selector: str, text: str, timeout: float = 3000) -> None:
    page.wait_for_function("([s, t]) => (document.querySelector(s) || {}).textContent?.includes(t)",
                           arg=[selector, text], timeout=timeout)


# -- the four games ------------------------------------------------------------------------
@pytest.mark.slow(reason="the auction walkthrough: started from Home, two phones join "
                         "by code, bid, play cards and undo in Chromium")
def test_galapagos_auction_two_phones_bid_play_cards_and_undo(run, browser) -> None:
    server = run["server"]
    table = tablet(browser, server)
    gid, code = start_game(table, "galapagos-auction", ["Ann", "Bob", "Cleo"])
    assert "Lay a species tile on the N/E/S/W square." in banner(table)
    for square, pair in zip("NESW", (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"],
                                     ["sea_lion", "crab"]), strict=True):
        tile = move_form(table, "tile", table=True)
        assert square in values(field(tile, "direction"))  # the empty squares are offered
        play(table, "tile", {"direction": square, "animals": pair}, table=True)
    synced(server, gid, table)
    tiles = table.locator(".tile").all_inner_texts()
    for text, square, animals in zip(tiles, "NESW", (("sea lion", "iguana"), ("tortoise", "booby"),
                                                      ("penguin", "crab"), ("sea lion", "crab")), strict=True):
        assert text.startswith(square) and all(a in text for a in animals), text
    ann, bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob")
    assert "You must bid or pass." in banner(ann) and "£1500" in ann.inner_text(".mine")
    assert "Ann: bid or pass." in banner(bob)  # whom the table waits for
    assert bob.locator("form.act[data-action='bid']").count() == 0  # not Bob's turn to bid
    play(ann, "bid", {"direction": "E", "amount": 300})
    wait_text(bob, ".banner", "You must bid or pass")
    play(bob, "bid", {"direction": "E", "amount": 400})
    synced(server, gid, table)
    play(table, "pass", player="Cleo")  # Cleo has no phone: the tablet plays her seat
    wait_text(bob, ".banner", "You must play your East cards, then say done.")
    wait_text(ann, ".mine .money", "£1200")  # Ann's bid on the winning direction is paid
    form = move_form(bob, "expedition", "Bob")
    assert chip_texts(form, "animal") == ["tortoise £400", "booby £600"]
    assert field(form, "wildcard").input_value() == "false" and offered(form, "wildcard") == [True]  # or two cards
    play(bob, "expedition", {"animal": "tortoise"})
    wait_text(bob, ".mine .money", "£700")
    shot(run, bob, "auction-bob-cards")
    undo = bob.locator("button[data-move='undo']")
    assert "Bob takes a tortoise" in undo.inner_text()
    assert ann.locator("button[data-move='undo']").count() == 0  # not Ann's action to take back
    watch_posts(bob)
    question = confirm(bob, undo, ok=False)
    assert "Undo the last action?" in question and "Bob takes a tortoise" in question
    answered_without_sending(bob)  # Cancel sent nothing
    assert "£700" in bob.inner_text(".mine .money")  # Cancel kept it
    confirm(bob, bob.locator("button[data-move='undo']"))
    wait_text(bob, ".mine .money", "£1100")
    synced(server, gid, table)
    assert "tortoise for £400" not in table.inner_text("ol.log")
    for p in (table, ann, bob):
        p.context.close()


@pytest.mark.slow(reason="the simulation panel in Chromium: a tile laid "
                         "and buttons pressed, the OLED mirror watched after each")
def next_frame(sim, previous: str) -> str:
    """The OLED's next picture unlike ``previous``: a frame counter can move on a periodic redraw of
    the same screen before the press is drawn, so the wait is on the picture itself; a press that
    draws nothing new times out here."""
    sim.wait_for_function("prev => document.getElementById('oled').src !== prev", arg=previous)
    return sim.get_attribute("#oled", "src")


def test_the_simulation_panel_lays_a_tile_and_presses_buttons_watching_the_oled(run, browser) -> None:
    server = run["server"]
    table = tablet(browser, server)
    gid, _ = start_game(table, "galapagos-auction", ["Ann", "Bob"])  # the new game goes on the table
    sim = tablet(browser, server)
    sim.goto(f"{server.base}/sim")
    sim.wait_for_function("document.getElementById('oled').src.startsWith('data:image/png')")
    frames = [sim.get_attribute("#oled", "src")]
    tiles = sim.locator("#tag-pick optgroup[label='tile'] option")
    for i, square in enumerate("NESW"):  # species tiles laid on the four squares
        sim.select_option("#tag-pick", tiles.nth(i).get_attribute("value"))
        sim.click(f"button.point[data-point='{square}']")
        sim.wait_for_selector(f"button.point.on[data-point='{square}']")
    first = tiles.first.inner_text().split()[-1].split("+")[0]  # "tile sea_lion+iguana"
    wait_text(table, ".tile", first.replace("_", " "))  # the game took the tiles, the table view shows them
    wait_text(table, ".seat-turn[data-seat='Ann'] .banner", "Ann, you must bid or pass.")  # Ann plays on the tablet
    frames.append(next_frame(sim, frames[-1]))
    # the dial: OK opens Ann's bid at its direction, the encoder picks North, OK, the encoder £100,
    # OK asks (a bid spends money), the second OK sends
    for control in ("button[data-press='ok']", "button[data-turn='1']", "button[data-press='ok']",
                    "button[data-turn='1']", "button[data-press='ok']", "button[data-press='ok']"):
        sim.click(control)
        frames.append(next_frame(sim, frames[-1]))
    wait_text(table, ".seat-turn[data-seat='Bob'] .banner", "Bob, you must bid or pass")
    assert "Ann bids £100 on North" in table.inner_text("ol.log")
    sim.click("button[data-press='back'][data-hold]")  # Back held: the table's undo
    wait_text(table, ".seat-turn[data-seat='Ann'] .banner", "Ann, you must bid or pass.")  # Ann plays on the tablet
    assert "bids" not in table.inner_text("ol.log")
    assert len(set(frames)) == len(frames)  # each step drew a new frame
    shot(run, sim, "sim-panel")
    for p in (table, sim):
        p.context.close()


@pytest.mark.slow(reason="the dice walkthrough: two phones start, roll and plan in Chromium")
def test_galapagos_dice_two_phones_start_roll_and_plan(run, browser) -> None:
    server = run["server"]
    table = tablet(browser, server)
    gid, code = start_game(table, "galapagos-dice", ["Ann", "Bob"])
    assert table.locator("g.hex").count() == 36
    ann, bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob")
    for name, phone in (("Ann", ann), ("Bob", bob)):
        synced(server, gid, phone)
        start = move_form(phone, "start", name)
        play(phone, "start", {"field": offered(start, "field")[0]})  # the first free field offered
    synced(server, gid, table, ann, bob)
    turtles = move_form(table, "place_turtles", table=True)
    drawn = offered(turtles, "numbers")[:5]  # five numbers from the bag
    play(table, "place_turtles", {"numbers": drawn}, table=True)
    wait_text(ann, ".banner", "You must roll your five dice and plan them.")
    assert ann.locator(".mine .island g.turtle").count() == 5  # the phone shows the island to plan on
    question = confirm(bob, move_form(bob, "plan", "Bob").locator("button.send"), ok=False)
    assert "Send with nothing chosen?" in question  # no empty plan turns the sand timer by mistake
    rolled = ["green", "red", "red", "blue", "white"]
    play(ann, "roll", {"dice": rolled})  # Ann's dice as they fell, one chip tapped each
    synced(server, gid, ann)
    assert ann.locator(".dice-row .die").evaluate_all("ds => ds.map(d => d.title)") == rolled
    plan = move_form(ann, "plan", "Ann")
    assert set(offered(plan, "dice")) == set(rolled)  # only what she rolled
    assert ann.locator("form.act[data-action='roll']").count() == 0
    shot(run, ann, "dice-ann-plan")
    play(ann, "plan", {"dice": ["red", "green"]})
    table.wait_for_selector(".timer.running")  # the first plan turned the sand timer
    play(bob, "plan", {"dice": ["red", "green"]})  # Bob's thrown dice, chosen in order
    done_if_asked(server, gid, bob, "Bob")
    wait_text(table, ".banner", "moves.")
    for p in (table, ann, bob):
        p.context.close()


def test_pocket_galapagos_a_turn_from_the_phone_while_a_second_phone_watches_the_table(run, browser) -> None:
    server = run["server"]
    table = tablet(browser, server)
    gid, code = start_game(table, "pocket-galapagos", ["Ann"])
    ann = join(browser, server, code, "Ann")
    watcher = browser.new_context(**PHONE).new_page()  # the solo player's partner, on the table view
    watcher.goto(f"{server.base}/g/{gid}/table?token={server.token}")
    watcher.wait_for_selector("#live-status.ok")
    assert "Turn 1 of 10: play your cards, then end your turn." in banner(ann)
    levels = ann.locator(".pop b").all_text_contents()  # in « Your state », folded during the turn
    play(ann, "ocean", {"species": "rat", "icons": 2, "mode": "inhabit"})
    wait_text(watcher, ".pop b", str(int(levels[0]) + 2))
    play(ann, "end_turn")
    wait_text(ann, ".banner", "Turn 2 of 10")
    watcher.wait_for_function("document.querySelector('.track-turns .now').textContent.trim() === '2'")
    assert watcher.locator(".track-turns .done").count() == 1
    shot(run, ann, "pocket-ann")
    for p in (table, ann, watcher):
        p.context.close()


@pytest.mark.slow(reason="the Galèrapagos walkthrough: a secret vote on two phones, "
                         "one in French, up to the reveal in Chromium")
def test_galerapagos_two_phones_vote_in_secret_one_in_french_and_see_the_reveal(run, browser) -> None:
    server = run["server"]
    table = tablet(browser, server)
    gid, code = start_game(table, "galerapagos", ["Ann", "Bob", "Cleo"])
    run["galerapagos"] = gid
    ann, bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob", lang="fr")
    assert "En attente de la tablette pour retourner la prochaine carte Météo." in banner(bob)  # in French
    assert bob.locator("form.act[data-action='weather']").count() == 0  # the table turns the weather card
    phones = {"Ann": ann, "Bob": bob}
    # two dry rounds, everyone searching the wreck: food runs short. The first is played on the screens
    # (the weather card on the tablet, the searches on the phones and, for Cleo, on the tablet); the
    # second, the same forms again, is entered by the table for each seat
    synced(server, gid, table)
    play(table, "weather", {"water": 0}, table=True)
    for _ in range(3):
        synced(server, gid, table, bob)
        who = table.inner_text(".ribbon .rb.now .rb-name").strip()
        if who == "Bob":  # the field is a number of fish caught, in French
            label = bob.locator("form.act[data-action='fish'] .fld legend").inner_text()
            assert label.strip() == "Poissons pêchés"
        if who in phones:
            play(phones[who], "search")
        else:
            play(table, "search", player=who)  # Cleo has no phone
    assert {e["action"]["player"] for e in server.api("GET", f"/api/games/{gid}")["last_actions"][:3]} == {
        "Ann", "Bob", "Cleo"}  # each searched once, whoever's screen played the seat
    server.act(gid, {"type": "weather", "water": 0, "hurricane": False})
    for _ in range(3):
        who = server.api("GET", f"/api/games/{gid}")["state"]["turn"]
        (server.act_for if who in phones else server.act)(gid, {"type": "search", "player": who})
    # the rulebook's order: the first player starts the survival step, the castaways may
    # still play cards during the debate, then he ends it and everyone points
    server.act(gid, {"type": "survival"})
    server.act(gid, {"type": "debate"})
    synced(server, gid, table, ann, bob)
    wait_text(ann, "form.act[data-action='vote'] .act-name", "Vote: who goes without food?")
    wait_text(bob, "form.act[data-action='vote'] .act-name", "Vote : qui sera privé de nourriture ?")
    assert field(move_form(ann, "vote", "Ann"), "target").input_value() == ""  # nobody preselected
    sent = play(ann, "vote", {"target": "Cleo"})
    assert sent.question.startswith("Vote: who goes without food?\n")  # the label is the question, asked once
    wait_text(ann, ".vote-mine", "Cleo")
    wait_text(bob, "ol.log", "Ann vote.")  # Bob sees that Ann voted, not for whom
    assert "Cleo" not in bob.inner_text(".mine") and bob.locator(".vote-mine").count() == 0
    assert not revealed(bob.text_content("ol.log"), "Cleo")
    play(bob, "vote", {"target": "Cleo"})  # "Envoyer", then OK
    synced(server, gid, table)
    shot(run, bob, "galerapagos-bob-voted-fr")
    assert not revealed(table.text_content("ol.log"), "Cleo") and "Last vote" not in table.inner_text("main")
    table.click("[data-private-open='Cleo']")  # Cleo has no phone: her vote behind the tablet's privacy screen
    table.click(".privacy button.show")
    play(table, "vote", {"target": "Ann"}, player="Cleo")
    table.wait_for_selector(".privacy", state="detached")
    wait_text(ann, ".last-vote", "Bob → Cleo")
    wait_text(bob, ".last-vote", "Ann → Cleo")
    assert "Dernier vote" in bob.inner_text(".last-vote")
    shot(run, table, "galerapagos-table-reveal")
    for p in (table, ann, bob):
        p.context.close()


def test_pages_reconnect_after_a_restart_and_the_game_resumes(run, browser) -> None:
    server, gid = run["server"], run["galerapagos"]
    table = tablet(browser, server)
    table.goto(f"{server.base}/g/{gid}/table")
    table.wait_for_selector("#live-status.ok")
    round_before = table.inner_text("h1 small")
    server.stop()
    table.wait_for_selector("#live-status.bad", timeout=5000)
    assert "Reconnecting" in table.inner_text("#live-status")
    run["server"] = server = start_server(run["db"], run["port"])
    table.wait_for_selector("#live-status.ok", timeout=10000)
    assert table.inner_text("h1 small") == round_before  # resumed from the journal
    synced(server, gid, table)
    play(table, "weather", {"water": 1}, table=True)  # also closes the condemned's moment to show a card
    wait_text(table, "h1 small", "Round 3")
    table.context.close()


# -- refusals ------------------------------------------------------------------------------
def test_forged_tokens_other_seats_and_bad_bodies_are_refused(run) -> None:
    server = run["server"]
    url = urlsplit(server.base)

    def call(method: str, path: str, body=None, token: str | None = None, raw: bytes | None = None) -> tuple[int, dict]:
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, raw if raw is not None else json.dumps(body).encode(), headers)
        response = conn.getresponse()
        data = response.read()
        assert response.getheader("Content-Type", "").startswith("application/json"), data[:80]
        return response.status, json.loads(data)

    gid, code = server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    ann = call("POST", "/api/join", {"code": code, "seat": "Ann"})[1]["token"]
    actions = f"/api/games/{gid}/actions"
    assert call("POST", actions, {"type": "weather", "water": 0}, ann)[0] == 403  # the table's card
    assert call("POST", actions, {"type": "weather", "water": 0}, server.token)[0] == 200
    refused = {
        "no token": call("POST", actions, {"type": "search"}),
        "forged seat token": call("POST", actions, {"type": "search"}, f"s.{gid}.{'A' * 32}"),
        "forged table token": call("POST", actions, {"type": "search", "player": "Ann"}, "0" * 32),
        "another seat's action": call("POST", actions, {"type": "search", "player": "Bob"}, ann),
        "malformed JSON": call("POST", actions, token=ann, raw=b'{"type": "search",'),
        "not an object": call("POST", actions, ["search"], ann),
        "NaN": call("POST", actions, token=ann, raw=b'{"type": "fish", "fish": NaN}'),
        "too deep": call("POST", actions, {"type": "search", "x": [[[[[[1]]]]]]}, ann),
        "oversized": call("POST", actions, {"type": "search", "pad": "x" * 100_000}, ann),
        "seat starts a game": call("POST", "/api/games", {"game": "pocket-galapagos", "players": ["Ann"]}, ann),
        "wrong join code": call("POST", "/api/join", {"code": "000000", "seat": "Bob"}),
    }
    assert {k: s for k, (s, _) in refused.items()} == {
        "no token": 401, "forged seat token": 403, "forged table token": 403, "another seat's action": 403,
        "malformed JSON": 400, "not an object": 400, "NaN": 400, "too deep": 400, "oversized": 413,
        "seat starts a game": 403, "wrong join code": 403,
    }
    assert all(isinstance(body["error"]["message"], str) and body["error"]["message"] for _, body in refused.values())
    status, body = call("POST", actions, {"type": "search"}, ann)  # and the real thing still works
    assert status == 200 and body["last_actions"][0]["action"] == {"type": "search", "player": "Ann"}
