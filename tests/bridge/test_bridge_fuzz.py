"""Fuzz: 'at least 100,000 random or corrupted frames. The host stays up, counts what it drops,
and loses no valid frame that follows.'

Each corrupted frame is followed by a delimiter and then a valid TAG_PRESENT whose UID numbers
it, so a lost valid frame shows up as a missing number."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.core import LinkCore
from firmware_bridge.events import TagEvent
from firmware_bridge.firmware import proto, wire
from firmware_bridge.host import HostLink
from firmware_bridge.simulator import Simulator
from tests.bridge.conftest import Recorder

CORRUPTED = 100_000


def sentinel(i: int) -> bytes:
    return wire.encode_frame(proto.TAG_PRESENT, i & 0xFF, proto.pack_tag(i % 8, i.to_bytes(4, "big")))


def garbage(rng: random.Random, i: int) -> bytes:
    """One corrupted frame without 0x00 inside, so the delimiter after it ends exactly it."""
    kind = i % 5
    good = sentinel(rng.randrange(1 << 24))[:-1]
    if kind == 0:  # random noise, sometimes longer than any frame
        data = bytearray(rng.randrange(1, 256) for _ in range(rng.choice((3, 9, 30, 70, 200))))
    elif kind == 1:  # one byte damaged
        data = bytearray(good)
        data[rng.randrange(len(data))] ^= rng.randrange(1, 256)
    elif kind == 2:  # cut short
        data = bytearray(good[: rng.randrange(1, len(good))])
    elif kind == 3:  # a byte too many
        data = bytearray(good)
        data.insert(rng.randrange(len(data) + 1), rng.randrange(1, 256))
    else:  # two frames run together (their delimiter lost)
        data = bytearray(good + good)
    return bytes(b or 1 for b in data)


def sentinels_seen(events: list) -> list[int]:
    return [
        int(e.uid, 16)
        for e in events
        if isinstance(e, TagEvent) and not e.resync and len(e.uid) == 8 and int(e.uid, 16) >= 1 << 24
    ]


def test_core_survives_100k_corrupted_frames_and_keeps_every_valid_one() -> None:
    rng = random.Random(2024)
    core = LinkCore()
    core.connect(0.0)
    expected = []
    chunk = bytearray()
    seen: list = []
    for i in range(CORRUPTED):
        number = (1 << 24) + i
        expected.append(number)
        chunk += garbage(rng, i) + b"\x00" + wire.encode_frame(
            proto.TAG_PRESENT, i & 0xFF, proto.pack_tag(i % 8, number.to_bytes(4, "big"))
        )
        if len(chunk) > 8192 or i == CORRUPTED - 1:
            core.feed(bytes(chunk), 1.0)
            seen.extend(core.take_events())
            chunk.clear()
    counters = core.counters
    assert sentinels_seen(seen) == expected
    assert counters.frames_ok + counters.bad_frames == 2 * CORRUPTED
    accepted_garbage = counters.frames_ok - CORRUPTED
    # A frame cut by exactly its last byte passes CRC-16/CCITT-FALSE 1 time in 256 (the byte
    # before the CRC equals the CRC's high byte); the exact body lengths refuse those.
    assert accepted_garbage <= CORRUPTED // 1000
    assert counters.bad_bodies >= 1
    assert counters.bad_frames >= CORRUPTED - accepted_garbage


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=120), max_size=20))
def test_core_never_raises_on_arbitrary_bytes(chunks: list[bytes]) -> None:
    core = LinkCore()
    core.connect(0.0)
    for n, data in enumerate(chunks):
        core.feed(data, 0.1 * n)
        core.poll(0.1 * n)
    core.feed(b"\x00" + sentinel(1 << 24), 5.0)
    assert sentinels_seen(core.take_events())[-1] == 1 << 24


def test_host_over_a_real_pty_survives_noise_between_valid_frames(recorder: Recorder) -> None:
    """The same through the serial thread: 100,000 corrupted frames, each followed by a valid
    one, written into the pty as fast as the host reads."""
    rng = random.Random(7)
    count = CORRUPTED
    with Simulator(seed=5) as sim:
        with HostLink(sim.path or "", on_event=recorder, queue_size=100_000) as host:
            assert host.wait_connected(5.0)
            expected = list(range(1 << 24, (1 << 24) + count))
            blob = bytearray()
            for i, number in enumerate(expected):
                blob += garbage(rng, i) + b"\x00" + wire.encode_frame(
                    proto.TAG_PRESENT, 0, proto.pack_tag(i % 8, number.to_bytes(4, "big"))
                )
                if len(blob) > 4096:
                    sim.inject(bytes(blob))
                    blob.clear()
            sim.inject(bytes(blob))
            assert recorder.wait_until(lambda r: len(sentinels_seen(r.events)) >= count, 30.0)
            assert sentinels_seen(recorder.events) == expected
            counters = host.counters()
            assert counters["bad_frames"] >= count - count // 1000
            assert host.connected and host.ping()
