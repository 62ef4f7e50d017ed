"""Tests that start a real ``companion run`` in a subprocess (signals, ports, start-up)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _no_table_left_running():
    """A test that fails half way must not leave its ``companion run`` behind."""
    import test_signals

    yield
    while test_signals.STARTED:
        proc = test_signals.STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
