"""Server-sent events: the state replayed on connect, then one message per change.

Each connection is a :class:`web.hub.Feed`. It wakes on a change (bursts are
coalesced), reads the state *for its own viewer*, and sends it; between
changes a comment line every ``keepalive`` seconds keeps proxies and phones
from closing the connection (and lets the server notice a phone that left).
Pages reconnect by themselves (``retry:`` and ``static/live.js``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, stream_with_context

from web.context import dashboard
from web.validate import ApiError

log = logging.getLogger(__name__)


def message(event: str, data: Any, ident: int | None = None) -> str:
    lines = [f"event: {event}"]
    if ident is not None:
        lines.append(f"id: {ident}")
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    lines += [f"data: {line}" for line in payload.split("\n")]
    return "\n".join(lines) + "\n\n"


def stream(channel: str, render: Callable[[], tuple[str, Any, int | None]]) -> Response:
    """An SSE response on ``channel``; ``render()`` gives (event name, data, id) for the current state."""
    d = dashboard()
    feed = d.hub.feed(channel)
    if feed is None:
        raise ApiError(503, "Too many open live connections; close a page and try again.")

    def generate() -> Iterator[str]:
        try:
            yield f"retry: {d.retry_ms}\n\n"
            while not feed.closed:
                if feed.wait(d.keepalive):
                    if feed.closed:
                        break
                    try:
                        event, data, ident = render()
                    except Exception:  # a page that cannot be drawn must not end the stream
                        log.exception("rendering a live update on %s", feed.channel)
                        yield message("problem", {"message": "This page could not be updated; reload it."})
                        continue
                    yield message(event, data, ident)
                else:
                    yield ": keepalive\n\n"
        finally:
            feed.close()

    response = Response(stream_with_context(generate()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
