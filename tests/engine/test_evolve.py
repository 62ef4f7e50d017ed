"""`companion.engine.rules.evolve`: the games' fast copy of a frozen state is `dataclasses.replace`.

The dice, pocket and auction rules copy their states with it after every action
(random playouts spent a fifth of each action in ``replace``). It must build exactly what
``replace`` builds, refuse a name that is no field, never touch the state it was given, and
leave to ``replace`` every class whose ``__init__`` does more than store its fields.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import InitVar, dataclass, field, replace

import pytest

from companion import games
from companion.engine.rules import evolve


@dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Slotted:
    a: int
    b: str = "x"


@dataclass(frozen=True)
class Checked:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("negative")


@dataclass(frozen=True)
class WithInitVar:
    a: int
    scale: InitVar[int] = 1
    b: int = field(init=False, default=0)


@pytest.mark.parametrize("cls", [Plain, Slotted])
def test_it_builds_what_replace_builds_and_leaves_the_original_alone(cls):
    state = cls(1)
    new = evolve(state, a=2)
    assert new == replace(state, a=2) and type(new) is cls
    assert state.a == 1 and new.a == 2 and new.b == state.b
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.a = 3  # type: ignore[misc]


@pytest.mark.parametrize("cls", [Plain, Slotted])
def test_a_name_that_is_no_field_is_refused_as_replace_refuses_it(cls):
    with pytest.raises(TypeError, match="no field 'c'"):
        evolve(cls(1), c=3)


def test_a_class_whose_init_checks_goes_through_replace():
    assert evolve(Checked(1), a=2) == Checked(2)
    with pytest.raises(ValueError, match="negative"):
        evolve(Checked(1), a=-1)  # __post_init__ ran
    with pytest.raises(ValueError, match="init=False"):  # replace's own refusal of a field __init__ does not take
        evolve(WithInitVar(1), b=5)


@pytest.mark.parametrize("game_id", ["galapagos-dice", "pocket-galapagos", "galapagos-auction"])
def test_random_games_reach_the_same_states_as_with_replace(game_id, monkeypatch):
    """A random game replayed with ``replace`` in place of ``evolve`` gives identical fingerprints."""
    rules = games.get(game_id)
    module = __import__(type(rules).__module__, fromlist=["evolve"])
    players = ["Ann", "Bob", "Cy"][: max(rules.min_players, min(3, rules.max_players))]
    rng = random.Random(7)
    state = rules.setup(players, {})
    actions = []
    for _ in range(150):
        cands = rules.candidates(state)
        if not cands:
            break
        actions.append(rng.choice(cands))
        state, _ = rules.apply(state, actions[-1])
    monkeypatch.setattr(module, "evolve", replace)
    again = rules.setup(players, {})
    for action in actions:
        again, _ = rules.apply(again, action)
    assert rules.fingerprint(again) == rules.fingerprint(state)
