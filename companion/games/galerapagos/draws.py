"""Galèrapagos' digital draws: a weather deck shuffled as the rulebook says, and the next card drawn from it.

For a table without its weather cards: the session's seeded randomiser (recorded in the journal)
proposes the draw; the rules never roll by themselves (docs/design.md).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from companion.engine.rules import Action
from companion.games.galerapagos.state import (
    BOTTOM_CARDS,
    HURRICANE_WATER,
    WEATHER,
    WEATHER_CARDS,
    State,
)


def weather_deck_order(rng: random.Random, cards: Iterable[int] = WEATHER_CARDS,
                       hurricane_water: int = HURRICANE_WATER) -> list[Action]:
    """The whole deck as the set-up builds it, top first, as ``weather`` actions to journal.

    "Mélangez les cartes Météo, tirez-en 5 au hasard ... Mélangez la carte Ouragan et les
    5 cartes Météo et placez la pile ... Placez ensuite le reste des cartes dessus."
    """
    deck = list(cards)
    rng.shuffle(deck)
    bottom = [{"type": "weather", "water": w, "hurricane": False} for w in deck[:BOTTOM_CARDS]]
    bottom.append({"type": "weather", "water": hurricane_water, "hurricane": True})
    rng.shuffle(bottom)
    top = [{"type": "weather", "water": w, "hurricane": False} for w in deck[BOTTOM_CARDS:]]
    return top + bottom


def draw_weather(s: State, rng: random.Random) -> Action:
    """The next weather card for a table without its deck, drawn from what is left.

    Uniform over the cards left, the hurricane only once the bottom pile is reached:
    the same law as the physical set-up. The session journals the returned action.
    """
    next_round = s.round if s.phase == WEATHER else s.round + 1
    pool: list[Action] = [{"type": "weather", "water": w, "hurricane": False} for w in s.deck]
    if s.hurricane_left and (next_round >= s.opts.hurricane_from or not pool):
        pool.append({"type": "weather", "water": s.opts.hurricane_water, "hurricane": True})
    if not pool:  # more rounds than cards (a corrected deck): the table turns a card it has
        pool = [{"type": "weather", "water": 0, "hurricane": False}]
    return rng.choice(pool)
