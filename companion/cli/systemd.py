"""Talking to systemd: ``sd_notify`` readiness, status and the watchdog, in pure Python.

systemd's protocol (``man sd_notify``, NOTES): one datagram whose payload is the state
(``READY=1``, ``WATCHDOG=1``, ``STOPPING=1``, ``STATUS=…``, newline-separated) sent to the
``AF_UNIX`` socket named by ``$NOTIFY_SOCKET``; a name starting with ``@`` is in Linux's abstract
namespace (the ``@`` becomes a NUL byte, as ``sd_notify`` does). Outside systemd the variable is
unset and every call is a no-op. The watchdog is on when ``$WATCHDOG_USEC`` is set and
``$WATCHDOG_PID`` (if set) is this process, as ``sd_watchdog_enabled`` decides.

The ping is never sent by a free-running thread: :class:`Watchdog` is asked from the server's
loop after each poll, and pings only when every loop it watches has beaten recently. A process
that hangs (the server loop stuck, the table loop deadlocked) stops pinging and systemd restarts
it; one that is merely busy (a slow request on a worker thread) keeps its loops turning.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping


def notify_address(environ: Mapping[str, str] | None = None) -> str | bytes | None:
    """The address ``$NOTIFY_SOCKET`` names (bytes with a leading NUL for the abstract namespace), or None."""
    value = (os.environ if environ is None else environ).get("NOTIFY_SOCKET", "")
    if not value or value[0] not in "/@":  # vsock: and relative names are not for us (as sd_notify: ignored)
        return None
    if value[0] == "@":
        return b"\0" + value[1:].encode()
    return value


def notify(state: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send ``state`` to systemd; False when not under systemd or when the socket refused it.

    Never raises: a full or missing socket must not stop the table (systemd then restarts it
    through the watchdog, which is what a lost ping means anyway).
    """
    address = notify_address(environ)
    if address is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(state.encode("utf-8", "replace"), address)
        return True
    except OSError:
        return False


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds systemd waits for a ping (``WatchdogSec=``), or None when the watchdog is off for us."""
    env = os.environ if environ is None else environ
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    pid = env.get("WATCHDOG_PID")
    if usec <= 0 or (pid and pid != str(os.getpid())):
        return None
    return usec / 1_000_000


class Watchdog:
    """Pings systemd from the server's loop while every watched loop keeps beating.

    ``beat(name)`` is called by a loop each time round; :meth:`check` (from the server loop)
    sends ``WATCHDOG=1`` at most every half interval, and only if each loop has beaten within
    ``stale`` seconds. ``clock`` is injectable for tests.
    """

    def __init__(self, interval: float | None, loops: tuple[str, ...] = (), *, stale: float | None = None,
                 send: Callable[[str], bool] = notify, clock: Callable[[], float] = time.monotonic):
        self.interval = interval
        self.clock = clock
        self.send = send
        self.stale = stale if stale is not None else (interval / 2 if interval else 0.0)
        now = clock()
        self._beats = {name: now for name in loops}
        #: parts that sleep until there is work (the stream pump): ``busy_since()`` is when the pass
        #: in progress began, None while waiting; a pass older than ``stale`` counts as stuck
        self._probes: dict[str, Callable[[], float | None]] = {}
        self._last_ping = float("-inf")
        #: the loops that had stopped beating at the last check (empty when all is well)
        self.stuck: list[str] = []

    def beat(self, name: str) -> None:
        self._beats[name] = self.clock()

    def watch(self, name: str, busy_since: Callable[[], float | None]) -> None:
        """Also watch a part that sleeps until there is work, by when its pass in progress began."""
        self._probes[name] = busy_since

    def check(self) -> bool:
        """Ping if due and every loop is alive; True when a ping was sent."""
        if not self.interval:
            return False
        now = self.clock()
        self.stuck = [name for name, at in self._beats.items() if now - at > self.stale]
        for name, busy_since in self._probes.items():
            began = busy_since()
            if began is not None and now - began > self.stale:
                self.stuck.append(name)
        if self.stuck or now - self._last_ping < self.interval / 4:
            return False
        self._last_ping = now
        return self.send("WATCHDOG=1")
