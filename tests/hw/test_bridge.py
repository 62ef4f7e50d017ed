"""Reader points behind the firmware bridge, against the firmware simulator on a real pty."""

from __future__ import annotations

import os
import time
import tomllib

import pytest

from firmware_bridge.simulator import Simulator
from hw.events import ButtonEvent, DieEvent, StatusEvent, TagEvent
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


# ---- port = "auto": the board is found by its stable names, again after it comes back ----------

AUTO = """
[gpio]
factory = "mock"

[[readers]]
point = "N"
backend = "bridge"
reader = 0

[bridge]
port = "auto"
symlink = "{link}"
by_id = "{by_id}"
"""


def auto_table(tmp_path, mock_factory, link, by_id="/nonexistent/usb-*"):
    from companion.board.config import parse
    from companion.board.devices import open_devices

    cfg = parse(tomllib.loads(AUTO.format(link=link, by_id=by_id)), "auto.toml")
    assert cfg.bridge.port == "auto"
    devices = open_devices(cfg)
    events = []
    devices.listeners.append(events.append)
    devices.start()
    return devices, events


def occupy_pty_number():
    """Hold the pty number just freed, so the board really comes back under a new name."""
    return os.openpty()


def test_a_real_config_defaults_the_bridge_to_auto_and_reaches_its_finder(tmp_path):
    from companion.board.config import parse
    from firmware_bridge.finder import PortFinder

    cfg = parse({"gpio": {"factory": "lgpio"}, "bridge": {"symlink": str(tmp_path / "b"), "usb_id": "1234:ABCD"}})
    assert cfg.bridge.port == "auto"
    finder = cfg.bridge.finder()
    assert isinstance(finder, PortFinder) and finder.symlink == str(tmp_path / "b")
    assert finder.vid_pid == (0x1234, 0xABCD) and cfg.bridge.target() is not None
    assert parse({}).bridge.port == "sim"  # the simulated table keeps its simulator


def test_the_bridge_is_found_again_when_it_comes_back_under_a_new_name(tmp_path, mock_factory):
    link = tmp_path / "galapagos-bridge"
    sim = Simulator(readers=2, buttons=1, slots=1, link=str(link)).start()
    devices, events = auto_table(tmp_path, mock_factory, link)
    held = []
    try:
        hub = devices.bridge
        assert hub.link.wait_connected(5.0), "the finder did not lead the link to the simulator"
        first = hub.port_path
        assert first == os.path.realpath(link) == sim.path
        sim.unplug()
        assert wait_until(lambda: hub.link_state == "lost", 5.0)
        held.append(occupy_pty_number())
        second = sim.replug()
        assert second != first
        assert hub.link.wait_connected(8.0) and wait_until(lambda: hub.port_path == second, 5.0)
        sim.place(0, UID)
        assert wait_until(lambda: TagEvent("N", UID, True) in [TagEvent(e.point, e.uid, e.present)
                                                               for e in events if isinstance(e, TagEvent)], 5.0)
        assert wait_until(lambda: StatusEvent("bridge", True, "bridge connected") in events, 5.0)
        assert StatusEvent("bridge", False, "bridge lost") in events
    finally:
        devices.close()
        sim.stop()
        for fds in held:
            for fd in fds:
                os.close(fd)


def test_a_board_plugged_in_after_the_start_is_found_by_its_by_id_link(tmp_path, mock_factory):
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    devices, events = auto_table(tmp_path, mock_factory, tmp_path / "absent",
                                 by_id=str(by_id / "usb-MicroPython_Board_in_FS_mode_*-if00"))
    sim = None
    try:
        time.sleep(0.3)  # a few scans find nothing
        assert not devices.bridge.link.connected
        sim = Simulator(readers=1, link=str(by_id / "usb-MicroPython_Board_in_FS_mode_e66-if00")).start()
        assert devices.bridge.link.wait_connected(8.0)
        assert devices.bridge.port_path == sim.path
    finally:
        devices.close()
        if sim is not None:
            sim.stop()


def test_a_bridge_reader_that_stops_answering_is_reported_by_its_point(table):
    sim, hub, points, events = table
    status = []
    hub.on_event = status.append
    sim.reader_fails(2)
    assert wait_until(lambda: StatusEvent("reader S", False, "reader S stopped answering; the bridge retries it")
                      in status, 5.0)
    assert not points["S"].healthy
    sim.reader_fails(2, failing=False)
    assert wait_until(lambda: StatusEvent("reader S", True, "reader S answers again") in status, 5.0)
    assert points["S"].healthy
