"""galapagos-auction bidding: the six examples of seed 000 word for word, and every bidding rule.

Seating in these tests is Ann (starting player), Bob, Cid, Dee, clockwise.
"""

from __future__ import annotations

from tests.support.auction import (
    FOUR,
    act,
    finish_turns,
    new,
    next_tile,
    play,
    player,
    refused,
    view,
    with_player,
)


def example_1():
    """Example 1: The starting player places £300 in the direction West next to his compass
    board. The second player places £200 in the direction North next to his compass board. The
    third player passes, and finally, the fourth player places £200 in the direction North next
    to his compass board."""
    state = new()
    return play(
        state,
        act("bid", "Ann", direction="W", amount=300),
        act("bid", "Bob", direction="N", amount=200),
        act("pass", "Cid"),
        act("bid", "Dee", direction="N", amount=200),
    )


def test_example_1_each_player_bids_once_in_turn() -> None:
    """"Starting with the player currently holding the Starting Player figure and continuing
    clockwise around the table, each player may in turn place one bid" (Example 1)."""
    state = new()
    assert view(state)["turn"] == "Ann"
    state = play(state, act("bid", "Ann", direction="W", amount=300))
    assert view(state)["turn"] == "Bob"
    state = play(state, act("bid", "Bob", direction="N", amount=200))
    assert view(state)["turn"] == "Cid"
    state = play(state, act("pass", "Cid"))
    assert view(state)["turn"] == "Dee"
    assert view(state)["phase"] == "bidding"
    state = play(state, act("bid", "Dee", direction="N", amount=200))
    assert view(state)["phase"] == "actions"


def test_example_2_highest_total_wins() -> None:
    """Example 2: In the above example, the bids were W-300, N-200 and N-200. North thus
    received the highest total amount, and will be the chosen direction for this round."""
    assert view(example_1())["direction"] == "N"


def test_example_3_equal_totals_early_bid_wins() -> None:
    """Example 3: The following bids are placed: W-300, N-100, N-200. Since the West-bid was
    placed first, it beats the North-bids, even though the total amounts are equal."""
    state = play(
        new(FOUR[:3]),
        act("bid", "Ann", direction="W", amount=300),
        act("bid", "Bob", direction="N", amount=100),
        act("bid", "Cid", direction="N", amount=200),
    )
    v = view(state)
    assert v["direction"] == "W"
    assert v["start_player"] == "Ann"
    assert [p["money"] for p in v["players"]] == [1200, 1500, 1500]


def test_example_4_direction_reaching_the_total_first_wins() -> None:
    """Example 4: The following bids are placed: W-200, N-400, W-200. The total amounts are
    equal, but since North reached 400 first, North „wins“."""
    state = play(
        new(FOUR[:3]),
        act("bid", "Ann", direction="W", amount=200),
        act("bid", "Bob", direction="N", amount=400),
        act("bid", "Cid", direction="W", amount=200),
    )
    v = view(state)
    assert v["direction"] == "N"
    assert v["start_player"] == "Bob"
    assert [p["money"] for p in v["players"]] == [1500, 1100, 1500]


def test_example_5_tied_top_bid_goes_to_the_earlier_bidder() -> None:
    """Example 5: In example 1 above, North was chosen as the direction for this round. The
    second and fourth player both bid £200 for North, the second player thus receives the
    Starting Player figure."""
    assert view(example_1())["start_player"] == "Bob"


def test_example_6_only_bids_in_the_winning_direction_are_paid() -> None:
    """Example 6: In example 1 above, North was chosen, therefore the second and fourth player
    both have to pay their bids of £200. The (former) starting player keeps his £300."""
    v = view(example_1())
    assert [p["money"] for p in v["players"]] == [1500, 1300, 1500, 1300]


def test_highest_bid_in_the_winning_direction_takes_the_figure() -> None:
    """"the player placing the highest bid in this direction gets the Starting Player figure"
    — the highest bid, not the earliest: Bob's £100 loses to Dee's later £300."""
    state = play(
        new(),
        act("pass", "Ann"),
        act("bid", "Bob", direction="E", amount=100),
        act("bid", "Cid", direction="S", amount=300),
        act("bid", "Dee", direction="E", amount=300),
    )
    v = view(state)
    assert (v["direction"], v["start_player"]) == ("E", "Dee")
    assert [p["money"] for p in v["players"]] == [1500, 1400, 1500, 1200]


def test_no_bid_start_player_keeps_figure_and_chooses() -> None:
    """"If no bid is placed, the current starting player keeps the Starting Player figure, and
    may freely choose the direction for this round.\""""
    state = play(new(), *[act("pass", name) for name in FOUR])
    v = view(state)
    assert (v["phase"], v["turn"], v["start_player"], v["direction"]) == ("direction", "Ann", "Ann", None)
    assert "Ann must choose the direction" in refused(state, act("direction", "Bob", direction="S"))
    state = play(state, act("direction", "Ann", direction="S"))
    v = view(state)
    assert (v["phase"], v["direction"], v["turn"]) == ("actions", "S", "Ann")
    assert [p["money"] for p in v["players"]] == [1500] * 4


def test_direction_is_chosen_only_when_nobody_bid() -> None:
    """"If no bid is placed, the current starting player ... may freely choose the direction":
    not while the bids are still being placed, nor once the bids have decided it."""
    message = refused(new(), act("direction", "Ann", direction="S"))
    assert message == "Ann cannot choose the direction during the bidding: the start player chooses only when nobody has bid."
    state = play(new(), act("bid", "Ann", direction="W", amount=100), *[act("pass", n) for n in FOUR[1:]])
    message = refused(state, act("direction", "Ann", direction="S"))
    assert message == "Ann cannot choose the direction: this round's direction is already W."


def test_bid_out_of_turn_is_refused() -> None:
    """"each player may in turn place one bid" — Bob cannot bid before Ann."""
    message = refused(new(), act("bid", "Bob", direction="N", amount=100))
    assert message == "Bob cannot bid now: it is Ann's turn to bid."


def test_one_bid_per_player() -> None:
    """"each player may in turn place one bid" — Ann cannot bid twice in a round."""
    state = play(new(), act("bid", "Ann", direction="N", amount=100))
    assert refused(state, act("bid", "Ann", direction="E", amount=100)).startswith("Ann cannot bid now")


def test_bid_more_than_the_money_is_refused() -> None:
    """"placing any chosen amount of money next to his compass board" — only money he has."""
    message = refused(new(), act("bid", "Ann", direction="N", amount=1600))
    assert message == "Ann has £1500 and cannot bid £1600."
    state = play(new(), act("bid", "Ann", direction="N", amount=1500))
    assert view(state)["bids"][0]["amount"] == 1500


def test_bids_are_multiples_of_100() -> None:
    """"Game money in the denominations £100 and £500." — a bid is a number of £100 notes."""
    assert refused(new(), act("bid", "Ann", direction="N", amount=150)) == (
        "Ann cannot bid £150: a bid is a multiple of £100, at least £100 (or a pass)."
    )
    assert refused(new(), act("bid", "Ann", direction="N", amount=0)).startswith("Ann cannot bid £0:")


def test_bid_needs_a_real_direction() -> None:
    """Bids are placed "in a chosen direction": N, E, S or W."""
    assert "direction" in refused(new(), act("bid", "Ann", direction="X", amount=100))


def test_card_play_and_next_bidding_start_with_the_new_start_player() -> None:
    """"each player may in turn play action cards from his hand, starting with the
    just-determined starting player and continuing clockwise around the table" and
    "Thereafter, the current starting player starts the „Bidding ...“ phase of the next round."
    In example 1 Bob took the figure: Bob, Cid, Dee, Ann play, then Bob bids first."""
    state = example_1()
    turns = []
    while view(state)["phase"] == "actions":
        turns.append(view(state)["turn"])
        assert refused(state, act("done", "Ann" if turns[-1] != "Ann" else "Bob")).endswith("turn to play cards.")
        state = play(state, act("done", turns[-1]))
    assert turns == ["Bob", "Cid", "Dee", "Ann"]
    state = next_tile(state)
    v = view(state)
    assert (v["round"], v["phase"], v["turn"], v["start_player"]) == (2, "bidding", "Bob", "Bob")


def test_bids_are_cleared_each_round() -> None:
    """Each round has its own "Bidding for Direction" phase: last round's bids do not count."""
    state = next_tile(finish_turns(example_1()))
    assert view(state)["bids"] == []
    state = play(state, *[act("pass", n) for n in ("Bob", "Cid", "Dee", "Ann")])
    assert view(state)["phase"] == "direction"


def test_money_bid_cannot_be_spent_on_an_exchange_meanwhile() -> None:
    """Bids are money "placed next to his compass board": while it lies there (until the bids
    are evaluated), an exchange can only be paid from the rest."""
    state = play(new(), act("bid", "Ann", direction="N", amount=1300))
    state = with_player(state, "Ann", animals={"sea_lion": 2})
    message = refused(state, act("exchange", "Ann", give=["sea_lion", "sea_lion"], take="crab"))
    assert message == "Ann has £1500, £1300 of it bid, and cannot pay £1000 for a crab."
    state = play(state, act("exchange", "Ann", give=["sea_lion", "sea_lion"], take="iguana"))
    assert player(state, "Ann")["money"] == 1300
    state = play(state, *[act("pass", n) for n in ("Bob", "Cid", "Dee")])
    assert player(state, "Ann")["money"] == 0
