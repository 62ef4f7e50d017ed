"""The device end of the bridge protocol, without hardware: bytes in, frames out.

``main.py`` feeds it the bytes read from USB and the events its readers and buttons produce, and
writes out what it returns; the host-side simulator wraps the very same class around a
pseudo-terminal, so the host is always tested against the firmware's real protocol logic.

Guarantees (docs/bridge-protocol.md):
- every frame sent takes the next sequence number, even one dropped because the send queue is
  full, so the host sees the gap and resynchronises with GET_STATE;
- a command whose sequence number was already executed since the last HELLO is acknowledged
  again but not executed again (the host retries when an ACK is lost);
- a heartbeat every ``heartbeat_ms`` carries the boot id and the bad/dropped counters.
"""

from . import proto, wire

DEDUP_DEPTH = 16  # remembered host sequence numbers; the host has at most one command in flight


class Device:
    def __init__(
        self,
        boot_id: int,
        readers: int,
        buttons: int,
        slots: int,
        firmware=(1, 0, 0),
        on_command=None,
        tx_limit: int = 32,
        heartbeat_ms: int = 1000,
        now_ms: int = 0,
    ):
        """``on_command(type, args) -> ACK status`` runs SET_LED (led, r, g, b), BUZZ
        (freq_hz, ms) and MAINTENANCE (); without it every command is acknowledged as done."""
        self.boot_id = boot_id & 0xFFFFFFFF
        self.readers = readers
        self.buttons = buttons
        self.slots = slots
        self.firmware = firmware
        self.on_command = on_command
        self.tx_limit = tx_limit
        self.heartbeat_ms = heartbeat_ms
        self.frames = wire.FrameReader()
        self.tags = {}  # reader -> uid bytes
        self.pressed = set()
        self.dice = {}  # slot -> face (1..255)
        self.absent = set()  # readers that do not answer
        self.tx_seq = 0
        self.tx_dropped = 0
        self._out = []
        self._done = {}  # host seq -> ACK status, since the last HELLO
        self._done_order = []
        self._boot_ms = now_ms
        self._next_beat = now_ms + heartbeat_ms

    # ---- state kept by the caller's sensors -------------------------------------------------
    def restore(self, tags=None, pressed=None, dice=None):
        """Set what the boot scan found, silently: the host resyncs on a new boot id anyway."""
        self.tags = dict(tags or {})
        self.pressed = set(pressed or ())
        self.dice = dict(dice or {})

    def tag_present(self, reader, uid):
        self.tags[reader] = bytes(uid)
        self._send(proto.TAG_PRESENT, proto.pack_tag(reader, uid))

    def tag_removed(self, reader, uid):
        if self.tags.get(reader) == bytes(uid):
            del self.tags[reader]
        self._send(proto.TAG_REMOVED, proto.pack_tag(reader, uid))

    def button(self, button, pressed):
        if pressed:
            self.pressed.add(button)
        else:
            self.pressed.discard(button)
        self._send(proto.BUTTON, proto.pack_button(button, pressed))

    def dice_face(self, slot, face):
        if face:
            self.dice[slot] = face
        else:
            self.dice.pop(slot, None)
        self._send(proto.DICE, proto.pack_dice(slot, face))

    def reader_status(self, reader, ok):
        """A reader stopped answering or answers again; said once per change."""
        if ok == (reader not in self.absent):
            return
        (self.absent.discard if ok else self.absent.add)(reader)
        self._send(proto.READER_STATUS, proto.pack_reader_status(reader, ok))

    # ---- protocol ----------------------------------------------------------------------------
    @property
    def rx_bad(self) -> int:
        return self.frames.bad

    def announce(self):
        """Sent once at boot, unasked, so the host learns of a reboot at once."""
        self._send(proto.HELLO_REPLY, self._hello_body())

    def feed(self, data):
        for ftype, seq, body in self.frames.feed(data):
            self._handle(ftype, seq, body)

    def tick(self, now_ms: int):
        if now_ms >= self._next_beat:
            self._next_beat = max(self._next_beat + self.heartbeat_ms, now_ms)
            body = proto.pack_heartbeat(
                self.boot_id, now_ms - self._boot_ms, self.rx_bad, self.tx_dropped
            )
            self._send(proto.HEARTBEAT, body)

    def take(self) -> list:
        """The encoded frames waiting to be written, oldest first."""
        out = self._out
        self._out = []
        return out

    def _hello_body(self):
        return proto.pack_hello_reply(
            proto.PROTOCOL_VERSION,
            self.firmware,
            self.boot_id,
            self.readers,
            self.buttons,
            self.slots,
        )

    def _send(self, ftype, body):
        seq = self.tx_seq
        self.tx_seq = (seq + 1) & 0xFF
        if len(self._out) >= self.tx_limit:
            self.tx_dropped += 1
        else:
            self._out.append(wire.encode_frame(ftype, seq, body))

    def _handle(self, ftype, seq, body):
        if ftype == proto.HELLO:
            self._done = {}
            self._done_order = []
            self._send(proto.HELLO_REPLY, self._hello_body())
        elif ftype == proto.GET_STATE:
            records = proto.state_records(self.tags, self.buttons, self.pressed, self.dice)
            for part in proto.pack_state(seq, records, wire.MAX_BODY):
                self._send(proto.STATE, part)
            for reader in sorted(self.absent):  # a host that resyncs learns which readers are out
                self._send(proto.READER_STATUS, proto.pack_reader_status(reader, False))
        elif seq in self._done:
            self._send(proto.ACK, proto.pack_ack(seq, self._done[seq]))
        else:
            status = self._execute(ftype, body)
            self._remember(seq, status)
            self._send(proto.ACK, proto.pack_ack(seq, status))

    def _execute(self, ftype, body):
        try:
            if ftype == proto.SET_LED:
                args = proto.unpack_set_led(body)
            elif ftype == proto.BUZZ:
                args = proto.unpack_buzz(body)
            elif ftype == proto.PING:
                return proto.ACK_OK if len(body) <= proto.PING_MAX else proto.ACK_BAD_BODY
            elif ftype == proto.MAINTENANCE:
                if body:
                    return proto.ACK_BAD_BODY
                args = ()
            else:
                return proto.ACK_UNKNOWN
        except proto.BodyError:
            return proto.ACK_BAD_BODY
        if self.on_command is None:
            return proto.ACK_OK
        return self.on_command(ftype, args)

    def _remember(self, seq, status):
        self._done[seq] = status
        self._done_order.append(seq)
        if len(self._done_order) > DEDUP_DEPTH:
            del self._done[self._done_order.pop(0)]
