"""French that agrees: « d'Ann », « qu'Eve », « l'iguane », « la tortue 36 (bleue) ».

The tester's report: « de Ann », « tortue 36 (bleu) ». Names and game words are
placeholders of the catalogs' sentences; the French word written before one that starts
with a vowel is elided (:func:`companion.engine.texts.elide`), and a colour after « tortue » or
« case » takes its feminine form from the catalog (``msgctxt "feminine"``). Random games
of each game (players named Ann, Eve, Oscar, Ines and Bob) are told in French, with the
refusals of moves bent out of shape, and none of these is left.
"""

from __future__ import annotations

import re

import pytest

from companion import games
from companion.engine import texts
from tests.games.test_plural_words import GAMES, shown

#: a word that should have been elided, and a colour left masculine after a feminine noun
UNELIDED = re.compile(r"(?<![\w'’])(de|De|que|Que|le|Le|la|La|ne|jusque|lorsque) [AEIOUÀÂÉÈÊÎÔaeiouàâéèêîô]")
MASCULINE = re.compile(r"\b(tortues?|cases?|Tortue|Case) \d+ \((noir|blanc|vert|bleu)\)")
#: a participle that gives Ann or Eve a man's ending: the story says « a la vie sauve », « guérit », « le serpent mord »
GENDERED = re.compile(r"\b(est soigné|est sauvé|mordu)\b")


def faults(lines: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in lines:
        for pattern in (UNELIDED, MASCULINE, GENDERED):
            hit = pattern.search(line)
            if hit:
                found.setdefault(hit.group(0), line)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_random_games_read_as_french(game: str) -> None:
    seeds = range(8) if game == "galerapagos" else range(2)
    french = [text for lang, text in shown(game, seeds) if lang == "fr"]
    assert len(french) > 100
    found = faults(french)
    assert not found, found


def test_the_check_sees_the_tester_s_sentences() -> None:
    bad = ["Le pion de Ann part de la case 1 (noir).", "Ann prend la tortue 36 (bleu).", "C'est au tour de Eve.",
           "Eve est soigné."]
    assert len(faults(bad)) == 5  # « de Ann », « case 1 (noir) », « tortue 36 (bleu) », « de Eve », « est soigné »
    assert not faults(["Le pion d'Ann part de la case 1 (noire).", "Bob prend la tortue 36 (bleue).",
                       "Le pion de Bob", "de Yann", "de Hugo"])


def test_names_elide_in_french_only() -> None:
    rules = games.get("galerapagos")
    s = rules.apply(rules.setup(["Ann", "Eve", "Bob"], {}), {"type": "weather", "water": 1})[0]
    from companion.engine.rules import RuleError

    with pytest.raises(RuleError) as info:
        rules.apply(s, {"type": "fish", "player": "Eve", "fish": 1})
    pkg = games.package("galerapagos")
    assert pkg.error_text(info.value, "fr") == "C'est au tour d'Ann d'agir, pas d'Eve."
    assert info.value.message == "It is Ann's turn to act, not Eve's."
    s = rules.apply(rules.setup(["Bob", "Yann", "Ann"], {}), {"type": "weather", "water": 1})[0]
    with pytest.raises(RuleError) as info:
        rules.apply(s, {"type": "fish", "player": "Yann", "fish": 1})
    assert pkg.error_text(info.value, "fr") == "C'est au tour de Bob d'agir, pas de Yann."


def test_a_turtle_and_a_field_take_the_feminine_colour() -> None:
    pkg = games.package("galapagos-dice")
    rules = pkg.rules
    s = rules.setup(["Ann", "Bob"], {})
    field = next(n for n in range(1, 37) if s.table.island.colour[n] == "black")
    after, events = rules.apply(s, {"type": "start", "player": "Ann", "field": field})
    assert pkg.narrate(s, {"type": "start", "player": "Ann", "field": field}, events, after, "fr") == [
        f"Le pion d'Ann part de la case {field} (noire)."]
    assert pkg.narrate(s, {"type": "start", "player": "Ann", "field": field}, events, after, "en") == [
        f"Ann's pawn starts on field {field} (black)."]
    for colour, french in (("blue", "bleue"), ("green", "verte"), ("white", "blanche"), ("red", "rouge")):
        assert texts.render("{c}", {"c": texts.Agreed(colour, "feminine")}, "fr", "galapagos-dice") == french
        assert texts.render("{c}", {"c": texts.Term(colour)}, "fr", "galapagos-dice") != french or colour == "red"
