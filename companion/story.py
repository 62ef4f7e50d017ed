"""The story of a game: its journal told in sentences by the game package's narration.

The tablet's and the phones' logs, the OLED's toasts and ``companion show
--text`` read it. The journal is replayed to give each action its state
before and after and its events (replaying a thousand actions takes a few
milliseconds); the result is kept per game, journal revision and language.
"""

from __future__ import annotations

from threading import Lock
from typing import Any

from companion import games

_cache: dict[tuple[str, str], tuple[tuple[Any, ...], list[dict[str, Any]]]] = {}
_lock = Lock()


def told(session: Any, lang: str = "en") -> list[dict[str, Any]]:
    """Every action in play, oldest first: ``{"seq", "at", "source", "action", "sentences"}``."""
    entries = session.history()
    key = (session.id, lang)
    stamp = tuple(e.seq for e in entries[-3:]) + (len(entries),)
    with _lock:
        hit = _cache.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
    pkg = games.package(session.game)
    rules = pkg.rules
    state = rules.setup(session.players, session.options)
    out = []
    for entry in entries:
        after, events = rules.apply(state, entry.action)
        try:
            sentences = pkg.narrate(state, entry.action, events, after, lang)
        except Exception:  # a narration bug must never hide the game
            sentences = []
        if not sentences:
            sentences = [pkg.describe(entry.action, lang)]
        out.append({"seq": entry.seq, "at": entry.at, "source": entry.source.split(":")[0],
                    "action": entry.action, "sentences": sentences})
        state = after
    with _lock:
        if len(_cache) > 64:
            _cache.clear()
        _cache[key] = (stamp, out)
    return out


def recent(session: Any, lang: str = "en", viewer: str | None = None, limit: int = 8) -> list[dict[str, Any]]:
    """The newest actions told, newest first (one log line each: its sentences joined)."""
    lines = told(session, lang)[-limit:]
    return [{"seq": e["seq"], "text": " ".join(e["sentences"]), "source": e["source"]} for e in reversed(lines)]
