"""Galápagos (auction): who plays next on the ribbon, and the results screen at the game's end.

The rulebook's end (seed 000, "Game End"): "The player with the highest education level receives 4
bonus exhibition points, the player with the second highest education receives 2 points. In the
case of a tie for the highest education, all tied players receive 3 points (and no one else
receives any bonus points). In the case of a tie for the second highest education, all tied
players receive 1 point. Finally, each player receives 1 point for each two animal tokens he has
(regardless of kinds) and 1 point for each £1000. The player with the most exhibition points wins
the game. In the case of a tie, the tied player with the most money wins the game."
"""

from __future__ import annotations

from typing import Any

from companion.engine import results as engine_results
from companion.engine import texts
from companion.games.auction import rules as R
from companion.games.auction import words

DOMAIN = R.AuctionRules.id


def _t(lang: str, msgid: str, **params: Any) -> str:
    return texts.render(msgid, params, lang, DOMAIN)





def results(state: R.AuctionState, lang: str = "en", events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Ranking on points then money; each player's end bonuses (education, animals, money) and his money.

    ``events`` (the game's, when the journal is at hand) name the bonus tiles each player's
    exhibitions used, shown under his exhibition points.
    """
    tiles: dict[str, list[str]] = {}
    for e in events or []:
        if e.get("type") == "exhibition" and e.get("bonus"):
            tiles.setdefault(e["player"], []).append(words.bonus_tile(e["bonus"], lang))
    rules = R.AuctionRules()
    points = rules.points(state)
    winners = set(rules.winners(state))
    names = [p.name for p in state.players]
    rank = engine_results.places({p.name: (points[i], p.money) for i, p in enumerate(state.players)})
    rows = []
    for i, p in enumerate(state.players):
        bonus, animal_pts, money_pts = state.final[i]
        cells = [
            {"value": str(p.points), "detail": _tiles(tiles.get(p.name, []), lang)},
            {"value": f"+{bonus}", "detail": _t(lang, "level {n}", n=p.education)},
            {"value": f"+{animal_pts}", "detail": _t(lang, "1 token") if sum(p.animals) == 1
             else _t(lang, "{n} tokens", n=sum(p.animals))},
            {"value": f"+{money_pts}", "detail": _t(lang, "£{amount}", amount=p.money)},
        ]
        rows.append({"place": rank[p.name], "name": p.name, "score": points[i], "winner": p.name in winners,
                     "cells": cells, "decides": _t(lang, "£{amount}", amount=p.money), "note": ""})
    rows.sort(key=lambda r: (r["place"], names.index(r["name"])))
    outcome = rules.outcome(state)
    sentence = outcome.sentence(lang, DOMAIN) if outcome else ""
    top = max(points)
    tied = [n for n, x in zip(names, points, strict=True) if x == top]
    return {
        "outcome": sentence,
        "tie": sentence if len(tied) > 1 else "",
        "score_label": _t(lang, "Points"),
        "columns": [_t(lang, "Exhibitions"), _t(lang, "Education"), _t(lang, "Animals"), _t(lang, "Money")],
        "decides_label": _t(lang, "Money"),
        "rows": rows,
        "lines": _bonus_lines(state, lang),
    }


def _tiles(used: list[str], lang: str) -> str:
    """« bonus tiles 2, crab » under a player's exhibition points ("" when he used none)."""
    if not used:
        return ""
    msgid = "bonus tile {tiles}" if len(used) == 1 else "bonus tiles {tiles}"
    return _t(lang, msgid, tiles=", ".join(used))


def _bonus_lines(state: R.AuctionState, lang: str) -> list[str]:
    """What the end bonuses gave, in the rulebook's order: education, then animals and money."""
    players = state.players
    out = []
    by_bonus: dict[int, list[str]] = {}
    for p, (bonus, _a, _m) in zip(players, state.final, strict=True):
        if bonus:
            by_bonus.setdefault(bonus, []).append(p.name)
    for bonus in sorted(by_bonus, reverse=True):
        who = by_bonus[bonus]
        level = next(p.education for p in players if p.name == who[0])
        out.append(_t(lang, "Education {level}: {names} +{n}.", level=level, names=texts.join(who, lang), n=bonus))
    gains = [(p.name, a, m) for p, (_b, a, m) in zip(players, state.final, strict=True) if a or m]
    for name, a, m in gains:
        parts = []
        if a:
            parts.append(_t(lang, "+{n} for animal tokens", n=a))
        if m:
            parts.append(_t(lang, "+{n} for money", n=m))
        out.append(_t(lang, "{p}: {gains}.", p=name, gains=", ".join(parts)))
    return out
