"""LinkCore timers with a fake clock, and PortFinder's search order."""

from __future__ import annotations

import os
from types import SimpleNamespace

from firmware_bridge.core import LinkCore
from firmware_bridge.finder import PortFinder
from firmware_bridge.firmware import proto, wire
from firmware_bridge.firmware.device import Device


def connected() -> tuple[LinkCore, Device]:
    core, dev = LinkCore(), Device(0xABCD, 4, 4, 1)
    core.connect(0.0)
    dev.feed(core.take_output())
    core.feed(b"".join(dev.take()), 0.0)
    dev.feed(core.take_output())
    core.feed(b"".join(dev.take()), 0.0)
    assert core.phase == "up"
    return core, dev


def test_three_seconds_of_silence_drop_the_link() -> None:
    core, _ = connected()
    assert core.poll(2.9) is None
    assert core.poll(3.01) == "silence"


def test_heartbeats_keep_the_link_alive() -> None:
    core, dev = connected()
    for second in range(1, 10):
        dev.tick(second * 1000)
        core.feed(b"".join(dev.take()), float(second))
        assert core.poll(second + 0.9) is None


def test_no_answer_to_hello_gives_up_after_four_tries() -> None:
    core = LinkCore(silence=60)
    core.connect(0.0)
    sent = [core.take_output()]
    for t in (0.5, 1.0, 1.5):
        assert core.poll(t) is None
        sent.append(core.take_output())
    assert all(wire.FrameReader().feed(s)[0][0] == proto.HELLO for s in sent)
    assert core.poll(2.0) == "no hello"


def test_a_command_is_sent_at_most_four_times() -> None:
    """'retried up to 3 times': one send and three retries, then it has failed."""
    core, _ = connected()
    seq = core.send_command(proto.PING, b"", 0.0)
    assert seq is not None
    copies = [core.take_output()]
    for t in (0.3, 0.6, 0.9, 1.2, 1.5):
        core.poll(t)
        copies.append(core.take_output())
    assert [len(c) > 0 for c in copies] == [True, True, True, True, False, False]
    assert len(set(copies[:4])) == 1  # the same frame, same sequence number
    assert core.command_done(seq) and core.command_result(seq) is False


def test_an_incompatible_protocol_version_drops_the_link() -> None:
    core = LinkCore()
    core.connect(0.0)
    body = proto.pack_hello_reply(2, (9, 0, 0), 1, 1, 1, 1)
    core.feed(wire.encode_frame(proto.HELLO_REPLY, 0, body), 0.0)
    assert [e.kind for e in core.take_events()] == ["incompatible"]
    assert core.poll(0.1) == "incompatible"


def test_finder_prefers_the_udev_symlink_then_by_id_then_vid_pid(tmp_path) -> None:
    ports = [SimpleNamespace(device="/dev/ttyACM7", vid=0x2E8A, pid=0x0005, serial_number="X1"),
             SimpleNamespace(device="/dev/ttyUSB0", vid=0x1A86, pid=0x7523, serial_number=None)]
    target = tmp_path / "ttyACM3"
    target.touch()
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    finder = PortFinder(symlink=str(tmp_path / "galapagos-bridge"), by_id=str(by_id / "usb-MicroPython_*"),
                        list_ports=lambda: ports)
    assert finder() == "/dev/ttyACM7"
    assert PortFinder(symlink=None, by_id=None, serial_number="other", list_ports=lambda: ports)() is None
    os.symlink(target, by_id / "usb-MicroPython_Board_in_FS_mode_X1-if00")
    assert finder() == str(target)
    os.symlink(target, tmp_path / "galapagos-bridge")
    assert finder() == str(target)


def reader_events(core: LinkCore) -> list[tuple[int, bool]]:
    return [(e.detail["reader"], e.detail["ok"]) for e in core.take_events() if getattr(e, "kind", "") == "reader"]


def test_reader_status_frames_become_link_events_once_per_change() -> None:
    core, dev = connected()
    core.take_events()
    dev.reader_status(1, False)
    core.feed(b"".join(dev.take()), 0.1)
    assert reader_events(core) == [(1, False)] and core.absent_readers == {1}
    dev.reader_status(1, True)
    core.feed(b"".join(dev.take()), 0.2)
    assert reader_events(core) == [(1, True)] and core.absent_readers == set()


def test_after_a_resync_a_reader_the_device_no_longer_lists_is_back() -> None:
    """The device repeats the absent readers after STATE; one it does not repeat came back while
    its own READER_STATUS was lost."""
    core, dev = connected()
    dev.reader_status(1, False)
    dev.reader_status(3, False)
    core.feed(b"".join(dev.take()), 0.1)
    core.take_events()
    dev.reader_status(3, True)
    dev.take()  # that frame is lost on the wire
    core.resync("test", 0.2)
    dev.feed(core.take_output())
    core.feed(b"".join(dev.take()), 0.3)
    assert reader_events(core) == []  # reader 1 repeated as absent: no news
    dev.tick(1000)
    core.feed(b"".join(dev.take()), 1.0)
    assert reader_events(core) == [(3, True)] and core.absent_readers == {1}
