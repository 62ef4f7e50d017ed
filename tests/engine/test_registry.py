"""The registry finds every game package by itself, and games other distributions declare."""

from __future__ import annotations

import dataclasses
import os
from importlib import metadata
from pathlib import Path

import pytest

from companion import games
from companion.engine.gamepack import GamePackage
from companion.engine.rules import RuleError
from companion.games.pocket.rules import PocketRules
from tests.support.syntax import parse


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


def test_a_package_is_wired_by_the_parts_its_init_lists_and_nothing_else() -> None:
    """The package's forms are those of the part its ``__init__`` names; the same rules in a package that
    lists no parts get none, though ``moves.py`` lies in their folder: no part is found by a file's name."""
    from companion.engine.moves import ordered
    from companion.games.pocket import moves as pocket_moves
    from companion.games.pocket.rules import PocketRules as Pocket

    pkg = games.package("pocket-galapagos")
    state = pkg.rules.setup(["Ann"], {})
    assert pkg.parts.moves is pocket_moves.moves
    # the package's own forms, each with its step, in step order (next, also, override)
    assert pkg.moves(state, "fr") == ordered(pocket_moves.moves(state, "fr")) != []
    bare = GamePackage(Pocket(), pkg.folder)
    assert bare.moves(state) == [] and bare.table_tags({"type": "end_turn"}) is None
    assert bare.course([{"round": 1}]) is None and bare.round_heading(3) == "Round 3" != pkg.round_heading(3)
    assert not hasattr(bare, "_hook")


#: the functions (and tables) a game's modules may hold, by module: each one present is a part of the game
PART_HOMES: dict[str, tuple[str, ...]] = {
    "moves": ("moves", "PROMPT_FOR_YOU", "PROMPT_FOR_TABLE", "PROMPT_FOR_OTHERS"),
    "prompts": ("PROMPT_FOR_YOU", "PROMPT_FOR_TABLE", "PROMPT_FOR_OTHERS"),
    "narrate": ("narrate", "describe", "hand_off"),
    "results": ("results", "round_of", "round_heading"),
    "course": ("course",),
    "words": ("figure",),
    "migrate": ("migrate", "RULES_VERSION"),
    "table_inputs": ("tag_action", "die_face", "lane_action", "at_timer_end", "table_tags", "component_kinds"),
}


def _part_name(name: str) -> str:
    return "rules_version" if name == "RULES_VERSION" else name.lower()


@pytest.mark.parametrize("game_id", ["galapagos-auction", "galapagos-dice", "pocket-galapagos", "galerapagos"])
def test_a_game_package_names_each_of_its_parts_in_its_init(game_id: str) -> None:
    """Every part a game's modules hold is listed in its ``__init__`` (the very object), and the list names
    only what those modules hold: a reader of the ``__init__`` sees all of the game."""
    import importlib
    import inspect

    pkg = games.package(game_id)
    listed = {f.name: getattr(pkg.parts, f.name) for f in dataclasses.fields(pkg.parts)}
    blank = {f.name: getattr(type(pkg.parts)(), f.name) for f in dataclasses.fields(pkg.parts)}
    found: dict[str, object] = {}
    for module, names in PART_HOMES.items():
        if not os.path.exists(os.path.join(pkg.folder, f"{module}.py")):
            continue
        mod = importlib.import_module(f"{pkg.package_name}.{module}")
        for name in names:
            if hasattr(mod, name):
                found.setdefault(_part_name(name), getattr(mod, name))
    assert found, "the walk really reads the game's modules"
    for part, obj in found.items():
        assert listed[part] is obj or listed[part] == obj, f"{game_id}: {part} is not listed in its __init__"
    assert {p for p, v in listed.items() if v != blank[p]} <= set(found)
    init = inspect.getsource(importlib.import_module(pkg.package_name))
    assert "Parts(" in init and all(f"{part}=" in init for part in found)


def test_no_part_is_found_by_a_modules_file_name() -> None:
    """The engine imports no game module by a name it makes up, and no game keeps a ``table.py`` (its table
    inputs are ``table_inputs.py``: ``companion/table/`` is the session)."""
    import ast

    source = (Path(games.__file__).parents[1] / "engine" / "gamepack.py").read_text(encoding="utf-8")
    calls = [n.func for n in ast.walk(parse(source)) if isinstance(n, ast.Call)]
    names = {getattr(f, "attr", getattr(f, "id", "")) for f in calls}
    imported = {a.name for n in ast.walk(parse(source)) if isinstance(n, ast.Import) for a in n.names}
    assert not names & {"import_module", "__import__"} and "importlib" not in imported
    folders = [p for p in Path(games.__file__).parent.iterdir() if (p / "__init__.py").exists()]
    assert len(folders) == 4 and not [p for p in folders if (p / "table.py").exists()]
