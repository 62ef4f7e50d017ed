"""Tests that start a real ``companion run`` in a subprocess (signals, ports, start-up)."""

import pytest

from tests.cli.run import test_signals


@pytest.fixture(autouse=True)
def _no_table_left_running():
    """A test that fails half way must not leave its ``companion run`` behind."""
    yield
    while test_signals.STARTED:
        proc = test_signals.STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
