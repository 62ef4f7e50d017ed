"""The simulated reader: a tag "lies on it" until removed.

It is polled like a real chip, so simulated tags go through the same
debouncing as real ones. The dashboard's panel and the tests call
:meth:`Backend.place` and :meth:`Backend.remove`; between two changes the
reader is idle and its poller sleeps (a simulated table at rest polls nothing).
"""

from __future__ import annotations

from hw.rfid.base import Reader
from hw.rfid.debounce import normalise_uid


class Backend(Reader):
    backend = "sim"

    on_antenna: str | None = None

    @property
    def poll_group(self) -> tuple[str, ...]:
        return ("sim",)  # a read costs nothing: every simulated point on one poller

    def place(self, uid: str) -> None:
        self.on_antenna = normalise_uid(uid)
        self.wake()

    def remove(self) -> None:
        with self._lock:
            if self.on_antenna is not None and self.on_antenna == self.debouncer.uid:
                # read until this moment, as a polled tag would have been: the removal then
                # waits out the same hold as a real tag taken off
                self.debouncer.observe(self.on_antenna)
            self.on_antenna = None
        self.wake()

    def idle(self) -> bool:
        """The antenna holds what was last reported, no removal is pending, and reads work
        (a test may make the simulated chip fail: it is then polled as a failing chip is)."""
        with self._lock:
            return self.failures == 0 and self.on_antenna == self.debouncer.uid

    def read_uid(self) -> str | None:
        return self.on_antenna
