"""Pocket Galapagos: the results screen of a solo game (won or lost, and why).

The rulebook (seed 003): "After taking a turn, if you did not lose, advance the Turn Number
tracker at the bottom by 1. If it reaches the last space, you win!"; "if two or more
POPULATIONS are at 0, the game ends and you lose"; "if there are three SPECIES of a single type
on INVASIVE SPECIES spaces, the game ends and you lose." The seed has no points: the score is the
number of turns survived.
"""

from __future__ import annotations

from typing import Any

from companion.engine import texts
from companion.games.pocket import rules as R

DOMAIN = R.PocketRules.id


def _t(lang: str, msgid: str, **params: Any) -> str:
    return texts.render(msgid, params, lang, DOMAIN)


def round_of(before: R.PocketState, action: dict[str, Any], after: R.PocketState) -> int:
    """The turn an action was played in (the state counts turns, not rounds)."""
    return before.turn


def round_heading(number: int, lang: str = "en") -> str:
    """A solo game's story is told turn by turn (the Turn Number tracker)."""
    return _t(lang, "Turn {turn}", turn=number)


def results(state: R.PocketState, lang: str = "en", events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """One row: the turns survived out of those to survive, the populations at the end, the outcome."""
    rules = R.PocketRules()
    outcome = rules.outcome(state)
    sentence = outcome.sentence(lang, DOMAIN) if outcome else ""
    won = state.result == "survived"
    pops = " · ".join(f"{_t(lang, s)} {n}" for s, n in zip(R.SPECIES, state.populations, strict=True))
    row = {"place": "", "name": state.player, "winner": won,  # a solo game ranks nobody
           "score": _t(lang, "{n} of {turns}", n=state.survived, turns=state.config.turns),
           "cells": [{"value": _t(lang, "won") if won else _t(lang, "lost"), "detail": pops}],
           "decides": "", "note": ""}
    return {"outcome": sentence, "tie": "", "score_label": _t(lang, "Turns survived"),
            "columns": [_t(lang, "Populations")], "decides_label": "",
            "rows": [row], "lines": []}
