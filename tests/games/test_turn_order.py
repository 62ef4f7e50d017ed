"""The turn order is the rules' own (``Expected.next``, ``start``, ``table_next``): the ribbon reads it.

No game's ``results.py`` works the turn order out again (docs/layout.md « One replay »).
"""

from __future__ import annotations

import importlib

import pytest

from companion import games
from tests.support.auction import act, new, play


@pytest.mark.parametrize("game", sorted(p.id for p in games.packages()))
def test_no_game_package_works_the_turn_order_out_in_its_results(game: str) -> None:
    module = games.package(game).rules.__class__.__module__.rsplit(".", 1)[0]
    try:
        results = importlib.import_module(module + ".results")
    except ModuleNotFoundError:
        return
    assert not hasattr(results, "turn")


def test_the_auction_bidding_goes_clockwise_and_names_nobody_before_the_last_bid() -> None:
    """"Starting with the player currently holding the Starting Player figure and continuing
    clockwise around the table, each player may in turn place one bid" (seed 000)."""
    pkg = games.package("galapagos-auction")
    rules = pkg.rules
    state = new()
    exp = rules.expected(state)
    assert exp.players == ("Ann",) and exp.next == ("Bob",) and exp.start == "Ann"
    assert pkg.turn(state, rules.public_state(state))["next"] == ["Bob"]
    state = play(state, act("bid", "Ann", direction="W", amount=300), act("bid", "Bob", direction="N", amount=200),
                 act("pass", "Cid"))
    exp = rules.expected(state)
    assert exp.players == ("Dee",) and exp.next == ()  # the last bid decides who starts the cards
    turn = pkg.turn(state, rules.public_state(state))
    assert turn["now"] == ["Dee"] and turn["next"] == [] and turn["start"] == "Ann"


def test_the_galerapagos_ribbon_is_the_rules_turn_order() -> None:
    pkg = games.package("galerapagos")
    rules = pkg.rules
    s = rules.setup(["Ann", "Bob", "Cid"], {})
    exp = rules.expected(s)
    assert exp.players == () and exp.next == ("Ann",) and exp.start == "Ann"  # a weather card, then Ann acts
    s, _ = rules.apply(s, {"type": "weather", "water": 0, "hurricane": False})
    exp = rules.expected(s)
    assert exp.players == ("Ann",) and exp.next == ("Bob",)
    assert pkg.turn(s, rules.public_state(s))["next"] == list(exp.next)
