"""Public states for screen and controller tests, built by replaying short scripts."""

from __future__ import annotations

import json
from typing import Any

from companion.engine.script import ScriptResult, run_lines

AUCTION = [
    {"game": "galapagos-auction", "players": ["Ann", "Bob", "Cy"]},
    {"type": "tile", "direction": "N", "animals": ["crab", "iguana"]},
    {"type": "tile", "direction": "E", "animals": ["sea_lion", "booby"]},
    {"type": "tile", "direction": "S", "animals": ["tortoise", "penguin"]},
    {"type": "tile", "direction": "W", "animals": ["crab", "booby"]},
    {"type": "bid", "player": "Ann", "direction": "S", "amount": 300},
    {"type": "pass", "player": "Bob"},
]
AUCTION_ACTIONS = AUCTION + [{"type": "pass", "player": "Cy"}]

DICE_PLANNING = [
    {"game": "galapagos-dice", "players": ["Ann", "Bob", "Cy"]},
    {"type": "start", "player": "Ann", "field": 1},
    {"type": "start", "player": "Bob", "field": 2},
    {"type": "start", "player": "Cy", "field": 3},
    {"type": "place_turtles", "numbers": [10, 11, 12, 13, 14, 15]},
    {"type": "plan", "player": "Bob", "dice": ["red", "blue"]},
]

POCKET = [
    {"game": "pocket-galapagos", "players": ["Ann"], "options": {}},
    {"type": "ocean", "species": "rat", "icons": 2, "mode": "inhabit"},
    {"type": "ocean", "species": "ant", "icons": 1, "mode": "migrate"},
]

GALERAPAGOS = [
    {"game": "galerapagos", "players": ["Ann", "Bob", "Cy", "Dee"]},
    {"type": "weather", "water": 2, "hurricane": False},
    {"type": "fish", "player": "Ann", "fish": 2},
    {"type": "wood", "player": "Bob", "extra": 2, "snake": False},
]


def replay(lines: list[dict[str, Any]]) -> ScriptResult:
    result = run_lines(json.dumps(line) for line in lines)
    assert result.ok, result.output
    return result
