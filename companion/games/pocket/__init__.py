"""Pocket Galapagos — one package: rules, moves, narration, texts, screens, page fragments, table inputs.

``GAME`` is what every interface reads (see :mod:`companion.engine.gamepack`): its parts are listed
at the end of this file, each where it lives. The rules live in ``rules.py``; import them from there.
"""

from __future__ import annotations

import os
from typing import Any

from companion.engine.gamepack import GamePackage, Parts
from companion.games.pocket import course, moves, narrate, page, results
from companion.games.pocket.rules import PocketRules


class Package(GamePackage):
    order = 3
    #: a turn per card of the deck; populations, spaces and the invasive spaces, three lines each
    limits = {"rounds": 100, "charts": 3, "lines": 3, "score": (-1000, 1000), "value": (-1000, 1000)}
    cycle = ("populations", "prompt", "qr")
    example_players = ("Ann",)

    def page(self, state: Any, public: dict[str, Any], me: str | None, lang: str = "en") -> dict[str, Any]:
        """``board``: the trackers (and each after the end of the turn), the turn track, the species rows,
        the warning when ending the turn now would end the game, every label in ``lang``."""
        return {"board": page.board(state, lang)}

    def screens(self) -> dict[str, Any]:
        from companion.games.pocket import oled  # late: OLED only; Pillow is slow to import

        return {"populations": oled.populations}

    def choose_screen(self, public: dict[str, Any], ctx: Any) -> str | None:
        # a solo game won or lost: the prompt says which and why
        return "prompt" if public.get("over") or ctx.editing else "populations"


GAME = Package(PocketRules(), os.path.dirname(__file__), Parts(
    moves=moves.moves,
    prompt_for_you=moves.PROMPT_FOR_YOU,
    narrate=narrate.narrate,
    describe=narrate.describe,
    results=results.results,
    round_of=results.round_of,
    round_heading=results.round_heading,
    course=course.course,
))
