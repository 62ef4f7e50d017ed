"""Pocket Galapagos — one package: rules, moves, narration, texts, screens, page fragments, table inputs.

``GAME`` is what every interface reads (see :mod:`companion.engine.gamepack`). The
rules live in ``rules.py``; import them from there.
"""

from __future__ import annotations

import os
from typing import Any

from companion.engine.gamepack import GamePackage
from companion.games.pocket.rules import PocketRules


class Package(GamePackage):
    order = 3
    #: a turn per card of the deck; populations, spaces and the invasive spaces, three lines each
    limits = {"rounds": 100, "charts": 3, "lines": 3, "score": (-1000, 1000), "value": (-1000, 1000)}
    cycle = ("populations", "prompt", "qr")
    example_players = ("Ann",)

    def describe(self, action: dict[str, Any], lang: str = "en", viewer: str | None = None) -> str:
        """A short line for a log or an undo button ("Rat card to the ocean (2 icons, inhabits)")."""
        from companion.games.pocket import narrate

        return narrate.describe(action, lang) or super().describe(action, lang, viewer)

    def page(self, state: Any, public: dict[str, Any], me: str | None, lang: str = "en") -> dict[str, Any]:
        """``board``: the trackers (and each after the end of the turn), the turn track, the species rows,
        the warning when ending the turn now would end the game, every label in ``lang``."""
        from companion.games.pocket import page

        return {"board": page.board(state, lang)}

    def screens(self) -> dict[str, Any]:
        from companion.games.pocket import oled

        return {"populations": oled.populations}

    def choose_screen(self, public: dict[str, Any], ctx: Any) -> str | None:
        # a solo game won or lost: the prompt says which and why
        return "prompt" if public.get("over") or ctx.editing else "populations"


GAME = Package(PocketRules(), os.path.dirname(__file__))
