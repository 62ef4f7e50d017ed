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
  and one that stops reading is dropped by the server's send timeout (``web/server.py``).
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, request, stream_with_context

from web.context import dashboard
from web.hub import LiveFull
from web.validate import ApiError

#: how often a waiting stream looks whether its page is still there
CHECK_EVERY = 1.0
#: what a page whose pass was revoked (its seat freed) is told, in the last message of its stream
REVOKED = "This page's pass is no longer valid (the seat was freed); join the table again."
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
    started = time.monotonic()

    def wait() -> bool | None:
        """True: something changed; False: time for a keepalive; None: the stream must end."""
        until = time.monotonic() + d.keepalive
        while True:
            now = time.monotonic()
            if feed.closed or (lifetime is not None and now - started >= lifetime):
                return None
            if gone is not None and gone():
                return None
            left = until - now
            if left <= 0:
                return False
            if lifetime is not None:
                left = min(left, lifetime - (now - started))
            if feed.wait(max(0.0, min(CHECK_EVERY, left))):
                return None if feed.closed else True

    def generate() -> Iterator[str]:
        try:
            yield f"retry: {d.retry_ms}\n\n"
            while True:
                woke = wait()
                if woke is None:
                    if feed.reason == "revoked":  # the page can say so instead of reconnecting in vain
                        yield message("revoked", {"message": REVOKED})
                    break
                if not woke:
                    yield ": keepalive\n\n"
                    continue
                if still_valid is not None and not still_valid():
                    yield message("revoked", {"message": REVOKED})
                    break
                try:
                    event, data, ident = render()
                    text = message(event, data, ident)
                except Exception:  # a page that cannot be drawn must not end the stream
                    log.exception("rendering a live update on %s", feed.channel)
                    yield message("problem", {"message": "This page could not be updated; reload it."})
                    continue
                yield text
        finally:
            feed.close()

    response = Response(stream_with_context(generate()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
