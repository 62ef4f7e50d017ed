"""The table's turn ribbon and the end-of-game results, generic parts every game package starts from.

The turn order is the rules' own (:class:`companion.engine.rules.Expected`: who acts now, who
next, the start player, the table next); where the rules leave ``next`` unsaid, the ribbon takes the
seat order. A game package may say more of its results through the part ``results`` its ``__init__``
lists (:class:`companion.engine.gamepack.Parts`); without one, the results
rank the scores and quote the outcome. Both are plain data in the reader's language: the web page, a phone or the
terminal render them as they like.
"""

from __future__ import annotations

from typing import Any

from companion.engine import texts
from companion.engine.rules import Expected

#: the keys of a turn: who acts now, who next (names), who holds the start player's figure,
#: and whether the table itself (a tile laid, a weather card turned) acts now or next
Turn = dict[str, Any]


def turn(public: dict[str, Any], expected: Expected | None = None) -> Turn:
    """Who acts now and next: the rules' ``expected`` (its turn order), else the seat order.

    ``expected`` names the next players, the start player and whether the table acts next when the
    rules know them. Left unsaid (or without ``expected``: a bare public view): one player acting,
    the next is the following seat clockwise that is still in the game (a dead castaway is skipped);
    several acting at once (a simultaneous plan) or the table acting, the next is not known, so none
    is named; the start player is then the public ``start_player`` or ``first_player``.
    """
    exp = public.get("expected") or {}
    over = bool(public.get("over"))
    now = [] if over else list(exp.get("players") or [])
    start = expected.start if expected is not None else public.get("start_player") or public.get("first_player")
    out: Turn = {"now": now, "next": [], "start": start,
                 "table_now": not over and not now and bool(exp.get("actions")),
                 "table_next": not over and expected is not None and expected.table_next}
    if expected is not None and expected.next is not None:
        out["next"] = [] if over else list(expected.next)
    elif len(now) == 1:
        nxt = next_seat(public, now[0])
        out["next"] = [nxt] if nxt else []
    return out


def next_seat(public: dict[str, Any], name: str) -> str | None:
    """The seat after ``name`` clockwise that is still in the game (None when it is the only one)."""
    players = public.get("players") or []
    names = [p.get("name") for p in players]
    if name not in names:
        return None
    i = names.index(name)
    for k in range(1, len(names)):
        p = players[(i + k) % len(names)]
        if p.get("alive", True):
            return p["name"]
    return None


def ribbon(turn_now: Turn, public: dict[str, Any], lang: str = "en") -> list[dict[str, Any]]:
    """One entry per seat in seating order, then the table when it acts now or next.

    Each: ``{"name", "now", "next", "start", "out", "table", "role"}``; ``role`` is the few words a
    screen shows under the name (« plays now », « next », « start player »), in ``lang``.
    """
    t = texts.translator(lang)
    now, nxt, start = set(turn_now.get("now") or []), set(turn_now.get("next") or []), turn_now.get("start")
    out = []
    for p in public.get("players") or []:
        name = p.get("name")
        entry = {"name": name, "now": name in now, "next": name in nxt and name not in now, "start": name == start,
                 "out": p.get("alive") is False, "table": False}
        entry["role"] = (t("plays now") if entry["now"] else t("next") if entry["next"]
                         else t("out of the game") if entry["out"] else "")
        out.append(entry)
    if turn_now.get("table_now") or turn_now.get("table_next"):
        now_t = bool(turn_now.get("table_now"))
        out.append({"name": t("The table"), "now": now_t, "next": not now_t, "start": False, "out": False,
                    "table": True, "role": t("on the tablet") if now_t else t("next")})
    return out


# -- the results screen ----------------------------------------------------------------------

def places(keys: dict[str, Any]) -> dict[str, int]:
    """Competition ranking (1, 2, 2, 4): a player's place is one more than the players strictly ahead."""
    return {name: 1 + sum(1 for other in keys.values() if other > key) for name, key in keys.items()}


def results(public: dict[str, Any], outcome: str, lang: str = "en") -> dict[str, Any]:
    """The generic results: the scores ranked, the winners marked, the outcome's sentence.

    The shape every game's ``results`` gives (more columns where it has end bonuses; ``place`` is ""
    where a game ranks nobody, the dead castaways, a solo game)::

        {"outcome": sentence, "tie": sentence or "", "score_label": str, "columns": [labels],
         "decides_label": str or "", "rows": [{"place", "name", "score", "winner", "cells": [str],
         "decides": str, "note": str}], "lines": [sentences]}
    """
    t = texts.translator(lang)
    scores = dict(public.get("scores") or {})
    winners = set(public.get("winners") or [])
    names = [p["name"] for p in public.get("players") or []]
    rank = places({n: (n in winners, scores.get(n, 0)) for n in names})
    rows = [{"place": rank[n], "name": n, "score": scores.get(n, 0), "winner": n in winners, "cells": [],
             "decides": "", "note": ""} for n in names]
    rows.sort(key=lambda r: (r["place"], names.index(r["name"])))
    return {"outcome": outcome, "tie": "", "score_label": t("Points"), "columns": [], "decides_label": "",
            "rows": rows, "lines": []}

