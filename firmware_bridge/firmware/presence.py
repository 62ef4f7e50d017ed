"""Presence and removal detection for one RFID reader point (pure, MicroPython-compatible).

An MFRC522 read fails now and then although the tag has not moved (the tag sits at the edge of
the field, the neighbouring reader's field couples in), so a tag is declared removed only after
``misses`` polls in a row find nothing. A read is reliable when it succeeds (the anticollision
BCC and SELECT CRC are checked), so a tag is declared present at once, and a different UID on
the same reader is reported as the old tag removed, then the new one present.
"""


class Presence:
    def __init__(self, misses: int = 3):
        self.misses = misses
        self.uid = None
        self._missed = 0

    def update(self, uid) -> list:
        """Feed one poll (UID bytes or None); return [(present, uid), ...] changes, in order."""
        if uid is None:
            if self.uid is None:
                return []
            self._missed += 1
            if self._missed < self.misses:
                return []
            gone = self.uid
            self.uid = None
            self._missed = 0
            return [(False, gone)]
        self._missed = 0
        if uid == self.uid:
            return []
        changes = [] if self.uid is None else [(False, self.uid)]
        self.uid = uid
        changes.append((True, uid))
        return changes
