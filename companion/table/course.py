"""The course of a live game: its package's course from the story's one replay, a tournament's points
manche by manche, and the OLED's sparkline (the description's shape: :mod:`companion.engine.course`)."""

from __future__ import annotations

import logging
from typing import Any

from companion import games
from companion.engine import texts
from companion.engine.course import chart, entries, seat_style, series, table
from companion.table import story

log = logging.getLogger(__name__)


def of_session(session: Any, lang: str = "en") -> dict[str, Any] | None:
    """The course of ``session``'s game so far from the story's one replay, with a tournament's totals
    manche by manche when the game is one of a match; None when its package draws none."""
    pkg = games.package(session.game)
    out = pkg.course(story.told(session, lang), lang)
    match = match_chart(session, pkg, lang) if out is not None else None
    if match is not None:
        out["charts"].append(match)
        match["table"] = table(out, match, lang)
    return out


def spark(session: Any, lang: str = "en") -> dict[str, Any] | None:
    """The OLED's sparkline series of ``session``'s game (None when there is none, or it cannot be told)."""
    try:
        out = of_session(session, lang)
    except Exception:  # the course must never take the table's screen down
        log.exception("the course of %s", session.game)
        return None
    return (out or {}).get("spark")


def spark_of(pkg: Any, steps: list[tuple[Any, Any, Any, Any]], lang: str = "en") -> dict[str, Any] | None:
    """The OLED's sparkline series of a game replayed without a session (``companion oled`` over a script:
    its ``(before, action, events, after)`` steps), as the dial's :func:`spark` gives it from the journal."""
    try:
        out = pkg.course(entries(pkg, steps), lang)
    except Exception:  # the course must never take the screen down
        log.exception("the course of %s", pkg.id)
        return None
    return (out or {}).get("spark")


def match_chart(session: Any, pkg: Any, lang: str = "en") -> dict[str, Any] | None:
    """A tournament's running totals after each manche played so far (the package's ``match_totals``
    over the journal's games of the same match), as a chart with its own x: the manches."""
    name = (session.options or {}).get("match")
    if not name:
        return None
    try:
        records = [r for r in session.journal.games() if r.game == session.game and (r.options or {}).get("match") == name]
    except Exception:  # a journal that cannot list its games: no tournament chart, the course stands
        return None
    rows = []
    for r in sorted(records, key=lambda r: (r.id == session.id, r.created)):  # this game last: its match
        result = r.result or {}
        rows.append({"options": r.options, "over": r.finished is not None, "winners": result.get("winners") or [],
                     "players": [{"name": n} for n in r.players], "outcome": {"reason": result.get("reason")}})
    totals = pkg.match_totals(rows)
    if not totals or not totals["rows"]:
        return None
    t = texts.translator(lang)
    names = list(session.players)
    running = {n: 0 for n in names}
    values: dict[str, list[int]] = {n: [] for n in names}
    for row in totals["rows"]:
        for n in names:
            running[n] += row["points"].get(n, 0)
            values[n].append(running[n])
    x = [row["manche"] for row in totals["rows"]]
    lines = [series(n, n, values[n], seat_style(i)) for i, n in enumerate(names)]
    return {**chart("match", t("Tournament points after each manche"), lines), "x": x,
            "x_label": t("Manche"), "x_labels": [str(m) for m in x]}
