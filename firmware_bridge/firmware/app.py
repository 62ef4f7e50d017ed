"""The firmware's main loop without hardware (pure, MicroPython-compatible).

``Firmware.step(board)`` is one turn: read the host's bytes, poll the next reader, sample the
buttons, send a heartbeat when due, write the answers, feed the watchdog. ``board`` is anything
with the methods of board.Board - the real one on the Pico, a fake one in tests - so the whole
loop, down to the bytes on USB, is tested under CPython.

Readers are polled one at a time, round robin, with only the polled reader's antenna on: the
fields of neighbouring readers would otherwise disturb each other's tags.

The boot scan is silent: what the readers, buttons and dice slots show on the first pass after a
boot becomes the device's state without events, because the host resyncs (GET_STATE) whenever
it sees a new boot id.
"""

from .debounce import Debouncer
from .device import Device
from .presence import Presence


class Firmware:
    def __init__(
        self,
        board,
        readers: int,
        buttons: int,
        dice_slots=None,
        dice_faces=None,
        firmware=(1, 0, 0),
        misses: int = 3,
        stable_ms: int = 20,
    ):
        """``dice_slots`` maps reader index -> dice slot; ``dice_faces`` maps a die tag's UID
        bytes -> the face it reports. A slot reader that sees a UID it has no face for reports
        it as an ordinary tag, so the Pi's tag registry can still enrol it."""
        self.dice_slots = dice_slots or {}
        self.dice_faces = dice_faces or {}
        self.device = Device(
            board.boot_id(),
            readers,
            buttons,
            len(self.dice_slots),
            firmware,
            on_command=board.command,
            now_ms=board.now_ms(),
        )
        self.presence = [Presence(misses) for _ in range(readers)]
        self.debouncers = [Debouncer(stable_ms) for _ in range(buttons)]
        self._unscanned = set(range(readers))
        self._buttons_known = False
        self._next = 0
        self.device.announce()

    def step(self, board):
        now = board.now_ms()
        data = board.read_host()
        if data:
            self.device.feed(data)
        index = self._next
        self._next = (index + 1) % len(self.presence)
        self.reader_polled(index, board.poll_reader(index))
        present = getattr(board, "present", None)
        if present is not None:
            self.device.reader_status(index, bool(present[index]))
        self.buttons_sampled(board.button_levels(), now)
        self.device.tick(now)
        for frame in self.device.take():
            if board.write_host(frame) is False:  # no room: the host is not reading
                self.device.tx_dropped += 1
        board.service(now)
        board.feed_watchdog()

    def reader_polled(self, index, uid):
        changes = self.presence[index].update(uid)
        slot = self.dice_slots.get(index)
        if index in self._unscanned:
            self._unscanned.discard(index)
            if uid is not None and slot is not None and uid in self.dice_faces:
                self.device.dice[slot] = self.dice_faces[uid]
            elif uid is not None:
                self.device.tags[index] = uid
            return
        for present, tag in changes:
            if slot is not None and tag in self.dice_faces:
                self.device.dice_face(slot, self.dice_faces[tag] if present else 0)
            elif present:
                self.device.tag_present(index, tag)
            else:
                self.device.tag_removed(index, tag)

    def buttons_sampled(self, levels, now_ms):
        if not self._buttons_known:
            self._buttons_known = True
            for i, level in enumerate(levels):
                self.debouncers[i].pressed = bool(level)
                if level:
                    self.device.pressed.add(i)
            return
        for i, level in enumerate(levels):
            changed = self.debouncers[i].update(bool(level), now_ms)
            if changed is not None:
                self.device.button(i, changed)
