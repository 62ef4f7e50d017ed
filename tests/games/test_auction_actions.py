"""galapagos-auction card play: education, expedition, sale, selling cards, the 7-card hand.

Exhibitions and their bonus tiles are in test_auction_exhibition.py.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support.auction import (
    RULES,
    act,
    choose,
    new,
    play,
    player,
    refused,
    view,
    with_player,
    with_track,
)

# -- education ---------------------------------------------------------------

def test_anna_education_example() -> None:
    """Example: Anna plays an education card, pays £300 and advances two steps on the education
    track. Thereafter she plays another education card, pays £100 and advances another step."""
    state = choose(new(("Anna", "Ben")), "N")
    state = play(state, act("education", "Anna", steps=2))
    assert (player(state, "Anna")["money"], player(state, "Anna")["education"]) == (1200, 2)
    state = play(state, act("education", "Anna", steps=1))
    assert (player(state, "Anna")["money"], player(state, "Anna")["education"]) == (1100, 3)


@pytest.mark.parametrize(("steps", "price"), [(1, 100), (2, 300), (3, 600), (4, 1000)])
def test_education_price_table(steps: int, price: int) -> None:
    """| Price | £100 | £300 | £600 | £1000 | / | Number of steps | 1 | 2 | 3 | 4 |"""
    state = play(choose(new(), "N"), act("education", "Ann", steps=steps))
    assert player(state, "Ann")["money"] == 1500 - price
    assert player(state, "Ann")["education"] == steps
    assert view(state)["bank"] == price


@pytest.mark.parametrize("steps", [0, 5])
def test_education_is_one_to_four_steps(steps: int) -> None:
    """"you may advance your figure 1, 2, 3 or 4 steps on the education track\""""
    message = refused(choose(new(), "N"), act("education", "Ann", steps=steps))
    assert message == f"Ann can advance 1, 2, 3 or 4 steps on the education track, not {steps}."


def test_education_track_ends_at_25() -> None:
    """"an Education track (going from 0 to 25)": a figure on 23 may go 2 steps, not 3."""
    state = with_player(choose(new(), "N"), "Ann", education=23)
    message = refused(state, act("education", "Ann", steps=3))
    assert message == "Ann is on field 23 of the education track, which ends at 25, and cannot advance 3 steps."
    assert player(play(state, act("education", "Ann", steps=2)), "Ann")["education"] == 25


def test_education_unaffordable() -> None:
    """"you have to pay a price to the bank according to the following table\""""
    state = with_player(choose(new(), "N"), "Ann", money=500)
    assert refused(state, act("education", "Ann", steps=3)) == "Ann has £500 and cannot pay £600 for 3 education steps."


# -- expedition ----------------------------------------------------------------

def south_example():
    """Example: In this round, we are going south. ... The species tile in the south direction
    shows a crab and an iguana ... his figure is further advanced than the iguana on the
    education track. ... the crab is the third animal more advanced than his figure.

    The start track (iguana 3, tortoise 6, booby 9, penguin 12, crab 15) with the yellow
    player's figure on 7: booby, penguin and crab lie ahead of him, the crab third."""
    state = choose(new(("Yellow", "Red")), "S")
    return with_player(state, "Yellow", education=7)


def test_expedition_example_iguana_is_free() -> None:
    """"If he chooses an iguana, he does not have to pay anything, since his figure is further
    advanced than the iguana on the education track.\""""
    state = play(south_example(), act("expedition", "Yellow", animal="iguana"))
    assert player(state, "Yellow")["money"] == 1500
    assert player(state, "Yellow")["animals"]["iguana"] == 1
    assert view(state)["supply"]["iguana"] == 10


def test_expedition_example_crab_costs_600() -> None:
    """"if he chooses to take a crab, he has to pay £600 to the bank, since the crab is the
    third animal more advanced than his figure on the education track.\""""
    state = play(south_example(), act("expedition", "Yellow", animal="crab"))
    assert player(state, "Yellow")["money"] == 900
    assert player(state, "Yellow")["animals"]["crab"] == 1
    assert view(state)["supply"]["crab"] == 6


def test_expedition_only_the_two_animals_of_the_tile() -> None:
    """"Important: When playing an expedition card, you are not allowed to take any other kind
    of animal than the two given by the species tile in the current direction!\""""
    message = refused(south_example(), act("expedition", "Yellow", animal="penguin"))
    assert message == "Yellow cannot take a penguin: the S tile shows crab and iguana."


def test_expedition_token_on_the_figure_field_is_reached() -> None:
    """"if you have not yet reached the corresponding animal token": a figure on the token's
    own field has reached it, so the animal is free."""
    state = with_player(choose(new(), "E"), "Ann", education=6)
    state = play(state, act("expedition", "Ann", animal="tortoise"))
    assert player(state, "Ann")["money"] == 1500


def test_expedition_tokens_sharing_the_field_count() -> None:
    """"£200 for each animal token up to and including the chosen animal token": with the
    iguana and the crab both on field 15 and the penguin on 12, a figure on 10 pays for the
    penguin, the iguana and the crab whichever of the two it takes (£600)."""
    state = with_track(choose(new(), "S"), iguana=15, crab=15)
    state = with_player(state, "Ann", education=10)
    for animal in ("iguana", "crab"):
        after = play(state, act("expedition", "Ann", animal=animal))
        assert player(after, "Ann")["money"] == 900, animal


def test_expedition_from_field_0_pays_for_every_token_ahead() -> None:
    """£200 "for each animal token up to and including the chosen animal token": from field 0
    (on the sea lion) the booby on 9 is the third token ahead (iguana, tortoise, booby)."""
    state = play(choose(new(), "E"), act("expedition", "Ann", animal="booby"))
    assert player(state, "Ann")["money"] == 900


def test_expedition_unaffordable() -> None:
    """The expedition must be paid: "you have to pay £200 for each animal token\""""
    state = with_player(south_example(), "Yellow", money=500)
    assert refused(state, act("expedition", "Yellow", animal="crab")) == "Yellow has £500 and cannot pay £600 for a crab."


def test_refusal_names_the_animal_with_its_article() -> None:
    """Refusals are read aloud at the table, so an iguana is "an iguana": from field 0 the
    iguana on 3 is one token ahead (£200), which £100 cannot pay."""
    state = with_player(choose(new(), "S"), "Ann", money=100)
    assert refused(state, act("expedition", "Ann", animal="iguana")) == "Ann has £100 and cannot pay £200 for an iguana."


def test_expedition_only_while_supply_lasts() -> None:
    """"you may take one animal token from the general supply": 8 crabs, one on the track, so
    after 7 expeditions for crabs there are none left."""
    state = south_example()
    state = replace(state, supply=state.supply[:5] + (0,))
    assert refused(state, act("expedition", "Yellow", animal="crab")) == "Yellow cannot take a crab: none is left in the supply."


def test_several_expedition_cards_different_choices() -> None:
    """"If you play more than one expedition card, you can make a different choice for each
    card played.\""""
    state = play(south_example(), act("expedition", "Yellow", animal="iguana"), act("expedition", "Yellow", animal="crab"))
    assert player(state, "Yellow")["animals"] == {"sea_lion": 0, "iguana": 1, "tortoise": 0, "booby": 0, "penguin": 0, "crab": 1}


# -- sale and selling cards ----------------------------------------------------

def test_sale_returns_a_token_for_600() -> None:
    """"When playing a sale card, you may return any one of your animal tokens to the supply in
    order to receive £600 from the bank.\""""
    state = with_player(choose(new(), "N"), "Ann", animals={"penguin": 1})
    supply = view(state)["supply"]["penguin"]
    state = play(state, act("sale", "Ann", animal="penguin"))
    assert player(state, "Ann")["money"] == 2100
    assert player(state, "Ann")["animals"]["penguin"] == 0
    assert view(state)["supply"]["penguin"] == supply + 1
    assert view(state)["bank"] == -600


def test_sale_needs_the_token() -> None:
    """"return any one of your animal tokens": not one you do not have."""
    assert refused(choose(new(), "N"), act("sale", "Ann", animal="crab")) == "Ann has no crab to sell."


def test_selling_cards_100_each() -> None:
    """"he may discard any number of cards of this colour (without performing the associated
    actions) and receive £100 from the bank for each card discarded.\""""
    state = play(choose(new(), "N"), act("sell_cards", "Ann", count=3))
    assert player(state, "Ann")["money"] == 1800


def test_a_hand_holds_seven_cards() -> None:
    """"each player is dealt a hand of 7 cards" and refills "to seven cards": one turn can
    play at most seven cards (sold cards included), whatever the actions."""
    state = play(choose(new(), "N"), act("sell_cards", "Ann", count=5), act("education", "Ann", steps=1))
    message = refused(state, act("sell_cards", "Ann", count=2))
    assert message == "Ann has only 1 of 7 cards left this turn and cannot play 2."
    state = play(state, act("education", "Ann", steps=1))
    assert refused(state, act("education", "Ann", steps=1)) == (
        "Ann has already played all 7 cards of a hand this turn and cannot play another."
    )
    assert refused(state, act("sell_cards", "Ann", count=8)) == "Ann can sell 1 to 7 cards, not 8."
    state = play(state, act("done", "Ann"))
    state = play(state, act("sell_cards", "Bob", count=7))
    assert player(state, "Bob")["money"] == 2200


def test_card_actions_only_on_your_turn() -> None:
    """"Each player plays all cards he wishes to play before the next player gets his turn.\""""
    state = choose(new(), "N")
    assert refused(state, act("education", "Bob", steps=1)) == "Bob cannot play an education card now: it is Ann's turn to play cards."
    assert refused(state, act("sell_cards", "Cid", count=1)).startswith("Cid cannot sell cards now")


def test_no_card_play_during_bidding() -> None:
    """Cards are played in phase 2, "After determining the direction and starting player\""""
    assert refused(new(), act("education", "Ann", steps=1)) == "Ann cannot play an education card now: it is Ann's turn to bid."


def test_expected_lists_the_card_actions() -> None:
    """The OLED prompt: the player whose turn it is and the cards they may play."""
    exp = RULES.expected(choose(new(), "W"))
    assert exp.players == ("Ann",)
    assert {"education", "expedition", "sale", "exhibition", "sell_cards", "done", "exchange"} == set(exp.actions)


def test_wildcard_pair_counts_two_cards() -> None:
    """"Using two cards as a wildcard: ... he may discard any two cards of the same given colour
    and perform any one of the four available actions" — the action is the same, but it takes
    two of the seven cards."""
    state = choose(new(), "N")
    state = play(state, *[act("education", "Ann", steps=1, wildcard=True) for _ in range(3)])
    assert player(state, "Ann")["education"] == 3
    assert player(state, "Ann")["money"] == 1200
    assert refused(state, act("expedition", "Ann", animal="iguana", wildcard=True)).startswith("Ann has only 1 of 7 cards")
    state = play(state, act("expedition", "Ann", animal="iguana"))
    assert player(state, "Ann")["animals"]["iguana"] == 1
