"""The course of a game and the players' history in Debian's Chromium: the results screen's
charts on a 1280 px tablet and a 390 px phone, the « Course » page one tap from a phone during play,
and the history page after a dozen recorded games (a tie, an abandoned game, a deleted one).

One ``companion run --sim`` for the module, on a journal recorded beforehand (tests/table/history_games.py).
Screenshots: docs/screenshots/course-*.png and history-*.png, looked at.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.dashboard import TO_THE_VOTE
from tests.table.history_games import EXPECTED, PLAYED, record
from tests.web.runner import Server, start_server
from tests.web.test_phone_moves import PHONE, SHOTS, TABLET

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("course") / "journal.db"
    ids = record(db)
    srv = start_server(db, 0)
    srv.ids = dict(zip([name for name, _ in PLAYED], ids, strict=False))  # type: ignore[attr-defined]
    yield srv
    srv.stop()


def _open(browser, server: Server, path: str, device: dict):
    page = browser.new_context(**device).new_page()
    sep = "&" if "?" in path else "?"
    page.goto(f"{server.base}{path}{sep}token={server.token}")
    return page


def _width(page, selector: str) -> float:
    """The width the element laid out now has, read in one step in the page: the live page swaps its
    fragments on every state it receives, so an element found first and measured after may be gone."""
    return page.evaluate("s => document.querySelector(s).getBoundingClientRect().width", selector)


def _shot(locator, name: str) -> None:
    """The screen as the reader sees it with ``locator`` at its top, under the page's sticky header."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    locator.evaluate("e => { e.scrollIntoView(); window.scrollBy(0, -document.querySelector('header.top').offsetHeight - 8); }")
    locator.page.screenshot(path=str(SHOTS / name), animations="disabled")


def test_results_screen_charts_on_tablet_and_phone(browser, server: Server) -> None:
    gid = server.ids["auction_full_game"]
    tablet = _open(browser, server, f"/g/{gid}/table", TABLET)
    tablet.wait_for_selector("#live-status.ok")
    charts = tablet.locator("section.course .course-chart")
    assert charts.count() == 4  # points, money, education, the track
    points = tablet.locator(".course-chart[data-chart='points']")
    assert points.locator("svg").count() == 1
    width = _width(tablet, ".course-chart[data-chart='points'] svg")
    assert 400 < width < 640  # two charts side by side in the tablet's main column
    rows = points.locator("tbody tr")
    assert rows.count() == 13  # the start and twelve rounds
    assert rows.last.locator("th, td").all_text_contents()[:4] == ["12", "33", "33", "22"]  # folded, yet read
    # each line its dash and its dots a shape of their own (not colour alone)
    dashes = points.locator("svg g.serie-1 path.line").first.evaluate("e => getComputedStyle(e).strokeDasharray")
    assert dashes not in ("none", "")
    assert points.locator("svg g.serie-1 path.dot").count() == 13  # Bob's triangles
    _shot(tablet.locator("section.course"), "course-results-tablet.png")

    phone = _open(browser, server, f"/g/{gid}/seat/Ann", PHONE)
    phone.wait_for_selector("#live-status.ok")
    assert 330 < _width(phone, ".course-chart[data-chart='money'] svg") <= 390  # the phone's whole width, no sideways scroll
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.locator(".course-chart[data-chart='money'] summary").click()
    first = phone.locator(".course-chart[data-chart='money'] tbody tr").first
    assert first.inner_text().split("\t")[:2] == ["Start", "£1500"]  # unfolded: shown
    _shot(phone.locator(".course-chart[data-chart='money']"), "course-results-phone.png")

    raft = _open(browser, server, f"/g/{server.ids['galerapagos_full_game']}/seat/Ann", PHONE)
    raft.wait_for_selector("#live-status.ok")
    assert raft.locator(".course-marks h3").is_visible()  # the list is open, not a folded heading
    assert "Dan dies" in raft.locator(".course-marks").inner_text()
    _shot(raft.locator("section.course"), "course-results-galerapagos-phone.png")


def test_the_course_is_one_tap_away_during_play(browser, server: Server) -> None:
    gid, _ = server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for action in TO_THE_VOTE[:4]:
        server.act(gid, action)
    phone = _open(browser, server, f"/g/{gid}/seat/Bob", PHONE)
    phone.wait_for_selector("#live-status.ok")
    phone.click("a.course-link")
    phone.wait_for_selector(".course-chart[data-chart='rations']")
    assert phone.locator(".course-chart[data-chart='rations'] tbody tr").count() == 2  # the start and round 1
    _shot(phone.locator("main"), "course-during-play-phone.png")


def test_history_after_a_dozen_games(browser, server: Server) -> None:
    tablet = _open(browser, server, "/history", TABLET)
    for name, want in EXPECTED.items():
        row = tablet.locator(f"table.history-players tr[data-player='{name}']")
        for key in ("played", "won", "shared", "abandoned", "streak"):
            assert row.locator(f"td[data-k='{key}']").inner_text() == str(want[key]), (name, key)
    assert "11 games played to the end, 1 abandoned." in tablet.inner_text(".history-count")
    assert tablet.locator(".course-chart[data-chart='history']").count() == 0  # all games: nothing to compare
    tablet.select_option("select[name='game']", "galapagos-auction")
    tablet.click(".history-filters button")
    tablet.wait_for_selector(".course-chart[data-chart='history']")
    assert tablet.locator("tr[data-player='Ann'] td[data-k='played']").inner_text() == "2"
    rows = tablet.locator(".course-chart[data-chart='history'] tbody tr")
    assert rows.count() == 4  # the four auction games played to the end, oldest first
    assert rows.nth(3).locator("th, td").all_text_contents()[:3] == ["4", "–", "–"]  # Eve and Fay's game
    _shot(tablet.locator("main"), "history-tablet.png")
    _shot(tablet.locator(".course-chart[data-chart='history']"), "history-chart-tablet.png")
    phone = _open(browser, server, "/history?game=galapagos-dice", PHONE)
    assert phone.locator("tr[data-player='Ann'] td[data-k='played']").inner_text() == "3"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    _shot(phone.locator("main"), "history-phone.png")
