"""One line in the service's log when a device goes down and one when it comes back.

Devices report their health as :class:`~hw.events.StatusEvent` (a reader, the display, the
bridge, the GPIO chip, a pin); a device retried every few seconds reports the same state again
and again. :class:`HealthLog` writes only the changes: a warning naming the device and why when
it goes down, an info line when it works again, nothing in between.
"""

from __future__ import annotations

import logging
import threading

from hw.events import StatusEvent


class HealthLog:
    """The last state of each device, and a log line at each change."""

    def __init__(self, logger: logging.Logger | None = None) -> None:
        self.log = logger or logging.getLogger("hw.health")
        self.down: dict[str, str] = {}  # device -> the message it went down with
        self._lock = threading.Lock()

    def note(self, event: StatusEvent) -> bool:
        """Log ``event`` if it changes its device's state; True when it did."""
        with self._lock:
            if not event.ok:
                if event.device in self.down:
                    self.down[event.device] = event.message
                    return False
                self.down[event.device] = event.message
            elif self.down.pop(event.device, None) is None:
                return False
        if event.ok:
            self.log.info("%s: %s", event.device, event.message)
        else:
            self.log.warning("%s is down: %s", event.device, event.message)
        return True
