"""Galapagos, the dice game — one package: rules, moves, narration, texts, screens, page fragments, table inputs.

``GAME`` is what every interface reads (see :mod:`companion.gamepack`). The
rules' public names are re-exported here for older imports.
"""

from __future__ import annotations

import os
from typing import Any

from companion.gamepack import GamePackage
from companion.games.dice.rules import *  # noqa: F403
from companion.games.dice.rules import DiceRules


class Package(GamePackage):
    order = 2
    cycle = ("prompt", "timer", "scores", "qr")
    example_players = ("Ann", "Bob")
    automatic = ("timer_expired",)

    def moves(self, state: Any, lang: str = "en") -> list[dict[str, Any]]:
        from companion.games.dice import moves

        return moves.moves(state, lang)

    def narrate(self, before: Any, action: dict[str, Any], events: list[dict[str, Any]], after: Any,
                lang: str = "en") -> list[str]:
        from companion.games.dice import narrate

        return narrate.narrate(before, action, events, after, lang)

    def describe(self, action: dict[str, Any], lang: str = "en", viewer: str | None = None) -> str:
        """Nothing in this game is secret: every viewer reads the same line."""
        from companion.games.dice import narrate

        return narrate.describe(action, lang)

    def screens(self) -> dict[str, Any]:
        from companion.games.dice import oled

        return {"timer": oled.timer}

    def choose_screen(self, public: dict[str, Any], ctx: Any) -> str | None:
        if public.get("timer") == "running":
            return "timer"
        return None


GAME = Package(DiceRules(), os.path.dirname(__file__))
