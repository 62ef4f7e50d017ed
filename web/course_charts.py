"""A game's course drawn for a page: its charts with their SVGs, kept while the story stays the same,
and the link to the course on every page of a game.

The course page (:mod:`web.course_view`), the results screen (:mod:`web.views`) and the league's page
of a game (:mod:`web.league`) draw the charts here, the one way.
"""

from __future__ import annotations

from threading import Lock
from typing import Any

from markupsafe import Markup

from companion.engine import charts
from companion.table import course, story

_cache: dict[tuple[str, str], tuple[tuple[int, ...], dict[str, Any] | None]] = {}
_lock = Lock()


def drawn(session: Any, language: str) -> dict[str, Any] | None:
    """The course of ``session``'s game with each chart's SVG, kept while the story stays the same."""
    stamp = tuple(e["seq"] for e in story.told(session, language))  # the one replay; an edit changes a line
    key = (session.id, language)
    with _lock:
        hit = _cache.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
    out = course.of_session(session, language)
    if out is not None:
        with_svgs(out)
    with _lock:
        if len(_cache) > 32:
            _cache.clear()
        _cache[key] = (stamp, out)
    return out


def with_svgs(out: dict[str, Any], prefix: str = "course") -> dict[str, Any]:
    """Each chart of the course ``out`` with its SVG (``ch["svg"]``, ids unique in the page): the results
    screen, the course page and the league's page of a game draw them here, the one way."""
    for i, ch in enumerate(out["charts"]):
        ch["svg"] = Markup(charts.svg(out, ch, ident=f"{prefix}-{ch['id']}-{i}"))
    return out


def extend(ctx: dict[str, Any], session: Any, who: Any, view: str, language: str) -> None:
    """The link to the course on every page of a game, and its charts on the results screen."""
    ctx["course_url"] = f"/g/{session.id}/course"
    ctx["course"] = drawn(session, language) if ctx["pub"].get("over") else None
