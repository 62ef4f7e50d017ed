"""Shared helpers for the galerapagos tests (no tests of its own).

Positions are reached the way a table reaches them: set up, then play actions
through ``apply``, so every test goes through the public contract.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.rules import RuleError
from companion.games.galerapagos.rules import GalerapagosRules, State

RULES = GalerapagosRules()
FIVE = ["Ann", "Bob", "Cid", "Dan", "Eve"]
FOUR = ["Ann", "Bob", "Cid", "Dan"]


def new(players: list[str] | None = None, **options: Any) -> State:
    return RULES.setup(list(players or FIVE), options)


def play(state: State, *actions: dict[str, Any]) -> State:
    for action in actions:
        state, _ = RULES.apply(state, action)
    return state


def view(state: State, viewer: str | None = None) -> dict[str, Any]:
    return RULES.view(state, viewer)


def player(state: State, name: str) -> dict[str, Any]:
    return next(p for p in view(state)["players"] if p["name"] == name)


def alive(state: State) -> list[str]:
    return [p["name"] for p in view(state)["players"] if p["alive"]]


def refused(state: State, action: dict[str, Any], *words: str) -> RuleError:
    """Assert the action is refused, the state unchanged, and the sentence has these words."""
    before = RULES.fingerprint(state)
    with pytest.raises(RuleError) as info:
        RULES.apply(state, action)
    assert RULES.fingerprint(state) == before
    for word in words:
        assert word in info.value.message, info.value.message
    french = info.value.text("fr", "galerapagos")
    assert french and french != info.value.message, "every refusal has a French sentence"
    return info.value


# -- action builders -----------------------------------------------------------

def weather(water: int, hurricane: bool = False) -> dict[str, Any]:
    return {"type": "weather", "water": water, "hurricane": hurricane}


def hurricane() -> dict[str, Any]:
    return {"type": "weather", "water": 2, "hurricane": True}


def fish(p: str, n: int) -> dict[str, Any]:
    return {"type": "fish", "player": p, "fish": n}


def water(p: str) -> dict[str, Any]:
    return {"type": "water", "player": p}


def wood(p: str, extra: int = 0, snake: bool = False) -> dict[str, Any]:
    return {"type": "wood", "player": p, "extra": extra, "snake": snake}


def search(p: str) -> dict[str, Any]:
    return {"type": "search", "player": p}


def resource(p: str, kind: str, amount: int = 1, **extra: Any) -> dict[str, Any]:
    return {"type": "resource", "player": p, "resource": kind, "amount": amount, **extra}


def vote(p: str, target: str) -> dict[str, Any]:
    return {"type": "vote", "player": p, "target": target}


def tiebreak(p: str, target: str) -> dict[str, Any]:
    return {"type": "tiebreak", "player": p, "target": target}


def shoot(p: str, target: str) -> dict[str, Any]:
    return {"type": "shoot", "player": p, "target": target}


def no_card(p: str) -> dict[str, Any]:
    return {"type": "no_card", "player": p}


def close(state: State) -> dict[str, Any]:
    """The first player ends the moment to show cards (« nobody else »)."""
    return {"type": "close", "player": view(state)["first_player"]}


def closed(state: State) -> State:
    """The state once the moment to show cards is closed by the first player (the deaths applied)."""
    return play(state, close(state))


def survival(state: State) -> dict[str, Any]:
    """The first player's confirmation that everyone has acted (« go to survival? »)."""
    return {"type": "survival", "player": view(state)["first_player"]}


def searches(*names: str) -> list[dict[str, Any]]:
    """Everyone named searches the wreck (an action that leaves the tracks alone)."""
    return [search(p) for p in names]


def quiet_round(state: State, drops: int = 0) -> State:
    """A round where every castaway able to act searches the wreck (then the first player confirms)."""
    state = play(state, weather(drops))
    while view(state)["phase"] == "actions":
        state = play(state, search(view(state)["turn"]))
    if view(state)["phase"] == "acted":
        state = play(state, survival(state))
    return state


def fed_round(state: State, drops: int = 0, is_hurricane: bool = False) -> State:
    """A round where the first able castaway plays resource cards covering everyone's ration,
    then every castaway able to act searches the wreck (so hands never run out), or collects
    water once the wreck is empty."""
    state = play(state, {"type": "weather", "water": drops, "hurricane": is_hurricane})
    v = view(state)
    mouths = len(alive(state))
    feeder = max(v["players"], key=lambda p: p["cards"] if p["alive"] else -1)["name"]
    state = play(state, resource(feeder, "water", mouths), resource(feeder, "food", mouths))
    while view(state)["phase"] == "actions":
        actor = view(state)["turn"]
        state = play(state, search(actor) if view(state)["wreck"] else water(actor))
    if view(state)["phase"] == "acted":
        state = play(state, survival(state))
    return state


def food_vote_round_two() -> State:
    """Five castaways search in rounds 1 and 2 (Eve first in round 2): everyone has acted, the
    survival step waits for Eve's confirmation (a vote implies it): water 5 covers the five
    (0 left), food 4 does not, so a food vote comes; everyone holds 6 cards."""
    s = play(new(), weather(0), *searches(*FIVE))
    return play(s, weather(1), *searches("Eve", "Ann", "Bob", "Cid", "Dan"))
