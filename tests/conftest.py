"""Shared fixtures: every test runs against simulated devices and a temporary journal."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.dashboard import Table, open_table

ROOT = Path(__file__).resolve().parent.parent

#: Chromium and the served simulated table, for every folder: the browser suites live in web/ and in
#: table/corrections/ (a correction's pages and browser tests beside its session tests)
pytest_plugins = ["tests.support.browser"]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh journal database for one test."""
    return tmp_path / "journal.db"


@pytest.fixture(autouse=True)
def _isolated_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may touch the user's real journal."""
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "default.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    os.environ.pop("COMPANION_CONFIG", None)


#: fixtures that mean a test drives Chromium, or talks to a real Mosquitto (their markers follow from them)
BROWSER_FIXTURES = frozenset({"browser", "sim_server"})
BROKER_FIXTURES = frozenset({"broker", "tls_broker"})


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Markers from the fixtures, and the long tests first.

    - A test using Chromium is a ``browser`` test and one using a Mosquitto a ``broker`` test, whether
      or not its module says so (``make check`` leaves them out by these markers).
    - The browser tests and those marked ``slow`` are handed out first, each file's tests still together
      and in order (``make test`` gives each module to one worker: ``--dist loadscope``, so no module
      starts its server twice): begun first, the workers share them, and the short modules fill in at
      the end instead of one worker finishing a walkthrough alone while the others wait.
    """
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & BROWSER_FIXTURES and not item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)
        if names & BROKER_FIXTURES and not item.get_closest_marker("broker"):
            item.add_marker(pytest.mark.broker)
    tier: dict[str, int] = {}  # a module goes where its longest test goes, its tests kept in order
    for item in items:
        own = 0 if item.get_closest_marker("browser") else 1 if item.get_closest_marker("slow") else 2
        module = item.nodeid.split("::", 1)[0]
        tier[module] = min(own, tier.get(module, own))
    items.sort(key=lambda item: tier[item.nodeid.split("::", 1)[0]])


#: a test whose call takes longer is marked ``slow`` with its reason (the terminal summary names those that are not)
SLOW_SECONDS = 10.0
_UNMARKED_SLOW: list[tuple[str, float]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.duration > SLOW_SECONDS and "slow" not in report.keywords:
        _UNMARKED_SLOW.append((report.nodeid, report.duration))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Tests over 10 s that say nothing of why: mark them ``@pytest.mark.slow(reason=...)`` or make them shorter."""
    if _UNMARKED_SLOW:
        terminalreporter.section(f"over {SLOW_SECONDS:.0f} s without a slow marker")
        for nodeid, seconds in sorted(_UNMARKED_SLOW, key=lambda row: -row[1]):
            terminalreporter.write_line(f"{seconds:6.2f}s {nodeid}")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """The dashboard's test client over a fresh journal (web, games and amend tests share it)."""
    yield from open_table(tmp_path)
