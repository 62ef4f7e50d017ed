"""Galapagos, the dice game — one package: rules, moves, narration, texts, screens, page fragments, table inputs.

``GAME`` is what every interface reads (see :mod:`companion.engine.gamepack`): its parts are listed
at the end of this file, each where it lives. The rules live in ``rules.py``; import them from there.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

from companion.engine.gamepack import GamePackage, Parts
from companion.engine.rules import RuleError
from companion.games.dice import course, migrate, moves, narrate, pictures, results, table_inputs
from companion.games.dice.island import COLOURS, FIELDS, generate_layout, spiral_hexes
from companion.games.dice.paths import best_path
from companion.games.dice.rules import DiceRules, roll_dice

#: the sand timer's lengths a table may choose at the start, in seconds (the published one runs 30)
TIMER_RANGE = (10, 300)


class Package(GamePackage):
    order = 2
    #: the island empties in far fewer rounds; sets and turtles, then a chart per player (four at most)
    #: with a line per colour (six)
    limits = {"rounds": 200, "charts": 6, "lines": 6, "score": (0, 1000), "value": (0, 1000)}
    cycle = ("prompt", "timer", "scores", "qr")
    example_players = ("Ann", "Bob")
    automatic = ("timer_expired",)

    def screens(self) -> dict[str, Any]:
        from companion.games.dice import oled  # late: OLED only; Pillow is slow to import

        return {"timer": oled.timer}

    def choose_screen(self, public: dict[str, Any], ctx: Any) -> str | None:
        """The countdown while the sand runs during planning; during movement the generic
        prompt (« Cat moves »), whatever the sand does."""
        if public.get("timer") == "running" and public.get("phase") == "plan":
            return "timer"
        return None

    # -- the dashboard ----------------------------------------------------------------------
    def palette(self) -> dict[str, dict[str, str]]:
        return {"fill": dict(pictures.COLOUR_FILL), "ink": dict(pictures.COLOUR_INK), "shape": dict(pictures.COLOUR_SHAPE)}

    def page(self, state: Any, public: dict[str, Any], me: str | None, lang: str = "en") -> dict[str, Any]:
        """The island picture (pawns and turtles), and for a seat that rolled and may still plan, the plan hint
        (every seat but the first finisher's until the sand runs out)."""
        out: dict[str, Any] = {"island": pictures.of_public(public, lang)}
        rolled = (public.get("rolls") or {}).get(me) if me else None
        if rolled and public.get("phase") == "plan" and me != public.get("timer_turned_by"):
            try:
                best = best_path(state, me, rolled)
            except RuleError:  # no pawn yet, odd dice: no hint rather than no page
                best = None
            if best is not None:
                plan = {"type": "plan", "player": me, "dice": best["order"]}
                text = self.t("Best: {order} ({gain})", lang,
                              order=narrate.colours(best["order"], lang) or self.t("no dice", lang),
                              gain=moves.points_gained(best["points"], lang))
                out["hint"] = {**best, "json": json.dumps(plan), "text": text}
        return out

    def draws(self) -> dict[str, dict[str, Any]]:
        """Five dice thrown for a player whose dice are missing: it fills his « roll » move while it is offered."""
        return {"dice": {
            "fn": lambda state, rng, player=None: roll_dice(rng, player),
            "player": True, "action": "roll", "label": "Roll the dice",
        }}

    def setup_helpers(self, seed: int) -> dict[str, Any]:
        """A random island to build (its seed, its layout and its picture) - the rulebook's "built randomly"."""
        layout = generate_layout(seed)
        return {"seed": seed, "layout": layout, "island": pictures.island(layout),
                "start": {"layout_seed": seed}, "build": self._build(layout)}

    @staticmethod
    def _build(seeded: dict[str, Any]) -> dict[str, Any]:
        """The empty island for the page where a family enters the island it built by hand.

        Every position of the frame (the volcano and the 36 fields around it, drawn as they are
        laid out), the six colours as chips (each with the shape the island picture gives it, for
        grey and colour-blind eyes) and the numbers 1-36. ``option`` names the game
        option the entered island becomes: ``layout``, number -> ``{"colour", "hex"}``; each
        cell also carries the seeded island's colour and number, to start from that one.
        """
        at = {tuple(spec["hex"]): (int(n), spec["colour"]) for n, spec in seeded.items()}
        cells = []
        for q, r in spiral_hexes():
            x, y = pictures.hex_center(q, r)
            number, colour = at.get((q, r), (None, None))
            cells.append({"hex": [q, r], "x": round(x, 1), "y": round(y, 1), "points": pictures.hex_corners(x, y),
                          "seeded": {"number": number, "colour": colour}})
        pad = pictures.HEX_SIZE * 1.2
        wide, high = (max(abs(c[k]) for c in cells) + pad for k in ("x", "y"))
        return {
            "option": "layout", "cells": cells, "numbers": list(range(1, FIELDS + 1)),
            "colours": [{"value": c, "fill": pictures.COLOUR_FILL[c], "ink": pictures.COLOUR_INK[c],
                         "shape": pictures.COLOUR_SHAPE[c]} for c in COLOURS],
            "volcano": pictures.hex_corners(0, 0), "viewbox": f"{-wide:.0f} {-high:.0f} {2 * wide:.0f} {2 * high:.0f}",
        }

    def option_specs(self, lang: str = "en") -> list[dict[str, Any]]:
        """The two readings a table chooses: the two-player variant and the sand timer's length (any
        number of seconds in ``TIMER_RANGE``: a family with young children may want two minutes)."""
        return [
            {"name": "two_player_variant", "label": self.t("Two-player variant", lang),
             "choices": [{"value": False, "label": self.t("no", lang)}, {"value": True, "label": self.t("yes", lang)}],
             "default": False,
             "note": self.t("\"if a player collects 5 turtles of the same color, he/she immediately wins\" (2 players only)", lang)},
            {"name": "timer_seconds", "label": self.t("Sand timer", lang),
             "choices": [{"value": n, "label": self.t("{seconds} s", lang, seconds=n)} for n in (30, 45, 60, 90, 120)],
             "default": 30, "min": TIMER_RANGE[0], "max": TIMER_RANGE[1], "step": 5, "unit": "s",
             "note": self.t("The published sand timer runs 30 seconds.", lang)},
        ]

    def default_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """A new game with no island given gets a random one ("The island is built randomly")."""
        if "layout" in options or "layout_seed" in options:
            return options
        return {**options, "layout_seed": random.SystemRandom().randrange(1, 1_000_000)}


GAME = Package(DiceRules(), os.path.dirname(__file__), Parts(
    moves=moves.moves,
    prompt_for_you=moves.PROMPT_FOR_YOU,
    prompt_for_table=moves.PROMPT_FOR_TABLE,
    narrate=narrate.narrate,
    describe=narrate.describe,
    results=results.results,
    course=course.course,
    rules_version=migrate.RULES_VERSION,
    migrate=migrate.migrate,
    tag_action=table_inputs.tag_action,
    die_face=table_inputs.die_face,
    lane_action=table_inputs.lane_action,
    at_timer_end=table_inputs.at_timer_end,
    table_tags=table_inputs.table_tags,
    component_kinds=table_inputs.component_kinds,
))
