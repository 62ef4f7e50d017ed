"""galapagos-auction narration: what each player paid when the bids settle, and the round's upkeep.

The sentences follow the rulebook's examples (seed 000, "Bidding for Direction and
Starting Player Figure", "Preparing the Next Round"): who wins the direction, who
takes the start player, who pays and who keeps the money bid elsewhere.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from random import Random

import pytest

from companion.engine.rules import RuleError
from companion.games.auction import GAME
from companion.games.auction.rules import AuctionState
from tests.support.auction import (
    RULES,
    act,
    choose,
    new,
    play,
    with_player,
    with_track,
)

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").glob("auction*.jsonl"))


def story(state: AuctionState, action: dict, lang: str = "en") -> list[str]:
    after, events = RULES.apply(state, action)
    return GAME.narrate(state, action, events, after, lang)


def test_example_1_north_wins_and_the_former_start_player_keeps_his_money() -> None:
    """Examples 1, 5 and 6: W-300, N-200, pass, N-200: North; the second player starts; both pay £200;
    "The (former) starting player keeps his £300"."""
    state = play(new(), act("bid", "Ann", direction="W", amount=300), act("bid", "Bob", direction="N", amount=200),
                 act("pass", "Cid"))
    lines = story(state, act("bid", "Dee", direction="N", amount=200))
    assert lines == [
        "Dee bids £200 on North.",
        "North wins with £400. Bob takes the start player and pays £200; Dee pays £200; "
        "Ann keeps £300 (bid on West); Cid passed and pays nothing.",
    ]


def test_example_4_a_tie_goes_to_the_direction_that_reached_it_first() -> None:
    """Example 4: "W-200, N-400, W-200. The total amounts are equal, but since North reached 400 first"."""
    state = play(new(("Ann", "Bob", "Cid")), act("bid", "Ann", direction="W", amount=200),
                 act("bid", "Bob", direction="N", amount=400))
    lines = story(state, act("bid", "Cid", direction="W", amount=200))
    assert lines[-1] == ("North wins with £400, reached first. Bob takes the start player and pays £400; "
                         "Ann keeps £200 (bid on West); Cid keeps £200 (bid on West).")


def test_the_start_player_who_wins_again_keeps_the_figure() -> None:
    state = play(new(("Ann", "Bob")), act("bid", "Ann", direction="E", amount=500))
    assert story(state, act("pass", "Bob"))[-1] == (
        "East wins with £500. Ann keeps the start player and pays £500; Bob passed and pays nothing.")


def test_nobody_bids_and_the_start_player_chooses() -> None:
    state = play(new(("Ann", "Bob")), act("pass", "Ann"))
    assert story(state, act("pass", "Bob")) == [
        "Bob passes.", "Nobody bid: Ann keeps the start player and chooses the direction."]
    state = play(state, act("pass", "Bob"))
    assert story(state, act("direction", "Ann", direction="S")) == ["Ann chooses South (crab and iguana)."]


def test_the_upkeep_names_the_income_the_track_and_the_bonus_tile() -> None:
    """"The two animal kinds that were available this round ... both advance one step"; "The lowest-numbered
    face-down bonus tile is turned over"; "Each player receives a payment of £200"."""
    order = ["1", "2", "crab", "3", "4", "5", "6", "sea_lion", "iguana", "tortoise", "booby", "penguin"]
    state = new(("Ann", "Bob"), bonus_order=order)
    state = replace(choose(state, "N"), round=2, flipped=2)
    state = with_track(state, sea_lion=2, iguana=4)
    state = play(state, act("done", "Ann"))
    assert story(state, act("done", "Bob")) == [
        "Bob is done.", "End of round 2: everyone receives £200; sea lion 2→3, iguana 4→5; the crab bonus tile turns."]


def test_a_token_at_the_track_end_stays_there() -> None:
    state = with_track(choose(new(("Ann", "Bob")), "W"), crab=25)
    state = play(state, act("done", "Ann"))
    assert story(state, act("done", "Bob"))[-1] == (
        "End of round 1: everyone receives £200; penguin 12→13, crab stays on 25; bonus tile 2 turns.")


def test_card_actions_say_what_was_paid_and_gained() -> None:
    state = with_player(replace(choose(new(("Ann", "Bob")), "S"), flipped=2), "Ann", animals={"booby": 2, "sea_lion": 1})
    assert story(state, act("education", "Ann", steps=2)) == [
        "Ann pays £300 and advances 2 steps on the education track (0→2)."]
    assert story(state, act("expedition", "Ann", animal="crab")) == ["Ann takes a crab for £1000."]
    assert story(state, act("expedition", "Ann", animal="iguana", wildcard=True)) == [
        "Ann plays two cards as a wildcard.", "Ann takes an iguana for £200."]
    assert story(state, act("sale", "Ann", animal="booby")) == ["Ann sells a booby for £600."]
    assert story(state, act("sell_cards", "Ann", count=3)) == ["Ann sells 3 cards for £300."]
    assert story(state, act("exchange", "Ann", give=["booby", "booby"], take="sea_lion")) == [
        "Ann exchanges two boobies for a sea lion (free)."]
    assert story(state, act("exhibition", "Ann", animals=["sea_lion", "booby"], bonus="2")) == [
        "Ann exhibits sea lion and booby: 6 points with bonus tile 2."]


def test_the_game_end_tells_every_score_and_the_winner() -> None:
    state = replace(choose(new(("Ann", "Bob")), "N"), round=12, flipped=12)
    state = with_player(with_player(state, "Ann", points=20, education=10, money=2300),
                        "Bob", points=21, animals={"crab": 3})
    state = play(state, act("done", "Ann"))
    assert story(state, act("done", "Bob")) == [
        "Bob is done.",
        "End of round 12: the game is over.",
        "Ann: 20 points from exhibitions, 4 for education, 0 for animals and 2 for money: 26 points.",
        "Bob: 21 points from exhibitions, 2 for education, 1 for animals and 1 for money: 25 points.",
        "Ann wins with 26 points.",
    ]


def test_describe_gives_a_short_line_for_every_action() -> None:
    assert GAME.describe(act("bid", "Ann", direction="N", amount=300)) == "Ann bids £300 on North"
    assert GAME.describe(act("tile", direction="E", animals=["crab", "iguana"])) == "Tile crab + iguana on East"
    assert GAME.describe(act("education", "Ann", steps=4, wildcard=True)) == "Ann advances 4 education steps (wildcard)"
    assert GAME.describe(act("exhibition", "Ann", animals=["crab", "booby"], bonus="crab")) == (
        "Ann exhibits crab and booby (bonus tile crab)")
    assert GAME.describe(act("exchange", "Ann", give=["crab", "crab"], take="penguin")) == (
        "Ann exchanges crab and crab for a penguin")
    assert GAME.describe(act("done", "Bob")) == "Bob is done"


@pytest.mark.parametrize("script", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_settled_auction_names_every_player_and_every_upkeep_is_told(script: Path) -> None:
    lines = [json.loads(line) for line in script.read_text().splitlines() if line.strip()]
    state = RULES.setup(lines[0]["players"], lines[0].get("options", {}))
    names = [p.name for p in state.players]
    for action in lines[1:]:
        try:
            after, events = RULES.apply(state, action)
        except RuleError:
            break
        told = GAME.narrate(state, action, events, after, "en")
        assert told and all(isinstance(s, str) and s for s in told)
        kinds = {e["type"] for e in events}
        if "direction" in kinds and action["type"] != "direction":
            settle = told[-1]
            assert all(name in settle for name in names), settle
            for event in events:
                if event["type"] == "money":
                    assert f"{event['player']} " in settle and f"£{-event['amount']}" in settle
        if "round" in kinds:
            assert told[-1].startswith(f"End of round {state.round}: everyone receives £200; ")
        state = after


def test_random_games_narrate_every_action() -> None:
    rng = Random(3)
    for players in (2, 5):
        state = RULES.setup(["Ann", "Bob", "Cid", "Dee", "Eve"][:players], {})
        while state.phase != "over":
            action = rng.choice(RULES.candidates(state))
            after, events = RULES.apply(state, action)
            for lang in ("en", "fr"):
                told = GAME.narrate(state, action, events, after, lang)
                assert told and all(told)
                assert GAME.describe(action, lang)
            state = after
