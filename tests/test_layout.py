"""The house drawn from its imports (docs/layout.md): which floor may import which.

Read statically, from the syntax tree of every module (an import inside a function counts,
and so does ``importlib.import_module("web...")``), so a new import that breaks the direction
fails here before anyone runs the code path that makes it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# floor -> the top-level names (``companion.<floor>`` or a package) it must never import
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "companion/engine": ("web", "companion.drawing", "companion.table", "companion.board", "companion.cli"),
    # the drawing kit every OLED screen uses: below the games and the board, beside the engine
    "companion/drawing": ("web", "companion.games", "companion.table", "companion.board", "companion.club",
                          "companion.cli"),
    "companion/table": ("web", "companion.board", "companion.cli"),
    "companion/board": ("web", "companion.cli"),
    # a game sits beside the engine, below the board: its screens draw with companion/drawing/
    "companion/games": ("web", "companion.table", "companion.board", "companion.cli"),
    "companion/club": ("web", "companion.board", "companion.cli"),
    "web": ("companion.cli", "companion.board.controller", "companion.board.devices"),
    "hw": ("companion", "web"),
    "firmware_bridge": ("companion", "web"),
}


def imported(source: str) -> list[tuple[int, str]]:
    """Every module a source imports, with its line: ``import``, ``from … import``, ``import_module("…")``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return found


def breaks(module: str, forbidden: tuple[str, ...]) -> bool:
    return any(module == f or module.startswith(f + ".") for f in forbidden)


def violations(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    out = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for line, module in imported(path.read_text(encoding="utf-8")):
            if breaks(module, forbidden):
                out.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return out


def test_only_the_cli_imports_the_web_layer() -> None:
    """DESIGN.md: the composition root in companion/cli/ is the only edge from the core to web/."""
    outside = [p for p in sorted((ROOT / "companion").rglob("*.py")) if "cli" not in p.relative_to(ROOT).parts[1:2]]
    assert len(outside) > 50  # the walk really reads the core
    found = [f"{p.relative_to(ROOT)}:{line} imports {m}"
             for p in outside for line, m in imported(p.read_text(encoding="utf-8")) if breaks(m, ("web",))]
    assert found == []
    assert violations("companion/cli", ("web",)), "the composition root is expected to import web/"


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_imports_point_down_the_floors(folder: str) -> None:
    assert violations(folder, FORBIDDEN[folder]) == []


@pytest.mark.parametrize("source", [
    "import web\n",
    "from web.hub import Hub\n",
    "from web import create_app\n",
    "def later():\n    from web import pages\n",
    "import importlib\nimportlib.import_module('web.pages')\n",
])
def test_the_check_sees_every_way_to_import_the_web_layer(source: str) -> None:
    assert any(breaks(m, ("web",)) for _, m in imported(source))


def test_the_check_does_not_take_a_name_for_an_import() -> None:
    assert not any(breaks(m, ("web",)) for _, m in imported("import webbrowser\nweb = 1\nfrom companion import games\n"))


def test_no_flat_module_is_left_in_companion() -> None:
    """The core is grouped by concern: only the package's own files sit at its top."""
    flat = sorted(p.name for p in (ROOT / "companion").glob("*.py"))
    assert flat == ["__init__.py", "__main__.py"]


def test_a_game_draws_its_screens_without_the_board() -> None:
    """The one arrow that pointed up (a game's oled.py importing the board's canvas) is gone, and the
    check would see it come back."""
    assert violations("companion/games", ("companion.board",)) == []
    assert any(breaks(m, ("companion.board",)) for _, m in imported("from companion.board.screens.canvas import Canvas\n"))
    games_oled = sorted((ROOT / "companion" / "games").glob("*/oled.py"))
    assert games_oled and all(any(m.startswith("companion.drawing") for _, m in imported(p.read_text(encoding="utf-8")))
                              for p in games_oled)
