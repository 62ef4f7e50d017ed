"""galapagos-auction exhibitions and bonus tiles (seed 000, "Exhibition", "Bonus")."""

from __future__ import annotations

import pytest

from tests.support.auction import (
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
)

#: "3" and booby turn face up first, so by round 2 both lie face up (the bonus example).
ORDER = ["3", "booby", "1", "2", "4", "5", "6", "sea_lion", "iguana", "tortoise", "penguin", "crab"]


def exhibitor(order=None, **animals: int):
    """Ann on card play in round 2 (two bonus tiles face up) holding ``animals``."""
    state = to_round(new(bonus_order=order or ORDER), 2)
    state = choose(state, "N")
    return with_player(state, "Ann", animals=animals)


def test_exhibition_example_two_points_each() -> None:
    """Example: A player has the following animal tokens: a sea lion, a tortoise and a
    blue-footed booby. By playing an exhibition card, he may return one sea lion, the tortoise
    and one blue-footed booby to the supply in order to score 6 exhibition points.

    (Here the face-up bonus tile is "6", which three tokens do not fulfil.)"""
    order = ["6", "5", "4", "3", "2", "1", "sea_lion", "iguana", "tortoise", "booby", "penguin", "crab"]
    state = choose(new(bonus_order=order), "N")
    state = with_player(state, "Ann", animals={"sea_lion": 1, "tortoise": 1, "booby": 1})
    supply = view(state)["supply"]
    state = play(state, act("exhibition", "Ann", animals=["sea_lion", "tortoise", "booby"]))
    assert player(state, "Ann")["points"] == 6
    assert sum(player(state, "Ann")["animals"].values()) == 0
    assert view(state)["supply"]["tortoise"] == supply["tortoise"] + 1
    assert view(state)["bonus_face_up"] == ["6"]


def test_bonus_example_nine_then_six_points() -> None:
    """Example: ... He plays an exhibition card, and returns one sea lion, the tortoise and one
    blue-footed booby to the supply. This exhibition fulfills the requirements of both bonus
    tiles, therefore he receives 9 exhibition points and must remove one of the fulfilled bonus
    tiles. He chooses to remove the „3“ bonus tile.
    Thereafter, he plays another exhibition card. This time he returns the remaining sea lion
    and the remaining blue-footed booby to the supply. Since this second exhibition fulfills the
    requirement of the blue-footed booby bonus tile, he receives 3 exhibition points per animal
    for a total of 6 points. Thereafter he removes the blue-footed booby bonus tile from play."""
    state = exhibitor(sea_lion=2, tortoise=1, booby=2)
    assert view(state)["bonus_face_up"] == ["3", "booby"]
    state = play(state, act("exhibition", "Ann", animals=["sea_lion", "tortoise", "booby"], bonus="3"))
    assert player(state, "Ann")["points"] == 9
    assert view(state)["bonus_face_up"] == ["booby"]
    state = play(state, act("exhibition", "Ann", animals=["sea_lion", "booby"]))
    assert player(state, "Ann")["points"] == 15
    assert view(state)["bonus_face_up"] == []
    assert sum(player(state, "Ann")["animals"].values()) == 0


def test_several_bonus_tiles_apply_player_must_choose() -> None:
    """"If playing an exhibition that fulfills the requirements of more than one face-up bonus
    tile, you may freely choose which one of the bonus tiles to use\""""
    state = exhibitor(sea_lion=1, tortoise=1, booby=1)
    message = refused(state, act("exhibition", "Ann", animals=["sea_lion", "tortoise", "booby"]))
    assert message == "Ann's exhibition fulfils several bonus tiles; choose one with \"bonus\": 3 or booby."
    state = play(state, act("exhibition", "Ann", animals=["sea_lion", "tortoise", "booby"], bonus="booby"))
    assert player(state, "Ann")["points"] == 9
    assert view(state)["bonus_face_up"] == ["3"]


def test_never_more_than_one_bonus_per_exhibition() -> None:
    """"You may never get more than one bonus for any given exhibition." Three animals with two
    tiles fulfilled give 9 points, not 12, and only one tile leaves play."""
    state = exhibitor(sea_lion=1, tortoise=1, booby=1)
    state = play(state, act("exhibition", "Ann", animals=["booby", "sea_lion", "tortoise"], bonus=3))
    assert player(state, "Ann")["points"] == 9
    assert len(view(state)["bonus_face_up"]) == 1


def test_number_bonus_needs_that_many_tokens() -> None:
    """"In order to use a bonus tile showing a number (1-6), your exhibition has to contain at
    least the given number of animal tokens.\""""
    state = exhibitor(sea_lion=1, tortoise=1)
    message = refused(state, act("exhibition", "Ann", animals=["sea_lion", "tortoise"], bonus="3"))
    assert message == "Ann's exhibition does not fulfil the 3 bonus tile."
    state = play(state, act("exhibition", "Ann", animals=["sea_lion", "tortoise"]))
    assert player(state, "Ann")["points"] == 4
    assert view(state)["bonus_face_up"] == ["3", "booby"]


def test_animal_bonus_needs_that_animal() -> None:
    """"In order to use a bonus tile showing an animal, your exhibition has to contain the given
    animal." A lone booby takes the booby bonus automatically: 3 points."""
    state = exhibitor(booby=1)
    state = play(state, act("exhibition", "Ann", animals=["booby"]))
    assert player(state, "Ann")["points"] == 3
    assert view(state)["bonus_face_up"] == ["3"]


def test_only_face_up_bonus_tiles() -> None:
    """"If an exhibition fulfills the requirements ... of a face-up bonus tile": the face-down
    sea lion tile cannot be used."""
    state = exhibitor(sea_lion=1)
    assert refused(state, act("exhibition", "Ann", animals=["sea_lion"], bonus="sea_lion")) == (
        "The sea_lion bonus tile is not face up, so Ann cannot use it."
    )


def test_exhibition_tokens_must_be_different() -> None:
    """"you form an exhibition consisting of one or more different animal tokens\""""
    state = exhibitor(sea_lion=2)
    message = refused(state, act("exhibition", "Ann", animals=["sea_lion", "sea_lion"]))
    assert message == "Ann's exhibition must show different animals, but sea lion is listed twice."


def test_exhibition_needs_owned_tokens() -> None:
    """The exhibited tokens "are returned to the supply", so they must be the player's own."""
    state = exhibitor(sea_lion=1)
    assert refused(state, act("exhibition", "Ann", animals=["sea_lion", "crab"])) == "Ann has no crab to exhibit."


@pytest.mark.parametrize("animals", [[], "crab", ["lion"]])
def test_exhibition_needs_one_or_more_animals(animals) -> None:
    """"one or more different animal tokens\""""
    refused(exhibitor(crab=1), act("exhibition", "Ann", animals=animals))


def test_bonus_tile_leaves_play_for_good() -> None:
    """"Thereafter, the bonus tile is removed from play." — it never comes back: the next
    round turns the next face-down tile, not the used one."""
    state = exhibitor(booby=1)
    state = play(state, act("exhibition", "Ann", animals=["booby"]))
    state = next_tile(finish_turns(state))
    assert view(state)["round"] == 3
    assert view(state)["bonus_face_up"] == ["3", "1"]
