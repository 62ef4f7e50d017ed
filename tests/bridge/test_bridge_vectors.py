"""The golden vectors (firmware_bridge/vectors.json) both ways.

- The vectors themselves are checked against independent reference code written here from the
  specifications (bitwise CRC-16/CCITT-FALSE, COBS as published), not against our encoder.
- Firmware side: selftest.py (also run under MicroPython) packs, frames and answers byte for byte.
- Host side: the host's command objects produce the host->device vectors, and LinkCore decodes
  the device->host vectors into the events and view they describe.
"""

from __future__ import annotations

import pytest

from firmware_bridge.core import LinkCore
from firmware_bridge.events import ButtonEvent, DiceEvent, TagEvent
from firmware_bridge.firmware import proto, selftest
from firmware_bridge.host import Buzz, Ping, SetLed
from tests.bridge.conftest import VECTORS


def reference_crc(data: bytes) -> int:
    """CRC-16/CCITT-FALSE bit by bit: poly 0x1021, init 0xFFFF, MSB first, no final xor."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def reference_cobs(data: bytes) -> bytes:
    """COBS from its definition: split at zeros, each group of at most 254 bytes gets a code."""
    out = bytearray()
    for group in data.split(b"\x00"):
        while len(group) >= 254:
            out += b"\xff" + group[:254]
            group = group[254:]
        out += bytes([len(group) + 1]) + group
    return bytes(out)


def test_crc_vectors_agree_with_the_reference_and_the_standard_check_value(vectors: dict) -> None:
    """The catalogue check value of CRC-16/CCITT-FALSE over '123456789' is 0x29B1."""
    assert reference_crc(b"123456789") == 0x29B1
    for v in vectors["crc16_ccitt_false"]:
        assert reference_crc(bytes.fromhex(v["data"])) == int(v["crc"], 16)


def test_every_frame_vector_is_cobs_of_header_body_and_reference_crc(vectors: dict) -> None:
    for v in vectors["frames"]:
        raw = bytes([v["type"], v["seq"]]) + bytes.fromhex(v["body"])
        crc = reference_crc(raw)
        expected = reference_cobs(raw + bytes([crc >> 8, crc & 0xFF])) + b"\x00"
        assert bytes.fromhex(v["wire"]) == expected, v["name"]
        assert len(raw) + 2 <= 64
    for v in vectors["cobs"]:
        assert reference_cobs(bytes.fromhex(v["decoded"])) == bytes.fromhex(v["encoded"])


def test_the_firmware_side_of_every_vector() -> None:
    """Packing, framing, bad frames and the device conversation (95 checks)."""
    assert selftest.run(str(VECTORS)) == 95


COMMANDS = {
    proto.SET_LED: lambda f: SetLed(f["led"], f["r"], f["g"], f["b"]),
    proto.BUZZ: lambda f: Buzz(f["freq_hz"], f["ms"]),
    proto.PING: lambda f: Ping(bytes.fromhex(f["token"])),
}


def test_host_commands_encode_to_the_vectors(vectors: dict) -> None:
    commands = [v for v in vectors["frames"] if v["type"] in COMMANDS]
    assert len(commands) == 4
    for v in commands:
        core = LinkCore()
        core.phase = "up"
        core._tx_seq = v["seq"]
        command = COMMANDS[v["type"]](v["fields"])
        assert core.send_command(command.frame_type, command.body(), 0.0) == v["seq"]
        assert core.take_output().hex().upper() == v["wire"], v["name"]


def test_host_handshake_bytes_are_the_vectors(vectors: dict) -> None:
    """HELLO v1 with seq 0 is the first frame a host sends (after one idle 0x00)."""
    core = LinkCore()
    core.connect(0.0)
    hello = next(v for v in vectors["frames"] if v["type"] == proto.HELLO)
    assert core.take_output().hex().upper() == "00" + hello["wire"]


def decoded(vectors: dict, name: str) -> list:
    core = LinkCore()
    core.connect(0.0)
    core.feed(bytes.fromhex(next(v["wire"] for v in vectors["frames"] if v["name"] == name)), 0.0)
    return core.take_events()


@pytest.mark.parametrize(
    ("name", "event"),
    [
        ("tag present, 7-byte uid", TagEvent(2, "04A1B2C3D4E5F6", True, 3)),
        ("tag present, 4-byte uid", TagEvent(0, "DEADBEEF", True, 4)),
        ("tag removed, 10-byte uid with zeros", TagEvent(11, "0400A1B2C3D4E5F60700", False, 5)),
        ("button 1 pressed", ButtonEvent(1, True, 6)),
        ("button 1 released", ButtonEvent(1, False, 7)),
        ("dice slot 0 face 5", DiceEvent(0, 5, 8)),
        ("dice slot 3 emptied", DiceEvent(3, 0, 9)),
    ],
)
def test_host_decodes_device_event_vectors(vectors: dict, name: str, event: object) -> None:
    assert decoded(vectors, name) == [event]


def test_host_decodes_hello_reply_heartbeat_and_state_vectors(vectors: dict) -> None:
    frames = {v["name"]: bytes.fromhex(v["wire"]) for v in vectors["frames"]}
    core = LinkCore()
    core.connect(0.0)
    core.feed(frames["hello reply"], 0.0)
    assert core.info is not None
    assert (core.info.protocol, core.info.firmware, core.info.boot_id) == (1, (1, 2, 3), 0x12345678)
    assert (core.info.readers, core.info.buttons, core.info.slots) == (8, 6, 4)
    get_state = core.take_output()[-6:]  # the GET_STATE the host asks next, seq 1
    assert get_state.hex().upper() == next(v["wire"] for v in vectors["frames"] if v["name"] == "get state")
    core.feed(frames["state, one part"], 0.0)
    assert core.view.tags == {2: "04A1B2C3D4E5F6"}
    assert core.view.pressed == {1} and core.view.dice == {0: 5}
    core.feed(frames["heartbeat"], 0.0)
    assert (core.counters.device_rx_bad, core.counters.device_tx_dropped) == (3, 1)


def test_host_joins_a_two_part_state(vectors: dict) -> None:
    frames = {v["name"]: bytes.fromhex(v["wire"]) for v in vectors["frames"]}
    core = LinkCore()
    core.connect(0.0)
    core.feed(frames["hello reply"], 0.0)
    core.feed(frames["state, part 0 of 2"], 0.0)
    assert core.view.tags == {}  # nothing applied until the last part
    core.feed(frames["state, part 1 of 2"], 0.0)
    want = {int(r): u for r, u in vectors["state_two_parts"]["tags"].items()}
    assert core.view.tags == want and core.phase == "up"


def test_host_refuses_the_bad_frame_vectors(vectors: dict) -> None:
    core = LinkCore()
    core.connect(0.0)
    for v in vectors["bad_frames"]:
        core.feed(bytes.fromhex(v["wire"]), 0.0)
    assert core.counters.bad_frames == len(vectors["bad_frames"])
    assert core.take_events() == []
