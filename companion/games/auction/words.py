"""The auction game's words in the reader's language: animals, directions, money, bonus tiles.

Moves, narration and screens all speak through these helpers so a word is
translated in exactly one place (the ``galapagos-auction`` gettext domain, see
``locale/``). Standard library and :mod:`companion.engine.texts` only.
"""

from __future__ import annotations

from typing import Any

from companion.engine import texts
from companion.games.auction.rules import A_LABELS, ANIMALS, DIRECTIONS, LABELS, PLURALS

DOMAIN = "galapagos-auction"
#: the direction letters spelled out (the squares N/E/S/W and the card colours)
DIRECTION_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


def t(msgid: str, lang: str = "en", **params: Any) -> str:
    """``msgid`` of this game in ``lang`` with ``params`` filled in."""
    return texts.render(msgid, params, lang, DOMAIN)


def animal(name: str, lang: str = "en") -> str:
    """"sea lion" / "otarie" for ``sea_lion``."""
    return t(LABELS[ANIMALS.index(name)], lang) if name in ANIMALS else str(name)


def a_animal(name: str, lang: str = "en") -> str:
    """With its article: "an iguana" / "un iguane"."""
    return t(A_LABELS[ANIMALS.index(name)], lang) if name in ANIMALS else str(name)


def animals_plural(name: str, lang: str = "en") -> str:
    return t(PLURALS[ANIMALS.index(name)], lang) if name in ANIMALS else str(name)


def animal_list(names: list[str], lang: str = "en") -> str:
    """"sea lion, tortoise and booby" in the reader's language."""
    return texts.join([animal(n, lang) for n in names], lang)


def pair(names: list[str], lang: str = "en") -> str:
    """A species tile: "sea lion + iguana"."""
    return " + ".join(animal(n, lang) for n in names)


def direction(letter: str | None, lang: str = "en") -> str:
    """"North" / "Nord" for ``N``."""
    if letter not in DIRECTION_NAMES:
        return str(letter)
    return t(DIRECTION_NAMES[letter], lang)


def letter(d: str, lang: str = "en") -> str:
    """The square's letter in the reader's language (W is O in French)."""
    return t(d, lang) if d in DIRECTIONS else str(d)


def money(amount: int, lang: str = "en") -> str:
    """"£300" (French: "300 £")."""
    return t("£{amount}", lang, amount=amount)


def price(amount: int | None, lang: str = "en") -> str:
    """A price on a button: "free", "£400", or "none left" (None)."""
    if amount is None:
        return t("none left", lang)
    return t("free", lang) if amount == 0 else money(amount, lang)


def bonus_tile(requirement: str, lang: str = "en") -> str:
    """A bonus tile by its requirement: "the 3 bonus tile" words: "3" or "crab"."""
    return animal(requirement, lang) if requirement in ANIMALS else str(requirement)


def points(n: int, lang: str = "en") -> str:
    """"1 point", "6 points" (French « 0 point », « 1 point », « 6 points »)."""
    return texts.Plural("{n} point", "{n} points", n).text(lang, DOMAIN)


#: every English game word, for the test that finds none in French texts
ENGLISH_WORDS = (
    "sea lion", "sea lions", "iguana", "iguanas", "tortoise", "tortoises", "booby", "boobies", "penguin",
    "penguins", "crab", "crabs", "North", "East", "South", "West", "bid", "bids", "pass", "passes",
    "education", "expedition", "sale", "exhibition", "exhibits", "exchange", "exchanges", "tile", "cards",
    "card", "round", "done", "wildcard", "free", "steps", "supply", "money", "takes", "sells", "pays",
    "keeps", "receives", "everyone", "turns", "wins", "start player", "none left",
)


#: the figures that are sums of money: the undo dialog writes them « £900 » (companion/table/amend.py)
MONEY_FIGURES = frozenset({"money", "bank", "free_money"})


def figure(key: str, value: float, lang: str = "en") -> str | None:
    """A figure's value the game's way (money with its sign), or None to leave it as a number."""
    if key in MONEY_FIGURES and float(value).is_integer():
        return money(int(value), lang)
    return None
