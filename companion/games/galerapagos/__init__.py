"""Galèrapagos — one package: rules, moves, narration, texts, screens, page fragments, table inputs.

``GAME`` is what every interface reads (see :mod:`companion.gamepack`). The
rules' public names are re-exported here for older imports.
"""

from __future__ import annotations

import os
from typing import Any

from companion.gamepack import GamePackage
from companion.games.galerapagos.rules import *  # noqa: F403
from companion.games.galerapagos.rules import GalerapagosRules


class Package(GamePackage):
    order = 4
    cycle = ("rations", "prompt", "scores", "qr")
    example_players = ("Ann", "Bob", "Cleo", "Dan")
    secret_fields = {"vote": ("target",)}

    def moves(self, state: Any, lang: str = "en") -> list[dict[str, Any]]:
        from companion.games.galerapagos.moves import moves

        return moves(state, lang)

    def screens(self) -> dict[str, Any]:
        from companion.games.galerapagos import oled

        return {"rations": oled.rations}

    def choose_screen(self, public: dict[str, Any], ctx: Any) -> str | None:
        if public.get("over") or ctx.editing:
            return None
        expected = set((public.get("expected") or {}).get("actions") or ())
        return "prompt" if expected & {"vote", "tiebreak"} else "rations"


GAME = Package(GalerapagosRules(), os.path.dirname(__file__))
