"""Framing of the bridge protocol: COBS frames ended by 0x00, checked by CRC-16/CCITT-FALSE.

A decoded frame is ``type (1) | seq (1) | body (0..60) | crc (2, big-endian)``, at most 64 bytes;
the CRC covers type, seq and body. On the wire the decoded frame is COBS-encoded (so it holds no
0x00) and followed by one 0x00 delimiter. See docs/bridge-protocol.md.

This module runs unchanged on the reader microcontroller (MicroPython) and on the Pi (CPython),
so it uses only builtins: no typing or dataclasses, and only plain f-strings.
"""

MAX_DECODED = 64
HEADER = 2  # type, seq
TRAILER = 2  # crc
MAX_BODY = MAX_DECODED - HEADER - TRAILER
# COBS adds one code byte per started block of 254 bytes: 64 bytes need exactly one.
MAX_ENCODED = MAX_DECODED + 1


class FrameError(ValueError):
    """A frame that cannot be accepted; ``reason`` is one of cobs, short, long, crc."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _crc_table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc16(data, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, not reflected, no final xor."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data) -> bytes:
    """Consistent-overhead byte stuffing (canonical form): the result holds no 0x00 byte."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    last = len(data) - 1
    for i in range(len(data)):
        byte = data[i]
        if byte:
            out.append(byte)
            code += 1
            if code != 0xFF:
                continue
            if i == last:  # a full block that ends the data needs no block after it
                break
        out[code_at] = code
        code_at = len(out)
        out.append(0)
        code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data) -> bytes:
    """Undo :func:`cobs_encode`; raise FrameError('cobs') on a malformed block."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            raise FrameError("cobs")
        block = data[i + 1 : end]
        if b"\x00" in block:
            raise FrameError("cobs")
        out.extend(block)
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(ftype: int, seq: int, body=b"") -> bytes:
    """One frame as it goes on the wire, delimiter included."""
    if len(body) > MAX_BODY:
        raise ValueError(f"frame body longer than {MAX_BODY} bytes")
    raw = bytes((ftype & 0xFF, seq & 0xFF)) + bytes(body)
    crc = crc16(raw)
    return cobs_encode(raw + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def decode_frame(encoded) -> tuple:
    """Check one COBS block (delimiter removed) and return ``(type, seq, body)``."""
    if len(encoded) > MAX_ENCODED:
        raise FrameError("long")
    raw = cobs_decode(encoded)
    if len(raw) < HEADER + TRAILER:
        raise FrameError("short")
    if len(raw) > MAX_DECODED:
        raise FrameError("long")
    if crc16(raw[:-2]) != (raw[-2] << 8) | raw[-1]:
        raise FrameError("crc")
    return raw[0], raw[1], bytes(raw[2:-2])


class FrameReader:
    """Splits a byte stream at 0x00 into checked frames, never holding more than one frame.

    Bad frames are counted (``bad`` and ``errors[reason]``) and skipped; the next delimiter
    resynchronises the stream, so one bad frame never costs the valid frame after it. An empty
    frame (two delimiters in a row) is idle filler, not an error.
    """

    def __init__(self):
        self._buf = bytearray()
        self._overflow = False
        self.good = 0
        self.bad = 0
        self.errors = {}

    def feed(self, data) -> list:
        """Return the ``(type, seq, body)`` of every frame completed by ``data``."""
        frames = []
        data = bytes(data)
        start = 0
        while True:
            end = data.find(b"\x00", start)
            if end < 0:
                self._collect(data[start:])
                return frames
            self._collect(data[start:end])
            self._finish(frames)
            start = end + 1

    def _collect(self, chunk):
        if self._overflow or not chunk:
            return
        if len(self._buf) + len(chunk) > MAX_ENCODED:
            self._overflow = True
            self._buf = bytearray()
        else:
            self._buf.extend(chunk)

    def _finish(self, frames):
        if self._overflow:
            self._count("long")
        elif self._buf:
            try:
                frames.append(decode_frame(self._buf))
                self.good += 1
            except FrameError as err:
                self._count(err.reason)
        self._buf = bytearray()
        self._overflow = False

    def _count(self, reason):
        self.bad += 1
        self.errors[reason] = self.errors.get(reason, 0) + 1
