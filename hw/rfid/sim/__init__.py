"""The simulated reader: a tag "lies on it" until removed.

It is polled like a real chip, so simulated tags go through the same
debouncing as real ones. The dashboard's panel and the tests call
:meth:`Backend.place` and :meth:`Backend.remove`.
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

    def remove(self) -> None:
        self.on_antenna = None

    def read_uid(self) -> str | None:
        return self.on_antenna
