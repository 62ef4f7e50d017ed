"""Mort de faim ou mort de soif, and the cards that kill: the grave, the hand shared between the
neighbours, permanent cards discarded except the revolver, shooting."""

from __future__ import annotations

from tests.support.galerapagos import (
    FIVE,
    alive,
    closed,
    food_vote_round_two,
    new,
    no_card,
    play,
    player,
    refused,
    resource,
    search,
    searches,
    shoot,
    survival,
    view,
    vote,
    weather,
)


def everyone_votes(s, target: str, other: str = "Ann"):
    """Everyone points at ``target``; he has no card to save himself with and says so."""
    s = play(s, *[vote(p, target if p != target else other) for p in alive(s)])
    return play(s, no_card(target)) if view(s)["phase"] == "show_cards" else s


def test_the_dead_take_a_grave_and_leave_the_game() -> None:
    """"Placez une carte Etat du naufragé, face Tombe devant vous. Quittez la partie." """
    s = everyone_votes(food_vote_round_two(), "Dan")
    assert player(s, "Dan") | {"cards": 0} == player(s, "Dan")
    assert not player(s, "Dan")["alive"] and player(s, "Dan")["died"] == "hunger"


def test_the_hand_is_shared_between_the_left_and_right_neighbours() -> None:
    """"Les cartes que vous aviez en main sont mélangées et distribuées équitablement entre votre
    voisin de gauche et votre voisin de droite." Left is the next one clockwise (Eve for Dan)."""
    s = everyone_votes(food_vote_round_two(), "Dan")
    assert [player(s, p)["cards"] for p in FIVE] == [6, 6, 6 + 3, 0, 6 + 3]


def test_an_odd_card_goes_to_the_left_neighbour() -> None:
    s = food_vote_round_two()
    s = play(s, {"type": "give", "player": "Dan", "target": "Ann"})  # Dan keeps 5
    s = everyone_votes(s, "Dan")
    assert [player(s, p)["cards"] for p in FIVE] == [7, 6, 6 + 2, 0, 6 + 3]


def test_dead_neighbours_are_skipped() -> None:
    """Eve, Dan's left neighbour, is dead: Dan's hand goes to Ann (next living on the left) and Cid."""
    s = play(new(), weather(0), shoot("Ann", "Eve"), *searches("Ann", "Bob", "Cid", "Dan"))
    # Ann 4 - 2 + 4 + 1 = 7; water 10 - 4 = 6, food 9 - 4 = 5
    s = play(s, weather(1), *searches("Dan", "Ann", "Bob", "Cid"))  # water 2, food 1
    s = play(s, weather(2), *searches("Cid", "Dan", "Ann", "Bob"))  # Ann 9, the others 7
    s = play(s, survival(s))
    assert view(s)["vote"] == "water"
    s = play(s, vote("Ann", "Dan"), vote("Bob", "Dan"), vote("Cid", "Dan"), vote("Dan", "Bob"))
    assert player(s, "Dan")["alive"] and view(s)["condemned"] == "Dan", "asked first: a card may save him"
    s = closed(s)
    assert not player(s, "Dan")["alive"]
    assert player(s, "Ann")["cards"] == 9 + 4 and player(s, "Cid")["cards"] == 7 + 3


def test_permanent_cards_are_discarded_except_the_revolver() -> None:
    """"Les cartes Permanent sont défaussées sauf le revolver, qui est récupéré." """
    s = food_vote_round_two()
    s = play(s, {"type": "place", "player": "Dan", "card": "axe"},
             {"type": "place", "player": "Dan", "card": "revolver"})
    assert player(s, "Dan")["permanent"] == ["axe", "revolver"] and player(s, "Dan")["cards"] == 4
    s = everyone_votes(s, "Dan")
    assert player(s, "Eve")["permanent"] == ["revolver"] and player(s, "Cid")["permanent"] == []
    assert player(s, "Eve")["cards"] == 6 + 2 and player(s, "Cid")["cards"] == 6 + 2


def test_shooting_takes_a_revolver_and_a_cartridge_and_the_shooter_takes_the_victims_cards() -> None:
    """"Jouée avec une carte Cartouche, elle permet d'abattre un autre joueur. La carte Cartouche est
    défaussée, mais la carte Revolver est conservée. ... Le tireur récupère les cartes de la
    victime, dont le revolver." """
    s = play(new(), weather(0), shoot("Ann", "Bob"))
    assert player(s, "Ann")["permanent"] == ["revolver"]
    assert player(s, "Ann")["cards"] == 4 - 2 + 4 and player(s, "Bob")["died"] == "shot"
    s = play(s, shoot("Ann", "Cid"))  # the revolver stays: one cartridge only
    assert player(s, "Ann")["cards"] == 6 - 1 + 4


def test_a_shot_victim_loses_his_revolver_to_the_shooter() -> None:
    s = play(new(), weather(0), {"type": "place", "player": "Bob", "card": "revolver"},
             shoot("Ann", "Bob"))
    assert player(s, "Ann")["permanent"] == ["revolver", "revolver"]
    assert player(s, "Ann")["cards"] == 4 - 2 + 3


def test_the_first_to_announce_his_shot_wins() -> None:
    """"Si plusieurs joueurs se tirent dessus, le premier à annoncer son tir l'emporte." """
    s = play(new(), weather(0), shoot("Cid", "Dan"))
    refused(s, shoot("Dan", "Cid"), "Dan is dead")


def test_shooting_needs_two_cards_without_a_revolver_in_front() -> None:
    s = play(new(), weather(0))
    for _ in range(3):
        s = play(s, resource("Ann", "water", 1))
    refused(s, shoot("Ann", "Bob"), "Ann needs a revolver and a cartridge", "1 card")
    refused(s, shoot("Bob", "Bob"), "Bob must aim at another castaway")


def test_the_dead_never_act() -> None:
    s = play(new(), weather(0), shoot("Ann", "Bob"))
    refused(s, search("Bob"), "Bob is dead and cannot act")
    refused(s, resource("Bob", "food"), "Bob is dead and cannot play a card")
    s = play(s, search("Ann"))
    assert view(s)["turn"] == "Cid"  # Bob's turn is skipped


def test_a_dead_castaway_can_come_back_with_empty_hands() -> None:
    """Cards that bring a player back are generic: ``revive``."""
    s = play(new(), weather(0), shoot("Ann", "Bob"), {"type": "revive", "player": "Bob", "by": "Cid"})
    assert player(s, "Bob")["alive"] and player(s, "Bob")["cards"] == 0
    assert player(s, "Cid")["cards"] == 3
    s = play(s, search("Ann"))
    assert view(s)["turn"] == "Bob"
    refused(s, {"type": "revive", "player": "Cid"}, "Cid is alive")


def test_resource_cards_may_be_given() -> None:
    """"À usage personnel en cas de pénurie de vivres. Peuvent être offertes." """
    s = play(new(), weather(0), {"type": "give", "player": "Ann", "target": "Bob", "count": 2})
    assert player(s, "Ann")["cards"] == 2 and player(s, "Bob")["cards"] == 6
    refused(s, {"type": "give", "player": "Ann", "target": "Bob", "count": 3}, "Ann has 2 card")
    refused(s, {"type": "give", "player": "Ann", "target": "Ann"}, "Ann cannot give")


def test_a_death_during_a_vote_starts_it_again() -> None:
    s = food_vote_round_two()
    s = play(s, vote("Ann", "Dan"), vote("Bob", "Dan"), shoot("Cid", "Eve"))
    assert view(s)["phase"] == "end" and view(s)["food"] == 0  # one mouth less: food 4 suffices
