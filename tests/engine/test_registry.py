"""The registry finds every game package by itself, and games other distributions declare."""

from __future__ import annotations

import os
from importlib import metadata

import pytest

from companion import games
from companion.engine.gamepack import GamePackage
from companion.engine.rules import RuleError
from companion.games.pocket.rules import PocketRules


class _Solo(PocketRules):
    id = "solo-from-elsewhere"
    name = "Solo from elsewhere"


class _EntryPoint:
    name = "solo-from-elsewhere"

    def load(self) -> GamePackage:
        return GamePackage(_Solo(), os.path.dirname(__file__))


class _Broken:
    name = "broken"

    def load(self) -> GamePackage:
        raise ImportError("a distribution that lost a module")


@pytest.fixture
def fresh_registry(monkeypatch):
    monkeypatch.setattr(games, "_packages", None)
    yield
    games._packages = None


def test_the_packages_in_the_games_folder_are_found_by_scanning_it(fresh_registry) -> None:
    folders = sorted(d for d in os.listdir(os.path.dirname(games.__file__))
                     if os.path.exists(os.path.join(os.path.dirname(games.__file__), d, "__init__.py")))
    found = {os.path.basename(pkg.folder) for pkg in games.packages()}
    assert found == set(folders) and len(found) == 4


def test_a_game_from_another_distribution_is_found_and_a_broken_one_left_out(fresh_registry, monkeypatch) -> None:
    real = metadata.entry_points

    def entry_points(**kw):
        if kw.get("group") == games.ENTRY_POINTS:
            return [_EntryPoint(), _Broken()]
        return real(**kw)

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    assert "solo-from-elsewhere" in games.ids()
    assert games.get("solo-from-elsewhere").name == "Solo from elsewhere"
    assert len(games.ids()) == 5  # the four of this folder still load


def test_an_unknown_game_is_refused_with_the_known_ones_named(fresh_registry) -> None:
    with pytest.raises(RuleError, match="the games are"):
        games.get("chess")


def test_a_package_is_heard_by_convention_through_its_own_modules() -> None:
    """No code in ``__init__``: the package's moves.py, narrate.py and table.py are what interfaces get."""
    from companion.games.pocket import moves as pocket_moves

    pkg = games.package("pocket-galapagos")
    state = pkg.rules.setup(["Ann"], {})
    assert "moves" not in type(pkg).__dict__
    from companion.engine.moves import ordered

    # the package's own forms, each with its step, in step order (next, also, override)
    assert pkg.moves(state, "fr") == ordered(pocket_moves.moves(state, "fr")) != []
    bare = GamePackage(_Solo(), os.path.dirname(__file__))
    assert bare.moves(state) == [] and bare.table_tags({"type": "end_turn"}) is None
