"""Fixtures of the browser tests: Debian's Chromium and a served simulated table.

One Chromium and one ``companion run --sim`` per test session (per xdist worker): starting them costs
seconds, a fresh game per test costs milliseconds. Each test makes its own game (``new_game``) and its
own pages, so no test depends on what another left; the pages a module opened are closed when it ends.
Registered for every folder by tests/conftest.py (``pytest_plugins``): the browser suites of tests/web and
tests/table/corrections share the one Chromium and the one server. The dashboard's test client (the
``table`` fixture) is in tests/conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

#: Debian's Chromium, driven by Playwright (its own browser download cannot work here)
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

#: the session's Chromium once launched (the module clean-up below closes what a module left open in it)
_LAUNCHED: list[Any] = []


class StillBrowser:
    """The session's Chromium whose readers asked their device for less motion (``prefers-reduced-motion``),
    unless a test says otherwise (``reduced_motion="no-preference"``).

    The pages' flashes and pulses are CSS animations that repaint a whole tablet page at 60 frames a
    second for 2 to 3 s after every update: a quarter of Chromium's work while a script is entered
    with pages open (docs/testing.md). No test here looks at the motion itself, and the pages say the
    same standing still; test_table_view_browser.py plays with motion and checks both ways.
    """

    def __init__(self, launched: Any):
        self._launched = launched

    def new_context(self, **options: Any) -> Any:
        return self._launched.new_context(**{"reduced_motion": "reduce", **options})

    def new_page(self, **options: Any) -> Any:
        return self._launched.new_page(**{"reduced_motion": "reduce", **options})

    def __getattr__(self, name: str) -> Any:
        return getattr(self._launched, name)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, launched once per session; tests open their own pages or contexts."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        _LAUNCHED.append(b)
        yield StillBrowser(b)
        _LAUNCHED.remove(b)
        b.close()


@pytest.fixture(scope="module", autouse=True)
def _close_the_modules_pages() -> Iterator[None]:
    """The contexts (and their pages) a module opened in the session's Chromium end with the module,
    so a page still listening to a stopped server never runs on into the next module."""
    before = {id(c) for b in _LAUNCHED for c in b.contexts}
    yield
    for b in _LAUNCHED:
        for context in [c for c in b.contexts if id(c) not in before]:
            context.close()


@pytest.fixture(scope="session")
def sim_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One real ``companion run --sim`` per session (tests/web/runner.py), stopped after it.

    Shared by the tests of the session: each makes its own game (``sim_server.new_game``).
    """
    from tests.web.runner import start_server

    srv = start_server(tmp_path_factory.mktemp("sim") / "journal.db", 0)
    _SERVED.append(srv)
    yield srv
    _SERVED.remove(srv)
    srv.stop()


#: the session's ``companion run --sim`` once started
_SERVED: list[Any] = []


@pytest.fixture(autouse=True)
def _the_session_server_is_up() -> None:
    """A test that stopped the session's server (``sim_server.stop()``, to see a restart) leaves it
    stopped for nobody: it starts again on its journal and port, in the same ``Server`` object."""
    from tests.web.runner import start_server

    for srv in _SERVED:
        if srv.proc.poll() is not None:
            again = start_server(srv.db, srv.port)
            srv.proc, srv.base, srv.token = again.proc, again.base, again.token
