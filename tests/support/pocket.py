"""Shared helpers for the pocket-galapagos tests (no tests of its own).

Positions are reached the way a player reaches them at the table: set up with
options, then play actions, so every test goes through ``apply``.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.rules import RuleError
from companion.games.pocket.rules import PocketRules, PocketState

RULES = PocketRules()
END = {"type": "end_turn"}


def new(**options: Any) -> PocketState:
    """A solo game for Ann with these options."""
    return RULES.setup(["Ann"], options)


def play(state: PocketState, *actions: dict[str, Any]) -> PocketState:
    for action in actions:
        state, _ = RULES.apply(state, action)
    return state


def view(state: PocketState) -> dict[str, Any]:
    return RULES.view(state)


def pops(state: PocketState) -> dict[str, int]:
    """The three population trackers."""
    return RULES.view(state)["populations"]


def spaces(state: PocketState) -> dict[str, list[str]]:
    """The species on each species space, in play order."""
    return RULES.view(state)["spaces"]


def ocean(species: str, icons: int, mode: str = "inhabit") -> dict[str, Any]:
    return {"type": "ocean", "species": species, "icons": icons, "mode": mode}


def put(space: str, species: str) -> dict[str, Any]:
    """A face-down card played to a species space."""
    return {"type": "species", "space": space, "species": species}


def move(species: str, source: str, target: str) -> dict[str, Any]:
    return {"type": "move", "species": species, "from": source, "to": target}


def change(species: str, amount: int) -> dict[str, Any]:
    return {"type": "population", "species": species, "change": amount}


def refused(state: PocketState, action: dict[str, Any], match: str) -> None:
    """The action is refused with a sentence matching ``match`` and the state is untouched."""
    before = RULES.fingerprint(state)
    with pytest.raises(RuleError, match=match):
        RULES.apply(state, action)
    assert RULES.fingerprint(state) == before
