"""The tablet's join prompts in Chromium, against a real `companion run --sim`, phones from several loopback
addresses: one prompt per seat name with the number of phones asking; several phones for one name can only
be refused, which refuses them all and shows a new code; a single phone is let in with one tap."""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.web.runner import Server, start_server
from tests.web.test_phone_moves import PHONE, TABLET

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    srv = start_server(tmp_path_factory.mktemp("flood") / "journal.db", 0)
    yield srv
    srv.stop()


def join_from(server: Server, address: str, code: str, seat: str) -> tuple[int, dict]:
    """``POST /api/join`` from ``address`` (a loopback address of its own: one phone of the table)."""
    where = urlsplit(server.base)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=10, source_address=(address, 0))
    try:
        conn.request("POST", "/api/join", json.dumps({"code": code, "seat": seat}),
                     {"Content-Type": "application/json"})
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"{}")
    finally:
        conn.close()


def ask(phone, server: Server, code: str, seat: str) -> None:
    """The join page once the tablet decides: the phone names its seat and waits."""
    phone.goto(f"{server.base}/join?code={code}")
    phone.fill("form.join-ask input[name='seat']", seat)
    phone.click("form.join-ask button")
    phone.wait_for_url("**/join?request=*")


def shown_code(tablet) -> str:
    return re.sub(r"\D", "", tablet.locator("p.code").first.inner_text())


@pytest.mark.slow(reason="its own companion run --sim with phones joining from several loopback addresses, "
                         "each prompt waited for on the tablet as it arrives")
def test_the_tablet_shows_one_prompt_per_name_and_refusing_a_crowd_renews_the_code(browser, server: Server,
                                                                                  tmp_path: Path) -> None:
    gid, code = server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for n in range(3):  # three wrong codes at the table: the budget is spent, the codes renewed
        status, _ = join_from(server, f"127.0.8.{n + 1}", f"{900_000 + n}" if f"{900_000 + n}" != code else "899999",
                              "Ann")
        assert status in (403, 202)
    tablet = browser.new_context(**TABLET).new_page()
    tablet.goto(f"{server.base}/g/{gid}/table?token={server.token}")
    tablet.wait_for_selector("#live-status.ok")
    code = shown_code(tablet)
    assert len(code) == 6
    phone = browser.new_context(**PHONE).new_page()  # the real Cleo, in Chromium
    ask(phone, server, code, "Cleo")
    assert "Ask the table to let you in" in phone.content()
    for n in range(2):  # two more phones, with the code glimpsed, ask for Cleo too
        assert join_from(server, f"127.0.8.{20 + n}", code, "Cleo")[0] == 202
    tablet.reload()
    banner = tablet.locator("form.join-request")
    banner.first.wait_for()
    assert banner.count() == 1
    assert "3 phones want to join as Cleo: refuse them, and a new code is shown." in banner.inner_text()
    assert banner.locator("button[value='1']").count() == 0  # no Allow: the real one cannot be told apart
    tablet.screenshot(path=str(tmp_path / "crowd.png"))
    banner.locator("button[value='0']").click()
    tablet.wait_for_load_state()
    tablet.wait_for_function("!document.querySelector('form.join-request')", timeout=10_000)
    assert shown_code(tablet) != code  # the code they had seen opens nothing now
    # the waiting page refreshes itself every 3 s (a reload of ours could cross it): it says so by itself
    phone.get_by_text("did not let this phone in").wait_for(timeout=10_000)
    # one phone alone for a name: one tap lets it in
    new = shown_code(tablet)
    ask(phone, server, new, "Bob")
    tablet.reload()
    prompt = tablet.locator("form.join-request")
    prompt.first.wait_for()
    assert prompt.inner_text().startswith("Someone wants to join as Bob — allow?")
    prompt.locator("button[value='1']").click()
    phone.wait_for_url(f"**/g/{gid}/seat/Bob", timeout=15_000)  # the waiting page refreshes itself
    for p in (phone, tablet):
        p.context.close()
