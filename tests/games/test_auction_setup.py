"""galapagos-auction set-up: money, figures, the education track, the supply, tiles, bonus tiles."""

from __future__ import annotations

import pytest

from companion import games
from companion.engine.rules import RuleError
from companion.games.auction.rules import DEFAULT_BONUS_ORDER, AuctionRules
from tests.support.auction import RULES, TILES, act, new, play, refused, view

START_TRACK = {"sea_lion": 0, "iguana": 3, "tortoise": 6, "booby": 9, "penguin": 12, "crab": 15}


def test_registry_maps_the_game_id() -> None:
    """docs/design.md: the ``game`` field ``galapagos-auction`` names this game."""
    assert isinstance(games.get("galapagos-auction"), AuctionRules)


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_players_start_with_1500_and_figures_on_0(count: int) -> None:
    """"Each player receives £1500." and "One figure is placed on the field 0 of the Exhibition
    Points track and the second figure is placed on the field 0 ... on the Education Track.\""""
    names = ["Ann", "Bob", "Cid", "Dee", "Eve"][:count]
    state = RULES.setup(names, {})
    v = RULES.view(state)
    assert [p["name"] for p in v["players"]] == names
    for p in v["players"]:
        assert (p["money"], p["education"], p["points"]) == (1500, 0, 0)
        assert set(p["animals"].values()) == {0}
    assert v["start_player"] == "Ann"
    assert (v["round"], v["over"], RULES.winners(state)) == (1, False, [])


@pytest.mark.parametrize("names", [["Ann"], ["A", "B", "C", "D", "E", "F"]])
def test_two_to_five_players(names: list[str]) -> None:
    """Five compass boards, "For each player: 1 compass board": 2 to 5 players."""
    with pytest.raises(RuleError, match="2 to 5 players"):
        RULES.setup(names, {})


def test_education_track_start_positions() -> None:
    """"1 token of each animal type is placed on the Education Track: sea lion on the field 0,
    iguana 3, tortoise 6, blue-footed booby 9, penguin 12, crab 15\""""
    assert RULES.view(RULES.setup(["Ann", "Bob"], {}))["education_track"] == START_TRACK


def test_supply_is_the_63_tokens_less_the_track() -> None:
    """"63 Animal Tokens: 13 sea lions, 12 iguanas, 11 tortoises, 10 boobies, 9 penguins,
    8 crabs" and "The remaining animal tokens are placed as an open supply\""""
    supply = RULES.view(RULES.setup(["Ann", "Bob"], {}))["supply"]
    assert supply == {"sea_lion": 12, "iguana": 11, "tortoise": 10, "booby": 9, "penguin": 8, "crab": 7}


def test_four_tiles_before_the_first_bid() -> None:
    """"one tile is placed face up on each of the square fields in the directions North, East,
    South and West": bidding starts once all four lie there."""
    state = RULES.setup(["Ann", "Bob"], {})
    v = RULES.view(state)
    assert (v["phase"], v["turn"]) == ("tile", None)
    assert v["tiles"] == {"N": None, "E": None, "S": None, "W": None}
    assert refused(state, act("pass", "Ann")) == "Ann cannot pass now: a species tile must first be laid on the N/E/S/W square."
    for square in ("N", "E", "S"):
        state = play(state, act("tile", direction=square, animals=TILES[square]))
        assert RULES.view(state)["phase"] == "tile"
    state = play(state, act("tile", direction="W", animals=TILES["W"]))
    v = RULES.view(state)
    assert (v["phase"], v["turn"]) == ("bidding", "Ann")
    assert v["tiles"] == TILES


def test_a_tile_shows_two_different_animals() -> None:
    """"15 Species Tiles, each depicting a pair of two different animals.\""""
    state = RULES.setup(["Ann", "Bob"], {})
    assert refused(state, act("tile", direction="N", animals=["crab", "crab"])) == "A species tile shows two different animals."
    refused(state, act("tile", direction="N", animals=["crab"]))
    refused(state, act("tile", direction="N", animals=["crab", "dodo"]))


def test_each_pair_is_one_tile() -> None:
    """15 tiles, the 15 pairs of six animals: a pair already used (either way round) cannot come
    again."""
    state = play(RULES.setup(["Ann", "Bob"], {}), act("tile", direction="N", animals=["crab", "iguana"]))
    message = refused(state, act("tile", direction="E", animals=["iguana", "crab"]))
    assert message == "The iguana and crab tile has already been used; each tile comes once."


def test_a_square_holds_one_tile() -> None:
    """"one tile is placed face up on each of the square fields\""""
    state = play(RULES.setup(["Ann", "Bob"], {}), act("tile", direction="N", animals=["crab", "iguana"]))
    assert refused(state, act("tile", direction="N", animals=["penguin", "booby"])) == (
        "The N square already holds the crab and iguana tile."
    )


def test_no_tile_during_bidding() -> None:
    assert refused(new(), act("tile", direction="N", animals=["penguin", "booby"])).startswith("No species tile is awaited")


def test_first_bonus_tile_face_up() -> None:
    """"The first bonus tile (the „1“ tile) is turned face up." — by default the flip order is
    the number tiles 1..6 then the animals (docs/rules-notes.md)."""
    v = RULES.view(RULES.setup(["Ann", "Bob"], {}))
    assert v["bonus_face_up"] == ["1"]
    assert v["bonus_face_down"] == list(DEFAULT_BONUS_ORDER[1:])
    assert list(DEFAULT_BONUS_ORDER) == ["1", "2", "3", "4", "5", "6", "sea_lion", "iguana", "tortoise", "booby", "penguin", "crab"]


def test_bonus_order_option() -> None:
    """Option ``bonus_order``: the 12 requirements in flip order (numbers may be ints)."""
    order = ["crab", 6, "5", "4", "3", "2", "1", "sea_lion", "iguana", "tortoise", "booby", "penguin"]
    v = view(new(bonus_order=order))
    assert v["bonus_face_up"] == ["crab"]
    assert v["bonus_face_down"][0] == "6"


@pytest.mark.parametrize(
    "order",
    [
        ["1", "2", "3"],
        ["1", "1", "3", "4", "5", "6", "sea_lion", "iguana", "tortoise", "booby", "penguin", "crab"],
        ["7", "2", "3", "4", "5", "6", "sea_lion", "iguana", "tortoise", "booby", "penguin", "crab"],
        "1,2,3",
    ],
)
def test_bonus_order_must_be_the_twelve_tiles(order) -> None:
    """"12 Bonus Tiles: 1 for each species and 1 for each number 1, 2, 3, 4, 5 and 6.\""""
    with pytest.raises(RuleError):
        RULES.setup(["Ann", "Bob"], {"bonus_order": order})


def test_unknown_option_is_refused() -> None:
    with pytest.raises(RuleError, match="no option \"speed\""):
        RULES.setup(["Ann", "Bob"], {"speed": 2})
