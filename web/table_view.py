"""What the table page adds to the context: the turn ribbon, the story of the round and the results screen.

- ``ribbon``: one dict per seat in seating order (then the table when it acts now or next):
  ``{"name", "now", "next", "start", "out", "table", "role", "colour", "phone", "me"}`` — the phone
  may render it too (``{% if ribbon %}``).
- ``story``: the log as the narration tells it, grouped by round, newest first
  (see :func:`companion.story.by_round`).
- ``results``: the end-of-game results of the game package (None while it goes on), and
  ``play_again``: the form fields of a new game with the same players and options.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from companion import games, results, story
from companion.session import Session
from web.security import Principal


def extend(ctx: dict[str, Any], session: Session, who: Principal | None, view: str, language: str) -> None:
    """Add this area's keys to ``ctx`` (called last by ``web.views.context``)."""
    pkg = games.package(session.game)
    pub = ctx["pub"]
    try:
        turn = pkg.turn(session.state, pub)
    except Exception:  # a package's reading of the turn must never take the page down: the generic one
        logging.getLogger(__name__).exception("turn of %s", session.game)
        turn = results.turn(pub)
    ribbon = results.ribbon(turn, pub, language)
    colours, claimed, me = ctx.get("seat_colour") or {}, set(ctx.get("claimed") or []), ctx.get("me")
    for entry in ribbon:
        entry["colour"] = "" if entry["table"] else colours.get(entry["name"], "")
        entry["phone"] = not entry["table"] and entry["name"] in claimed
        entry["me"] = not entry["table"] and entry["name"] == me
    ctx["ribbon"] = ribbon
    ctx["turn"] = turn
    ctx["story"] = story.by_round(session, language)
    ctx["results"] = _results(pkg, session, language) if pub.get("over") else None
    ctx["play_again"] = None
    if pub.get("over") and ctx.get("is_table"):
        ctx["play_again"] = {"game": session.game, "players": "\n".join(session.players),
                             "options": json.dumps(_fresh_options(session.options), ensure_ascii=False)}


def _results(pkg: Any, session: Session, language: str) -> dict[str, Any] | None:
    """The package's results; its generic ranking if the package's own fails (never a broken page)."""
    try:
        return pkg.results(session.state, language, story.events(session))
    except Exception:
        logging.getLogger(__name__).exception("results of %s", session.game)
        return results.results(session.public(None), pkg.outcome_text(session.state, language), language)


def _fresh_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options of a new game like this one: the readings kept, a tournament's carried points dropped."""
    return {k: v for k, v in (options or {}).items() if k not in ("match", "manche", "carried")}
