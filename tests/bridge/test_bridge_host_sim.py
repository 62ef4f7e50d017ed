"""The host link against the simulated firmware over a real pseudo-terminal.

Each test names the protocol promise it checks (docs/bridge-protocol.md)."""

from __future__ import annotations

import os
import time

import pytest
import serial

from firmware_bridge.events import ButtonEvent, DiceEvent, LinkEvent, TagEvent
from firmware_bridge.finder import PortFinder
from firmware_bridge.firmware import config, proto
from firmware_bridge.host import Buzz, HostLink, SetLed
from firmware_bridge.simulator import Faults, Simulator
from tests.bridge.conftest import Recorder

UID7 = "04A1B2C3D4E5F6"
UID4 = "DEADBEEF"
UID10 = "0400A1B2C3D4E5F60700"


class TestHandshake:
    def test_hello_reports_versions_boot_id_and_counts(self, sim: Simulator, link: HostLink, recorder: Recorder) -> None:
        """'a versioned HELLO answered with protocol and firmware version, a boot id and the
        counts of readers, buttons and slots'."""
        hello = recorder.wait_for(lambda e: isinstance(e, LinkEvent) and e.kind == "hello")
        assert hello.detail["protocol"] == proto.PROTOCOL_VERSION
        assert hello.detail["firmware"] == ".".join(map(str, config.FIRMWARE))
        assert (hello.detail["readers"], hello.detail["buttons"], hello.detail["slots"]) == (8, 8, 4)
        assert link.info is not None and link.info.boot_id == sim.device.boot_id
        assert hello.detail["boot_id"] == f"{sim.device.boot_id:08X}"

    def test_connect_is_followed_by_a_state_snapshot(self, link: HostLink, recorder: Recorder) -> None:
        """'GET_STATE resync after ... a reconnect': the first connection resyncs too."""
        resync = recorder.wait_for(lambda e: isinstance(e, LinkEvent) and e.kind == "resync")
        assert resync.detail["reason"] == "connect"
        assert link.counters()["resyncs"] >= 1

    def test_tags_already_on_the_table_are_reported_at_connect(self, recorder: Recorder) -> None:
        with Simulator(seed=1) as sim:
            sim.place(3, UID7)
            with HostLink(sim.path or "", on_event=recorder) as host:
                assert host.wait_until(lambda h: h.present_tags() == {3: UID7}, 5.0)
                event = recorder.wait_for(lambda e: isinstance(e, TagEvent))
                assert (event.reader, event.uid, event.present, event.resync) == (3, UID7, True, True)

    def test_the_port_is_opened_exclusively(self, sim: Simulator, link: HostLink) -> None:
        """'opens the port exclusively': a second program cannot open the same device."""
        with pytest.raises(serial.SerialException):
            serial.Serial(link.port_path, exclusive=True)


class TestEvents:
    def test_tag_button_and_dice_events_arrive_in_order(self, sim: Simulator, link: HostLink, recorder: Recorder) -> None:
        sim.place(2, UID7)
        sim.press(1)
        sim.press(1, False)
        sim.roll(0, 5)
        sim.place(0, UID4)
        sim.place(5, UID10)
        sim.remove(2)
        recorder.wait_for(lambda e: isinstance(e, TagEvent) and not e.present)
        got = [e for e in recorder.events if not isinstance(e, LinkEvent)]
        assert [(type(e).__name__, *_key(e)) for e in got] == [
            ("TagEvent", 2, UID7, True),
            ("ButtonEvent", 1, True),
            ("ButtonEvent", 1, False),
            ("DiceEvent", 0, 5),
            ("TagEvent", 0, UID4, True),
            ("TagEvent", 5, UID10, True),
            ("TagEvent", 2, UID7, False),
        ]
        assert link.present_tags() == {0: UID4, 5: UID10}
        assert link.dice_faces() == {0: 5}
        assert all(e.seq is not None and not e.resync for e in got)

    def test_a_held_button_is_in_the_view(self, sim: Simulator, link: HostLink) -> None:
        sim.press(4)
        assert link.wait_until(lambda h: h.pressed_buttons() == {4}, 5.0)

    def test_heartbeat_carries_device_counters(self, sim: Simulator, link: HostLink) -> None:
        """'a heartbeat every second, with counters of bad and dropped frames'."""
        with open(link.port_path or "", "wb", buffering=0) as port:
            port.write(b"\x05\x01\x02\x03\x04\x00")  # a frame with a wrong CRC, to the device
        assert link.wait_until(lambda h: h.counters()["device_rx_bad"] == 1, 3.0)


class TestCommands:
    def test_commands_are_acknowledged_and_executed(self, sim: Simulator, link: HostLink) -> None:
        assert link.send(SetLed(3, 10, 20, 30))
        assert link.send(Buzz(880, 100))
        assert link.ping()
        assert sim.executed == [("SET_LED", (3, 10, 20, 30)), ("BUZZ", (880, 100))]
        assert sim.led_colours[3] == (10, 20, 30)

    def test_a_lost_command_is_retried(self, sim: Simulator, link: HostLink) -> None:
        """'commands are acknowledged and retried up to 3 times'."""
        sim.drop_next("in", 2, types=[proto.SET_LED])
        assert link.set_led(1, 255, 0, 0)
        assert link.counters()["retries"] == 2
        assert sim.executed == [("SET_LED", (1, 255, 0, 0))]

    def test_a_lost_ack_does_not_execute_the_command_twice(self, sim: Simulator, link: HostLink) -> None:
        """'duplicates are not executed twice': the retry after a lost ACK is only re-acked."""
        sim.drop_next("out", 1, types=[proto.ACK])
        assert link.buzz(440, 50)
        assert link.counters()["retries"] == 1
        assert sim.executed == [("BUZZ", (440, 50))]

    def test_a_command_fails_after_three_retries(self, sim: Simulator, link: HostLink) -> None:
        sim.drop_next("in", 4, types=[proto.BUZZ])
        assert not link.buzz(440, 50)
        counters = link.counters()
        assert (counters["retries"], counters["commands_failed"]) == (3, 1)
        assert sim.executed == []

    def test_the_device_refuses_a_led_it_does_not_have(self, link: HostLink) -> None:
        assert not link.set_led(200, 1, 2, 3)

    def test_commands_fail_fast_when_the_link_is_down(self) -> None:
        host = HostLink("/nonexistent/bridge")
        assert not host.ping()


class TestResync:
    def test_a_lost_event_causes_a_resync_that_repairs_the_view(self, sim: Simulator, link: HostLink, recorder: Recorder) -> None:
        """'GET_STATE resync after a sequence gap'."""
        sim.drop_next("out", 1, types=[proto.TAG_PRESENT])
        sim.place(1, UID7)
        sim.press(2)  # the next frame reveals the gap
        assert link.wait_until(lambda h: h.present_tags() == {1: UID7}, 5.0)
        event = recorder.wait_for(lambda e: isinstance(e, TagEvent) and e.reader == 1)
        assert event.resync and event.present
        assert link.counters()["gaps"] == 1
        assert recorder.link("resync")[-1].detail["reason"] == "gap"

    def test_a_reboot_is_noticed_by_its_new_boot_id(self, sim: Simulator, link: HostLink, recorder: Recorder) -> None:
        """'GET_STATE resync after ... a new boot id': changes during the reboot are recovered."""
        sim.place(0, UID4)
        assert link.wait_until(lambda h: h.present_tags() == {0: UID4}, 5.0)
        old_boot = link.info.boot_id if link.info else None
        sim.reboot()
        sim.remove(0)  # while the firmware is down nothing reports this
        sim.place(6, UID10)
        assert link.wait_until(lambda h: h.present_tags() == {6: UID10}, 5.0)
        assert link.info is not None and link.info.boot_id != old_boot
        assert link.counters()["reboots"] == 1
        assert recorder.wait_until(lambda r: r.applied_view() == {6: UID10}, 3.0)
        assert "reboot" in [e.detail["reason"] for e in recorder.link("resync")]

    def test_a_reboot_whose_announcement_is_lost_is_seen_in_the_heartbeat(self, sim: Simulator, link: HostLink) -> None:
        sim.drop_next("out", 1, types=[proto.HELLO_REPLY])
        sim.reboot()
        sim.place(2, UID7)
        assert link.wait_until(lambda h: h.present_tags() == {2: UID7} and h.counters()["reboots"] == 1, 5.0)


class TestReconnect:
    def test_silence_drops_the_link(self, sim: Simulator, recorder: Recorder) -> None:
        """'drops the link after 3 s of silence' (shortened to 0.5 s here)."""
        host = HostLink(sim.path or "", on_event=recorder, silence=0.5).start()
        try:
            assert host.wait_connected(5.0)
            sim.drop_next("out", 10_000)  # the device still runs but nothing reaches the host
            lost = recorder.wait_for(lambda e: isinstance(e, LinkEvent) and e.kind == "lost", 5.0)
            assert lost.detail["reason"] == "silence"
        finally:
            host.stop()

    def test_unplug_and_replug_under_a_new_name(self, tmp_path, recorder: Recorder) -> None:
        """'reconnects with backoff, finding the device by /dev/serial/by-id ... even when its
        node name changes'; the view is right again after the resync."""
        by_id = tmp_path / "by-id"
        by_id.mkdir()
        link_path = str(by_id / "usb-MicroPython_Board_in_FS_mode_e6614103e7-if00")
        finder = PortFinder(symlink=None, by_id=str(by_id / "usb-MicroPython_*-if00"), vid_pid=None)
        with Simulator(seed=3, link=link_path) as sim:
            first = sim.path
            sim.place(1, UID7)
            with HostLink(finder, on_event=recorder) as host:
                assert host.wait_until(lambda h: h.present_tags() == {1: UID7}, 5.0)
                keep_busy = os.open(first or "", os.O_RDWR | os.O_NOCTTY)  # pins the old name
                try:
                    sim.unplug()
                    recorder.wait_for(lambda e: isinstance(e, LinkEvent) and e.kind == "lost")
                    sim.remove(1)  # changes while unplugged
                    sim.place(4, UID4)
                    second = sim.replug()
                    assert second != first
                    assert host.wait_until(lambda h: h.connected and h.present_tags() == {4: UID4}, 5.0)
                finally:
                    os.close(keep_busy)
                assert host.port_path == second
                assert host.counters()["connects"] == 2
                assert recorder.wait_until(lambda r: r.applied_view() == {4: UID4}, 3.0)


class TestFaults:
    def test_with_every_fault_on_the_host_survives_and_ends_right(self, recorder: Recorder) -> None:
        """'With faults switched on, the host survives, counts what it dropped, and after resync
        its view of which tags sit on which readers is right.'"""
        faults = Faults(drop=True, corrupt=True, reboot=True, rate=0.08, reboot_every=0.8)
        with Simulator(seed=11, faults=faults, reboot_ms=50) as sim:
            with HostLink(sim.path or "", on_event=recorder) as host:
                assert host.wait_connected(5.0)
                # at least 120 changes paced over ~2 s so reboots land mid-stream, and on until the host has
                # met every kind of fault (a loaded machine may stretch the pace past the reboots' timer)
                deadline, i = time.monotonic() + 30, 0
                while i < 120 or (time.monotonic() < deadline and not all(
                        host.counters()[kind] > 0 for kind in ("bad_frames", "gaps", "reboots"))):
                    reader = i % 6
                    if reader in sim.truth():
                        sim.remove(reader)
                    else:
                        sim.place(reader, f"04{i:012X}")
                    sim.press(i % 4, i % 2 == 0)
                    time.sleep(0.015)
                    i += 1
                sim.faults = Faults()  # calm down, then the next heartbeat reveals any last gap
                truth = sim.truth()
                assert host.wait_until(
                    lambda h: h.connected and h.present_tags() == truth and h.counters()["resyncs"] > 2,
                    8.0,
                ), (host.present_tags(), truth, host.counters())
                assert host.wait_until(lambda h: h.pressed_buttons() == sim.pressed(), 3.0)
                counters = host.counters()
        assert counters["bad_frames"] > 0 and counters["gaps"] > 0 and counters["reboots"] > 0
        assert sim.stats["out_corrupted"] > 0 and sim.stats["out_dropped"] > 0
        assert recorder.wait_until(lambda r: r.applied_view() == truth, 3.0)


def _key(event: TagEvent | ButtonEvent | DiceEvent) -> tuple:
    if isinstance(event, TagEvent):
        return (event.reader, event.uid, event.present)
    if isinstance(event, ButtonEvent):
        return (event.button, event.pressed)
    return (event.slot, event.face)
