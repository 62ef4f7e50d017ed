"""The HTTP server of the dashboard: waitress, tuned for long-lived streams on a Pi.

Chosen by measurement (docs/performance-notes.md). The composition root
(:mod:`companion.cli.app`) builds it with :func:`make_server`, closes it with
:func:`wasyncore_close_all`, and calls :func:`release_free_memory` and
:func:`raise_open_files_limit` for the process.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import logging
import os
import resource
import socket
import threading
import time
from typing import Any

import waitress.server
from waitress import wasyncore
from waitress.channel import ClientDisconnected, HTTPChannel
from waitress.task import ErrorTask, ThreadedTaskDispatcher

from web.stream_pump import StreamPump, pumping_classes
from web.validate import MAX_BODY

log = logging.getLogger(__name__)

#: live SSE connections the server holds at once (served by one pump thread, not a thread each)
MAX_LIVE = 160
#: worker threads for requests (a live page's request takes one only until its headers are out)
WORKERS = 8
#: a worker thread's stack (Python's default is 8 MB of address space; the workers need little)
THREAD_STACK = 1024 * 1024
#: open connections at most (live pages, ordinary requests, idle keep-alives); near it the
#: oldest idle connections are closed, so idle sockets can never keep a request waiting
CONNECTION_LIMIT = MAX_LIVE + 200
#: bytes queued for one connection before its writer waits; each response is freed as it
#: is sent (waitress keeps up to 16 MB a connection by default: 2.5 GB at 160 pages)
OUTBUF_HIGH = 64 * 1024
#: a page that takes no byte for this many seconds while its queue is full is dropped
#: (``COMPANION_SEND_TIMEOUT`` changes it, for the reliability suite)
SEND_TIMEOUT = float(os.environ.get("COMPANION_SEND_TIMEOUT", "20"))
#: the kernel's send buffer per connection (the kernel doubles it); a page is a few KB
SEND_BUFFER = 64 * 1024
#: an idle connection (no request in progress) is closed after this many seconds
IDLE_TIMEOUT = 30
#: seconds between two comment lines on a quiet live stream: with TCP_USER_TIMEOUT (10 s) a
#: page whose Wi-Fi vanished frees its slot within ~15 s
LIVE_KEEPALIVE = 5.0
#: seconds between two returns of freed heap memory to the system (malloc_trim)
TRIM_EVERY = 10.0


def wakeup_drain(fd: int, socket_map: dict[int, Any]) -> Any:
    """The wake-up pipe's read end in the server's poll: it empties the pipe, nothing more."""
    class Drain(wasyncore.file_dispatcher):
        def writable(self) -> bool:
            return False

        def handle_read(self) -> None:
            try:
                while self.recv(512):
                    pass
            except OSError:  # EAGAIN: emptied
                pass

    return Drain(fd, socket_map)


def wasyncore_close_all(server: Any) -> None:
    """End the live streams and close the server's sockets (waitress's ``close`` also waits 5 s for its threads)."""
    pump = getattr(server, "stream_pump", None)
    if pump is not None:
        pump.stop()
    wasyncore.close_all(server.socket_map)


# -- the HTTP server -------------------------------------------------------------------------
#
# Chosen by measurement (docs/performance-notes.md): waitress, tuned for long-lived streams.
# Out of the box it keeps every byte a connection sent until 16 MB have passed, spills that
# to temporary files when a page does not read, never times out a connection that has a
# request running, and stops accepting once idle sockets fill its connection limit. The
# classes below fix each of these; the rest of waitress (HTTP parsing, threads) is unchanged.

def make_server(app: Any, host: str, port: int, *, max_body: int, threads: int = WORKERS) -> Any:
    """A waitress server for ``app`` with bounded memory per connection and no starvation.

    Live pages are served by one :class:`~web.stream_pump.StreamPump` (``server.stream_pump``),
    so ``threads`` is for requests only, however many pages stay open. ``server.socket_map`` is the
    map of its sockets (the listeners and their connections) for a loop of one's own.
    """
    socket_map: dict[int, Any] = {}
    options = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1), (socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1),
               (socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)]  # a stalled page fills this, not MBs
    for name, value in (("TCP_KEEPIDLE", 5), ("TCP_KEEPINTVL", 3), ("TCP_KEEPCNT", 3), ("TCP_USER_TIMEOUT", 10_000)):
        if hasattr(socket, name):  # a vanished phone is noticed in ~15 s, not after TCP's 15 minutes
            options.append((socket.IPPROTO_TCP, getattr(socket, name), value))
    server = waitress.server.create_server(
        app, map=socket_map, host=host, port=port, threads=threads, _dispatcher=_lifo_dispatcher(threads),
        connection_limit=CONNECTION_LIMIT, channel_timeout=IDLE_TIMEOUT, cleanup_interval=5,
        outbuf_high_watermark=OUTBUF_HIGH, outbuf_overflow=4 * OUTBUF_HIGH,
        channel_request_lookahead=1,  # keep reading a streaming connection: its close is seen at once
        asyncore_use_poll=True, ident="galapagos-companion", max_request_body_size=max_body,
        expose_tracebacks=False, clear_untrusted_proxy_headers=True,
    )  # waitress drops bodies over max_body (a JSON 413 too); below that the app answers
    server.socket_map = socket_map
    server.stream_pump = StreamPump(OUTBUF_HIGH, SEND_TIMEOUT)
    for listener in {id(s): s for s in socket_map.values()}.values():
        if isinstance(listener, waitress.server.BaseWSGIServer):
            listener.adj.socket_options = options  # a class attribute in waitress, not a keyword
            listener.channel_class = _channel_class()
            listener.readable = _evicting_readable(listener, socket_map)
            listener.stream_pump = server.stream_pump
    return server


class LifoCondition(threading.Condition):
    """A condition whose ``notify`` wakes the thread that began waiting *last*.

    waitress wakes its idle workers first-in first-out, so every request runs on
    another of its ~170 threads and each of them, in turn, grows its own caches:
    the resident size climbs for minutes (~3 MB a minute at two actions a second).
    Woken last-in first-out, ordinary requests keep to the few threads that are
    already warm, and the threads that wait for nothing stay small.
    """

    def notify(self, n: int = 1) -> None:
        if not self._is_owned():  # type: ignore[attr-defined]
            raise RuntimeError("cannot notify on un-acquired lock")
        waiters = self._waiters  # type: ignore[attr-defined]
        while waiters and n > 0:
            waiter = waiters[-1]
            try:
                waiter.release()
            except RuntimeError:
                pass
            else:
                n -= 1
            try:
                waiters.remove(waiter)
            except ValueError:
                pass


def _lifo_dispatcher(threads: int) -> Any:
    """waitress' thread pool, waking its most recently idle worker first."""
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.queue_cv = LifoCondition(dispatcher.lock)
    dispatcher.set_thread_count(threads)
    return dispatcher


def _evicting_readable(server: Any, socket_map: dict[int, Any]) -> Any:
    """``server.readable`` that first closes the oldest idle connections when the limit is near
    (``socket_map``: the server's sockets, its connections among them)."""
    base = type(server).readable

    def readable() -> bool:
        limit = server.adj.connection_limit
        if server.accepting and len(socket_map) >= limit - 8:
            idle = sorted((c for c in list(server.active_channels.values())
                           if not c.requests and not c.will_close and not c.total_outbufs_len),
                          key=lambda c: c.last_activity)
            for channel in idle[: len(socket_map) - (limit - 16)]:
                channel.will_close = True  # closed by the loop's next pass
        return base(server)

    return readable


_CHANNEL: Any = None


def _channel_class() -> Any:
    """waitress' channel with a send timeout and JSON errors (built once, on first use)."""
    global _CHANNEL
    if _CHANNEL is not None:
        return _CHANNEL

    class JsonErrorTask(ErrorTask):
        """waitress' own refusals (body too large, malformed request) in the API's JSON shape."""

        def execute(self) -> None:
            err = self.request.error
            message = {
                413: f"The request is larger than {MAX_BODY} bytes.",
                431: "The request's headers are too large.",
            }.get(err.code, "The request could not be read as HTTP.")
            body = json.dumps({"error": {"status": err.code, "message": message}}).encode()
            self.status = f"{err.code} {err.reason}"
            self.response_headers.append(("Content-Type", "application/json"))
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    class Channel(HTTPChannel):
        error_task_class = JsonErrorTask

        def _flush_outbufs_below_high_watermark(self) -> None:
            """Wait for the page to read, but not for ever: no progress for SEND_TIMEOUT drops it."""
            if self.total_outbufs_len <= self.adj.outbuf_high_watermark:
                return
            with self.outbuf_lock:
                _, failed = self._flush_exception(self._flush_some, do_close=False)
                if failed:
                    self.server.pull_trigger()
                    self.outbuf_lock.wait(1.0)
                    return
                queued, deadline = self.total_outbufs_len, time.monotonic() + SEND_TIMEOUT
                while self.connected and self.total_outbufs_len > self.adj.outbuf_high_watermark:
                    self.server.pull_trigger()
                    self.outbuf_lock.wait(1.0)
                    if self.total_outbufs_len < queued:
                        queued, deadline = self.total_outbufs_len, time.monotonic() + SEND_TIMEOUT
                    elif time.monotonic() >= deadline:
                        log.info("dropping a connection from %s that stopped reading", self.addr)
                        self.will_close = True
                        try:  # the loop only writes (and so closes) when the socket takes bytes: cut it now
                            self.socket.shutdown(socket.SHUT_RDWR)
                        except OSError:
                            pass
                        self.server.pull_trigger()
                        raise ClientDisconnected

    _CHANNEL = pumping_classes(Channel)
    return _CHANNEL


_LIBC: Any = None


def release_free_memory() -> None:
    """Give the C heap's free pages back to the system (glibc ``malloc_trim``).

    Rendering a page for each of 100 live connections, in as many threads, leaves
    freed holes all over the heap; glibc keeps them (the resident size creeps up by
    MBs a minute) unless asked. ``malloc_trim(0)`` returns every free page, also in
    the middle of the heap. A no-op where the C library is not glibc.
    """
    global _LIBC
    try:
        if _LIBC is None:
            _LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        _LIBC.malloc_trim(0)
    except (OSError, AttributeError):
        _LIBC = False


def raise_open_files_limit(wanted: int = 4096) -> None:
    """Raise the soft limit of open files: every connection is a file descriptor."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        pass
