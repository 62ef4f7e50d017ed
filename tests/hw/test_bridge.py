"""Reader points behind the firmware bridge, against the firmware simulator on a real pty."""

from __future__ import annotations

import pytest

from firmware_bridge.simulator import Simulator
from hw.events import ButtonEvent, DieEvent, TagEvent
from hw.rfid import DebounceSettings, ReaderError, load_backend
from hw.rfid.bridge import BridgeHub
from tests.hw.conftest import wait_until

UID = "04A1B2C3D4E5F6"


@pytest.fixture
def table():
    sim = Simulator(readers=4, buttons=2, slots=2).start()
    events = []
    hub = BridgeHub(sim.path, buttons={1: "seat6"}, dice={0: "seat1.slot1"}, on_event=events.append)
    Bridge = load_backend("bridge")
    points = {}
    for index, point in enumerate("NESW"):
        reader = Bridge(point, {"reader": index}, debounce=DebounceSettings(hold=0.0, misses=1))
        reader.subscribe(events.append)
        hub.add(reader)
        points[point] = reader
    assert hub.start(wait=5.0), "the host link did not connect to the simulator"
    yield sim, hub, points, events
    hub.stop()
    sim.stop()


def test_a_tag_placed_on_a_bridge_reader_reaches_its_point(table):
    sim, hub, points, events = table
    sim.place(2, UID)
    assert wait_until(lambda: any(isinstance(e, TagEvent) and e.present for e in events), 5.0)
    placed = [e for e in events if isinstance(e, TagEvent)]
    assert (placed[0].point, placed[0].uid, placed[0].present) == ("S", UID, True)
    sim.remove(2)
    assert wait_until(lambda: points["S"].uid is None, 5.0)
    points["S"].tick()
    assert [e.present for e in events if isinstance(e, TagEvent)] == [True, False]


def test_bridge_buttons_and_dice_arrive_by_name(table):
    sim, hub, points, events = table
    sim.press(1, True)
    sim.roll(0, 5)
    assert wait_until(lambda: ButtonEvent("seat6") in events and DieEvent("seat1.slot1", 5) in events, 5.0)


def test_a_bridge_reader_without_a_hub_says_what_is_missing():
    reader = load_backend("bridge")("N", {"reader": 0})
    with pytest.raises(ReaderError, match=r"no \[bridge\] link"):
        reader.open()


def test_two_points_cannot_share_a_bridge_reader(table):
    sim, hub, points, events = table
    with pytest.raises(ReaderError, match="both use bridge reader 0"):
        hub.add(load_backend("bridge")("scan", {"reader": 0}))
