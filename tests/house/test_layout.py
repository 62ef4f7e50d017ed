"""The house drawn from its imports (docs/layout.md): which floor may import which.

Read statically, from the syntax tree of every module (an import inside a function counts,
and so does ``importlib.import_module("web...")``), so a new import that breaks the direction
fails here before anyone runs the code path that makes it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.syntax import parse

ROOT = Path(__file__).resolve().parents[2]

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
    for node in ast.walk(parse(source)):
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
    """docs/design.md: the composition root in companion/cli/ is the only edge from the core to web/."""
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


# -- no loops inside a floor either ----------------------------------------------------------------

PRODUCT = ("companion", "web", "hw", "firmware_bridge")
LATE_REASON = "# late:"


def product_modules() -> dict[str, Path]:
    """Every module of the product by its dotted name (a package by its own name)."""
    modules = {}
    for top in PRODUCT:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def module_imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The product modules ``name`` imports anywhere in its file (at the top, inside functions, under
    ``TYPE_CHECKING``): ``from p import m`` names the submodule m when there is one, else p itself."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def known(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    found: set[str] = set()
    for node in ast.walk(parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(filter(None, (known(alias.name) for alias in node.names)))
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            prefix = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                target = f"{prefix}.{alias.name}"
                found.add(target if target in modules else known(prefix) or "")
    found.discard("")
    found.discard(name)
    return found


def import_loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                loops.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(loops)


def import_graph() -> dict[str, set[str]]:
    modules = product_modules()
    return {name: module_imports(name, path, modules) for name, path in modules.items()}


def test_no_module_imports_itself_back_through_others() -> None:
    """No import loop anywhere in the product, whether the import sits at the top, inside a function or
    under ``TYPE_CHECKING``: a piece two modules share gets a home of its own."""
    graph = import_graph()
    assert len(graph) > 150 and sum(map(len, graph.values())) > 300  # the walk really reads the product
    loops = import_loops(graph)
    assert loops == [], "modules importing each other:\n" + "\n".join(", ".join(loop) for loop in loops)


@pytest.mark.parametrize(("files", "loops"), [
    ({"a/__init__.py": "", "a/x.py": "from a import y\n", "a/y.py": "def f():\n    from a.x import g\n"},
     [["a.x", "a.y"]]),
    ({"a/__init__.py": "from a.x import f\n", "a/x.py": "from typing import TYPE_CHECKING\n"
      "if TYPE_CHECKING:\n    from a import Thing\n"}, [["a", "a.x"]]),
    ({"a/__init__.py": "from . import x\n", "a/x.py": "from .y import f\n", "a/y.py": "from . import x\n"},
     [["a.x", "a.y"]]),
    ({"a/__init__.py": "from a import x\n", "a/x.py": "from a.y import f\n", "a/y.py": "import json\n"}, []),
])
def test_the_loop_check_sees_late_typing_and_relative_imports(tmp_path: Path, files: dict[str, str],
                                                              loops: list[list[str]]) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    modules = {".".join(p.relative_to(tmp_path).with_suffix("").parts).removesuffix(".__init__"): p
               for p in sorted(tmp_path.rglob("*.py"))}
    graph = {name: module_imports(name, path, modules) for name, path in modules.items()}
    assert import_loops(graph) == loops


def late_imports_without_reason(source: str) -> list[int]:
    """The lines of imports inside a function that do not say why on their own line (``# late: …``)."""
    lines = source.splitlines()
    found = []
    for fn in ast.walk(parse(source)):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)) and LATE_REASON not in lines[node.lineno - 1]:
                    found.append(node.lineno)
    return sorted(set(found))


def test_an_import_inside_a_function_says_why_it_is_late() -> None:
    """An import waits inside a function only where the dependency is optional or costly at start-up,
    and the line says which (``# late: …``); every other import sits at the top of its module."""
    unexplained = [f"{path.relative_to(ROOT)}:{line}" for path in product_modules().values()
                   for line in late_imports_without_reason(path.read_text(encoding="utf-8"))]
    assert unexplained == [], "imports inside a function with no '# late: <why>':\n" + "\n".join(unexplained)


def test_the_late_import_check_reads_the_reason_on_the_line() -> None:
    source = ("import json\n\ndef f():\n    import yaml  # late: optional, only for the YAML export\n"
              "    from companion import games\n")
    assert late_imports_without_reason(source) == [5]
