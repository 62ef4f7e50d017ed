"""Galèrapagos — one package: rules, moves, narration, texts, screens, page fragments, table inputs.

``GAME`` is what every interface reads (see :mod:`companion.gamepack`). The
rules' public names are re-exported here for older imports.
"""

from __future__ import annotations

import os
import random
from typing import Any

from companion.gamepack import GamePackage
from companion.games.galerapagos.rules import *  # noqa: F403
from companion.games.galerapagos.rules import (
    BOTTOM_CARDS,
    HURRICANE_WATER,
    WEATHER_CARDS,
    GalerapagosRules,
    draw_weather,
    odds,
    weather_deck_order,
)


class Package(GamePackage):
    order = 4
    cycle = ("rations", "prompt", "scores", "qr")
    example_players = ("Ann", "Bob", "Cleo", "Dan")
    secret_fields = {"vote": ("target",)}

    def moves(self, state: Any, lang: str = "en") -> list[dict[str, Any]]:
        from companion.games.galerapagos.moves import moves

        return moves(state, lang)

    def narrate(self, before: Any, action: dict[str, Any], events: list[dict[str, Any]], after: Any,
                lang: str = "en") -> list[str]:
        from companion.games.galerapagos.narrate import narrate

        return narrate(before, action, events, after, lang)

    def describe(self, action: dict[str, Any], lang: str = "en", viewer: str | None = None) -> str:
        from companion.games.galerapagos.narrate import describe

        return describe(action, lang, viewer)

    def screens(self) -> dict[str, Any]:
        from companion.games.galerapagos import oled

        return {"rations": oled.rations}

    def choose_screen(self, public: dict[str, Any], ctx: Any) -> str | None:
        if public.get("over") or ctx.editing:
            return None
        expected = set((public.get("expected") or {}).get("actions") or ())
        return "prompt" if expected & {"vote", "tiebreak"} else "rations"


    # -- the table's inputs ------------------------------------------------------------
    def tag_action(self, component: Any, point: str, state: Any, entry: Any = None) -> dict[str, Any] | None:
        """A weather card turned, or a wooden ball: the catch, or one more ball of a wood gamble."""
        from companion.games.galerapagos import table

        return table.tag_action(component, point, state, entry)

    def table_tags(self, action: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]] | None:
        from companion.games.galerapagos import table

        return table.table_tags(action)

    def component_kinds(self) -> dict[str, Any]:
        from companion.games.galerapagos import table

        return table.component_kinds()

    # -- the dashboard ----------------------------------------------------------------------
    def page(self, state: Any, public: dict[str, Any], me: str | None, lang: str = "en") -> dict[str, Any]:
        """The odds (snake risk per extra ball, expected catch, rations after the round) and the last chances."""
        from companion.games.galerapagos.narrate import chances

        return {"odds": odds(state), "chances": chances(state, lang)}

    def screen_data(self, state: Any, lang: str = "en") -> dict[str, Any]:
        from companion.games.galerapagos.narrate import chances

        return {"odds": odds(state), "chances": chances(state, lang)}

    def draws(self) -> dict[str, dict[str, Any]]:
        """The weather card, for a table without its deck (the hurricane only once the bottom pile is reached)."""
        return {"weather": {"fn": lambda state, rng, player=None: draw_weather(state, rng), "player": False,
                            "action": "weather", "label": "Draw a weather card"}}

    def setup_helpers(self, seed: int) -> dict[str, Any]:
        """The weather deck's cards and one order built the set-up's way (for a table that shuffles by hand)."""
        cards = [{"water": w, "hurricane": False} for w in WEATHER_CARDS]
        cards.append({"water": HURRICANE_WATER, "hurricane": True})
        order = [{"water": a["water"], "hurricane": a["hurricane"]}
                 for a in weather_deck_order(random.Random(seed))]
        return {"deck": {"seed": seed, "cards": cards, "order": order, "bottom": BOTTOM_CARDS + 1}}


GAME = Package(GalerapagosRules(), os.path.dirname(__file__))
