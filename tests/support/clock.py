"""A hand-driven clock for timing tests: no test sleeps to let time pass."""

from __future__ import annotations


class FakeClock:
    """Returns ``now``; the test moves it with :meth:`advance` (or by setting ``now``)."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
