"""Galèrapagos: who acts next on the ribbon, the round a weather card opens, and the results screen.

The rulebook (seed 004): the castaways who embark on the raft win together ("Les joueurs qui
embarquent sur le radeau marquent un point" in a tournament); those who died of thirst or hunger,
were left behind or shot lose. The results say who survived and how each of the others died.
"""

from __future__ import annotations

from typing import Any

from companion.engine import texts
from companion.games.galerapagos import rules as R
from companion.games.galerapagos.state import DOMAIN

#: how a castaway's game ended, by the rules' cause of death ("" while alive)
FATES = {
    "thirst": "Died of thirst",
    "hunger": "Died of hunger",
    "left_behind": "Left behind on the island",
    "shot": "Shot",
}
LINES = {
    "thirst": "{p} died of thirst.",
    "hunger": "{p} died of hunger.",
    "left_behind": "{p} was left behind on the island.",
    "shot": "{p} was shot.",
}


def _t(lang: str, msgid: str, **params: Any) -> str:
    return texts.render(msgid, params, lang, DOMAIN)


def round_of(before: R.State, action: dict[str, Any], after: R.State) -> int:
    """A weather card opens its round (the round counter moves as it is turned); the rest is played in one."""
    return after.round if action.get("type") == "weather" else before.round





def results(state: R.State, lang: str = "en", events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Survivors first (they win together), then each dead castaway with how he died."""
    s = state
    rules = R.GalerapagosRules()
    scores = rules.scores(s)
    winners = set(rules.winners(s))
    rows = []
    for i, name in enumerate(s.names):
        won = name in winners
        if won:
            fate = _t(lang, "On the raft")
        elif s.alive[i]:
            fate = _t(lang, "Stayed on the island")
        else:
            fate = _t(lang, FATES.get(s.died[i], "Dead"))
        rows.append({"place": 1 if won else "", "name": name, "score": scores[name], "winner": won,
                     "cells": [{"value": fate, "detail": ""}], "decides": "",
                     "note": "" if won or s.alive[i] else "dead"})
    rows.sort(key=lambda r: (not r["winner"], s.names.index(r["name"])))  # no ranking among the dead
    outcome = rules.outcome(s)
    lines = []
    if winners:
        lines.append(_t(lang, "On the raft: {names}.", names=texts.join([n for n in s.names if n in winners], lang)))
    for i, name in enumerate(s.names):
        if not s.alive[i]:
            lines.append(_t(lang, LINES.get(s.died[i], "{p} died."), p=name))
    return {"outcome": outcome.sentence(lang, DOMAIN) if outcome else "", "tie": "",
            "score_label": _t(lang, "Points"), "columns": [_t(lang, "Fate")], "decides_label": "",
            "rows": rows, "lines": lines}
