"""Étape 3's four actions: fish, collect water, collect wood (raft track, snake), search the wreck."""

from __future__ import annotations

import pytest

from tests.support.galerapagos import (
    RULES,
    fish,
    new,
    play,
    player,
    refused,
    search,
    view,
    water,
    weather,
    wood,
)

TWELVE = [f"P{i}" for i in range(1, 13)]


def test_fishing_moves_the_food_token_by_the_fish_caught() -> None:
    """"Le nombre de poissons que vous avez attrapé y est indiqué. Avancez le pion Nourriture en
    autant de cases que le nombre de poissons pêchés." """
    s = play(new(), weather(0), fish("Ann", 3), fish("Bob", 1))
    assert view(s)["food"] == 9 + 3 + 1


def test_no_ball_shows_four_fish() -> None:
    s = play(new(), weather(0))
    refused(s, fish("Ann", 4), "Ann", "4 fish")
    refused(s, fish("Ann", -1), "Ann")


@pytest.mark.parametrize("drops", [0, 1, 2, 3])
def test_collecting_water_gives_the_drops_of_the_weather_card(drops: int) -> None:
    """"Regardez le nombre indiqué sur la goutte d'eau de la carte Météo. Avancez le pion Eau en
    autant de cases que le nombre indiqué." """
    s = play(new(), weather(drops), water("Ann"), water("Bob"))
    assert view(s)["water"] == 10 + 2 * drops


def test_the_first_piece_of_wood_is_free() -> None:
    """"Pour collecter le premier morceau de bois, avancez le disque en bois sur la case 1." """
    s = play(new(), weather(0), wood("Ann"))
    assert view(s)["wood"] == 1 and not player(s, "Ann")["sick"]


def test_white_balls_add_as_many_pieces_as_balls_drawn() -> None:
    """"Si toutes les boules sont blanches, avancez d'autant de cases que de boules piochées." """
    s = play(new(), weather(0), wood("Ann", 3))
    assert view(s)["wood"] == 1 + 3


def test_the_snake_means_no_extra_wood_and_sickness() -> None:
    """"Si une des boules est noire, le joueur est mordu par un serpent et tombe malade pour un
    tour. Il place une carte Etat du naufragé, face Serpent devant lui et n'avance pas le disque." """
    s = play(new(), weather(0), wood("Ann", 4, snake=True))
    assert view(s)["wood"] == 1  # the free piece stays; the announced 4 do not come
    assert player(s, "Ann")["sick"]


def test_extra_balls_are_one_to_five() -> None:
    """"Annoncez le nombre de bois que vous voulez collecter (1 à 5)." """
    s = play(new(), weather(0))
    refused(s, wood("Ann", 6), "Ann", "0 to 5")
    refused(s, {"type": "wood", "player": "Ann", "extra": 0, "snake": True}, "Ann", "no extra ball")


def test_a_full_track_lays_a_raft_card_and_the_disc_goes_back_to_zero() -> None:
    """"Dès que le disque arrive sur la case 6, une carte Radeau est placée à l'emplacement Place de
    radeau du plateau de jeu et le disque retourne sur la case 0." """
    s = play(new(), weather(0), wood("Ann", 5))
    assert (view(s)["wood"], view(s)["rafts"]) == (0, 1)


def test_wood_beyond_six_carries_over() -> None:
    s = play(new(), weather(0), wood("Ann", 3), wood("Bob", 5))  # 4, then 4 + 6 = 10
    assert (view(s)["wood"], view(s)["rafts"]) == (4, 1)


def test_there_are_at_most_twelve_raft_cards() -> None:
    """"12 cartes Radeau" in the box: the thirteenth cannot be laid."""
    s = play(new(TWELVE), weather(0), *[wood(p, 5) for p in TWELVE])
    assert view(s)["rafts"] == 12 and view(s)["wood"] == 0
    s = play(s, weather(1), wood("P12", 5))  # round 2 starts with P12 (right of P1)
    assert view(s)["rafts"] == 12 and view(s)["wood"] == 5


def test_searching_the_wreck_adds_a_card_to_the_hand() -> None:
    """"Piochez la première carte Épave de la pile. Ajoutez-la à votre main." """
    s = play(new(), weather(0), search("Ann"))
    assert player(s, "Ann")["cards"] == 5 and view(s)["wreck"] == 54 - 20 - 1


def test_an_empty_wreck_cannot_be_searched() -> None:
    s = play(new(TWELVE), weather(0), *[search(p) for p in TWELVE])  # 54 - 36 - 12 = 6 left
    order = ["P12"] + TWELVE[:11]
    s = play(s, weather(1), *[search(p) for p in order[:6]])
    assert view(s)["wreck"] == 0
    refused(s, search(order[6]), "wreck is empty", order[6])


def test_each_action_is_recorded_for_the_screens() -> None:
    s = play(new(), weather(2), fish("Ann", 2), water("Bob"))
    assert player(s, "Ann")["action"] == "fish" and player(s, "Bob")["action"] == "water"
    assert player(s, "Cid")["action"] is None
    assert RULES.expected(s).players == ("Cid",)
