"""The registry of games: every package here, and those other distributions declare.

A game is a package ``companion/games/<folder>/`` whose ``__init__.py`` defines
``GAME`` (a :class:`companion.engine.gamepack.GamePackage`). The registry finds them
by scanning this folder, and also loads the entry points of the group
``galapagos_companion.games`` (``name = "module:GAME"``), the way pytest finds
plugins, so a game can come from another distribution. Packages are imported
on first use; one that fails to import is left out (and logged), never
stopping the others.
"""

from __future__ import annotations

import importlib
import logging
import os
import pkgutil
from importlib import metadata
from typing import Any

from companion.engine.rules import RuleError, Rules

log = logging.getLogger(__name__)
ENTRY_POINTS = "galapagos_companion.games"

_packages: dict[str, Any] | None = None


def _discover() -> dict[str, Any]:
    global _packages
    if _packages is not None:
        return _packages
    found: dict[str, Any] = {}
    here = os.path.dirname(__file__)
    for info in sorted(pkgutil.iter_modules([here]), key=lambda m: m.name):
        if not info.ispkg:
            continue
        _add(found, lambda name=info.name: importlib.import_module(f"{__name__}.{name}").GAME, info.name)
    try:
        eps = metadata.entry_points(group=ENTRY_POINTS)
    except Exception:  # a broken installed distribution must not stop the table
        eps = []
    for ep in eps:
        _add(found, ep.load, ep.name)
    _packages = found
    return found


def _add(found: dict[str, Any], load: Any, where: str) -> None:
    try:
        pkg = load()
    except Exception:
        log.exception("game package %s could not be loaded", where)
        return
    gid = getattr(getattr(pkg, "rules", None), "id", None)
    if not isinstance(gid, str) or gid in found:
        return
    found[gid] = pkg


def ids() -> list[str]:
    """Ids of the games found, in a stable order (the order of their ``order`` attribute, then id)."""
    pkgs = _discover()
    return sorted(pkgs, key=lambda gid: (getattr(pkgs[gid], "order", 99), gid))


def package(game_id: object) -> Any:
    """The :class:`GamePackage` of ``game_id``; RuleError naming the known games otherwise."""
    pkgs = _discover()
    if not isinstance(game_id, str) or game_id not in pkgs:
        raise RuleError("There is no game {game!r}; the games are {known}.", game=game_id, known=", ".join(ids()))
    return pkgs[game_id]


def get(game_id: object) -> Rules:
    """The rules of ``game_id``."""
    return package(game_id).rules


def packages() -> list[Any]:
    return [package(gid) for gid in ids()]
