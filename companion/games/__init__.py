"""The registry of games by id. Each module defines one :class:`companion.rules.Rules`."""

from __future__ import annotations

import importlib

from companion.rules import RuleError, Rules

#: game id -> "module:ClassName"; modules are imported on first use so a
#: missing or broken game never stops the others from loading.
_MODULES: dict[str, str] = {
    "galapagos-auction": "companion.games.auction:AuctionRules",
    "galapagos-dice": "companion.games.dice:DiceRules",
    "pocket-galapagos": "companion.games.pocket:PocketRules",
    "galerapagos": "companion.games.galerapagos:GalerapagosRules",
}

_cache: dict[str, Rules] = {}


def ids() -> list[str]:
    """Ids of the games whose module is present."""
    return [gid for gid in _MODULES if _load(gid, quiet=True) is not None]


def get(game_id: object) -> Rules:
    """The rules for ``game_id``; RuleError naming the known games otherwise."""
    if not isinstance(game_id, str) or game_id not in _MODULES:
        known = ", ".join(ids())
        raise RuleError(f"There is no game {game_id!r}; the games are {known}.")
    rules = _load(game_id, quiet=False)
    assert rules is not None
    return rules


def _load(game_id: str, quiet: bool) -> Rules | None:
    if game_id in _cache:
        return _cache[game_id]
    module_name, cls_name = _MODULES[game_id].split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name or not quiet:
            raise
        return None
    rules = getattr(module, cls_name)()
    _cache[game_id] = rules
    return rules
