"""Message types and body layouts of the bridge protocol (version 1); see docs/bridge-protocol.md.

Shared by the firmware (MicroPython) and the host (CPython): pure functions over bytes, no I/O.
Integers are big-endian. Every ``unpack_*`` raises ``BodyError`` on a body of the wrong shape, so
a frame that passed its CRC but carries nonsense is refused rather than half-understood.
"""

import struct

PROTOCOL_VERSION = 1

# Host -> device.
HELLO = 0x01
GET_STATE = 0x02
SET_LED = 0x03
BUZZ = 0x04
PING = 0x05
MAINTENANCE = 0x06  # empty body: acknowledge, then reboot into maintenance mode (REPL free, no watchdog)
COMMANDS = (SET_LED, BUZZ, PING, MAINTENANCE)  # acknowledged, retried by the host, executed once

# Device -> host.
ACK = 0x80
HELLO_REPLY = 0x81
STATE = 0x82
TAG_PRESENT = 0x90
TAG_REMOVED = 0x91
BUTTON = 0x92
DICE = 0x93
READER_STATUS = 0x94
HEARTBEAT = 0xA0

NAMES = {
    HELLO: "HELLO",
    GET_STATE: "GET_STATE",
    SET_LED: "SET_LED",
    BUZZ: "BUZZ",
    PING: "PING",
    MAINTENANCE: "MAINTENANCE",
    ACK: "ACK",
    HELLO_REPLY: "HELLO_REPLY",
    STATE: "STATE",
    TAG_PRESENT: "TAG_PRESENT",
    TAG_REMOVED: "TAG_REMOVED",
    BUTTON: "BUTTON",
    DICE: "DICE",
    READER_STATUS: "READER_STATUS",
    HEARTBEAT: "HEARTBEAT",
}

# ACK status.
ACK_OK = 0
ACK_UNKNOWN = 1  # the device does not know this command type
ACK_BAD_BODY = 2  # the body has the wrong shape or an index out of range

UID_LENGTHS = (4, 7, 10)  # ISO 14443-A single, double and triple size UIDs
PING_MAX = 8

# STATE parts: header req_seq, part, flags; then records.
STATE_LAST = 0x01
STATE_HEADER = 3
REC_TAG = 0x01  # reader, uid length, uid
REC_BUTTONS = 0x02  # count, bitmap (bit i of byte i // 8 = button i pressed)
REC_DICE = 0x03  # slot, face


class BodyError(ValueError):
    """A body that does not match its message type."""


def _need(body, size):
    if len(body) != size:
        raise BodyError(f"body of {len(body)} bytes, expected {size}")


def _byte(name, value):
    if not 0 <= value <= 0xFF:
        raise ValueError(f"{name} {value} is out of range 0..255")
    return value


def pack_hello(version: int = PROTOCOL_VERSION) -> bytes:
    return bytes((_byte("version", version),))


def unpack_hello(body) -> int:
    if len(body) < 1:
        raise BodyError("HELLO needs a version byte")
    return body[0]  # later versions may append fields


def pack_hello_reply(protocol, firmware, boot_id, readers, buttons, slots) -> bytes:
    """``firmware`` is a (major, minor, patch) triple; ``boot_id`` a random 32-bit number."""
    return struct.pack(
        ">BBBBIBBB", protocol, firmware[0], firmware[1], firmware[2], boot_id, readers, buttons, slots
    )


def unpack_hello_reply(body) -> tuple:
    """Return (protocol, (major, minor, patch), boot_id, readers, buttons, slots)."""
    if len(body) < 11:
        raise BodyError("HELLO_REPLY needs 11 bytes")
    p, a, b, c, boot, readers, buttons, slots = struct.unpack(">BBBBIBBB", bytes(body[:11]))
    return p, (a, b, c), boot, readers, buttons, slots


def pack_set_led(led, r, g, b) -> bytes:
    return bytes((_byte("led", led), _byte("red", r), _byte("green", g), _byte("blue", b)))


def unpack_set_led(body) -> tuple:
    _need(body, 4)
    return body[0], body[1], body[2], body[3]


def pack_buzz(freq_hz, ms) -> bytes:
    if not (0 <= freq_hz <= 0xFFFF and 0 <= ms <= 0xFFFF):
        raise ValueError("buzz frequency and duration must fit 16 bits")
    return struct.pack(">HH", freq_hz, ms)


def unpack_buzz(body) -> tuple:
    _need(body, 4)
    return struct.unpack(">HH", bytes(body))


def pack_ping(token=b"") -> bytes:
    if len(token) > PING_MAX:
        raise ValueError(f"ping token longer than {PING_MAX} bytes")
    return bytes(token)


def pack_ack(seq, status=ACK_OK) -> bytes:
    return bytes((_byte("seq", seq), _byte("status", status)))


def unpack_ack(body) -> tuple:
    _need(body, 2)
    return body[0], body[1]


def check_uid(uid):
    if len(uid) not in UID_LENGTHS:
        raise BodyError(f"a UID has 4, 7 or 10 bytes, not {len(uid)}")


def pack_tag(reader, uid) -> bytes:
    check_uid(uid)
    return bytes((_byte("reader", reader),)) + bytes(uid)


def unpack_tag(body) -> tuple:
    """Return (reader, uid bytes) of TAG_PRESENT / TAG_REMOVED."""
    if len(body) < 1:
        raise BodyError("tag event without reader")
    uid = bytes(body[1:])
    check_uid(uid)
    return body[0], uid


def pack_button(button, pressed) -> bytes:
    return bytes((_byte("button", button), 1 if pressed else 0))


def unpack_button(body) -> tuple:
    _need(body, 2)
    if body[1] > 1:
        raise BodyError("button state is 0 or 1")
    return body[0], body[1] == 1


def pack_dice(slot, face) -> bytes:
    """``face`` 0 means the slot is empty again."""
    return bytes((_byte("slot", slot), _byte("face", face)))


def unpack_dice(body) -> tuple:
    _need(body, 2)
    return body[0], body[1]


def pack_reader_status(reader, ok) -> bytes:
    """A reader stopped answering (``ok`` False: absent at boot, an SPI error) or answers again."""
    return bytes((_byte("reader", reader), 1 if ok else 0))


def unpack_reader_status(body) -> tuple:
    _need(body, 2)
    if body[1] > 1:
        raise BodyError("reader status must be 0 or 1")
    return body[0], body[1] == 1


def pack_heartbeat(boot_id, uptime_ms, rx_bad, tx_dropped) -> bytes:
    """Counters are totals since boot, modulo 2**32."""
    m = 0xFFFFFFFF
    return struct.pack(">IIII", boot_id & m, uptime_ms & m, rx_bad & m, tx_dropped & m)


def unpack_heartbeat(body) -> tuple:
    """Return (boot_id, uptime_ms, rx_bad, tx_dropped)."""
    _need(body, 16)
    return struct.unpack(">IIII", bytes(body))


def state_records(tags, buttons, pressed, dice) -> list:
    """The records of a snapshot, in a fixed order (readers, then buttons, then slots)."""
    records = []
    for reader in sorted(tags):
        uid = tags[reader]
        check_uid(uid)
        records.append(bytes((REC_TAG, reader, len(uid))) + bytes(uid))
    bitmap = bytearray((buttons + 7) // 8)
    for button in pressed:
        bitmap[button // 8] |= 1 << (button % 8)
    records.append(bytes((REC_BUTTONS, buttons)) + bytes(bitmap))
    for slot in sorted(dice):
        if dice[slot]:
            records.append(bytes((REC_DICE, slot, dice[slot])))
    return records


def pack_state(req_seq, records, max_body) -> list:
    """Split records into STATE bodies of at most ``max_body`` bytes; the last one is flagged."""
    room = max_body - STATE_HEADER
    parts = []
    current = b""
    for rec in records:
        if len(rec) > room:
            raise ValueError("state record too long for one frame")
        if len(current) + len(rec) > room:
            parts.append(current)
            current = b""
        current += rec
    parts.append(current)
    last = len(parts) - 1
    return [
        bytes((req_seq, i, STATE_LAST if i == last else 0)) + part for i, part in enumerate(parts)
    ]


def unpack_state(body) -> tuple:
    """Return (req_seq, part, last, records) with records as tuples:
    ('tag', reader, uid), ('buttons', count, pressed list), ('dice', slot, face)."""
    if len(body) < STATE_HEADER:
        raise BodyError("STATE part without header")
    req, part, flags = body[0], body[1], body[2]
    records = []
    i = STATE_HEADER
    n = len(body)
    while i < n:
        kind = body[i]
        if kind == REC_TAG and i + 3 <= n:
            end = i + 3 + body[i + 2]
            uid = bytes(body[i + 3 : end])
            if end > n:
                raise BodyError("STATE tag record cut short")
            check_uid(uid)
            records.append(("tag", body[i + 1], uid))
        elif kind == REC_BUTTONS and i + 2 <= n:
            count = body[i + 1]
            end = i + 2 + (count + 7) // 8
            if end > n:
                raise BodyError("STATE button record cut short")
            pressed = [b for b in range(count) if body[i + 2 + b // 8] & (1 << (b % 8))]
            records.append(("buttons", count, pressed))
        elif kind == REC_DICE and i + 3 <= n:
            end = i + 3
            records.append(("dice", body[i + 1], body[i + 2]))
        else:
            raise BodyError("unknown or cut STATE record")
        i = end
    return req, part, bool(flags & STATE_LAST), records
