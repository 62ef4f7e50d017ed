"""In a real browser: a seat link with its token goes live, names with ``#`` and ``/`` open their
own seat from the tablet, and freeing a seat stops the old phone's live page at once."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.web.runner import Server

pytestmark = pytest.mark.browser

PLAYERS = ["Jo #2", "A/B", "Cleo"]


@pytest.fixture(scope="module")
def server(sim_server: Server) -> Server:
    """The session's ``companion run --sim`` (tests/support/browser.py); each test makes its own game."""
    return sim_server


def claim(server: Server, code: str, seat: str) -> str:
    req = urllib.request.Request(server.base + "/api/join", data=json.dumps({"code": code, "seat": seat}).encode(),
                                 method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())["token"]


def test_a_seat_link_with_its_token_goes_live(browser, server: Server) -> None:
    gid, code = server.new_game("galapagos-auction", PLAYERS)
    token = claim(server, code, "Cleo")
    page = browser.new_context().new_page()
    page.goto(f"{server.base}/g/{gid}/seat/Cleo?token={token}")
    page.wait_for_selector("#live-status.ok", timeout=10_000)  # « Live », not « Reconnecting… » for ever
    assert "token=" not in page.url
    page.context.close()


def test_the_tablet_s_links_open_each_odd_name_s_own_seat(browser, server: Server) -> None:
    gid, _ = server.new_game("galapagos-auction", PLAYERS)
    page = browser.new_context().new_page()
    page.goto(f"{server.base}/g/{gid}/table?token={server.token}")
    for name in ("Jo #2", "A/B"):
        page.click(f".seat-links a:text-is('{name}')")
        page.wait_for_selector("#live-status.ok", timeout=10_000)
        assert page.evaluate("document.body.dataset.seat") == name
        page.go_back()
    page.context.close()


def test_freeing_a_seat_stops_the_old_phone_s_live_page(browser, server: Server) -> None:
    gid, code = server.new_game("galapagos-auction", PLAYERS)
    page = browser.new_context().new_page()
    page.goto(f"{server.base}/join?code={code}")
    page.click("button.seat-button[value='A/B']")
    page.wait_for_selector("#live-status.ok", timeout=10_000)
    heard: list[int] = []  # counted in the test, so a page that moves on to /join loses no count
    page.expose_function("heardState", lambda: heard.append(1))
    page.evaluate("document.addEventListener('companion:state', function () { window.heardState(); });")
    server.api("POST", f"/api/games/{gid}/seats/A%2FB/release")
    page.wait_for_selector("#live-status.bad", timeout=5_000)  # the stream was closed at once
    # « Live » shows when the stream opens, before its first message: on a busy machine the join's
    # own state could still land after the listener was set, before the release. Count from here.
    heard.clear()
    server.act(gid, {"type": "tile", "direction": "N", "animals": ["sea_lion", "iguana"]})
    page.wait_for_url("**/join", timeout=10_000)  # the freed phone goes back to joining, 2.5 s after
    assert heard == []  # the old phone heard nothing more meanwhile
    page.context.close()
