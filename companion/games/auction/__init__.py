"""Galapagos, the auction game — one package: rules, moves, narration, texts, screens, page fragments, table inputs.

``GAME`` is what every interface reads (see :mod:`companion.engine.gamepack`): its parts are listed
at the end of this file, each where it lives. The rules live in ``rules.py``; import them from there.
"""

from __future__ import annotations

import os
from typing import Any

from companion.engine.gamepack import GamePackage, Parts
from companion.games.auction import course, moves, narrate, palette, results, table_inputs, words
from companion.games.auction.rules import SHARED_FIELD, AuctionRules, costs


class Package(GamePackage):
    order = 1
    #: twelve rounds; a chart per figure and the education track, a line per player (five at most) or animal (six)
    limits = {"rounds": 12, "charts": 4, "lines": 6, "score": (-10_000, 10_000), "value": (-10_000, 10_000)}
    cycle = ("prompt", "costs", "scores", "qr")
    example_players = ("Ann", "Bob", "Cleo")

    # -- the dashboard ------------------------------------------------------------------
    def page(self, state: Any, public: dict[str, Any], me: str | None, lang: str = "en") -> dict[str, Any]:
        """What the page fragments read besides the public state: the costs of ``me`` (a seat's phone)."""
        if me is None or me not in [p.name for p in state.players]:
            return {}
        return {"costs": costs(state, me)}

    def draws(self) -> dict[str, dict[str, Any]]:
        """The next species tile, for a table without its tile deck (only while a tile is awaited)."""
        return {"tile": {"fn": table_inputs.draw_tile, "player": False, "action": "tile", "label": "Draw a species tile"}}

    def option_specs(self, lang: str = "en") -> list[dict[str, Any]]:
        """The one reading a table chooses at set-up: are the tokens sharing the chosen animal's field paid?

        It changes money often in mid-game (two tokens stacked just ahead: £400
        or £200), so the table sees it before the first bid; the default is the
        companion's reading of "up to and including" (docs/rules-notes.md).
        """
        t = words.t
        return [{
            "name": "shared_field",
            "label": t("Tokens sharing the chosen animal's field", lang),
            "choices": [
                {"value": SHARED_FIELD[0], "label": t("paid too, £200 each", lang)},
                {"value": SHARED_FIELD[1], "label": t("not paid: only the chosen animal's token", lang)},
            ],
            "default": SHARED_FIELD[0],
            "note": t("The rulebook: \"you have to pay £200 for each animal token up to and including the chosen "
                      "animal token\". Penguin and crab both on field 15, your figure on 12: a crab costs £400 if "
                      "the penguin is paid too, £200 if not.", lang),
        }]

    def palette(self) -> dict[str, dict[str, str]]:
        """The tokens' own colours, inks and shapes (:mod:`companion.games.auction.palette`)."""
        return {"fill": dict(palette.FILL), "ink": dict(palette.INK), "shape": dict(palette.SHAPE)}

    def screens(self) -> dict[str, Any]:
        from companion.games.auction import oled  # late: OLED only; Pillow is slow to import

        return {"costs": oled.costs}

    def choose_screen(self, public: dict[str, Any], ctx: Any) -> str | None:
        if public.get("phase") == "actions" and (ctx.data or {}).get("costs"):
            return "costs"
        return None

    def screen_data(self, state: Any, lang: str = "en") -> dict[str, Any]:
        public = self.rules.view(state)
        player = public.get("turn") or public.get("start_player")
        return {"costs": costs(state, player)} if player else {}


GAME = Package(AuctionRules(), os.path.dirname(__file__), Parts(
    moves=moves.moves,
    prompt_for_you=moves.PROMPT_FOR_YOU,
    prompt_for_table=moves.PROMPT_FOR_TABLE,
    narrate=narrate.narrate,
    describe=narrate.describe,
    results=results.results,
    course=course.course,
    figure=words.figure,
    tag_action=table_inputs.tag_action,
    table_tags=table_inputs.table_tags,
    component_kinds=table_inputs.component_kinds,
))
