"""Galèrapagos' next step: which of the forms offered now the rulebook says comes next.

:mod:`companion.games.galerapagos.moves` builds every legal form; this module gives each its
step (``next``, ``also``, ``override`` with the question it asks first, see
:mod:`companion.engine.moves`) from the rulebook's order: the weather card, the castaways'
actions in turn, the survival step, the moments to show cards. Kept apart because the forms say
what is legal and this says what a table usually does next; the two change for different reasons.
"""

from __future__ import annotations

from companion.engine import texts
from companion.engine.moves import Form
from companion.games.galerapagos import rules as R
from companion.games.galerapagos.state import DOMAIN


def _t(lang: str, msgid: str) -> str:
    return texts.render(msgid, {}, lang, DOMAIN)


#: the question an override asks first (a line that skips a pause or a moment of the rulebook)
SKIPS_PAUSE = "Everyone has acted: skip the survival step's pause (cards and debate) and go on?"
SKIPS_MOMENT = "Cards may still be shown or given: close this moment and go on?"
SKIPS_DEPARTURE = "The raft can leave now: stay on the island and turn another weather card?"
SKIPS_RAFT = "Cards may still be played before the raft leaves: close this moment and vote for the places?"


def _without_card(s: R.State) -> list[int]:
    """Castaways the open moment asks who hold no card: someone may give them one."""
    return [i for i in R.concerned(s) if s.cards[i] == 0] if s.show in (R.ZERO, R.SAVE) else []


def _saving(s: R.State, i: int, kind: str) -> bool:
    """A card of ``kind`` from ``i`` is what the count waits for now (the pause's reason)."""
    if s.show == R.ZERO:
        return i in R.concerned(s) and kind == s.phase
    if s.show == R.SAVE:
        return i == s.condemned
    if s.show == R.RAFT:
        return i in R.concerned(s)
    # a shortage's ballot while the debate goes on: « Les joueurs peuvent jouer des cartes Eau pour
    # augmenter la ration. Si après l'utilisation des cartes la ration ne suffit toujours pas, procédez
    # à un vote »
    return (s.ballot is not None and s.debate and not s.tie and s.condemned < 0
            and (kind == s.phase or s.phase == R.DEPART))


def _step(s: R.State, f: Form, lang: str) -> tuple[str, str | None]:
    """The step of one form in state ``s`` (and the question of an override)."""
    kind, who = f["type"], f.get("player")
    i = s.names.index(who) if who in s.names else -1
    if f.get("implies") == "survival" or (s.phase == R.ACTED and kind in ("weather", "embark")):
        return "override", _t(lang, SKIPS_PAUSE)
    if f.get("correction"):  # a card the deck does not hold: the table corrects the companion's deck
        return "override", f.pop("correction")
    if kind == "weather":
        if s.show:
            return "override", _t(lang, SKIPS_MOMENT)
        if s.phase == R.END and not s.hurricane and R.embark_problem(s) is None:
            # the raft can leave: embarking is the step; another card keeps everyone on the island a round
            # more, which the table must mean (the companion asks, as for any line that skips a step)
            return "override", _t(lang, SKIPS_DEPARTURE)
        return "next", None
    if kind == "embark":
        ready = s.phase == R.END and not s.hurricane and R.embark_problem(s) is None
        return ("next" if ready else "also"), None
    if kind in ("vote", "debate") and s.show == R.RAFT:
        return "override", _t(lang, SKIPS_RAFT)
    if kind in ("survival", "fish", "water", "wood", "search", "tiebreak", "debate"):
        return ("also" if f.get("alias") else "next"), None
    if kind == "vote":
        return ("also" if s.debate else "next"), None
    if kind == "no_card":
        return ("next" if i in R.concerned(s) else "also"), None
    if kind == "resource":
        saves = any(_saving(s, i, c["value"]) for c in f["fields"][0]["choices"])
        return ("next" if saves else "also"), None
    if kind == "give":
        needy = [t for t in _without_card(s) if t != i]
        return ("next" if needy else "also"), None
    return "also", None  # close, shoot, permanent cards, sickness, revival: legal, never the flow


#: within « next », what saves comes before what gives up: a card or a gift, then « I have none »,
#: then the first player's end of the debate (« play cards, then the vote »)
_LATE = {"no_card": 1, "debate": 2}


def with_steps(s: R.State, forms: list[Form], lang: str) -> list[Form]:
    """Each form with its step (and an override's question), what saves before what gives up within « next »."""
    for f in forms:
        step, ask = _step(s, f, lang)
        f["step"] = step
        if step == "override":
            f["ask"] = ask
            f["confirm"] = True
    return sorted(forms, key=lambda f: _LATE.get(f["type"], 0) if f["step"] == "next" else 0)
