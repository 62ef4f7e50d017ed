"""Galèrapagos — one package: rules, moves, narration, texts, screens, page fragments, table inputs.

``GAME`` is what every interface reads (see :mod:`companion.engine.gamepack`): its parts are listed
at the end of this file, each where it lives. The rules live in ``rules.py``; import them from there.
"""

from __future__ import annotations

import os
import random
from typing import Any

from companion.engine.gamepack import GamePackage, Parts
from companion.games.galerapagos import course, moves, narrate, prompts, results, table_inputs
from companion.games.galerapagos.chances import odds
from companion.games.galerapagos.draws import draw_weather, weather_deck_order
from companion.games.galerapagos.options import match_totals, next_manche, option_specs
from companion.games.galerapagos.rules import GalerapagosRules, ballot_span
from companion.games.galerapagos.state import BOTTOM_CARDS, HURRICANE_WATER, WEATHER_CARDS


class Package(GamePackage):
    order = 4
    #: a round per weather card; rations and raft (three lines each), and a tournament's chart (a point per manche,
    #: ten at most, and a line per castaway, twelve at most)
    limits = {"rounds": 60, "charts": 3, "lines": 12, "score": (-1000, 1000), "value": (-1000, 1000)}
    cycle = ("rations", "prompt", "scores", "qr")
    example_players = ("Ann", "Bob", "Cleo", "Dan")
    secret_fields = {"vote": ("target",)}
    #: a card played for someone is paid by ``by``: a phone plays only its own cards for itself
    seat_fields = {"sick": ("player", "by"), "heal": ("player", "by"), "revive": ("player", "by")}
    gauges = {"water": "Water", "food": "Food", "wood": "Raft track", "rafts": "Raft places"}

    def screens(self) -> dict[str, Any]:
        from companion.games.galerapagos import oled  # late: OLED only; Pillow is slow to import

        return {"rations": oled.rations, "scores": oled.scores}

    def choose_screen(self, public: dict[str, Any], ctx: Any) -> str | None:
        if ctx.editing:
            return None
        if public.get("over"):  # in a tournament the scores screen shows the match's totals
            return "scores" if public.get("match") else None
        if public.get("match") and public.get("phase") == "weather" and public.get("round") == 1:
            return "scores"
        expected = set((public.get("expected") or {}).get("actions") or ())
        return "prompt" if expected & {"vote", "tiebreak", "survival", "no_card", "close"} else "rations"

    # -- the dashboard ----------------------------------------------------------------------
    def page(self, state: Any, public: dict[str, Any], me: str | None, lang: str = "en") -> dict[str, Any]:
        """The odds (snake risk and wood per announcement, catch, rations after the round, the hurricane's
        chance, what the raft lacks), the moment to show cards in a sentence, a dead castaway's line."""
        extra: dict[str, Any] = {"odds": odds(state), "chances": narrate.chances(state, lang),
                                 "card_names": moves.CARD_LABELS}
        if me in state.names:
            i = state.names.index(me)
            if not state.alive[i]:
                extra["death"] = narrate.death_line(state.died[i], lang, state.opts.dead_vote)
        return extra

    def screen_data(self, state: Any, lang: str = "en") -> dict[str, Any]:
        return {"odds": odds(state), "chances": narrate.chances(state, lang)}

    def draws(self) -> dict[str, dict[str, Any]]:
        """The weather card, for a table without its deck (the hurricane only once the bottom pile is reached)."""
        return {"weather": {"fn": lambda state, rng, player=None: draw_weather(state, rng), "player": False,
                            "action": "weather", "label": "Draw a weather card"}}

    def option_specs(self, lang: str = "en") -> list[dict[str, Any]]:
        """The readings the table chooses at set-up, each with its default (docs/rules-notes.md)."""
        return option_specs(lang)

    # -- secrets at undo, acting for a seat, tournaments -------------------------------------------
    def undo_refusal(self, before: Any, action: dict[str, Any], after: Any, by_table: bool,
                     lang: str = "en") -> str | None:
        """A revealed ballot: no seat may take back the vote (or card) that revealed it."""
        if by_table or not _reveals(self.rules, before, action):
            return None
        return self.t("The votes are revealed: a vote can no longer be taken back. The table may take back "
                      "the whole ballot, and everyone votes again.", lang)

    def undo_span(self, before: Any, action: dict[str, Any], after: Any, by_table: bool) -> int:
        """The table takes back the whole ballot the action revealed (every vote hidden again)."""
        if by_table and _reveals(self.rules, before, action):
            return ballot_span(before)
        return 1

    def undo_notice(self, before: Any, action: dict[str, Any], lang: str = "en") -> str | None:
        if _reveals(self.rules, before, action):
            return self.t("The table took the ballot back: every vote is hidden again and everyone votes anew.",
                          lang)
        return None

    def table_may_act(self, action: dict[str, Any], phone_held: bool) -> bool:
        """Never a vote for a seat held by a phone; its other moves only through an explicit « act for »."""
        return not (phone_held and action.get("type") == "vote")

    def match_totals(self, records: list[dict[str, Any]]) -> dict[str, Any] | None:
        return match_totals(records)

    def next_manche(self, options: dict[str, Any], public: dict[str, Any]) -> dict[str, Any] | None:
        return next_manche(options, public)

    def default_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """A new tournament gets a match name of its own (its manches are found by it), manche 1."""
        manches = options.get("manches")
        if not isinstance(manches, int) or isinstance(manches, bool) or manches <= 0 or options.get("match"):
            return options
        name = "match-" + "".join(random.SystemRandom().choice("0123456789abcdef") for _ in range(6))
        return {**options, "match": name, "manche": options.get("manche", 1)}

    def setup_helpers(self, seed: int) -> dict[str, Any]:
        """The weather deck's cards and one order built the set-up's way (for a table that shuffles by hand)."""
        cards = [{"water": w, "hurricane": False} for w in WEATHER_CARDS]
        cards.append({"water": HURRICANE_WATER, "hurricane": True})
        order = [{"water": a["water"], "hurricane": a["hurricane"]}
                 for a in weather_deck_order(random.Random(seed))]
        return {"deck": {"seed": seed, "cards": cards, "order": order, "bottom": BOTTOM_CARDS + 1}}


def _reveals(rules: Any, before: Any, action: dict[str, Any]) -> bool:
    """Did ``action`` reveal a ballot? (Played again on ``before``: the rules are pure.)"""
    try:
        _, events = rules.apply(before, action)
    except Exception:  # noqa: BLE001 - a journal entry that no longer applies reveals nothing
        return False
    return any(e.get("event") == "reveal" for e in events)


GAME = Package(GalerapagosRules(), os.path.dirname(__file__), Parts(
    moves=moves.moves,
    prompt_for_you=prompts.PROMPT_FOR_YOU,
    prompt_for_table=prompts.PROMPT_FOR_TABLE,
    prompt_for_others=prompts.PROMPT_FOR_OTHERS,
    narrate=narrate.narrate,
    describe=narrate.describe,
    hand_off=narrate.hand_off,
    results=results.results,
    round_of=results.round_of,
    course=course.course,
    tag_action=table_inputs.tag_action,
    table_tags=table_inputs.table_tags,
    component_kinds=table_inputs.component_kinds,
))
