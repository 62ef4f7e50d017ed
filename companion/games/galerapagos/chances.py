"""Galèrapagos' odds and what is left: the snake's chance, the fish and wood a gamble may bring, the weather still to come.

Pure helpers of the screens, the phones and the session (standard library only), read from a
state; kept beside the rules (:mod:`companion.games.galerapagos.rules`), which never call them
to decide anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb
from typing import Any

from companion.games.galerapagos.state import (
    ACTED,
    ACTIONS,
    BAG,
    BOTTOM_CARDS,
    DEPART,
    END,
    FOOD,
    MAX_EXTRA_BALLS,
    WATER,
    WEATHER,
    State,
    living_seats,
)


def snake_chance(extra: int, balls: int = len(BAG), black: int = 1) -> float:
    """Chance of the black ball among ``extra`` balls drawn together (k/6 for one in six)."""
    if extra <= 0 or black <= 0:
        return 0.0
    if extra > balls - black:  # more balls than white ones: the black one must come
        return 1.0
    return 1.0 - comb(balls - black, extra) / comb(balls, extra)


def expected_fish(bag: Iterable[int] = BAG) -> float:
    bag = list(bag)
    return sum(bag) / len(bag)


def expected_wood(extra: int, balls: int = len(BAG)) -> float:
    """Pieces expected when announcing ``extra`` more: the free one, plus ``extra`` unless the snake bites."""
    return 1 + extra * (1 - snake_chance(extra, balls))


def cards_left(s: State) -> int:
    """Weather cards still face down, the hurricane included."""
    return len(s.deck) + s.hurricane_left


def hurricane_next(s: State) -> float:
    """The chance that the next weather card turned is the hurricane.

    It lies among the bottom six ("Mélangez la carte Ouragan et les 5 cartes Météo"):
    nil while cards above that pile remain, then one in the cards left.
    """
    left = cards_left(s)
    if not s.hurricane_left or left == 0 or left > BOTTOM_CARDS + 1:
        return 0.0
    return 1 / left


def _due(s: State) -> tuple[int, int]:
    """Water and food rations still to hand out this round (a ration given is not taken twice)."""
    living = len(living_seats(s))
    water_due = living if s.phase in (WEATHER, ACTIONS, ACTED, WATER, END) else 0
    food_due = living if s.phase in (WEATHER, ACTIONS, ACTED, WATER, FOOD, END) else 0
    if s.phase == DEPART:
        return 0, 0
    return water_due, food_due


def lack(s: State) -> dict[str, int]:
    """"To leave now we lack": raft cards, water and food for the voyage once this round is fed.

    At the end of a round the rations are handed out already; before it, they come first.
    """
    n = len(living_seats(s))
    water_due, food_due = _due(s)
    if s.phase == END:
        water_due = food_due = 0
    return {"rafts": max(0, n - s.rafts), "water": max(0, n - (s.water - water_due)),
            "food": max(0, n - (s.food - food_due - s.basket))}


def odds(s: State) -> dict[str, Any]:
    """Figures for the screens: snake risk, expected catch and wood, rations after this round, rounds left,
    the hurricane's chance next and what the raft still lacks."""
    living = len(living_seats(s))
    n = max(1, living)
    balls = len(s.opts.bag)
    # a ration already handed out this round is not taken twice: during the food count the
    # water is shared already, at the departure and at the end both are (at the end of an
    # ordinary round the figures look ahead to the coming round)
    water_due, food_due = _due(s)
    return {
        "snake": {str(k): snake_chance(k, balls) for k in range(1, MAX_EXTRA_BALLS + 1)},
        "wood": {str(k): round(expected_wood(k, balls), 3) for k in range(0, MAX_EXTRA_BALLS + 1)},
        "expected_fish": expected_fish(s.opts.bag),
        "water_after": s.water - water_due,
        "food_after": s.food - food_due,
        "water_rounds": s.water // n,
        "food_rounds": s.food // n,
        "hurricane_next": round(hurricane_next(s), 4),
        "weather_left": cards_left(s),
        "lack": lack(s),
    }


def deck_left(s: State) -> dict[str, int]:
    """The plain weather cards still face down, drops -> how many."""
    out: dict[str, int] = {}
    for w in s.deck:
        out[str(w)] = out.get(str(w), 0) + 1
    return out
