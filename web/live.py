"""Server-sent events: the state replayed on connect, then one message per change.

Each connection is a :class:`web.hub.Feed`. It wakes on a change (bursts are
coalesced), reads the state *for its own viewer*, and sends it; between
changes a comment line every ``keepalive`` seconds keeps proxies and phones
from closing the connection (and lets the server notice a phone that left).
Pages reconnect by themselves (``retry:`` and ``static/live.js``).

Bounded by design, so a Pi holds 160 pages for hours:

* every pass has its share of the slots (:meth:`web.hub.Hub.feed`): one more is a 429;
* a stream ends after ``stream_max`` seconds (with some jitter, so pages do not all
  come back at once); the page reconnects and gets the current state at once, and
  whatever the connection had piled up is freed;
* the pass is checked again before each message (``still_valid``), and a freed seat's
  streams are ended at once (:meth:`web.hub.Hub.end_owner`);
* a page that went away is noticed within a second (the server's disconnect flag),
  and one that stops reading is dropped by the server's send timeout (``web/server.py``);
* under ``companion run`` no stream holds a thread: one pump thread serves them all
  (:class:`LiveStream`, :mod:`web.stream_pump`).
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, request, stream_with_context
from flask.globals import request_ctx

from web.context import dashboard
from web.hub import LiveFull
from web.validate import ApiError

#: how often a waiting stream looks whether its page is still there
CHECK_EVERY = 1.0
#: what a page whose pass was revoked (its seat freed) is told, in the last message of its stream
REVOKED = "This page's pass is no longer valid (the seat was freed); join the table again."
#: the WSGI environ key under which a server that pumps streams (:mod:`web.stream_pump`) offers to take one
PUMP_KEY = "galapagos.stream_pump"
#: a stream's longest life in seconds (``Dashboard.extra["stream_max"]``; 0: for ever)
STREAM_MAX = 300.0

log = logging.getLogger(__name__)


def message(event: str, data: Any, ident: int | None = None) -> str:
    lines = [f"event: {event}"]
    if ident is not None:
        lines.append(f"id: {ident}")
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    lines += [f"data: {line}" for line in payload.split("\n")]
    return "\n".join(lines) + "\n\n"


class LiveStream:
    """One SSE stream's state, stepped without blocking: what to send now, and whether it is over.

    Served two ways. Under ``companion run`` the server's stream pump (:mod:`web.stream_pump`)
    steps every open stream from one thread, woken by the feeds: a live page costs a socket and
    this object, never a thread. Anywhere else (a test client, another WSGI server) the response
    is an ordinary generator that waits on the feed between steps (:func:`_blocking`).
    """

    def __init__(self, feed: Any, render: Callable[[], tuple[str, Any, int | None]],
                 still_valid: Callable[[], bool] | None, gone: Callable[[], bool] | None,
                 lifetime: float | None, keepalive: float, context: Any = None):
        self.feed = feed
        self.render = render
        self.still_valid = still_valid
        self.gone = gone
        self.keepalive = keepalive
        self.started = time.monotonic()
        self.ends = self.started + lifetime if lifetime is not None else None
        self.keepalive_at = self.started + keepalive
        #: the request's context, pushed around each step when a pump thread (not the request's) runs it
        self.context = context

    def due(self) -> float:
        """The monotonic time this stream next needs a look if nothing changes (a keepalive, its end)."""
        return self.keepalive_at if self.ends is None else min(self.keepalive_at, self.ends)

    def step(self, woke: bool) -> tuple[str, bool]:
        """The text to send now ('' for nothing) and True when the stream is over (after that text)."""
        if self.context is not None:
            with self.context:
                return self._step(woke)
        return self._step(woke)

    def _step(self, woke: bool) -> tuple[str, bool]:
        feed, now = self.feed, time.monotonic()
        if feed.closed or (self.ends is not None and now >= self.ends) or (self.gone is not None and self.gone()):
            # a revoked pass is told so: the page can say it instead of reconnecting in vain
            return (message("revoked", {"message": REVOKED}) if feed.reason == "revoked" else ""), True
        if woke:
            self.keepalive_at = now + self.keepalive
            if self.still_valid is not None and not self.still_valid():
                return message("revoked", {"message": REVOKED}), True
            try:
                event, data, ident = self.render()
                return message(event, data, ident), False
            except Exception:  # a page that cannot be drawn must not end the stream
                log.exception("rendering a live update on %s", feed.channel)
                return message("problem", {"message": "This page could not be updated; reload it."}), False
        if now >= self.keepalive_at:
            self.keepalive_at = now + self.keepalive
            return ": keepalive\n\n", False
        return "", False

    def close(self) -> None:
        self.feed.close()


def _blocking(live: LiveStream, preamble: str) -> Iterator[str]:
    """The stream as a generator that waits on its feed (a thread per stream: tests, other servers)."""
    try:
        yield preamble
        while True:
            woke = live.feed.wait(max(0.0, min(CHECK_EVERY, live.due() - time.monotonic())))
            text, done = live.step(woke)
            if text:
                yield text
            if done:
                break
    finally:
        live.close()


def stream(channel: str, render: Callable[[], tuple[str, Any, int | None]], owner: str | None = None,
           still_valid: Callable[[], bool] | None = None) -> Response:
    """An SSE response on ``channel``; ``render()`` gives (event name, data, id) for the current state.

    ``owner`` is the pass holding the stream (its share of the slots is capped);
    ``still_valid()`` is asked before every message: once it is False the stream ends.
    """
    d = dashboard()
    try:
        feed = d.hub.feed(channel, owner, address=request.remote_addr)
    except LiveFull as full:
        raise ApiError(429, full.sentence, retry_after=5) from None
    if feed is None:
        raise ApiError(503, "Too many open live connections; close a page and try again.", retry_after=5)
    gone = request.environ.get("waitress.client_disconnected")
    stream_max = float(d.extra.get("stream_max", STREAM_MAX))
    lifetime = stream_max * random.uniform(0.8, 1.0) if stream_max > 0 else None
    preamble = f"retry: {d.retry_ms}\n\n"
    detach = request.environ.get(PUMP_KEY)
    if detach is not None:  # the server's pump takes the stream once this response's headers are out
        detach(LiveStream(feed, render, still_valid, gone, lifetime, d.keepalive, context=request_ctx.copy()))
        body: Iterator[str] = iter((preamble,))
    else:
        body = stream_with_context(_blocking(LiveStream(feed, render, still_valid, gone, lifetime, d.keepalive),
                                             preamble))
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
