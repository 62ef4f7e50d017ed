"""galapagos-auction round upkeep ("Preparing the Next Round") and the twelve-round length."""

from __future__ import annotations

from tests.support.auction import (
    act,
    choose,
    finish_turns,
    new,
    next_tile,
    play,
    quiet_round,
    refused,
    to_round,
    view,
    with_player,
    with_track,
)


def after_round_1(square: str = "S"):
    """Round 1 played in ``square`` with nobody buying anything: upkeep has just run."""
    return finish_turns(choose(new(), square))


def test_tile_species_advance_one_step() -> None:
    """"The two animal kinds that were available this round (that is, the two species depicted
    on the species tile in the direction chosen this round) both advance one step on the
    education track." South shows crab and iguana."""
    track = view(after_round_1("S"))["education_track"]
    assert track == {"sea_lion": 0, "iguana": 4, "tortoise": 6, "booby": 9, "penguin": 12, "crab": 16}


def test_track_tokens_stop_at_25() -> None:
    """The Education track goes "from 0 to 25": a token on 25 stays there."""
    state = with_track(choose(new(), "S"), crab=25, iguana=24)
    track = view(finish_turns(state))["education_track"]
    assert (track["crab"], track["iguana"]) == (25, 25)


def test_tile_leaves_and_a_new_one_is_awaited() -> None:
    """"The species tile in the direction chosen this round is removed from play and replaced by
    a new tile from the species tile pile." The companion waits for that tile before bidding,
    and the removed tile never comes back."""
    state = after_round_1("S")
    v = view(state)
    assert (v["phase"], v["tiles"]["S"], v["round"]) == ("tile", None, 2)
    assert refused(state, act("bid", "Ann", direction="N", amount=100)).endswith("laid on the S square.")
    assert refused(state, act("tile", direction="E", animals=["penguin", "booby"])) == (
        "The E square already holds the tortoise and booby tile."
    )
    assert "already been used" in refused(state, act("tile", direction="S", animals=["crab", "iguana"]))
    state = play(state, act("tile", direction="S", animals=["penguin", "booby"]))
    v = view(state)
    assert (v["phase"], v["tiles"]["S"], v["turn"]) == ("bidding", ["penguin", "booby"], "Ann")


def test_next_bonus_tile_turns_face_up() -> None:
    """"The lowest-numbered face-down bonus tile is turned over.\""""
    assert view(after_round_1())["bonus_face_up"] == ["1", "2"]
    assert view(to_round(new(), 5))["bonus_face_up"] == ["1", "2", "3", "4", "5"]


def test_everyone_receives_200() -> None:
    """"Each player receives a payment of £200 from the bank.\""""
    state = play(new(), act("bid", "Ann", direction="N", amount=500), *[act("pass", n) for n in ("Bob", "Cid", "Dee")])
    state = finish_turns(state)
    v = view(state)
    assert [p["money"] for p in v["players"]] == [1200, 1700, 1700, 1700]
    assert v["bank"] == 500 - 800


def test_twelve_rounds_then_the_game_ends() -> None:
    """"after twelve rounds there are no more face-down bonus tiles left. After this twelfth
    round the game ends.\""""
    state = to_round(new(), 12)
    v = view(state)
    assert (v["round"], v["over"], len(v["bonus_face_up"]), v["bonus_face_down"]) == (12, False, 12, [])
    state = finish_turns(choose(state, "N"))
    v = view(state)
    assert (v["round"], v["over"], v["phase"], v["turn"]) == (12, True, "over", None)


def test_no_upkeep_after_the_last_round() -> None:
    """"After each round (except for the last, see Game End)": after round 12 no £200, no track
    step, and the tile stays."""
    state = choose(to_round(new(), 12), "W")
    before = view(state)
    after = view(finish_turns(state))
    assert [p["money"] for p in after["players"]] == [p["money"] for p in before["players"]]
    assert after["education_track"] == before["education_track"]
    assert after["tiles"] == before["tiles"]


def test_all_fifteen_tiles_are_used_in_twelve_rounds() -> None:
    """Four tiles at the start and one new tile after each of rounds 1–11: exactly the 15."""
    state = to_round(new(), 12)
    assert len(state.used_tiles) == 15


def test_quiet_rounds_keep_money_except_income() -> None:
    """Eleven upkeeps pay £200 each: £1500 + £2200 with no other flows."""
    state = to_round(new(), 12)
    assert [p["money"] for p in view(state)["players"]] == [3700] * 4


def test_education_figures_are_not_moved_by_upkeep() -> None:
    """Only "the two animal kinds" advance; the players' figures stay."""
    state = with_player(choose(new(), "S"), "Bob", education=5)
    state = next_tile(finish_turns(state))
    assert [p["education"] for p in view(state)["players"]] == [0, 5, 0, 0]
    assert view(quiet_round(state))["round"] == 3
