"""Galèrapagos at the table: what a tagged weather card or wooden ball laid on a reader means now.

* A **weather card** (``{"water": N, "hurricane": bool}``) laid on any reader is the card
  turned: ``weather``, with the drops printed on it (the hurricane card too: a card that does
  not fit the deck is accepted and corrects it, with a warning); a hurricane card
  enrolled without drops shows the game's (option ``hurricane_water``).
* A **wooden ball** (``{"fish": N, "snake": bool}``) on the scan pad: while a wood gamble is
  being dialled in (``entry`` says so), each ball drawn counts one more extra ball, and the
  black one says the snake bit; otherwise it is the acting castaway's catch, ``fish``.
"""

from __future__ import annotations

from typing import Any

from companion.engine.gamepack import component_value as _value
from companion.engine.gamepack import dialled as _entry
from companion.games.galerapagos import rules as R
from companion.games.galerapagos.state import HURRICANE_WATER

KINDS: dict[str, Any] = {
    "weather": {"water": "drops on the card (0-9)", "hurricane": "true for the hurricane card"},
    "ball": {"fish": "fish shown on the ball", "snake": "true for the black ball"},
}





def tag_action(component: Any, point: str, state: R.State, entry: Any = None) -> dict[str, Any] | None:
    """The action (or the fields to fill) a component laid on ``point`` stands for now; None: nothing."""
    kind, value = getattr(component, "kind", None), _value(component)
    if kind == "weather":
        if value.get("hurricane"):
            drops = value.get("water")
            if isinstance(drops, int) and not isinstance(drops, bool):
                return {"type": "weather", "hurricane": True, "water": drops}
            return {"type": "weather", "hurricane": True}
        water = value.get("water")
        if isinstance(water, bool) or not isinstance(water, int):
            return None
        return {"type": "weather", "water": water, "hurricane": False}
    if kind != "ball" or state.phase != R.ACTIONS:
        return None
    dialling, values = _entry(entry)
    if dialling == "wood":
        extra = values.get("extra") if isinstance(values.get("extra"), int) else 0
        if value.get("snake"):
            return {"fill": {"extra": max(1, extra), "snake": True}}
        return {"fill": {"extra": min(R.MAX_EXTRA_BALLS, extra + 1)}}
    fish = value.get("fish", 0)
    if isinstance(fish, bool) or not isinstance(fish, int):
        return None
    return {"type": "fish", "player": state.names[R.actor(state)], "fish": fish}


def table_tags(action: dict[str, Any], state: Any = None) -> list[tuple[str, str, dict[str, Any]]] | None:
    """How the table enters ``action`` with components: the weather card (its drops), the ball fished."""
    kind = action.get("type")
    if kind == "weather" and set(action) <= {"type", "water", "hurricane"}:
        if action.get("hurricane") is True:
            drops = state.opts.hurricane_water if isinstance(state, R.State) else HURRICANE_WATER
            water = action.get("water", drops)
            if isinstance(water, bool) or not isinstance(water, int):
                return None
            return [("scan", "weather", {"water": water, "hurricane": True})]
        water = action.get("water")
        if isinstance(water, int) and not isinstance(water, bool) and action.get("hurricane", False) is False:
            return [("scan", "weather", {"water": water, "hurricane": False})]
        return None
    if kind == "fish" and isinstance(action.get("fish"), int) and not isinstance(action.get("fish"), bool):
        return [("scan", "ball", {"fish": action["fish"], "snake": False})]
    return None


def component_kinds() -> dict[str, Any]:
    return {k: dict(v) for k, v in KINDS.items()}
