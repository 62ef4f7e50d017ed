"""Words on the screens, in Debian's Chromium against ``companion run --sim``: a correction told as a
story on a French phone (390 px) and asked in the page's own dialog, toasts that name the move alone,
the course's marks where a person looks, and the players' history on a joined phone.

Screenshots go where the other browser tests leave theirs (``SHOTS``: a temporary folder).
"""

from __future__ import annotations

import json

import pytest

from tests.table.history_games import lines
from tests.web.runner import Server
from tests.web.test_phone_moves import PHONE, SHOTS, TABLET

pytestmark = pytest.mark.browser


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=False)


def _phone(browser, server: Server, gid: str, code: str, seat: str, locale: str = "en-GB"):
    server.consent(gid, seat)
    page = browser.new_context(**PHONE, locale=locale).new_page()
    page.goto(f"{server.base}/join?code={code}")
    page.click(f"button.seat-button[value='{seat}']")
    page.wait_for_selector("#live-status.ok")
    return page


def _tablet(browser, server: Server, gid: str):
    page = browser.new_context(**TABLET).new_page()
    page.goto(f"{server.base}/g/{gid}/table?token={server.token}")
    page.wait_for_selector("#live-status.ok")
    return page


def _state(server: Server, gid: str) -> dict:
    return server.api("GET", f"/api/games/{gid}")["state"]


def _two_rounds(server: Server, gid: str) -> None:
    """Round 1: Ann searches, Bob collects wood, Cleo and Dan search; round 2: everyone searches."""
    for action in ({"type": "weather", "water": 0, "hurricane": False}, {"type": "search", "player": "Ann"},
                   {"type": "wood", "player": "Bob", "extra": 0, "snake": False},
                   {"type": "search", "player": "Cleo"}, {"type": "search", "player": "Dan"}):
        server.act(gid, action)
    server.act(gid, {"type": "survival", "player": _state(server, gid)["first_player"]})
    server.act(gid, {"type": "weather", "water": 3, "hurricane": False})
    while _state(server, gid)["phase"] == "actions":
        server.act(gid, {"type": "search", "player": _state(server, gid)["turn"]})
    server.act(gid, {"type": "survival", "player": _state(server, gid)["first_player"]})


@pytest.mark.slow(reason="a removal asked in the page's dialog and told as a story on a French phone in Chromium")
def test_a_removal_is_asked_in_the_page_dialog_and_told_as_a_story_on_a_french_phone(browser, sim_server: Server) -> None:
    gid, code = sim_server.new_game("galerapagos", ["Ann", "Bob", "Cleo", "Dan"])
    _two_rounds(sim_server, gid)
    dan = _phone(browser, sim_server, gid, code, "Dan", "fr-FR")
    cleo = _phone(browser, sim_server, gid, code, "Cleo")
    tablet = _tablet(browser, sim_server, gid)
    native: list[str] = []
    tablet.on("dialog", lambda d: (native.append(d.message), d.dismiss()))

    tablet.click("button[data-amend-open]")
    tablet.wait_for_selector("dialog#amend[open] .amend-list")
    tablet.locator("dialog#amend .amend-list li[data-seq]", has_text="Bob collects wood").locator(
        "button[data-amend-remove]").click()
    tablet.wait_for_selector("dialog#confirm[open]")  # the page's own dialog, over the history
    assert "Bob collects wood" in tablet.inner_text("dialog#confirm .q")
    _shot(tablet, "remove-asked.png")
    tablet.click("dialog#confirm button[value='ok']")
    tablet.wait_for_selector("dialog#amend[open] .amend-aside")
    assert native == []  # never the browser's confirm box
    aside = tablet.locator("dialog#amend .amend-aside li", has_text="Dan searches the wreck").first
    assert "It can be entered now." in aside.inner_text()  # Dan's turn again: no stale « Bob's turn »
    _shot(tablet, "remove-aside.png")

    told = dan.locator(".banner.yours", has_text="Correction :")
    told.wait_for()
    text = told.inner_text()
    assert text.startswith("Correction : « Bob collecte du bois » est retiré de l'historique.")
    assert "Vos coups « Dan fouille l'épave » ×2" in text and "vous pouvez agir de nouveau maintenant." in text
    assert "plus peut voter" not in text and "autres changements" not in text
    told.scroll_into_view_if_needed()
    _shot(dan, "correction-phone-fr.png")
    other = cleo.locator(".banner.yours", has_text="Correction:")
    other.wait_for()  # every phone is told, in its own language, its own seat as « you »
    assert "Your move “Cleo searches the wreck” no longer counts" in other.inner_text()
    assert "Dan's moves" in other.inner_text()
    table_line = tablet.locator(".story .log li", has_text="Correction:").first
    assert "Dan's moves “Dan searches the wreck” ×2" in table_line.inner_text()

    sim_server.act_for(gid, {"type": "search", "player": "Dan"})  # Dan acts again: the reasons are asked again
    tablet.click("dialog#amend button[data-amend-close]")
    tablet.click("button[data-amend-open]")
    tablet.wait_for_selector("dialog#amend[open] .amend-aside")
    again = tablet.locator("dialog#amend .amend-aside li", has_text="Dan searches the wreck").first.inner_text()
    assert "Dan cannot search the wreck now" in again and "can be entered now" not in again
    for page in (dan, cleo, tablet):
        page.context.close()


def test_a_toast_names_the_move_alone_at_the_top_of_the_phone(browser, sim_server: Server) -> None:
    gid, code = sim_server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    sim_server.act(gid, {"type": "weather", "water": 3, "hurricane": False})
    ann = _phone(browser, sim_server, gid, code, _state(sim_server, gid)["turn"])
    form = ann.locator("form.act[data-action='water']").first
    assert form.locator(".act-preview").count() == 1  # the preview under the name (« water 3→… »)
    form.locator("button").first.click()
    if ann.locator("dialog#confirm[open]").count():
        ann.click("dialog#confirm button[value='ok']")
    toast = ann.locator(".toast.good:not([hidden])")
    toast.wait_for()
    assert toast.inner_text() == "✓ Collect water"  # not « Collect waterwater 3→6 »
    box = toast.bounding_box()
    assert box is not None and box["y"] < 120  # at the top, not over the scores below
    assert ann.evaluate("getComputedStyle(document.querySelector('.toast')).pointerEvents") == "none"
    _shot(ann, "toast-top.png")
    ann.context.close()


def test_the_course_marks_a_death_on_the_chart_and_lists_what_happened_open(browser, sim_server: Server) -> None:
    head, actions = lines("galerapagos_full_game")
    gid, _ = sim_server.new_game(head["game"], head["players"], head.get("options"))
    for action in actions:
        sim_server.act(gid, action)
    tablet = _tablet(browser, sim_server, gid)
    tablet.goto(f"{sim_server.base}/g/{gid}/course?token={sim_server.token}")
    heading = tablet.locator(".course-marks h3")
    assert heading.is_visible() and heading.inner_text() == "What happened when"  # not a collapsed heading
    items = tablet.locator(".course-marks li")
    assert items.count() > 3 and items.nth(0).is_visible()
    death = tablet.locator(".course-chart svg g.mark-death").first
    assert death.is_visible()
    n = int(death.locator("text").text_content() or 0)
    assert "dies" in items.nth(n - 1).inner_text()  # the badge's number is the list's line
    _shot(tablet, "course-marks.png")
    phone = browser.new_context(**PHONE, locale="fr-FR").new_page()  # the game is over: no seat to join
    phone.goto(f"{sim_server.base}/g/{gid}/course?token={sim_server.token}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.locator(".course-marks h3").inner_text() == "Ce qui s'est passé, et quand"
    phone.locator(".course-chart").first.scroll_into_view_if_needed()
    _shot(phone, "course-phone-fr.png")
    for page in (tablet, phone):
        page.context.close()


def test_the_course_icon_is_drawn_not_an_empty_box(browser, sim_server: Server) -> None:
    gid, _ = sim_server.new_game("galapagos-auction", ["Ann", "Bob", "Cid"])
    tablet = _tablet(browser, sim_server, gid)
    icon = tablet.locator("a.course-link svg.ic-chart").first
    box = icon.evaluate("e => { const r = e.getBoundingClientRect(); return {width: r.width, height: r.height}; }")
    assert box["width"] >= 10 and box["height"] >= 10
    assert "📈" not in tablet.inner_text("body")
    tablet.context.close()


def test_the_history_fits_a_french_phone_of_the_table(browser, sim_server: Server) -> None:
    for name in ("dice_full_game", "dice_review_four_players_tie"):
        head, actions = lines(name)
        played, _ = sim_server.new_game(head["game"], head["players"], head.get("options"))
        for action in actions:
            sim_server.act(played, action)
    gid, code = sim_server.new_game("galapagos-dice", ["Ann", "Bob"])
    ann = _phone(browser, sim_server, gid, code, "Ann", "fr-FR")
    link = ann.locator("a[href='/history']")
    assert link.count() == 1
    response = ann.goto(f"{sim_server.base}/history")
    assert response is not None and response.status == 200  # was 401 for a phone
    assert ann.evaluate("document.documentElement.scrollWidth") <= 390  # the page itself does not scroll sideways
    assert ann.locator(".table-cue").first.is_visible()  # a table wider than the phone says so
    rows = json.loads(ann.evaluate(
        "JSON.stringify([...document.querySelectorAll('table.history-players tbody tr')].map(r => r.dataset.player))"))
    assert sorted(rows) == ["Ann", "Bob"]
    first = ann.locator("table.history-players tbody th[scope=row]").first
    assert ann.evaluate("getComputedStyle(document.querySelector('table.history-players tbody th')).position") == "sticky"
    ann.locator(".table-scroll").first.evaluate("el => el.scrollLeft = 400")
    box = first.bounding_box()
    assert box is not None and box["x"] >= 0  # the players' names stay in view while the columns scroll
    _shot(ann, "history-phone-fr.png")
    ann.context.close()


def _to_the_shortage(server: Server, gid: str) -> None:
    from tests.support.dashboard import TO_THE_VOTE

    for action in TO_THE_VOTE:
        server.act(gid, action)
    server.act(gid, {"type": "survival", "player": _state(server, gid)["first_player"]})


def test_a_french_phone_is_told_why_a_card_is_offered_in_a_shortage(browser, sim_server: Server) -> None:
    gid, code = sim_server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    _to_the_shortage(sim_server, gid)
    first = _state(sim_server, gid)["first_player"]
    other = next(p for p in ("Ann", "Bob", "Cleo") if p != first)
    phone = _phone(browser, sim_server, gid, code, other, "fr-FR")
    said = phone.locator(".banner.you-must, .banner.prompt").first.inner_text()
    assert said.endswith(f"Il manque 1 de nourriture : vous pouvez jouer une carte Nourriture, ou attendre le vote "
                         f"({first} arrête le débat).")
    assert "Jouer une carte Ressource" not in said
    _shot(phone, "shortage-phone-fr.png")
    phone.context.close()


def test_the_condemned_is_told_you_and_once_dead_is_offered_nothing(browser, sim_server: Server) -> None:
    gid, code = sim_server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    _to_the_shortage(sim_server, gid)
    sim_server.act(gid, {"type": "debate", "player": _state(sim_server, gid)["first_player"]})
    for voter, target in (("Ann", "Cleo"), ("Bob", "Cleo"), ("Cleo", "Ann")):
        sim_server.act(gid, {"type": "vote", "player": voter, "target": target})
    cleo = _phone(browser, sim_server, gid, code, "Cleo", "fr-FR")
    said = cleo.locator(".banner.you-must, .banner.prompt").first.inner_text()
    assert "Le vote vous désigne : vous pouvez encore vous sauver" in said and "Cleo peut encore" not in said
    _shot(cleo, "condemned-phone-fr.png")
    form = cleo.locator("form.act[data-action='no_card']").first
    form.locator("button").first.click()
    if cleo.locator("dialog#confirm[open]").count():
        cleo.click("dialog#confirm button[value='ok']")
    cleo.wait_for_function("document.body.innerText.includes('Vous êtes hors jeu')")
    assert cleo.locator("button[data-move='undo']").count() == 0  # not « Annuler : Cleo n'a aucune carte… »
    assert cleo.locator("form.act").count() == 0
    _shot(cleo, "dead-phone-fr.png")
    cleo.context.close()
