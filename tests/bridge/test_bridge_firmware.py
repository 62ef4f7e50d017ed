"""The firmware's pure modules under CPython: presence, debouncing, the protocol Device, the main
loop against a fake board, and the MFRC522 driver against the datasheet model of the chip and of
ISO/IEC 14443-A tags (firmware_bridge/chip.py) on a shared bus."""

from __future__ import annotations

import pytest

from firmware_bridge.chip import MFRC522Chip, SpiBus, Tag
from firmware_bridge.firmware import mfrc522, proto, wire
from firmware_bridge.firmware.app import Firmware
from firmware_bridge.firmware.debounce import Debouncer
from firmware_bridge.firmware.device import Device
from firmware_bridge.firmware.presence import Presence

UID = bytes.fromhex("04A1B2C3D4E5F6")
OTHER = bytes.fromhex("DEADBEEF")


def frames(data: list[bytes]) -> list[tuple[int, int, bytes]]:
    return wire.FrameReader().feed(b"".join(data))


class TestPresence:
    def test_a_read_places_the_tag_at_once(self) -> None:
        assert Presence().update(UID) == [(True, UID)]

    def test_removal_needs_three_misses_in_a_row(self) -> None:
        """A single failed read of a tag that has not moved must not report a removal."""
        p = Presence(misses=3)
        p.update(UID)
        assert p.update(None) == [] and p.update(None) == []
        assert p.update(UID) == []  # read again: the misses start over
        assert [p.update(None) for _ in range(3)] == [[], [], [(False, UID)]]

    def test_a_different_tag_is_a_removal_then_a_placement(self) -> None:
        p = Presence()
        p.update(UID)
        assert p.update(OTHER) == [(False, UID), (True, OTHER)]


class TestDebouncer:
    def test_a_bounce_shorter_than_the_window_is_ignored(self) -> None:
        d = Debouncer(stable_ms=20)
        assert [d.update(level, t) for level, t in ((True, 0), (False, 5), (True, 8), (False, 12))] == [None] * 4
        assert d.pressed is False

    def test_a_level_held_for_the_window_is_reported_once(self) -> None:
        d = Debouncer(stable_ms=20)
        results = [d.update(True, t) for t in range(0, 60, 5)]
        assert results.count(True) == 1 and results.index(True) == 4  # at 20 ms
        assert d.update(False, 100) is None and d.update(False, 121) is False


class TestDevice:
    def test_a_full_send_queue_counts_drops_and_leaves_a_sequence_gap(self) -> None:
        """The host must be able to see that something was lost."""
        dev = Device(1, 4, 4, 0, tx_limit=2)
        for button in range(4):
            dev.button(button, True)
        got = frames(dev.take())
        assert [seq for _, seq, _ in got] == [0, 1]
        assert dev.tx_dropped == 2
        dev.button(0, False)
        assert frames(dev.take())[0][1] == 4  # seqs 2 and 3 were spent on the dropped frames

    def test_heartbeat_every_second(self) -> None:
        dev = Device(7, 1, 1, 0, now_ms=0)
        sent = []
        for ms in range(0, 3500, 10):
            dev.tick(ms)
            sent += [(ftype, proto.unpack_heartbeat(body)) for ftype, _, body in frames(dev.take())]
        assert [beat[1] for _, beat in sent] == [1000, 2000, 3000]
        assert all(ftype == proto.HEARTBEAT and beat[0] == 7 for ftype, beat in sent)

    def test_hello_resets_duplicate_detection(self) -> None:
        """A new host starts its sequence numbers afresh; its commands must not be mistaken
        for duplicates of the previous host's."""
        runs = []
        dev = Device(1, 1, 1, 0, on_command=lambda t, a: runs.append(a) or proto.ACK_OK)
        ping = wire.encode_frame(proto.SET_LED, 5, proto.pack_set_led(0, 1, 2, 3))
        dev.feed(ping + ping)
        dev.feed(wire.encode_frame(proto.HELLO, 0, proto.pack_hello()) + ping)
        assert runs == [(0, 1, 2, 3), (0, 1, 2, 3)]

    def test_a_large_snapshot_is_split_and_joined_again(self) -> None:
        tags = {r: bytes([r]) * 10 for r in range(20)}
        dev = Device(1, 20, 16, 2)
        dev.restore(tags, {0, 15}, {1: 6})
        dev.feed(wire.encode_frame(proto.GET_STATE, 9, b""))
        parts = [proto.unpack_state(body) for _, _, body in frames(dev.take())]
        assert len(parts) > 3 and [p[1] for p in parts] == list(range(len(parts)))
        assert [p[2] for p in parts] == [False] * (len(parts) - 1) + [True]
        records = [r for p in parts for r in p[3]]
        assert {r[1]: r[2] for r in records if r[0] == "tag"} == tags
        assert ("buttons", 16, [0, 15]) in records and ("dice", 1, 6) in records


class FakeBoard:
    """What Firmware.step needs from board.Board, scripted by the test."""

    def __init__(self, readers: int, buttons: int) -> None:
        self.uids: list[bytes | None] = [None] * readers
        self.levels = [False] * buttons
        self.host_in = b""
        self.host_out: list[bytes] = []
        self.ms = 0
        self.fed = 0
        self.commands: list[tuple[int, tuple]] = []

    def boot_id(self) -> int:
        return 0xB007

    def now_ms(self) -> int:
        return self.ms

    def read_host(self) -> bytes:
        data, self.host_in = self.host_in, b""
        return data

    def write_host(self, frame: bytes) -> None:
        self.host_out.append(frame)

    def poll_reader(self, index: int) -> bytes | None:
        return self.uids[index]

    def button_levels(self) -> list[bool]:
        return list(self.levels)

    def command(self, ftype: int, args: tuple) -> int:
        self.commands.append((ftype, args))
        return proto.ACK_OK

    def service(self, now: int) -> None:
        pass

    def feed_watchdog(self) -> None:
        self.fed += 1

    def run(self, fw: Firmware, ms: int, step_ms: int = 5) -> list[tuple[int, int, bytes]]:
        for _ in range(ms // step_ms):
            fw.step(self)
            self.ms += step_ms
        out, self.host_out = self.host_out, []
        return [f for f in frames(out) if f[0] != proto.HEARTBEAT]


class TestFirmwareLoop:
    def test_boot_scan_is_silent_then_changes_are_reported(self) -> None:
        board = FakeBoard(readers=3, buttons=2)
        board.uids[1] = UID
        board.levels[0] = True
        fw = Firmware(board, 3, 2)
        got = board.run(fw, 50)
        assert [f[0] for f in got] == [proto.HELLO_REPLY]  # no TAG_PRESENT for the boot scan
        assert fw.device.tags == {1: UID} and fw.device.pressed == {0}
        board.uids[2] = OTHER
        board.uids[1] = None
        got = board.run(fw, 100)
        assert [(t, proto.unpack_tag(b)) for t, _, b in got] == [
            (proto.TAG_PRESENT, (2, OTHER)),
            (proto.TAG_REMOVED, (1, UID)),  # after three polls of reader 1 without it
        ]
        assert board.fed == 30  # the watchdog is fed on every turn

    def test_buttons_are_debounced(self) -> None:
        board = FakeBoard(readers=1, buttons=1)
        fw = Firmware(board, 1, 1)
        board.run(fw, 10)
        board.levels[0] = True
        got = board.run(fw, 10)  # shorter than the 20 ms window
        board.levels[0] = False
        got += board.run(fw, 10)
        assert got == []
        board.levels[0] = True
        got = board.run(fw, 40)
        assert [proto.unpack_button(b) for _, _, b in got] == [(0, True)]

    def test_a_dice_lane_reports_faces_of_known_die_tags(self) -> None:
        board = FakeBoard(readers=2, buttons=0)
        fw = Firmware(board, 2, 0, dice_slots={1: 0}, dice_faces={OTHER: 4})
        board.run(fw, 10)
        board.uids[1] = OTHER
        got = board.run(fw, 20)
        board.uids[1] = UID  # a tag with no face: an ordinary tag on that reader
        got += board.run(fw, 20)
        assert [(t, b) for t, _, b in got] == [
            (proto.DICE, proto.pack_dice(0, 4)),
            (proto.DICE, proto.pack_dice(0, 0)),
            (proto.TAG_PRESENT, proto.pack_tag(1, UID)),
        ]

    def test_host_commands_reach_the_board(self) -> None:
        board = FakeBoard(readers=1, buttons=0)
        fw = Firmware(board, 1, 0)
        board.host_in = wire.encode_frame(proto.BUZZ, 3, proto.pack_buzz(440, 80))
        got = board.run(fw, 10)
        assert board.commands == [(proto.BUZZ, (440, 80))]
        assert (proto.ACK, proto.pack_ack(3, proto.ACK_OK)) in [(t, b) for t, _, b in got]


# ---- MFRC522 against the datasheet model (firmware_bridge/chip.py) ------------------------------


def reader_on(bus: SpiBus, index: int) -> mfrc522.MFRC522:
    clock = bus.clock
    return mfrc522.MFRC522(bus, bus.cs(index), sleep_ms=clock.sleep_ms, sleep_us=clock.sleep_us)


def poll(reader: mfrc522.MFRC522) -> bytes | None:
    """One poll as board.py does it: only this reader's field on while it reads."""
    reader.antenna(True)
    try:
        return reader.read_uid()
    finally:
        reader.antenna(False)


def razrc522_poll(reader: mfrc522.MFRC522) -> bytes | None:
    """The old Pi backend's sequence for a 7-byte UID: level 1 selected, level 2 read, never selected."""
    atqa = reader.transceive(bytes((mfrc522.PICC_WUPA,)), bits=7)
    if atqa is None:
        return None
    level1 = reader.transceive(bytes((0x93, 0x20)))
    frame = bytes((0x93, 0x70)) + level1
    reader.transceive(frame + mfrc522.crc_a(frame))
    level2 = reader.transceive(bytes((0x95, 0x20)))
    return None if level2 is None else level1[1:4] + level2[:4]


class TestMFRC522:
    def test_crc_a_of_hlta_is_the_iso_value(self) -> None:
        """ISO/IEC 14443-3: HLTA is sent as 50 00 57 CD."""
        assert mfrc522.crc_a(b"\x50\x00") == b"\x57\xcd"

    def test_uids_of_4_7_and_10_bytes_on_readers_sharing_one_bus(self) -> None:
        uids = [bytes.fromhex("DEADBEEF"), UID, bytes.fromhex("0400A1B2C3D4E5F60708"), None]
        chips = [MFRC522Chip([Tag(uid)] if uid else []) for uid in uids]
        bus = SpiBus(chips)
        readers = [reader_on(bus, i) for i in range(4)]
        assert all(reader.init() for reader in readers)
        assert [poll(reader) for reader in readers] == uids
        # a tag that stays put is read again on the next poll, and the one after
        assert [poll(readers[1]) for _ in range(3)] == [UID] * 3
        assert bus.selected == set()

    def test_a_poll_walks_the_iso_states_to_halt_at_every_cascade_level(self) -> None:
        tag = Tag(bytes.fromhex("0400A1B2C3D4E5F60708"))
        chip = MFRC522Chip([tag])
        reader = reader_on(SpiBus([chip]), 0)
        assert reader.init()
        reader.antenna(True)
        assert reader.read_uid() == tag.uid
        assert tag.log[-3:] == ["READY", "ACTIVE", "HALT"] and tag.state == "HALT"
        assert reader.read_uid() == tag.uid  # the field stayed on: WUPA wakes it from HALT
        assert tag.log[-3:] == ["READY*", "ACTIVE*", "HALT"]

    def test_the_model_catches_the_level_2_bug_every_other_poll_misses(self) -> None:
        """Never selecting level 2 nor halting leaves the tag READY; the next WUPA drops it to IDLE."""
        tag = Tag(UID)
        chip = MFRC522Chip([tag])
        reader = reader_on(SpiBus([chip]), 0)
        assert reader.init()
        reader.antenna(True)  # razrc522 leaves the antenna on between polls
        assert [razrc522_poll(reader) for _ in range(6)] == [UID, None, UID, None, UID, None]
        assert [reader.read_uid() for _ in range(6)] == [UID] * 6  # the driver selects and halts

    def test_a_wupa_sent_as_the_field_comes_on_is_not_heard(self) -> None:
        """ISO/IEC 14443-3 gives a tag 5 ms after the field is on; the driver waits that long."""
        chip = MFRC522Chip([Tag(UID)])
        bus = SpiBus([chip])
        hasty = mfrc522.MFRC522(bus, bus.cs(0), sleep_ms=lambda ms: None, sleep_us=bus.clock.sleep_us)
        assert hasty.init()
        assert poll(hasty) is None
        assert poll(reader_on(bus, 0)) == UID

    def test_an_empty_poll_waits_for_the_chips_timer_not_for_a_count_of_reads(self) -> None:
        chip = MFRC522Chip([])
        bus = SpiBus([chip])
        reader = reader_on(bus, 0)
        assert reader.init(timeout_ms=5)
        assert chip.timer_seconds() == pytest.approx(0.005, rel=0.01)
        start, transfers = bus.clock(), chip.transfers
        assert poll(reader) is None
        took = bus.clock() - start
        assert 0.010 <= took < 0.012  # 5 ms to settle + the 5 ms timer (+ the transfers)
        assert chip.transfers - transfers < 400  # at 1 MHz; razrc522 spent ~2,000 here
        paced = mfrc522.MFRC522(bus, bus.cs(0), sleep_ms=bus.clock.sleep_ms, sleep_us=bus.clock.sleep_us,
                                poll_pause_us=500)
        transfers = chip.transfers
        assert poll(paced) is None and chip.transfers - transfers < 40  # the Pi pauses between checks

    def test_an_unwired_reader_or_an_unknown_chip_is_refused_at_init(self) -> None:
        for chip in (MFRC522Chip(present=False), MFRC522Chip(version=0x00), MFRC522Chip(version=0xFF)):
            reader = reader_on(SpiBus([chip]), 0)
            assert not reader.init()
            assert reader.version_read in (0x00, 0xFF)
        clone = reader_on(SpiBus([MFRC522Chip(version=0x88)]), 0)
        assert clone.init()  # FM17522

    def test_two_tags_on_one_reader_collide_and_read_as_nothing(self) -> None:
        reader = reader_on(SpiBus([MFRC522Chip([Tag(UID), Tag(OTHER)])]), 0)
        assert reader.init()
        assert poll(reader) is None

    def test_the_antenna_gain_is_written_to_rfcfgreg(self) -> None:
        chip = MFRC522Chip([])
        reader = reader_on(SpiBus([chip]), 0)
        assert reader.init(gain=7)
        assert chip.gain == 7

    def test_uid_from_levels_checks_the_cascade_tag(self) -> None:
        assert mfrc522.uid_from_levels([b"\x88\x01\x02\x03", b"\x04\x05\x06\x07"]) == bytes(range(1, 8))
        assert mfrc522.uid_from_levels([b"\x11\x01\x02\x03", b"\x04\x05\x06\x07"]) is None
        assert mfrc522.uid_from_levels([b"\x88\x01\x02\x03"]) is None


class TestReaderStatus:
    def test_a_reader_that_stops_answering_is_said_once_and_again_after_a_snapshot(self) -> None:
        dev = Device(0x1, readers=4, buttons=1, slots=0)
        dev.take()
        dev.reader_status(2, True)  # no change: nothing sent
        dev.reader_status(2, False)
        dev.reader_status(2, False)
        sent = frames(dev.take())
        assert [(t, b) for t, _, b in sent] == [(proto.READER_STATUS, proto.pack_reader_status(2, False))]
        dev.feed(wire.encode_frame(proto.GET_STATE, 7, b""))
        after = [(t, b) for t, _, b in frames(dev.take())]
        assert after[-1] == (proto.READER_STATUS, proto.pack_reader_status(2, False))  # repeated after STATE
        assert [t for t, _ in after[:-1]] == [proto.STATE]

    def test_the_firmware_loop_reports_the_boards_reader_state(self) -> None:
        class Board:
            present = [True, False]

            def boot_id(self):
                return 5

            def now_ms(self):
                return 0

            def read_host(self):
                return b""

            def poll_reader(self, index):
                return None

            def button_levels(self):
                return []

            def command(self, ftype, args):
                return proto.ACK_OK

            def write_host(self, frame):
                self.out.append(frame)

            def service(self, now):
                pass

            def feed_watchdog(self):
                pass

        board = Board()
        board.out = []
        fw = Firmware(board, readers=2, buttons=0)
        for _ in range(4):
            fw.step(board)
        board.present[1] = True
        for _ in range(2):
            fw.step(board)
        statuses = [b for t, _, b in frames(board.out) if t == proto.READER_STATUS]
        assert statuses == [proto.pack_reader_status(1, False), proto.pack_reader_status(1, True)]
