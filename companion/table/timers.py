"""Table timers, on an injectable monotonic clock so tests never sleep.

The rules modules have no clock: the session owns a :class:`SandTimer`, shows
``remaining()`` on the OLED and the dashboard, and journals ``timer_expired``
when ``expired()`` first turns true (Galapagos dice: "When the timer expires,
the planning phase ends for all players").
"""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], float]

#: the published Galapagos dice game's sand timer.
DEFAULT_SECONDS = 30.0


class SandTimer:
    """A sand timer: turned over with :meth:`start`, runs ``seconds``, then has run out.

    ``clock`` returns seconds from any fixed origin (``time.monotonic`` by
    default); wall-clock jumps must not shorten or stretch a turn.
    """

    def __init__(self, seconds: float = DEFAULT_SECONDS, clock: Clock = time.monotonic) -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds > 0:
            raise ValueError(f"a sand timer runs a positive number of seconds, not {seconds!r}")
        self.seconds = float(seconds)
        self._clock = clock
        self._started: float | None = None

    @property
    def running(self) -> bool:
        """Turned over and not yet run out."""
        return self._started is not None and not self.expired()

    @property
    def started(self) -> bool:
        return self._started is not None

    def start(self, elapsed: float = 0.0) -> None:
        """Turn the timer over: a full ``seconds`` from now (turning it again restarts it).

        ``elapsed`` says it was turned that many seconds ago — a session resumed
        after a power cut keeps counting from the journaled moment.
        """
        self._started = self._clock() - max(0.0, elapsed)

    def reset(self) -> None:
        """Put the timer back on the volcano: not running, full again."""
        self._started = None

    def remaining(self) -> float:
        """Seconds of sand left: the full time before it is turned, 0 once it has run out."""
        if self._started is None:
            return self.seconds
        return max(0.0, self.seconds - (self._clock() - self._started))

    def expired(self) -> bool:
        """True once the timer was turned and all the sand has run through."""
        return self._started is not None and self.remaining() <= 0.0
