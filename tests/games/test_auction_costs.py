"""galapagos-auction ``costs``: what each option costs a player now, for the OLED and dashboard."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.engine.rules import RuleError
from companion.games.auction.rules import cost_lines, costs
from tests.support.auction import act, choose, new, play, with_player


def yellow_going_south():
    """The rulebook's example: going south (crab and iguana), the yellow figure on 7."""
    return with_player(choose(new(("Yellow", "Red")), "S"), "Yellow", education=7)


def test_expedition_costs_of_the_round_tile() -> None:
    """"if he chooses to take a crab, he has to pay £600 ... If he chooses an iguana, he does
    not have to pay anything\""""
    table = costs(yellow_going_south(), "Yellow")
    assert table["expedition"] == {"crab": 600, "iguana": 0}
    assert "crab £600" in cost_lines(yellow_going_south(), "Yellow")
    assert "iguana £0" in cost_lines(yellow_going_south(), "Yellow")


def test_education_costs_and_the_end_of_the_track() -> None:
    """The price table, less the step counts that would pass field 25."""
    assert costs(yellow_going_south(), "Yellow")["education"] == {"1": 100, "2": 300, "3": 600, "4": 1000}
    state = with_player(yellow_going_south(), "Yellow", education=23)
    assert costs(state, "Yellow")["education"] == {"1": 100, "2": 300}


def test_exchange_costs_every_animal() -> None:
    """Exchange "for one animal token of any kind" with the expedition price: from field 7 the
    sea lion, iguana and tortoise are reached; booby 1, penguin 2, crab 3 tokens ahead."""
    assert costs(yellow_going_south(), "Yellow")["exchange"] == {
        "sea_lion": 0, "iguana": 0, "tortoise": 0, "booby": 200, "penguin": 400, "crab": 600,
    }


def test_costs_agree_with_what_the_bank_charges() -> None:
    """The screen's figure is what ``apply`` then takes, for each animal of each tile."""
    state = with_player(choose(new(), "W"), "Ann", education=4)
    for animal, price in costs(state, "Ann")["expedition"].items():
        after = play(state, act("expedition", "Ann", animal=animal))
        assert after.players[0].money == 1500 - price


def test_costs_before_the_direction_is_chosen() -> None:
    """During bidding no round tile yet; ``by_direction`` shows each tile to weigh a bid."""
    table = costs(new(), "Bob")
    assert table["expedition"] == {}
    assert table["by_direction"]["S"] == {"crab": 1000, "iguana": 200}
    assert table["by_direction"]["N"] == {"sea_lion": 0, "iguana": 200}


def test_empty_supply_shows_none_left() -> None:
    state = yellow_going_south()
    state = replace(state, supply=state.supply[:5] + (0,))
    assert costs(state, "Yellow")["expedition"]["crab"] is None
    assert "crab none left" in cost_lines(state, "Yellow")


def test_sale_and_cards() -> None:
    """Sale "£600 from the bank"; selling cards "£100 from the bank for each card\""""
    table = costs(new(), "Ann")
    assert (table["sale"], table["sell_card"], table["money"]) == (600, 100, 1500)


def test_unknown_player() -> None:
    with pytest.raises(RuleError):
        costs(new(), "Zed")
