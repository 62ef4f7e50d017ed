"""One thread serves every live page: the stream pump behind waitress.

waitress runs a response's body on one of its worker threads until the body ends; a live page's
stream never ends for minutes, so each open page used to keep a thread (160 of them, about 1 MB
of stack each, waiting). Here a stream's request runs on a worker only as long as any request:
the dashboard's :func:`web.live.stream` hands its :class:`~web.live.LiveStream` to the task, the
task writes the headers and the first line and returns its worker, and the channel stays open
with the stream in the pump's hands. The pump sleeps until a feed wakes it (an action, a
revoked pass, the server stopping) or a stream's next keepalive or end is due, and then steps the
streams that need it, writing into their channels' buffers; waitress's own loop sends the bytes.

A page that stops reading is never waited for: its stream is skipped while its channel holds
more than the high watermark, and dropped after the send timeout without progress (as
:mod:`web.server` does for ordinary responses). While a stream is open its channel counts as
busy (the idle-connection timeout and the eviction of idle connections leave it alone) and
reads nothing further from the page.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from typing import Any

from waitress.task import WSGITask

from web.live import CHECK_EVERY, PUMP_KEY

log = logging.getLogger(__name__)


class StreamInProgress:
    """Stands in the channel's request list while the pump serves its stream (the channel is busy)."""

    def close(self) -> None:
        pass


class _Pumped:
    __slots__ = ("task", "stream", "stalled_since", "stalled_at")

    def __init__(self, task: Any, stream: Any):
        self.task = task
        self.stream = stream
        self.stalled_since: float | None = None
        self.stalled_at = 0


class StreamPump:
    """The thread that steps every open stream (started with the first one)."""

    def __init__(self, high_watermark: int, send_timeout: float):
        self.high_watermark = high_watermark
        self.send_timeout = send_timeout
        self._streams: list[_Pumped] = []
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._stopped = False
        #: when the pass over the streams in progress began (monotonic), None while the pump waits:
        #: the systemd watchdog counts a pass that never ends as a hung table
        self.busy_since: float | None = None

    def __len__(self) -> int:
        with self._lock:
            return len(self._streams)

    def adopt(self, task: Any) -> None:
        """Serve ``task.stream`` from now on (its headers and first line are written)."""
        entry = _Pumped(task, task.stream)
        entry.stream.feed.notify = self._wake.set
        with self._lock:
            if self._stopped:
                self._finish(entry)
                return
            self._streams.append(entry)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="stream-pump", daemon=True)
                self._thread.start()
        self._wake.set()

    def stop(self) -> None:
        """End every stream (each page is told nothing: it reconnects) and the thread."""
        with self._lock:
            self._stopped = True
            streams, self._streams = self._streams, []
            thread = self._thread
        for entry in streams:
            self._finish(entry)
        self._wake.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(1.0)

    def _open_streams(self) -> list[_Pumped] | None:
        """The streams to step now; None once the pump is stopped."""
        with self._lock:
            return None if self._stopped else list(self._streams)

    def _run(self) -> None:
        while (streams := self._open_streams()) is not None:
            timeout = None
            if streams:
                soonest = min(entry.stream.due() for entry in streams)
                timeout = max(0.0, min(CHECK_EVERY, soonest - time.monotonic()))
            self._wake.wait(timeout)
            self._wake.clear()
            # looked up again after the wait: a stream adopted while the pump waited (a page just
            # opened) is stepped now, not at the next look a second later
            if (streams := self._open_streams()) is None:
                return
            self.busy_since = time.monotonic()
            for entry in streams:
                try:
                    self._service(entry)
                except Exception:  # noqa: BLE001 - one page's failure never stops the others
                    log.exception("serving a live stream")
                    self._drop(entry)
            self.busy_since = None

    def _service(self, entry: _Pumped) -> None:
        channel = entry.task.channel
        if not channel.connected:
            self._drop(entry)
            return
        queued = channel.total_outbufs_len
        if queued > self.high_watermark:  # the page is not reading: never wait for it here
            now = time.monotonic()
            if entry.stalled_since is None or queued < entry.stalled_at:
                entry.stalled_since, entry.stalled_at = now, queued
            elif now - entry.stalled_since >= self.send_timeout:
                log.info("dropping a live page at %s that stopped reading", channel.addr)
                try:
                    channel.socket.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                self._drop(entry)
            return
        entry.stalled_since = None
        text, done = entry.stream.step(entry.stream.feed.take())
        if text:
            try:
                entry.task.write(text.encode("utf-8"))
            except Exception:  # noqa: BLE001 - ClientDisconnected, a closed socket: the page left
                done = True
        if done:
            self._drop(entry)

    def _drop(self, entry: _Pumped) -> None:
        with self._lock:
            if entry in self._streams:
                self._streams.remove(entry)
        self._finish(entry)

    @staticmethod
    def _finish(entry: _Pumped) -> None:
        """The stream's last chunk, then the channel closes once flushed (the page reconnects)."""
        entry.stream.feed.notify = None
        try:
            entry.stream.close()
        except Exception:  # noqa: BLE001
            log.exception("closing a live stream")
        channel = entry.task.channel
        try:
            if channel.connected:
                entry.task.finish()
        except Exception:  # noqa: BLE001 - the page is gone already
            pass
        with channel.requests_lock:
            channel.close_when_flushed = True
            channel.requests = []
        try:
            channel.server.pull_trigger()
        except OSError:
            pass


def pumping_classes(channel_base: Any) -> Any:
    """waitress's channel whose WSGI task can hand a live stream to the server's pump.

    The server (the listener) carries the pump as ``stream_pump``; a server without one serves
    every stream on its worker thread as before.
    """

    class PumpingTask(WSGITask):
        stream: Any = None

        def get_environment(self) -> dict[str, Any]:
            environ = super().get_environment()
            if getattr(self.channel.server, "stream_pump", None) is not None:
                environ[PUMP_KEY] = self._detach
            return environ

        def _detach(self, stream: Any) -> None:
            self.stream = stream
            self.channel.stream_task = self

        def release_stream(self) -> None:
            if self.stream is not None:
                self.stream.close()
                self.stream = None

        def service(self) -> None:
            try:
                self.start()
                self.execute()
                if self.stream is not None:
                    if self.complete and self.wrote_header and self.status.startswith("200"):
                        self.close_on_finish = False  # the connection stays: the pump finishes the response
                        return
                    self.release_stream()
                self.finish()
            except OSError:
                self.release_stream()
                self.close_on_finish = True
                if self.channel.adj.log_socket_errors:
                    raise
            except BaseException:
                self.release_stream()
                raise

    class PumpingChannel(channel_base):
        task_class = PumpingTask
        stream_task: Any = None

        def service(self) -> None:
            super().service()
            task, self.stream_task = self.stream_task, None
            if task is None or task.stream is None:
                return
            with self.requests_lock:
                keep = self.connected and not self.will_close and not self.close_when_flushed
                if keep:  # busy while streaming: no idle timeout, no eviction, nothing more read
                    self.requests.insert(0, StreamInProgress())
            if keep:
                self.server.stream_pump.adopt(task)
            else:
                task.release_stream()

    return PumpingChannel
