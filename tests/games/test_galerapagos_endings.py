"""Fin de la partie: leaving the island, the hurricane, the hecatomb; winners and scores."""

from __future__ import annotations

from tests.support.galerapagos import (
    RULES,
    alive,
    closed,
    fed_round,
    hurricane,
    new,
    no_card,
    play,
    player,
    refused,
    resource,
    searches,
    survival,
    view,
    vote,
    weather,
    wood,
)

THREE = ["Ann", "Bob", "Cid"]
EMBARK = {"type": "embark"}


def three_rafts_in_round_one():
    """Everyone collects six pieces of wood: three raft cards; water 6 - 3 = 3, food 5 - 3 = 2."""
    s = play(new(THREE), weather(0), wood("Ann", 5), wood("Bob", 5), wood("Cid", 5))
    s = play(s, survival(s))
    assert (view(s)["rafts"], view(s)["water"], view(s)["food"]) == (3, 3, 2)
    return s


def test_survivors_leave_when_rations_and_rafts_suffice() -> None:
    """"À la fin d'un tour, les survivants peuvent embarquer sur le radeau. ... Les rations d'eau et
    de nourriture sont distribuées. Il y a une ration d'eau et de nourriture supplémentaire pour
    chaque joueur pour le voyage. Il y a autant de cartes Radeau que de survivants." """
    s = play(three_rafts_in_round_one(), resource("Ann", "food", 1))
    assert "embark" in RULES.expected(s).actions
    s = play(s, EMBARK)
    v = view(s)
    assert v["over"] and RULES.winners(s) == THREE and RULES.outcome(s).reason == "embark"
    assert (v["water"], v["food"]) == (0, 0)  # one ration each for the voyage
    assert RULES.scores(s) == {"Ann": 1, "Bob": 1, "Cid": 1}


def test_no_departure_without_food_for_the_voyage() -> None:
    s = three_rafts_in_round_one()
    refused(s, EMBARK, "3 survivors need 3 food", "2 are left")
    assert "embark" not in RULES.expected(s).actions


def test_no_departure_without_water_for_the_voyage() -> None:
    s = play(new(THREE), weather(0), wood("Ann", 5), wood("Bob", 5), wood("Cid", 5),
             resource("Ann", "food", 3))
    s = play(s, weather(1), wood("Cid"), wood("Ann"), wood("Bob"))  # water 3 - 3 = 0
    refused(s, EMBARK, "3 survivors need 3 water", "0 are left")


def test_no_departure_without_a_raft_card_for_each_survivor() -> None:
    s = play(new(THREE), weather(0), wood("Ann", 5), wood("Bob", 5), wood("Cid", 4),
             resource("Ann", "food", 1))
    refused(s, EMBARK, "3 survivors need 3 raft cards and there are 2")


def test_departure_only_at_the_end_of_a_round() -> None:
    s = play(new(THREE), weather(0), wood("Ann", 5))
    refused(s, EMBARK, "end of a round")


def test_the_fruit_basket_does_not_count_for_the_voyage() -> None:
    """"Attention ! La carte Panier garni ne peut pas servir de ration pour embarquer." """
    s = play(three_rafts_in_round_one(), resource("Ann", "food", 1, basket=True))
    assert view(s)["food"] == 3
    refused(s, EMBARK, "only 2 count", "the fruit basket's 1 not being a ration")
    s = play(s, resource("Bob", "food", 1), EMBARK)
    assert RULES.winners(s) == THREE and view(s)["food"] == 1  # the basket is left behind


def test_a_sick_player_can_embark() -> None:
    """"Un joueur malade peut embarquer sur le radeau." """
    s = play(three_rafts_in_round_one(), {"type": "sick", "player": "Bob"},
             resource("Ann", "food", 1))
    assert player(s, "Bob")["sick"]
    assert RULES.winners(play(s, EMBARK)) == THREE


def test_survivors_may_also_stay() -> None:
    """"les survivants peuvent embarquer" -- may, not must."""
    s = play(three_rafts_in_round_one(), resource("Ann", "food", 1), weather(1))
    assert view(s)["round"] == 2 and not view(s)["over"]


def hurricane_round(wood_each: int = 5):
    """Six fed rounds, then the hurricane in round 7 (Ann first); everyone collects wood."""
    s = new(THREE)
    for drops in [0, 0, 0, 1, 1, 1]:
        s = fed_round(s, drops)
    assert view(s)["first_player"] == "Bob"  # Ann, Cid, Bob, Ann, Cid, Bob
    s = play(s, hurricane())
    assert view(s)["first_player"] == "Ann"
    return s, [wood(p, wood_each) for p in THREE]


def test_the_hurricane_takes_the_raft_away_at_the_end_of_the_round() -> None:
    """"La carte Ouragan est retournée. Le radeau doit quitter l'île à la fin du tour" """
    s, woods = hurricane_round()
    s = play(s, resource("Ann", "food", 3), *woods)
    assert not view(s)["over"] and view(s)["phase"] == "acted", "the round is not over yet"
    s = play(s, survival(s))  # water 6 - 3 = 3, food 8 - 3 = 5: room and rations for all three
    v = view(s)
    assert v["over"] and RULES.outcome(s).reason == "hurricane" and RULES.winners(s) == THREE
    assert (v["water"], v["food"]) == (0, 2)
    again = play(s, EMBARK)  # already gone: a late "embark" changes nothing
    assert RULES.public_state(again) == RULES.public_state(s)


def test_the_hurricane_eliminates_by_vote_until_the_survivors_fit() -> None:
    """"Si les ressources ne sont pas assez ou s'il n'y a pas assez de place, procédez à un vote ou
    éliminez un joueur." Food 5 - 3 = 2 for the voyage: one of the three stays."""
    s, woods = hurricane_round()
    s = play(s, *woods)
    s = play(s, survival(s))
    assert view(s)["phase"] == "show_cards" and view(s)["show_cards"]["kind"] == "raft"
    assert view(s)["show_cards"]["places"] == 2 and not view(s)["over"]
    s = play(s, vote("Ann", "Cid"), vote("Bob", "Cid"))  # the vote for the places closes the moment
    assert view(s)["count"] == "depart" and view(s)["vote"] == "depart"
    s = play(s, vote("Cid", "Ann"))
    assert view(s)["condemned"] == "Cid" and not view(s)["over"], "Cid may still save himself"
    s = play(s, no_card("Cid"))
    assert view(s)["over"] and RULES.winners(s) == ["Ann", "Bob"]
    assert player(s, "Cid")["died"] == "left_behind"
    assert RULES.scores(s) == {"Ann": 1, "Bob": 1, "Cid": 0}


def test_the_one_left_behind_may_still_play_a_card_for_the_voyage() -> None:
    s, woods = hurricane_round()
    s = play(s, *woods, vote("Ann", "Cid"), vote("Bob", "Cid"), vote("Cid", "Ann"))
    s = play(s, resource("Cid", "food", 1))
    assert RULES.winners(s) == THREE


def test_a_card_played_as_the_raft_leaves_still_counts() -> None:
    s, woods = hurricane_round()
    s = play(s, *woods)
    s = play(s, survival(s))
    assert view(s)["show_cards"]["kind"] == "raft" and view(s)["show_cards"]["at_risk"] == THREE
    s = play(s, resource("Bob", "food", 1))  # food for the voyage 2 + 1: room for three
    assert RULES.winners(s) == THREE


def test_without_a_raft_everyone_loses_to_the_hurricane() -> None:
    """"... sinon, tout le monde est perdant." """
    s, _ = hurricane_round()
    s = play(s, *searches("Ann", "Bob", "Cid"))
    s = play(s, survival(s))
    assert view(s)["show_cards"]["places"] == 0 and not view(s)["over"], "cards first, though none adds a place"
    s = closed(s)
    assert view(s)["over"] and RULES.winners(s) == [] and RULES.outcome(s).reason == "hurricane"
    assert alive(s) == THREE and RULES.scores(s) == {"Ann": 0, "Bob": 0, "Cid": 0}


def test_hecatomb_when_everyone_dies() -> None:
    """"Scénario 3 : hécatombe - À la fin du tour, tous les joueurs meurent de soif ou de faim." """
    s = play(new(THREE), weather(0), *searches(*THREE))  # water 3, food 2
    s = play(s, weather(0), *searches("Cid", "Ann", "Bob"))  # water 0; food 2 for 3: a vote
    s = play(s, vote("Ann", "Cid"), vote("Bob", "Cid"), vote("Cid", "Ann"))
    s = play(s, weather(0), *searches("Bob", "Ann"))  # the weather card closed Cid's moment: he died
    assert view(s)["phase"] == "show_cards" and not view(s)["over"], "water on 0: cards are shown first"
    s = play(s, no_card("Bob"), no_card("Ann"))  # nobody shows a card
    v = view(s)
    assert v["over"] and alive(s) == [] and RULES.winners(s) == []
    assert RULES.outcome(s).reason == "hecatomb"
    refused(s, weather(1), "The game is over")


def test_winners_are_those_who_embarked_in_solitaire_scoring_too() -> None:
    """Mode solitaire: "Vous perdez 1 point par survivant sur le radeau." """
    s = play(new(THREE, scoring="solitaire"), weather(0), wood("Ann", 5), wood("Bob", 5),
             wood("Cid", 5), resource("Ann", "food", 1), EMBARK)
    assert RULES.scores(s) == {"Ann": 1, "Bob": 1, "Cid": 1}  # 3 players, 3 aboard: 3 - 2
