"""What Pocket Galapagos' page fragments read (``templates/``): the board in the reader's words.

The fragments show the three population trackers, the turn track and the three
species rows. The public state has the numbers; this adds what a player wants
beside them and the web layer must not compute: each tracker after the
end-of-turn decrease, whether ending the turn now would lose or win, and every
label in the reader's language.
"""

from __future__ import annotations

from typing import Any

from companion.engine.texts import Term
from companion.games.pocket import words
from companion.games.pocket.rules import (
    HIGH,
    PLURAL,
    SPACES,
    SPECIES,
    PocketState,
    end_of_turn,
    invasive_takeover,
)

#: the outcome of a finished game, as the page says it under the board
OUTCOME = {
    "survived": "You survived every turn: you win.",
    "populations_collapsed": "Two or more populations are at 0: you lose.",
    "invasive_takeover": "Three {plural} sit on the invasive species: you lose.",
}
#: what ending the turn now would do, when it ends the game
WARNING = {
    "survived": "Ending the turn now wins the game.",
    "populations_collapsed": "Ending the turn now loses: two or more populations would be at 0.",
    "invasive_takeover": "Ending the turn now loses: three {plural} sit on the invasive species.",
}


def board(state: PocketState, lang: str = "en") -> dict[str, Any]:
    """The board as the fragments draw it (every text already in ``lang``)."""
    after, result = end_of_turn(state)
    over = state.result is not None
    pops = [{
        "species": species, "label": words.label(species, lang), "level": level, "of": HIGH,
        "after": None if over else new, "danger": not over and new == 0,
    } for species, level, new in zip(SPECIES, state.populations, after, strict=True)]
    turns = [{"n": n, "done": n <= state.survived, "now": n == state.turn and not over}
             for n in range(1, state.config.turns + 1)]
    rows = []
    for space, cards, room in zip(SPACES, state.spaces, state.config.capacity, strict=True):
        rows.append({
            "space": space, "label": words.label(space, lang),
            "cards": [{"species": c, "label": words.label(c, lang)} for c in cards],
            "room": room, "free": None if room is None else room - len(cards),
            "free_text": words.t("no limit", lang) if room is None else words.t(
                "{taken} of {room} spaces taken", lang, taken=len(cards), room=room),
        })
    out: dict[str, Any] = {
        "populations": pops, "turns": turns, "spaces": rows, "over": over,
        "turn_text": words.t("Turn {turn} of {turns}", lang, turn=state.turn, turns=state.config.turns),
        "survived_text": words.t("{count} of {turns} turns survived", lang, count=state.survived,
                                 turns=state.config.turns),
        "status": "playing" if not over else "won" if state.result == "survived" else "lost",
    }
    out["status_text"] = words.t(out["status"], lang)
    if over:
        out["outcome"] = _outcome(state, lang)
        out["warning"] = ""
    else:
        out["end_turn"] = result
        takeover = invasive_takeover(state.spaces) or "rat"
        out["warning"] = "" if result is None else words.t(WARNING[result], lang,
                                                             plural=Term(PLURAL[takeover]))
    return out


def _outcome(state: PocketState, lang: str) -> str:
    if state.result == "invasive_takeover":
        species = invasive_takeover(state.spaces) or "rat"
        return words.t(OUTCOME["invasive_takeover"], lang, plural=Term(PLURAL[species]))
    return words.t(OUTCOME[state.result or "survived"], lang)
