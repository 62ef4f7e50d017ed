"""The island as built and Home in a real browser (Debian's Chromium, tablet 1280×800): a family taps
every hex of the island it laid by hand, the page says what is wrong, the game starts on that island;
Home lists it and abandons a game after asking. Screenshots: docs/screenshots/home-*.png."""

from __future__ import annotations

import pytest

from companion.games.dice.island import COLOURS, spiral_hexes
from tests.web import test_browser
from tests.web.runner import Server
from tests.web.test_browser import shot
from tests.web.test_phone_moves import TABLET

pytestmark = pytest.mark.browser
server = test_browser.server  # a `companion run --sim` of its own: Home counts the games on it


def status_is(page, text: str) -> None:
    page.wait_for_function("t => document.getElementById('island-status').textContent.trim() === t", arg=text,
                           timeout=3000)


def tap_hex(page, q: int, r: int, colour: str, number: int) -> None:
    page.click(f"#island-svg g.cell[data-hex='{q},{r}']")
    page.click(f"button[data-colour='{colour}']")
    page.click(f"button[data-number='{number}']")


@pytest.mark.slow(reason="36 hexes of a hand-built island tapped in Chromium "
                         "(over a hundred taps and a reload), then Home")
def test_a_hand_built_island_is_tapped_in_and_the_game_starts_on_it(browser, server: Server) -> None:
    page = browser.new_context(**TABLET).new_page()
    page.goto(f"{server.base}/setup/galapagos-dice/island?token={server.token}")
    island = {}  # what the family laid: colour by ring position, numbers counted down from the coast
    for i, (q, r) in enumerate(spiral_hexes()):
        island[str(36 - i)] = {"colour": COLOURS[(i * 5) % 6], "hex": [q, r]}
    hexes = list(island.items())
    tap_hex(page, *hexes[0][1]["hex"], hexes[0][1]["colour"], int(hexes[0][0]))
    for i, (number, spec) in enumerate(hexes[1:-1], start=1):  # the next empty hex follows by itself
        if i == 12:  # the tablet slept and the page came back: what was tapped is still there
            page.reload()
            page.wait_for_selector("#island-svg g.cell.done >> nth=11")
            assert page.locator("#island-svg g.cell.done").count() == 12
        page.click(f"button[data-colour='{spec['colour']}']")
        page.click(f"button[data-number='{number}']")
    status_is(page, "The island has 36 fields around the volcano, but the layout gives 35.")
    last_number, last = hexes[-1]
    tap_hex(page, *last["hex"], last["colour"], int(hexes[0][0]))  # a slip: the first hex's number again
    status_is(page, f"Field {hexes[0][0]} appears twice in the layout.")
    assert page.locator("button[data-number].twice").count() == 1
    shot(page, "home-island-entry.png")
    page.click(f"button[data-number='{last_number}']")  # the last hex is still chosen: put it right
    status_is(page, "The island is complete: 36 fields.")
    page.fill("textarea[name=players]", "Ann\nBob\nCleo")
    page.fill("input[name='opt:timer_seconds']", "60")
    page.click("#island-start")
    page.wait_for_url("**/g/*/table")
    gid = page.url.split("/g/")[1].split("/")[0]
    state = server.api("GET", f"/api/games/{gid}")["state"]
    assert state["layout"] == island and state["timer_seconds"] == 60
    assert page.locator("g.hex").count() == 36

    lost, _ = server.new_game("pocket-galapagos", ["Cleo"])
    for _ in range(3):  # seed 003: three turns from the default start and every population is gone
        server.act(lost, {"type": "end_turn"})
    server.new_game("pocket-galapagos", ["Dora"])
    page.goto(f"{server.base}/")
    first = page.locator("li.game").first  # the newest: Dora's game
    assert "Dora" in first.inner_text()
    first.locator("form[action$='/abandon'] button").click()
    page.wait_for_selector("#confirm[open]")
    page.click("#confirm button[value=ok]")
    page.wait_for_selector("li.game.abandoned")
    assert page.locator(f"li.game[data-game-id='{gid}'] .state-playing").count() == 1
    assert page.locator("li.game.over").count() == 1 and page.locator("table.stats th", has_text="Cleo").count() == 1
    shot(page, "home-games.png")
    page.context.close()
