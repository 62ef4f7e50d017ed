"""galapagos-auction exchanges: "At any time, a player may exchange any two of his animal tokens
(equal or different ones) for one animal token of any kind from the supply.\""""

from __future__ import annotations

from dataclasses import replace

from tests.support.auction import (
    RULES,
    act,
    choose,
    finish_turns,
    new,
    next_tile,
    play,
    player,
    refused,
    to_round,
    view,
    with_player,
    with_track,
)


def test_exchange_two_different_tokens_for_any_kind() -> None:
    """"exchange any two of his animal tokens (equal or different ones) for one animal token of
    any kind from the supply" — a penguin though the round's tile shows none."""
    state = with_player(choose(new(), "N"), "Ann", animals={"sea_lion": 1, "iguana": 1}, education=12)
    supply = view(state)["supply"]
    state = play(state, act("exchange", "Ann", give=["sea_lion", "iguana"], take="penguin"))
    assert player(state, "Ann")["animals"] == {"sea_lion": 0, "iguana": 0, "tortoise": 0, "booby": 0, "penguin": 1, "crab": 0}
    after = view(state)["supply"]
    assert (after["sea_lion"], after["iguana"], after["penguin"]) == (supply["sea_lion"] + 1, supply["iguana"] + 1, supply["penguin"] - 1)
    assert player(state, "Ann")["money"] == 1500


def test_exchange_two_equal_tokens() -> None:
    """"(equal or different ones)": two sea lions for a tortoise; one sea lion is not enough."""
    state = with_player(choose(new(), "N"), "Ann", animals={"sea_lion": 2}, education=6)
    state = play(state, act("exchange", "Ann", give=["sea_lion", "sea_lion"], take="tortoise"))
    assert player(state, "Ann")["animals"]["tortoise"] == 1
    state = with_player(state, "Ann", animals={"sea_lion": 1})
    assert refused(state, act("exchange", "Ann", give=["sea_lion", "sea_lion"], take="tortoise")) == (
        "Ann does not hold two sea lions to exchange."
    )


def test_exchange_gives_only_tokens_held() -> None:
    """"any two of his animal tokens": an iguana Ann does not hold cannot be given."""
    state = with_player(choose(new(), "N"), "Ann", animals={"sea_lion": 1})
    assert refused(state, act("exchange", "Ann", give=["sea_lion", "iguana"], take="crab")) == (
        "Ann does not hold a sea lion and an iguana to exchange."
    )


def test_exchange_takes_exactly_two_tokens() -> None:
    """"exchange any two of his animal tokens ... for one animal token\""""
    state = with_player(choose(new(), "N"), "Ann", animals={"sea_lion": 3})
    assert refused(state, act("exchange", "Ann", give=["sea_lion"] * 3, take="iguana")) == (
        "Ann must give exactly two tokens to exchange, not 3."
    )


def test_exchange_costs_like_an_expedition() -> None:
    """"If he has not yet reached the corresponding animal token on the education track, he has
    to pay £200 for each animal token up to and including the chosen animal token." From field
    0 the crab on 15 is the fifth token ahead: £1000."""
    state = with_player(choose(new(), "N"), "Ann", animals={"sea_lion": 2})
    state = play(state, act("exchange", "Ann", give=["sea_lion", "sea_lion"], take="crab"))
    assert player(state, "Ann")["money"] == 500
    assert view(state)["bank"] == 1000


def test_exchange_unaffordable() -> None:
    state = with_player(choose(new(), "N"), "Ann", animals={"sea_lion": 2}, money=900)
    assert refused(state, act("exchange", "Ann", give=["sea_lion", "sea_lion"], take="crab")) == (
        "Ann has £900 and cannot pay £1000 for a crab."
    )


def test_exchange_at_any_time_even_out_of_turn() -> None:
    """"At any time": Dee exchanges during Ann's card play, during bidding, and while a tile is
    awaited — without using a card."""
    state = with_player(choose(new(), "N"), "Dee", animals={"sea_lion": 6}, education=25)
    state = play(state, act("exchange", "Dee", give=["sea_lion", "sea_lion"], take="crab"))
    assert view(state)["turn"] == "Ann"
    state = finish_turns(state)
    assert view(state)["phase"] == "tile"
    state = play(state, act("exchange", "Dee", give=["sea_lion", "sea_lion"], take="penguin"))
    state = next_tile(state)
    assert view(state)["phase"] == "bidding"
    state = play(state, act("exchange", "Dee", give=["sea_lion", "sea_lion"], take="booby"))
    assert player(state, "Dee")["animals"] == {"sea_lion": 0, "iguana": 0, "tortoise": 0, "booby": 1, "penguin": 1, "crab": 1}
    assert player(state, "Dee")["money"] == 1700


def test_exchange_does_not_use_a_card() -> None:
    """Exchanging is a special rule, not a card: seven cards can still be sold afterwards."""
    state = with_player(choose(new(), "N"), "Ann", animals={"sea_lion": 2})
    state = play(state, act("exchange", "Ann", give=["sea_lion", "sea_lion"], take="sea_lion"))
    state = play(state, act("sell_cards", "Ann", count=7))
    assert player(state, "Ann")["money"] == 2200


def test_exchange_needs_a_token_in_the_supply() -> None:
    """"one animal token of any kind from the supply": none left, no exchange — but tokens given
    back go to the supply first, so two crabs can always buy a crab."""
    state = with_player(choose(new(), "N"), "Ann", animals={"sea_lion": 2, "crab": 2}, education=15)
    state = replace(state, supply=state.supply[:5] + (0,))
    assert refused(state, act("exchange", "Ann", give=["sea_lion", "sea_lion"], take="crab")) == (
        "Ann cannot take a crab: none is left in the supply."
    )
    state = play(state, act("exchange", "Ann", give=["crab", "crab"], take="crab"))
    assert player(state, "Ann")["animals"]["crab"] == 1
    assert view(state)["supply"]["crab"] == 1


def test_exchange_cost_counts_tokens_on_the_same_field() -> None:
    """"up to and including the chosen animal token": booby and penguin both on 12, figure on
    10: either costs £400 (both tokens)."""
    state = with_track(choose(new(), "N"), booby=12)
    state = with_player(state, "Ann", animals={"sea_lion": 2}, education=10)
    state = play(state, act("exchange", "Ann", give=["sea_lion", "sea_lion"], take="booby"))
    assert player(state, "Ann")["money"] == 1100


def test_no_exchange_after_the_game_end() -> None:
    """Final scoring counts "1 point for each two animal tokens": once the game is over, tokens
    cannot change any more."""
    state = to_round(new(), 12)
    state = finish_turns(choose(state, "N"))
    state = with_player(state, "Ann", animals={"sea_lion": 2})
    assert view(state)["over"] is True
    assert refused(state, act("exchange", "Ann", give=["sea_lion", "sea_lion"], take="sea_lion")) == (
        "The game is over; no more actions can be taken."
    )
    assert RULES.expected(state).actions == ()
