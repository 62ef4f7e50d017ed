"""The firmware's side of the golden vectors (firmware_bridge/vectors.json), runnable anywhere:

- under CPython by tests/bridge/test_vectors.py;
- under real MicroPython by tests/bridge/test_micropython.py (the WebAssembly port on Node);
- on the Pico itself: ``mpremote cp firmware_bridge/vectors.json :`` then
  ``mpremote exec "from firmware import selftest; print(selftest.run('vectors.json'))"``.

``run(path)`` returns the number of checks passed and raises AssertionError on the first
mismatch, naming the vector.
"""

import json
from binascii import hexlify, unhexlify

from . import proto as P
from . import wire as W
from .device import Device


def _hex(data):
    return hexlify(bytes(data)).decode().upper()


def _unhex(text):
    return unhexlify(text)


def _check(ok, what):
    if not ok:
        raise AssertionError(what)


def pack_fields(ftype, f):
    """A vector's fields packed by the firmware's own functions."""
    if ftype == P.HELLO:
        return P.pack_hello(f["version"])
    if ftype == P.GET_STATE:
        return b""
    if ftype == P.SET_LED:
        return P.pack_set_led(f["led"], f["r"], f["g"], f["b"])
    if ftype == P.BUZZ:
        return P.pack_buzz(f["freq_hz"], f["ms"])
    if ftype == P.PING:
        return P.pack_ping(_unhex(f["token"]))
    if ftype == P.HELLO_REPLY:
        fw = tuple(f["firmware"])
        return P.pack_hello_reply(
            f["protocol"], fw, f["boot_id"], f["readers"], f["buttons"], f["slots"]
        )
    if ftype == P.ACK:
        return P.pack_ack(f["seq"], f["status"])
    if ftype in (P.TAG_PRESENT, P.TAG_REMOVED):
        return P.pack_tag(f["reader"], _unhex(f["uid"]))
    if ftype == P.BUTTON:
        return P.pack_button(f["button"], f["pressed"])
    if ftype == P.DICE:
        return P.pack_dice(f["slot"], f["face"])
    if ftype == P.READER_STATUS:
        return P.pack_reader_status(f["reader"], f["ok"])
    if ftype == P.HEARTBEAT:
        return P.pack_heartbeat(f["boot_id"], f["uptime_ms"], f["rx_bad"], f["tx_dropped"])
    if ftype == P.STATE:
        return P.pack_state(f["req_seq"], snapshot_records(f), W.MAX_BODY)[f["part"]]
    raise AssertionError("no packer for type " + str(ftype))


def snapshot_records(f):
    tags = {}
    for reader in f["tags"]:
        tags[int(reader)] = _unhex(f["tags"][reader])
    dice = {}
    for slot in f["dice"]:
        dice[int(slot)] = f["dice"][slot]
    return P.state_records(tags, f["buttons"], f["pressed"], dice)


def check_crc_and_cobs(vectors):
    n = 0
    for v in vectors["crc16_ccitt_false"]:
        _check(W.crc16(_unhex(v["data"])) == int(v["crc"], 16), "crc of " + v["data"])
        n += 1
    for v in vectors["cobs"]:
        decoded, encoded = _unhex(v["decoded"]), _unhex(v["encoded"])
        _check(W.cobs_encode(decoded) == encoded, "cobs encode " + v["decoded"])
        _check(W.cobs_decode(encoded) == decoded, "cobs decode " + v["encoded"])
        n += 2
    return n


def check_frames(vectors):
    n = 0
    two_parts = vectors["state_two_parts"]
    for v in vectors["frames"]:
        ftype, seq, body, wire = v["type"], v["seq"], _unhex(v["body"]), _unhex(v["wire"])
        fields = v["fields"]
        if ftype == P.STATE and "tags" not in fields:
            fields = dict(two_parts, **fields)
        _check(pack_fields(ftype, fields) == body, "pack " + v["name"])
        _check(W.encode_frame(ftype, seq, body) == wire, "encode " + v["name"])
        _check(W.decode_frame(wire[:-1]) == (ftype, seq, body), "decode " + v["name"])
        n += 3
    for v in vectors["bad_frames"]:
        reader = W.FrameReader()
        _check(reader.feed(_unhex(v["wire"])) == [], "accepted bad frame: " + v["name"])
        _check(reader.errors == {v["error"]: 1}, "error reason of " + v["name"])
        n += 2
    return n


def check_conversation(vectors):
    conv = vectors["device_conversation"]
    d = conv["device"]
    executed = []

    def on_command(ftype, args):
        executed.append([P.NAMES[ftype], list(args)])
        return P.ACK_OK

    dev = Device(
        d["boot_id"], d["readers"], d["buttons"], d["slots"], tuple(d["firmware"]), on_command
    )
    n = 0
    for step in conv["steps"]:
        note = step["note"]
        if note.startswith("boot"):
            dev.announce()
        elif note.startswith("a tag is placed"):
            dev.tag_present(2, _unhex("04A1B2C3D4E5F6"))
        elif note.startswith("heartbeat"):
            dev.tick(1000)
        for frame in step["host"]:
            dev.feed(_unhex(frame))
        got = [_hex(frame) for frame in dev.take()]
        _check(got == step["device"], "device answer to: " + note)
        n += 1
    _check(executed == conv["executed"], "commands executed exactly once")
    return n + 1


def run(path="vectors.json"):
    with open(path) as handle:
        vectors = json.load(handle)
    return check_crc_and_cobs(vectors) + check_frames(vectors) + check_conversation(vectors)
