"""Galèrapagos at a real table, in Debian's Chromium against ``companion run --sim``.

The moment to show cards is played on the phones through the move forms only (test_phone_moves.py's
helpers); the secrecy of a revealed ballot and the tablet's limits need the lead's wiring of the
package's hooks (``undo_refusal``, ``undo_span``, ``table_may_act``), wired in the web layer.
"""

from __future__ import annotations

import pytest

from tests.support.dashboard import TO_THE_VOTE
from tests.web.runner import Server
from tests.web.test_phone_moves import PHONE, TABLET, move_form, play, synced

pytestmark = pytest.mark.browser

FIVE = ["Ana", "Ben", "Cleo", "Dan", "Eve"]
#: the first script of the moment to show cards: water on 0 at the start of round 3's survival step
WATER_ON_ZERO = [
    {"type": "weather", "water": 0},
    {"type": "fish", "player": "Ana", "fish": 3}, {"type": "fish", "player": "Ben", "fish": 3},
    {"type": "search", "player": "Cleo"}, {"type": "search", "player": "Dan"}, {"type": "search", "player": "Eve"},
    {"type": "weather", "water": 0},
    {"type": "fish", "player": "Eve", "fish": 1}, {"type": "search", "player": "Ana"},
    {"type": "search", "player": "Ben"}, {"type": "search", "player": "Cleo"}, {"type": "search", "player": "Dan"},
    {"type": "weather", "water": 0},
    {"type": "search", "player": "Dan"}, {"type": "search", "player": "Eve"}, {"type": "search", "player": "Ana"},
    {"type": "search", "player": "Ben"}, {"type": "wood", "player": "Cleo"},
]


@pytest.fixture(scope="module")
def server(sim_server: Server) -> Server:
    """The session's ``companion run --sim`` (tests/support/browser.py); each test makes its own game."""
    return sim_server


def phone(browser, server: Server, code: str, seat: str, gid: str):
    """``seat``'s player picks up a phone; the tablet played the seat so far, so it lets the phone take it."""
    server.consent(gid, seat)
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{server.base}/join?code={code}")
    page.click(f"button.seat-button[value='{seat}']")
    page.wait_for_selector("#live-status.ok")
    return page


def tablet(browser, server: Server, gid: str):
    page = browser.new_context(**TABLET).new_page()
    page.goto(f"{server.base}/g/{gid}/table?token={server.token}")
    page.wait_for_selector("#live-status.ok")
    return page


def state(server: Server, gid: str) -> dict:
    return server.api("GET", f"/api/games/{gid}")["state"]


@pytest.mark.slow(reason="a Galèrapagos game brought to water at zero, every phone's cards read in Chromium")
def test_water_on_zero_the_phones_show_their_cards_or_say_none_and_nobody_dies_before_the_close(browser, server):
    """« Seuls les joueurs disposant de cartes correspondant à la ressource manquante survivent. »"""
    gid, code = server.new_game("galerapagos", FIVE)
    for action in WATER_ON_ZERO:
        server.act(gid, action)
    ana, ben = phone(browser, server, code, "Ana", gid), phone(browser, server, code, "Ben", gid)
    table = tablet(browser, server, gid)
    s = state(server, gid)
    assert s["over"] is False and s["phase"] == "show_cards"
    ana.wait_for_selector(".show-cards")
    assert "Water is on 0" in ana.inner_text(".show-cards")
    assert move_form(ana, "no_card", "Ana").is_visible()
    play(ana, "no_card", player="Ana")
    play(ben, "resource", {"resource": "water"}, player="Ben")
    s = state(server, gid)
    assert s["over"] is False and all(p["alive"] for p in s["players"]), "nobody dies before the close"
    synced(server, gid, table)
    play(table, "close", player="Dan")  # Dan, the first player, has no phone: the tablet closes for him
    s = state(server, gid)
    assert [p["name"] for p in s["players"] if p["alive"]] == ["Ben"] and s["over"] is False
    assert s["phase"] == "end", "Ben alone eats: food 6 for one"
    for page in (ana, ben, table):
        page.context.close()


def test_the_tablet_offers_no_vote_for_a_seat_held_by_a_phone(browser, server):
    """« The tablet acts only for seats without a phone ... and never for a vote »."""
    gid, code = server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for action in [*TO_THE_VOTE, {"type": "survival"}, {"type": "debate"}]:  # the survival step, then the vote
        server.act(gid, action)
    ann = phone(browser, server, code, "Ann", gid)
    table = tablet(browser, server, gid)
    synced(server, gid, table)
    assert table.locator("form.act[data-action='vote'][data-player='Ann']").count() == 0
    assert table.locator("[data-private-open='Ann']").count() == 0
    # Bob has no phone: his vote is cast on the tablet, behind its privacy screen
    assert table.locator("form.act[data-action='vote'][data-player='Bob']").count() == 0, "not in view of the table"
    table.click("[data-private-open='Bob']")
    table.click(".privacy button.show")
    assert table.locator(".privacy form.act[data-action='vote'][data-player='Bob']").count() == 1, "Bob has no phone"
    table.click(".privacy button.cancel")
    assert table.locator(".privacy").count() == 0 and table.locator("form.act[data-action='vote']").count() == 0
    for page in (ann, table):
        page.context.close()


def test_after_the_reveal_the_last_voters_phone_cannot_undo(browser, server):
    """« tous pointent du doigt »: once every vote is seen, none is taken back by its voter."""
    gid, code = server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for action in TO_THE_VOTE:
        server.act(gid, action)
    phones = {n: phone(browser, server, code, n, gid) for n in ("Ann", "Bob", "Cleo")}
    for voter, target in (("Ann", "Cleo"), ("Bob", "Cleo"), ("Cleo", "Ann")):
        play(phones[voter], "vote", {"target": target}, player=voter)
    assert state(server, gid)["last_vote"] == {"Ann": "Cleo", "Bob": "Cleo", "Cleo": "Ann"}
    synced(server, gid, *phones.values())
    assert phones["Cleo"].locator("button[data-move='undo']").count() == 0
    for page in phones.values():
        page.context.close()


def test_the_api_refuses_the_tablet_a_vote_for_a_seat_held_by_a_phone(browser, server):
    gid, code = server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for action in TO_THE_VOTE:
        server.act(gid, action)
    ann = phone(browser, server, code, "Ann", gid)
    import urllib.error

    with pytest.raises(urllib.error.HTTPError) as refused:
        server.act(gid, {"type": "vote", "player": "Ann", "target": "Bob"})
    assert refused.value.code == 403
    ann.context.close()


def test_at_a_death_the_tablet_says_prominently_whom_to_deal_the_cards(browser, server):
    """« mélangées et distribuées équitablement entre votre voisin de gauche et votre voisin de droite »:
    the tablet leads with the narration's hand-off line."""
    from tests.web.test_phone_moves import SHOTS

    gid, _ = server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for action in TO_THE_VOTE:
        server.act(gid, action)
    table = tablet(browser, server, gid)
    for voter, target in (("Ann", "Cleo"), ("Bob", "Cleo"), ("Cleo", "Ann")):
        server.act(gid, {"type": "vote", "player": voter, "target": target})
    server.act(gid, {"type": "no_card", "player": "Cleo"})
    synced(server, gid, table)
    assert not next(p for p in state(server, gid)["players"] if p["name"] == "Cleo")["alive"]
    line = table.locator(".banner.hand-off")
    assert line.count() == 1 and "Cleo" in line.inner_text() and "Ann" in line.inner_text() and "Bob" in line.inner_text()
    box = line.bounding_box()
    assert box is not None and box["y"] < 300, box  # at the top, in view
    SHOTS.mkdir(parents=True, exist_ok=True)
    table.screenshot(path=str(SHOTS / "next-death-hand-off.png"))
    table.context.close()


GIFT_LINES = "galerapagos_gift_saves_the_condemned.jsonl"


def test_a_neighbours_phone_gives_the_condemned_the_card_that_saves_him(browser, server):
    """« Il peut se sauver en jouant une carte Ressource » and « Peuvent être offertes »: Dan,
    voted out with an empty hand, is not dead at the reveal; Cid's phone hands him a card and Dan's
    phone plays it."""
    import json
    from pathlib import Path

    lines = (Path(__file__).parents[1] / "scenarios" / GIFT_LINES).read_text().splitlines()
    head, actions = json.loads(lines[0]), [json.loads(x) for x in lines[1:] if x.strip()]
    gid, code = server.new_game("galerapagos", head["players"])
    for action in actions[:-2]:  # up to the reveal: Dan condemned, holding no card
        server.act(gid, action)
    s = state(server, gid)
    assert s["condemned"] == "Dan" and all(p["alive"] for p in s["players"])
    cid, dan = phone(browser, server, code, "Cid", gid), phone(browser, server, code, "Dan", gid)
    dan.wait_for_selector(".show-cards")
    assert "Dan has no card: someone may give him one" in dan.inner_text("body")
    play(cid, "give", {"target": "Dan"}, player="Cid")
    synced(server, gid, dan)
    play(dan, "resource", {"resource": "water"}, player="Dan")
    s = state(server, gid)
    assert all(p["alive"] for p in s["players"]) and s["condemned"] is None and s["water"] == 2
    for page in (cid, dan):
        page.context.close()
