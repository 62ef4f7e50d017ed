"""Fixtures of the browser tests: Debian's Chromium and a served simulated table.

The dashboard's test client (the ``table`` fixture) is shared by every folder: tests/conftest.py.
"""

from __future__ import annotations

import pytest

#: Debian's Chromium, driven by Playwright (its own browser download cannot work here)
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def sim_server(tmp_path_factory):
    """One real ``companion run --sim`` for a browser test module (tests/web/runner.py), stopped after it."""
    from tests.web.runner import start_server

    srv = start_server(tmp_path_factory.mktemp("sim") / "journal.db", 0)
    yield srv
    srv.stop()
