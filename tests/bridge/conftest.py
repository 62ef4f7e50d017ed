"""Fixtures for the firmware bridge: a simulated firmware on a real pty and a host link to it.

Tests wait on conditions with timeouts (HostLink.wait_until, Recorder.wait_for), never on bare
sleeps, so they are quick when things work and fail clearly when they do not.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware_bridge.events import BridgeEvent, LinkEvent, TagEvent
from firmware_bridge.host import HostLink
from firmware_bridge.simulator import Simulator

VECTORS = Path(__file__).resolve().parents[2] / "firmware_bridge" / "vectors.json"


@pytest.fixture(scope="session")
def vectors() -> dict:
    return json.loads(VECTORS.read_text())


class Recorder:
    """An ``on_event`` listener that keeps every event and lets a test wait for one."""

    def __init__(self) -> None:
        self.events: list[BridgeEvent] = []
        self._cond = threading.Condition()

    def __call__(self, event: BridgeEvent) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def wait_for(self, predicate: Callable[[BridgeEvent], bool], timeout: float = 5.0) -> BridgeEvent:
        """The first recorded event matching ``predicate`` (waiting for it if needed)."""
        found: list[BridgeEvent] = []

        def seen() -> bool:
            found[:] = [e for e in self.events if predicate(e)][:1]
            return bool(found)

        with self._cond:
            if not self._cond.wait_for(seen, timeout):
                raise AssertionError(f"no matching event within {timeout} s; got {self.events[-10:]}")
        return found[0]

    def wait_until(self, predicate: Callable[[Recorder], bool], timeout: float = 5.0) -> bool:
        """Wait until ``predicate(self)`` holds after some delivered event (or time runs out)."""
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self), timeout)

    def link(self, kind: str) -> list[LinkEvent]:
        return [e for e in self.events if isinstance(e, LinkEvent) and e.kind == kind]

    def tags(self) -> list[TagEvent]:
        return [e for e in self.events if isinstance(e, TagEvent)]

    def applied_view(self) -> dict[int, str]:
        """What a listener that applies every TagEvent in order believes is on the readers."""
        view: dict[int, str] = {}
        for event in self.tags():
            if event.present:
                view[event.reader] = event.uid
            elif view.get(event.reader) == event.uid:
                del view[event.reader]
        return view


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def sim() -> Iterator[Simulator]:
    simulator = Simulator(seed=7).start()
    yield simulator
    simulator.stop()


@pytest.fixture
def link(sim: Simulator, recorder: Recorder) -> Iterator[HostLink]:
    host = HostLink(sim.path or "", on_event=recorder).start()
    assert host.wait_connected(5.0), host.last_error
    yield host
    host.stop()
