"""The pictures in Debian's Chromium: a tap on the dice island fires ``companion:pick`` with the
field, the value and its label (and Enter on a focused field does the same); the education track's three
figures on neighbouring fields keep apart with the real font. Screenshots ``docs/screenshots/pictures-*.png``:
tablet 1280×800, phone 390×844, and the island in greyscale (CSS filter), as a colour-blind check.
"""

from __future__ import annotations

import pytest

from tests.web.runner import Server
from tests.web.test_phone_moves import PHONE, SHOTS, TABLET, Round, close, shot, synced

pytestmark = pytest.mark.browser

LISTEN = "window.__picks = []; document.addEventListener('companion:pick', e => window.__picks.push(e.detail))"


@pytest.fixture(scope="module")
def server(sim_server: Server) -> Server:
    """The session's ``companion run --sim`` (tests/support/browser.py); each test makes its own game."""
    return sim_server


def begin(browser, server: Server, game: str, players: list[str], phone: str, options: dict | None = None):
    """A new game: its Round, the tablet and one phone (``phone``'s seat); the other seats play at the table."""
    out = server.api("POST", "/api/games", {"game": game, "players": players, "options": options or {}})
    g = Round(server, out["id"], out["join_code"])
    tablet = browser.new_context(**TABLET).new_page()
    tablet.goto(f"{server.base}/g/{g.gid}/table?token={server.token}")
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{server.base}/join?code={g.code}")
    page.click(f"button.seat-button[value='{phone}']")
    for p in (tablet, page):
        p.wait_for_selector("#live-status.ok")
    return g, tablet, page


def act(server: Server, gid: str, action: dict, phone: str) -> None:
    """The table enters a move; for the seat a phone holds it says it acts for it."""
    (server.act_for if action.get("player") == phone else server.act)(gid, action)


def test_tapping_a_dice_field_fires_the_pick_with_its_value(browser, server: Server) -> None:
    g, tablet, ann = begin(browser, server, "galapagos-dice", ["Ann", "Alex"], "Ann", {"layout_seed": 7})
    ann.evaluate(LISTEN)
    hexes = ann.locator(".island svg [data-pick='field']:visible")
    assert hexes.count() == 36  # every field is free: the bag is full, no pawn stands yet
    five = ann.locator(".island svg [data-pick='field'][data-value='5']:visible").first
    five.tap()
    picks = ann.evaluate("window.__picks")
    assert picks[0]["field"] == "field" and picks[0]["value"] == 5 and picks[0]["label"].startswith("Field 5 (")
    assert "picked" in (five.get_attribute("class") or "")
    six = ann.locator(".island svg [data-pick='field'][data-value='6']:visible").first
    six.focus()
    ann.keyboard.press("Enter")
    assert ann.evaluate("window.__picks")[-1]["value"] == 6
    assert ann.evaluate("document.activeElement.getAttribute('data-value')") == "6"  # the keyboard keeps its place
    assert "picked" not in (five.get_attribute("class") or "")  # one start field: the last one tapped
    shot(ann, "pictures-dice-phone.png")
    # a pawn on field 5, Alex's on 6; the table lays the turtles, one under Ann's pawn: the picture says so
    server.act_for(g.gid, {"type": "start", "player": "Ann", "field": 5})
    server.act(g.gid, {"type": "start", "player": "Alex", "field": 6})
    server.act(g.gid, {"type": "place_turtles", "numbers": [5, 7, 8, 19, 20]})
    synced(server, g.gid, tablet, ann)
    assert "Under Ann's pawn: turtle 5" in tablet.locator(".under-pawn").first.inner_text()
    assert sorted(tablet.locator("g.pawn text").all_text_contents()) == ["Al", "An"]
    shot(tablet, "pictures-dice-tablet.png")
    tablet.add_style_tag(content="html { filter: grayscale(1); }")
    tablet.locator(".island").first.screenshot(path=str(SHOTS / "pictures-dice-grey.png"))
    close(tablet, ann)


def educate(server: Server, gid: str, steps: dict[str, list[int]], phone: str) -> None:
    """Everyone passes, the start player goes North, each player on turn takes his education steps and is done."""
    for square, pair in zip("NESW", (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"],
                                     ["sea_lion", "crab"]), strict=True):
        server.act(gid, {"type": "tile", "direction": square, "animals": pair})
    state = server.api("GET", f"/api/games/{gid}")["state"]
    for _ in state["players"]:
        act(server, gid, {"type": "pass", "player": server.api("GET", f"/api/games/{gid}")["state"]["turn"]}, phone)
    state = server.api("GET", f"/api/games/{gid}")["state"]
    act(server, gid, {"type": "direction", "player": state["turn"], "direction": "N"}, phone)
    for k in range(len(steps)):
        who = server.api("GET", f"/api/games/{gid}")["state"]["turn"]
        for n in steps[who]:
            act(server, gid, {"type": "education", "player": who, "steps": n}, phone)
        if k < len(steps) - 1:  # the last one stays on turn: the picture still has its tiles
            act(server, gid, {"type": "done", "player": who}, phone)


def test_three_figures_on_neighbouring_fields_keep_apart_on_the_tablet(browser, server: Server) -> None:
    g, tablet, ann = begin(browser, server, "galapagos-auction", ["Cleo", "Ann", "Bob"], "Ann")
    educate(server, g.gid, {"Cleo": [3], "Ann": [4], "Bob": [4, 1]}, "Ann")
    synced(server, g.gid, tablet, ann)
    ann.locator("details:has(.edu) > summary").first.click()  # the phone's « Table » section
    assert {p["name"]: p["education"] for p in g.state()["players"]} == {"Cleo": 3, "Ann": 4, "Bob": 5}
    for page, where in ((tablet, ".edu"), (ann, ".edu")):  # the track as each screen draws it (one row or halves)
        boxes = page.evaluate("""where => [...document.querySelectorAll(where + ' g.piece')].filter(g => g.getBoundingClientRect().width)
            .map(g => { const r = g.querySelector('rect').getBoundingClientRect(), t = g.querySelector('text').getBoundingClientRect();
                        return {key: g.dataset.key, r: [r.left, r.top, r.right, r.bottom], t: [t.left, t.top, t.right, t.bottom]}; })""",
                              where)
        figures = [b["key"] for b in boxes if b["key"] in ("Cleo", "Ann", "Bob")]
        assert sorted(figures) == ["Ann", "Bob", "Cleo"], where
        assert all(b["r"][2] - b["r"][0] > 20 and b["t"][2] > b["t"][0] for b in boxes), (where, boxes)  # drawn
        for i, a in enumerate(boxes):
            # the name inside its own chip, in the real font
            assert a["r"][0] <= a["t"][0] and a["t"][2] <= a["r"][2] + 0.5, (where, a)
            for b in boxes[i + 1:]:
                apart = a["r"][2] <= b["r"][0] or b["r"][2] <= a["r"][0] or a["r"][3] <= b["r"][1] or b["r"][3] <= a["r"][1]
                assert apart, (where, a, b)
    shot(tablet, "pictures-auction-tablet.png")
    shot(ann, "pictures-auction-phone.png")
    tablet.add_style_tag(content="html { filter: grayscale(1); }")  # the animals part by shape and name
    tablet.locator(".picture-col").first.screenshot(path=str(SHOTS / "pictures-auction-grey.png"))
    close(tablet, ann)
