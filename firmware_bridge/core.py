"""The host end of the bridge protocol without I/O or threads: bytes and a clock in, bytes and
events out. ``HostLink`` (host.py) drives it from a serial port; tests drive it directly with a
fake clock, which is how 100,000 fuzzed frames run in seconds.

What it keeps: the device's HELLO information, the view of which tag sits on which reader, which
buttons are held and which face each dice slot shows, the commands in flight, and counters.
When that view may be wrong - a gap in the device's sequence numbers, a new boot id, a fresh
connection - it asks GET_STATE and, once the snapshot is complete, reports every difference as a
synthetic event (``resync=True``) so listeners end up consistent with the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from .events import BridgeEvent, ButtonEvent, DiceEvent, LinkEvent, TagEvent
from .firmware import config, proto, wire

#: MicroPython's Ctrl-C, which a booting board takes as an interrupt until its main.py turns it off
INTERRUPT_CHAR = 3


def firmware_mismatch(firmware: tuple[int, int, int], shipped: tuple[int, int, int] = config.FIRMWARE) -> str | None:
    """One sentence when the Pico's firmware is not the one this checkout ships, else None
    (said on the OLED, in the log and by ``companion doctor``)."""
    if tuple(firmware) == tuple(shipped):
        return None
    found, want = ".".join(map(str, firmware)), ".".join(map(str, shipped))
    return f"bridge firmware {found}, this companion ships {want}: run companion firmware install"


@dataclass
class LinkCounters:
    """Totals since the HostLink was made (they survive reconnects)."""

    frames_ok: int = 0
    bad_frames: int = 0  # failed COBS, length or CRC checks; dropped
    bad_bodies: int = 0  # passed the CRC but the body did not fit its type; dropped
    unknown_types: int = 0
    gaps: int = 0  # sequence gaps seen (each one triggers a resync)
    frames_lost: int = 0  # device frames missing from those gaps
    resyncs: int = 0  # completed GET_STATE snapshots
    reboots: int = 0  # new boot ids seen on a live link
    connects: int = 0  # completed handshakes
    disconnects: int = 0
    retries: int = 0  # command retransmissions
    commands_ok: int = 0
    commands_failed: int = 0  # no ACK after all retries, or refused by the device
    stray_acks: int = 0  # ACKs for no command in flight (late duplicates)
    events_overflowed: int = 0  # events dropped because the listener fell behind
    device_rx_bad: int = 0  # from the last heartbeat: frames the device refused
    device_tx_dropped: int = 0  # from the last heartbeat: frames the device could not queue

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class DeviceInfo:
    """What HELLO_REPLY says about the firmware."""

    protocol: int
    firmware: tuple[int, int, int]
    boot_id: int
    readers: int
    buttons: int
    slots: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol,
            "firmware": ".".join(str(n) for n in self.firmware),
            "boot_id": f"{self.boot_id:08X}",
            "readers": self.readers,
            "buttons": self.buttons,
            "slots": self.slots,
            "firmware_mismatch": firmware_mismatch(self.firmware),
        }


@dataclass
class TableView:
    """What the host believes sits on the table."""

    tags: dict[int, str] = field(default_factory=dict)
    pressed: set[int] = field(default_factory=set)
    dice: dict[int, int] = field(default_factory=dict)


@dataclass
class _Command:
    frame: bytes
    deadline: float
    attempts: int = 1
    result: bool | None = None


@dataclass
class _Sync:
    seq: int
    reason: str
    deadline: float
    attempts: int = 1
    records: list[tuple[Any, ...]] = field(default_factory=list)
    next_part: int = 0


class LinkCore:
    """Protocol logic of one host; call ``connect`` after each (re)open of the port."""

    def __init__(
        self,
        *,
        ack_timeout: float = 0.25,
        retries: int = 3,
        hello_timeout: float = 0.5,
        hello_attempts: int = 4,
        state_timeout: float = 0.75,
        state_attempts: int = 4,
        silence: float = 3.0,
    ) -> None:
        self.ack_timeout = ack_timeout
        self.retries = retries
        self.hello_timeout = hello_timeout
        self.hello_attempts = hello_attempts
        self.state_timeout = state_timeout
        self.state_attempts = state_attempts
        self.silence = silence
        self.counters = LinkCounters()
        self.view = TableView()
        self.info: DeviceInfo | None = None
        self.phase = "closed"  # closed -> hello -> syncing -> up
        self._frames = wire.FrameReader()
        self._out = bytearray()
        self._events: list[BridgeEvent] = []
        self._tx_seq = 0
        self._expect: int | None = None
        self._last_rx = 0.0
        self._hello_deadline = 0.0
        self._hello_tries = 0
        self._sync: _Sync | None = None
        self._commands: dict[int, _Command] = {}
        self._failed: str | None = None
        #: readers the device says do not answer (READER_STATUS); after a snapshot the device
        #: repeats the absent ones, and those it does not repeat before its next heartbeat are back
        self.absent_readers: set[int] = set()
        self._unconfirmed: set[int] | None = None

    # ---- driving ------------------------------------------------------------------------------
    def connect(self, now: float) -> None:
        """A fresh port: forget per-connection state (not the view) and say HELLO."""
        self._frames = wire.FrameReader()
        self._expect = None
        self._sync = None
        self._fail_commands()
        self._failed = None
        self._last_rx = now
        self.phase = "hello"
        self._out += b"\x00"  # ends whatever half frame the device may hold
        self._hello_tries = 0
        self._say_hello(now)

    def disconnect(self) -> None:
        if self.phase == "up" or self.phase == "syncing":
            self.counters.disconnects += 1
        self.phase = "closed"
        self._sync = None
        self._fail_commands()

    def feed(self, data: bytes, now: float) -> None:
        before = self._frames.bad
        for ftype, seq, body in self._frames.feed(data):
            self._last_rx = now
            self.counters.frames_ok += 1
            try:
                self._handle(ftype, seq, body, now)
            except proto.BodyError:
                self.counters.bad_bodies += 1
        self.counters.bad_frames += self._frames.bad - before

    def poll(self, now: float) -> str | None:
        """Run the timers; return why the link must be dropped, or None."""
        if self._failed:
            return self._failed
        if self.phase == "closed":
            return None
        if now - self._last_rx > self.silence:
            return "silence"
        if self.phase == "hello" and now >= self._hello_deadline:
            if self._hello_tries >= self.hello_attempts:
                return "no hello"
            self._say_hello(now)
        sync = self._sync
        if sync is not None and now >= sync.deadline:
            if sync.attempts >= self.state_attempts:
                return "no state"
            self._request_state(sync.reason, now, attempts=sync.attempts + 1)
        for seq, cmd in list(self._commands.items()):
            if cmd.result is None and now >= cmd.deadline:
                if cmd.attempts > self.retries:
                    self._finish(seq, False)
                else:
                    cmd.attempts += 1
                    cmd.deadline = now + self.ack_timeout
                    self.counters.retries += 1
                    self._out += cmd.frame
        return None

    def send_command(self, ftype: int, body: bytes, now: float) -> int | None:
        """Queue a SET_LED / BUZZ / PING; return its sequence number, or None if not up."""
        if ftype not in proto.COMMANDS:
            raise ValueError(f"0x{ftype:02X} is not a command")
        if self.phase not in ("up", "syncing"):
            return None
        seq = self._next_seq()
        frame = wire.encode_frame(ftype, seq, body)
        self._commands[seq] = _Command(frame, now + self.ack_timeout)
        self._out += frame
        return seq

    def command_done(self, seq: int) -> bool:
        cmd = self._commands.get(seq)
        return cmd is None or cmd.result is not None

    def command_result(self, seq: int) -> bool:
        """Pop a command's outcome: True when acknowledged as done; False when it failed, was
        refused, is unknown or is still in flight (then it is abandoned)."""
        cmd = self._commands.pop(seq, None)
        if cmd is not None and cmd.result is None:
            self.counters.commands_failed += 1
        return bool(cmd and cmd.result)

    def take_output(self) -> bytes:
        out = bytes(self._out)
        self._out.clear()
        return out

    def take_events(self) -> list[BridgeEvent]:
        events = self._events
        self._events = []
        return events

    def resync(self, reason: str, now: float) -> None:
        """Ask for a snapshot (e.g. after the listener lost events)."""
        if self.phase in ("up", "syncing") and self._sync is None:
            self._request_state(reason, now)

    # ---- internals ------------------------------------------------------------------------------
    def _next_seq(self) -> int:
        seq = self._tx_seq
        self._tx_seq = (seq + 1) & 0xFF
        return seq

    def _emit(self, event: BridgeEvent) -> None:
        self._events.append(event)

    def _say_hello(self, now: float) -> None:
        """HELLO goes out while the board may still be booting, when MicroPython still takes a
        0x03 byte for Ctrl-C: a sequence number whose frame carries none is chosen (about 3
        numbers in 256 are skipped; the device only remembers numbers since the last HELLO)."""
        self._hello_tries += 1
        self._hello_deadline = now + self.hello_timeout
        frame = wire.encode_frame(proto.HELLO, self._next_seq(), proto.pack_hello())
        while INTERRUPT_CHAR in frame:
            frame = wire.encode_frame(proto.HELLO, self._next_seq(), proto.pack_hello())
        self._out += frame

    def _request_state(self, reason: str, now: float, attempts: int = 1) -> None:
        seq = self._next_seq()
        self._sync = _Sync(seq, reason, now + self.state_timeout, attempts)
        if self.phase == "hello":
            self.phase = "syncing"
        self._out += wire.encode_frame(proto.GET_STATE, seq, b"")

    def _fail_commands(self) -> None:
        for seq, cmd in self._commands.items():
            if cmd.result is None:
                self._finish(seq, False)

    def _finish(self, seq: int, ok: bool) -> None:
        self._commands[seq].result = ok
        if ok:
            self.counters.commands_ok += 1
        else:
            self.counters.commands_failed += 1

    def _track_seq(self, seq: int, now: float) -> None:
        if self._expect is not None and seq != self._expect:
            self.counters.gaps += 1
            self.counters.frames_lost += (seq - self._expect) & 0xFF
            self.resync("gap", now)
        self._expect = (seq + 1) & 0xFF

    def _new_boot(self, boot_id: int, seq: int, now: float) -> bool:
        """True when ``boot_id`` differs from the one we knew: the device restarted."""
        if self.info is None or self.info.boot_id == boot_id:
            return False
        self.counters.reboots += 1
        self._expect = (seq + 1) & 0xFF
        return True

    def _handle(self, ftype: int, seq: int, body: bytes, now: float) -> None:
        if ftype == proto.HELLO_REPLY:
            self._on_hello(seq, body, now)
            return
        if ftype == proto.HEARTBEAT:
            boot, _uptime, rx_bad, tx_dropped = proto.unpack_heartbeat(body)
            self.counters.device_rx_bad = rx_bad
            self.counters.device_tx_dropped = tx_dropped
            if self._new_boot(boot, seq, now):
                self.info = replace(self.info, boot_id=boot) if self.info else None
                self._sync = None
                self.resync("reboot", now)
                return
        self._track_seq(seq, now)
        if ftype in (proto.TAG_PRESENT, proto.TAG_REMOVED):
            reader, uid = proto.unpack_tag(body)
            self._tag(reader, uid.hex().upper(), ftype == proto.TAG_PRESENT, seq, now)
        elif ftype == proto.BUTTON:
            button, pressed = proto.unpack_button(body)
            (self.view.pressed.add if pressed else self.view.pressed.discard)(button)
            self._emit(ButtonEvent(button, pressed, seq, now))
        elif ftype == proto.DICE:
            slot, face = proto.unpack_dice(body)
            self._dice(slot, face)
            self._emit(DiceEvent(slot, face, seq, now))
        elif ftype == proto.ACK:
            acked, status = proto.unpack_ack(body)
            cmd = self._commands.get(acked)
            if cmd is None or cmd.result is not None:
                self.counters.stray_acks += 1
            else:
                self._finish(acked, status == proto.ACK_OK)
        elif ftype == proto.STATE:
            self._on_state(body, now)
        elif ftype == proto.READER_STATUS:
            reader, ok = proto.unpack_reader_status(body)
            if self._unconfirmed is not None and not ok:
                self._unconfirmed.discard(reader)  # still out, as we knew
            if ok != (reader not in self.absent_readers):
                (self.absent_readers.discard if ok else self.absent_readers.add)(reader)
                self._emit(LinkEvent("reader", {"reader": reader, "ok": ok}, now))
        elif ftype == proto.HEARTBEAT and self._unconfirmed is not None:
            for reader in sorted(self._unconfirmed):  # not repeated after the snapshot: back
                self.absent_readers.discard(reader)
                self._emit(LinkEvent("reader", {"reader": reader, "ok": True}, now))
            self._unconfirmed = None
        elif ftype != proto.HEARTBEAT:
            self.counters.unknown_types += 1

    def _on_hello(self, seq: int, body: bytes, now: float) -> None:
        version, firmware, boot, readers, buttons, slots = proto.unpack_hello_reply(body)
        info = DeviceInfo(version, firmware, boot, readers, buttons, slots)
        rebooted = self._new_boot(boot, seq, now)
        if not rebooted:
            self._track_seq(seq, now)
        if version != proto.PROTOCOL_VERSION:
            detail = {**info.as_dict(), "expected": proto.PROTOCOL_VERSION}
            self._emit(LinkEvent("incompatible", detail, now))
            self._failed = "incompatible"
            return
        self.info = info
        if self.phase == "hello" or rebooted:
            self._emit(LinkEvent("hello", info.as_dict(), now))
            self._sync = None
            if self.phase == "hello":
                self.counters.connects += 1
            self._request_state("connect" if self.phase == "hello" else "reboot", now)

    def _on_state(self, body: bytes, now: float) -> None:
        req, part, last, records = proto.unpack_state(body)
        sync = self._sync
        if sync is None or req != sync.seq:
            return  # an answer to a request we have given up on
        if part != sync.next_part:
            self._request_state(sync.reason, now, sync.attempts + 1)
            return
        sync.records.extend(records)
        sync.next_part += 1
        if last:
            self._apply_snapshot(sync, now)

    def _apply_snapshot(self, sync: _Sync, now: float) -> None:
        self._sync = None
        old = self.view
        new = TableView()
        for rec in sync.records:
            if rec[0] == "tag":
                new.tags[rec[1]] = rec[2].hex().upper()
            elif rec[0] == "buttons":
                new.pressed = set(rec[2])
            else:
                new.dice[rec[1]] = rec[2]
        for reader in sorted(set(old.tags) | set(new.tags)):
            before, after = old.tags.get(reader), new.tags.get(reader)
            if before != after and before is not None:
                self._emit(TagEvent(reader, before, False, None, now, True))
            if before != after and after is not None:
                self._emit(TagEvent(reader, after, True, None, now, True))
        for button in sorted(old.pressed ^ new.pressed):
            self._emit(ButtonEvent(button, button in new.pressed, None, now, True))
        for slot in sorted(set(old.dice) | set(new.dice)):
            if old.dice.get(slot) != new.dice.get(slot):
                self._emit(DiceEvent(slot, new.dice.get(slot, 0), None, now, True))
        self.view = new
        self.phase = "up"
        self._unconfirmed = set(self.absent_readers)  # the device repeats those still out
        self.counters.resyncs += 1
        tags = {str(r): u for r, u in sorted(new.tags.items())}
        self._emit(LinkEvent("resync", {"reason": sync.reason, "tags": tags}, now))

    def _tag(self, reader: int, uid: str, present: bool, seq: int, now: float) -> None:
        if present:
            self.view.tags[reader] = uid
        elif self.view.tags.get(reader) == uid:
            del self.view.tags[reader]
        self._emit(TagEvent(reader, uid, present, seq, now))

    def _dice(self, slot: int, face: int) -> None:
        if face:
            self.view.dice[slot] = face
        else:
            self.view.dice.pop(slot, None)
