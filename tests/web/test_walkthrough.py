"""The newcomer's walkthrough (issue 8's "How it will be checked"), in a real browser.

Against a real ``companion run --sim``: each of the four games is started from
the home page, two phone-sized pages join with the code they read on the table
view and play through their buttons and forms, undo asks first, Galèrapagos
votes from two phones (one in French), the simulation panel's tags and buttons
reach the game and the OLED mirror, the server restarts under open pages, and
forged or malformed requests are refused. Assertions are on what a player sees.

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

pytestmark = pytest.mark.browser

# bypass_csp: Playwright's wait_for_function evaluates strings, which the dashboard's CSP forbids
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1,
         "bypass_csp": True}
TABLET = {"viewport": {"width": 1180, "height": 820}, "bypass_csp": True}


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
    page.evaluate("window.scrollTo(0, 0)")  # the sticky header back on top
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


def send(page, action: str, good: bool = True, **fields) -> str:
    """Fill the ``action`` form on the page (opening "More actions" if need be), send it, read the toast."""
    form = page.locator(f"form.act[data-action='{action}']").first
    if not form.is_visible():
        page.locator("details:has(form.act[data-action='" + action + "']) > summary").first.click()
    for name, value in fields.items():
        box = form.locator(f"[data-field='{name}']").first
        if box.get_attribute("data-kind") == "checks":
            for v in value:
                box.locator(f"input[value='{v}']").check()
        elif box.get_attribute("data-kind") == "seq":
            for slot, v in zip(box.locator("select").all(), value, strict=False):
                slot.select_option(v)
        elif box.evaluate("e => e.tagName") == "SELECT":
            box.select_option(str(value))
        else:
            box.fill(str(value))
    return tap(page, form.locator("button").last, good)


def tap(page, button, good: bool = True) -> str:
    """Tap an action's button; read the toast, and (when accepted) wait for the page to show the result."""
    page.evaluate("document.getElementById('toast').hidden = true")
    before = page.evaluate("Number(document.body.dataset.version)")
    button.click()
    toast = page.wait_for_selector(".toast.good:not([hidden])" if good else ".toast.bad:not([hidden])")
    if good:
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=5000)
    return toast.inner_text()


def confirm(page, button, ok: bool = True) -> str:
    """Tap a button that asks first; answer the question; return it."""
    button.click()
    dialog = page.wait_for_selector("dialog#confirm[open]")
    question = dialog.inner_text()
    page.click(f"dialog#confirm button[value='{'ok' if ok else 'cancel'}']")
    return question


def banner(page) -> str:
    return page.inner_text(".banner")


def synced(server: Server, gid: str, *pages) -> None:
    """Wait until every page shows the game's latest version (live updates are asynchronous)."""
    version = server.api("GET", f"/api/games/{gid}")["state"]["version"]
    for page in pages:
        page.wait_for_function(f"Number(document.body.dataset.version) === {version}", timeout=5000)


def wait_text(page, selector: str, text: str, timeout: float = 3000) -> None:
    page.wait_for_function("([s, t]) => (document.querySelector(s) || {}).textContent?.includes(t)",
                           arg=[selector, text], timeout=timeout)


# -- the four games ------------------------------------------------------------------------
def test_galapagos_auction_two_phones_bid_play_cards_and_undo(run, browser) -> None:
    server = run["server"]
    table = tablet(browser, server)
    gid, code = start_game(table, "galapagos-auction", ["Ann", "Bob", "Cleo"])
    assert "Lay a species tile on the N/E/S/W square." in banner(table)
    for pair in (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"], ["sea_lion", "crab"]):
        send(table, "tile", animals=pair)  # the square offered is the next empty one
    synced(server, gid, table)
    tiles = table.locator(".tile").all_inner_texts()
    for text, square, animals in zip(tiles, "NESW", (("sea lion", "iguana"), ("tortoise", "booby"),
                                                      ("penguin", "crab"), ("sea lion", "crab")), strict=True):
        assert text.startswith(square) and all(a in text for a in animals), text
    ann, bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob")
    assert "Your turn — Ann: bid or pass." in banner(ann) and "£1500" in ann.inner_text(".mine")
    assert "Waiting for Ann" in banner(bob)
    send(ann, "bid", direction="E", amount=300)
    wait_text(bob, ".banner", "Your turn")
    send(bob, "bid", direction="E", amount=400)
    tap(table, table.locator(".quick button", has_text="pass · Cleo"))
    wait_text(bob, ".banner", "Bob: play E cards, then done.")
    wait_text(ann, ".mine .money", "£1200")  # Ann's bid on the winning direction is paid
    form = bob.locator("form.act[data-action='expedition']")
    assert form.locator("select[data-field='animal'] option").all_inner_texts() == ["tortoise — £400", "booby — £600"]
    assert form.locator("input[type=checkbox][data-field='wildcard']").count() == 1  # two cards as a wildcard
    send(bob, "expedition", animal="tortoise")
    wait_text(bob, ".mine .money", "£700")
    shot(run, bob, "auction-bob-cards")
    undo = bob.locator("button[data-move='undo']")
    assert "expedition · tortoise" in undo.inner_text()
    assert ann.locator("button[data-move='undo']").count() == 0  # not Ann's action to take back
    question = confirm(bob, undo, ok=False)
    assert "Undo the last action?" in question and "expedition · tortoise" in question
    bob.wait_for_timeout(300)
    assert "£700" in bob.inner_text(".mine .money")  # Cancel kept it
    confirm(bob, bob.locator("button[data-move='undo']"))
    wait_text(bob, ".mine .money", "£1100")
    synced(server, gid, table)
    assert "expedition" not in table.inner_text("ol.log")
    for p in (table, ann, bob):
        p.context.close()


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
    wait_text(table, ".banner", "Ann: bid or pass.")
    frames.append(sim.get_attribute("#oled", "src"))
    for button in ("down", "ok"):  # the OLED's entry "bid £100 N": to the amount, then send
        serial = int(sim.inner_text("#oled-serial"))
        sim.click(f"button[data-press='{button}']")
        sim.wait_for_function(f"Number(document.getElementById('oled-serial').textContent) > {serial}")
        frames.append(sim.get_attribute("#oled", "src"))
    wait_text(table, ".banner", "Bob: bid or pass.")
    assert "bid · Ann · N · £100" in table.inner_text("ol.log")
    sim.click("button[data-press='back'][data-hold]")  # Back held: the table's undo
    wait_text(table, ".banner", "Ann: bid or pass.")
    assert "bid ·" not in table.inner_text("ol.log")
    assert len(set(frames)) == 4  # each step drew a new frame
    shot(run, sim, "sim-panel")
    for p in (table, sim):
        p.context.close()


def test_galapagos_dice_two_phones_start_roll_and_plan(run, browser) -> None:
    server = run["server"]
    table = tablet(browser, server)
    gid, code = start_game(table, "galapagos-dice", ["Ann", "Bob"])
    assert table.locator("g.hex").count() == 36
    ann, bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob")
    for phone in (ann, bob):
        tap(phone, phone.locator(".quick button").first)  # a start field
    synced(server, gid, table, ann, bob)
    free = [n for n in (int(x) for x in table.locator("g.hex").evaluate_all("gs => gs.map(g => g.dataset.field)"))
            if n not in (int(ann.inner_text(".big-figs span")), int(bob.inner_text(".big-figs span")))]
    send(table, "place_turtles", numbers=", ".join(map(str, free[:5])))
    wait_text(ann, ".banner", "Your turn — Roll and plan your dice.")
    assert ann.locator(".mine .island g.turtle").count() == 5  # the phone shows the island to plan on
    question = confirm(bob, bob.locator("form.act[data-action='plan'] button"), ok=False)
    assert "Send with nothing chosen?" in question  # no empty plan turns the sand timer by mistake
    ann.click("button[data-draw='dice']")
    ann.wait_for_selector(".hint button")
    rolled = ann.locator(".dice-row .die").evaluate_all("ds => ds.map(d => d.title)")
    planned = ann.locator("form.act[data-action='plan'] .seq select").evaluate_all("ss => ss.map(s => s.value)")
    assert planned == rolled and ann.locator("form.act[data-action='roll']").count() == 0
    shot(run, ann, "dice-ann-plan")
    tap(ann, ann.locator(".hint button"))
    table.wait_for_selector(".timer.running")  # the first plan turned the sand timer
    send(bob, "plan", dice=["red", "green"])  # Bob's thrown dice, chosen in order
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
    assert "Turn 1 of 10: play your cards, then end the turn." in banner(ann)
    levels = ann.locator(".pop b").all_inner_texts()
    send(ann, "ocean", species="rat", icons=2, mode="inhabit")
    wait_text(watcher, ".pop b", str(int(levels[0]) + 2))
    tap(ann, ann.locator("form.act[data-action='end_turn'] button"))
    wait_text(ann, ".banner", "Turn 2 of 10")
    watcher.wait_for_function("document.querySelector('.track-turns .now').textContent.trim() === '2'")
    assert watcher.locator(".track-turns .done").count() == 1
    shot(run, ann, "pocket-ann")
    for p in (table, ann, watcher):
        p.context.close()


def test_galerapagos_two_phones_vote_in_secret_one_in_french_and_see_the_reveal(run, browser) -> None:
    server = run["server"]
    table = tablet(browser, server)
    gid, code = start_game(table, "galerapagos", ["Ann", "Bob", "Cleo"])
    run["galerapagos"] = gid
    ann, bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob", lang="fr")
    assert "Retournez la prochaine carte Météo." in banner(bob)  # the game's prompt, in the phone's language
    assert bob.locator("button[data-draw='weather']").count() == 0  # the table turns the weather card
    phones = {"Ann": ann, "Bob": bob}
    for _ in range(2):  # two dry rounds, everyone searching the wreck: food runs short
        send(table, "weather", water=0)
        for _ in range(3):
            synced(server, gid, table, bob)
            who = table.inner_text(".banner b")
            if who == "Bob":  # the field "fish" is a number of fish, not the action "pêcher"
                assert bob.inner_text("form.act[data-action='fish'] .fld").strip() == "poissons"
            if who in phones:
                tap(phones[who], phones[who].locator("form.act[data-action='search'] button"))
            else:
                send(table, "search", player=who)
    wait_text(ann, ".banner", "Secret vote: who goes without food?")
    wait_text(bob, ".banner", "Vote secret : qui n'aura pas de nourriture ?")
    send(ann, "vote", target="Cleo")
    wait_text(ann, ".vote-mine", "Cleo")
    wait_text(bob, "ol.log", "voter · Ann · cible secret")  # Bob sees that Ann voted, not for whom
    assert "Cleo" not in bob.inner_text(".mine") and bob.locator(".vote-mine").count() == 0
    send(bob, "vote", target="Cleo")  # "Envoyer"
    synced(server, gid, table)
    shot(run, bob, "galerapagos-bob-voted-fr")
    assert "target hidden" in table.inner_text("ol.log") and "Last vote" not in table.inner_text("main")
    send(table, "vote", player="Cleo", target="Ann")
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
    send(table, "weather", water=1)
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
