"""Galèrapagos' tournaments (« Mode tournois »): a manche's points, the match's totals and winners.

Pure functions of the manches' results; the options that carry a match from manche to manche
are :mod:`companion.games.galerapagos.options`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.galerapagos.state import OVER, State


def game_points(players: int, embarked: int, mode: str = "solidaire") -> int:
    """One embarked castaway's points in a tournament round.

    Solidaire: "Les joueurs qui embarquent sur le radeau marquent un point."
    Solitaire: "Vous perdez 1 point par survivant sur le radeau": out of as many points
    as players, one is lost per other survivor, so the last survivor scores most.
    """
    if mode == "solidaire":
        return 1
    if mode == "solitaire":
        return players - (embarked - 1)
    raise ValueError(f"unknown tournament mode {mode!r}")


def tournament_scores(results: Iterable[dict[str, Any]], mode: str = "solidaire") -> dict[str, int]:
    """Totals over a series of games; each result has ``players`` and ``winners`` (script output)."""
    totals: dict[str, int] = {}
    for result in results:
        names = [p["name"] if isinstance(p, dict) else p for p in result["players"]]
        winners = list(result.get("winners", []))
        for name in names:
            totals.setdefault(name, 0)
        for name in winners:
            totals[name] += game_points(len(names), len(winners), mode)
    return totals


def tournament_winners(totals: dict[str, int]) -> list[str]:
    """"le joueur qui totalise le plus de points remporte la partie" (all of them on a tie)."""
    top = max(totals.values(), default=0)
    return [name for name, pts in totals.items() if pts == top]


def match_view(s: State) -> dict[str, Any] | None:
    """This manche in its match: the totals carried in, plus this manche's points once it is over."""
    o = s.opts
    if not o.manches:
        return None
    totals = {name: 0 for name in s.names}
    for name, pts in o.carried:
        totals[name] = totals.get(name, 0) + pts
    if s.phase == OVER and s.winners:
        pts = game_points(len(s.names), len(s.winners), o.scoring)
        for i in s.winners:
            totals[s.names[i]] += pts
    leaders = tournament_winners(totals) if any(totals.values()) else []
    last = o.manche >= o.manches
    return {"id": o.match, "manche": o.manche, "manches": o.manches, "mode": o.scoring,
            "totals": totals, "leaders": leaders, "last": last,
            "winners": leaders if last and s.phase == OVER else []}
