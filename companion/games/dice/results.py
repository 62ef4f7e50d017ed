"""Galápagos (dice): who moves next on the ribbon, and the results screen at the game's end.

The rulebook's end (seed 002, "End of the Game"): "players count their turtles: For a set of 6
different-color turtles = 8 points; For each additional turtle = 1 point. The winner is the person
with the most points. In case of a tie, all tied players win!" and, two players: "if a player
collects 5 turtles of the same color, he/she immediately wins."
"""

from __future__ import annotations

from typing import Any

from companion.engine import results as engine_results
from companion.engine import texts
from companion.games.dice import rules as R

DOMAIN = R.DiceRules.id


def _t(lang: str, msgid: str, **params: Any) -> str:
    return texts.render(msgid, params, lang, DOMAIN)





def results(state: R.DiceState, lang: str = "en", events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Points from sets of six colours (8 each) and the further turtles (1 each); a tie shares the win."""
    rules = R.DiceRules()
    scores = rules.scores(state)
    winners = set(rules.winners(state))
    names = list(state.table.players)
    rank = engine_results.places({n: (n in winners, scores[n]) for n in names})
    rows = []
    for i, name in enumerate(names):
        counts = R.colour_counts(state.table, state.hauls[i])
        sets = min(counts)
        more = sum(counts) - len(counts) * sets
        held = " · ".join(f"{_t(lang, c)} {k}" for c, k in zip(R.COLOURS, counts, strict=True) if k)
        rows.append({"place": rank[name], "name": name, "score": scores[name], "winner": name in winners,
                     "cells": [{"value": f"+{sets * R.SET_POINTS}", "detail": _t(lang, "{n} × 8", n=sets)},
                               {"value": f"+{more}", "detail": ""},
                               {"value": str(sum(counts)), "detail": held}],
                     "decides": "", "note": ""})
    rows.sort(key=lambda r: (r["place"], names.index(r["name"])))
    outcome = rules.outcome(state)
    sentence = outcome.sentence(lang, DOMAIN) if outcome else ""
    tie = ""
    if len(winners) > 1:
        tie = _t(lang, "{names} tie with {n} points: all tied players win.",
                 names=texts.join([n for n in names if n in winners], lang), n=max(scores.values()))
    return {
        "outcome": sentence, "tie": tie, "score_label": _t(lang, "Points"),
        "columns": [_t(lang, "Sets of six colours"), _t(lang, "Further turtles"), _t(lang, "Turtles")],
        "decides_label": "", "rows": rows,
        "lines": [_t(lang, "A set of six different colours gives 8 points, each further turtle 1 point.")],
    }
