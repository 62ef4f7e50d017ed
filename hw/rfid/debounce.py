"""Turning raw RFID reads into the *placed* / *removed* events players mean.

A reader polled ten times a second sees a resting tag as a stream of reads
with the odd miss (a hand passing over the antenna, a tag at the edge of the
field). Players mean two things only: "I put it down" and "I took it away".
The rules here:

* the same UID re-read within ``hold`` seconds is one event: the tag counts
  as present until ``hold`` has passed since its last read;
* a tag is removed only after ``misses`` consecutive polls without it *and*
  ``hold`` seconds since it was last read;
* a different UID on the same point removes the old tag at once and places
  the new one (a point holds one tag: a tile square, a die lane slot).

The clock is injected so tests can walk time forward by hand.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from hw.events import TagEvent

Clock = Callable[[], float]


@dataclass(frozen=True)
class DebounceSettings:
    hold: float = 0.6  # seconds a tag stays "present" after its last read
    misses: int = 3  # consecutive empty polls before a removal


class Debouncer:
    """Debounce state of one reader point."""

    def __init__(self, point: str, settings: DebounceSettings | None = None, clock: Clock = time.monotonic):
        self.point = point
        self.settings = settings or DebounceSettings()
        self.clock = clock
        self.uid: str | None = None  # the tag currently reported present
        self._last_seen = 0.0
        self._misses = 0

    def observe(self, uid: str | None) -> list[TagEvent]:
        """One poll's result: the UID read, or None when no tag answered."""
        now = self.clock()
        if uid is None:
            if self.uid is not None:
                self._misses += 1
            return self.tick()
        uid = normalise_uid(uid)
        self._misses = 0
        self._last_seen = now
        if uid == self.uid:
            return []
        events = []
        if self.uid is not None:
            events.append(TagEvent(self.point, self.uid, False, now))
        self.uid = uid
        events.append(TagEvent(self.point, uid, True, now))
        return events

    def absent(self) -> list[TagEvent]:
        """The source itself reported the tag gone (the firmware bridge does)."""
        if self.uid is not None:
            self._misses = max(self._misses, self.settings.misses)
        return self.tick()

    def tick(self) -> list[TagEvent]:
        """Time passed: emit the pending removal once both conditions hold."""
        if self.uid is None or self._misses < self.settings.misses:
            return []
        now = self.clock()
        if now - self._last_seen < self.settings.hold:
            return []
        gone, self.uid, self._misses = self.uid, None, 0
        return [TagEvent(self.point, gone, False, now)]


def normalise_uid(uid: str | bytes | bytearray | list[int]) -> str:
    """UIDs are upper-case hex without separators everywhere (``04A1B2C3``)."""
    if isinstance(uid, (bytes, bytearray, list, tuple)):
        return bytes(uid).hex().upper()
    text = "".join(ch for ch in str(uid) if ch not in ": -")
    return text.upper()
