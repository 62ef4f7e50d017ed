"""A seat named « .. » in Chromium: its phone joins and goes live, and the tablet frees it from its page."""

from __future__ import annotations

import pytest

from tests.web.runner import Server
from tests.web.test_phone_moves import PHONE, TABLET

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(sim_server: Server) -> Server:
    """The session's ``companion run --sim`` (tests/support/browser.py); each test makes its own game."""
    return sim_server


def test_a_seat_of_dots_joins_goes_live_and_is_freed_from_the_tablet(browser, server: Server) -> None:
    gid, code = server.new_game("galerapagos", ["..", "Bob", "Cleo"])
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{server.base}/join?code={code}")
    phone.click("button.seat-button[value='..']")
    phone.wait_for_selector("#live-status.ok")
    assert phone.url.endswith(f"/g/{gid}/seat/~2") and phone.evaluate("document.body.dataset.seat") == ".."
    tablet = browser.new_context(**TABLET).new_page()
    tablet.goto(f"{server.base}/g/{gid}/table?token={server.token}")
    tablet.wait_for_selector("#live-status.ok")
    tablet.click("button[data-release='..']")
    tablet.click("#confirm button[value='ok']")
    phone.wait_for_url("**/join", timeout=10_000)  # the freed phone is told and sent to Join
    tablet.wait_for_function("!document.querySelector(\"button[data-release='..']\")", timeout=5000)
    joined = server.api("POST", "/api/join", {"code": code, "seat": ".."})  # the seat is free again
    assert joined["seat"] == ".." and joined["token"]
    for p in (phone, tablet):
        p.context.close()
