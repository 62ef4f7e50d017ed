"""La maladie: snake, stagnant water, rotten fish -- no vote that round, no card and no action the
next round (but a vote), then the sickness card is removed."""

from __future__ import annotations

from tests.support.galerapagos import (
    RULES,
    alive,
    closed,
    fish,
    new,
    no_card,
    play,
    player,
    refused,
    resource,
    search,
    searches,
    survival,
    tiebreak,
    view,
    vote,
    water,
    weather,
    wood,
)


def bitten_in_round_two():
    """Round 1: everyone searches (food 4, water 5). Round 2 (Eve first): Ann is bitten by the
    snake; water covers the five, food 4 does not: a food vote follows."""
    s = play(new(), weather(0), *searches("Ann", "Bob", "Cid", "Dan", "Eve"))
    s = play(s, weather(1), search("Eve"), wood("Ann", 1, snake=True),
             *searches("Bob", "Cid", "Dan"))
    return confirmed(s)


def confirmed(s):
    """Eve, the first player, starts the survival step once everyone has acted."""
    return play(s, survival(s)) if view(s)["phase"] == "acted" else s


def test_a_snake_bite_makes_the_player_sick_for_the_round() -> None:
    s = bitten_in_round_two()
    assert player(s, "Ann")["sick"] and view(s)["phase"] == "food" and view(s)["vote"] == "food"


def test_a_sick_player_cannot_vote_at_the_end_of_that_round() -> None:
    """"Un joueur malade ne peut pas voter à la fin du tour, mais peut être sacrifié et peut se
    défendre en utilisant une carte Ressource." """
    s = bitten_in_round_two()
    refused(s, vote("Ann", "Bob"), "Ann is sick and cannot vote")
    assert "Ann" not in view(s)["waiting"] and set(view(s)["waiting"]) == {"Bob", "Cid", "Dan", "Eve"}


def test_a_sick_player_can_be_sacrificed_and_defend_himself_with_a_resource_card() -> None:
    s = bitten_in_round_two()
    s = play(s, vote("Bob", "Ann"), vote("Cid", "Ann"), vote("Dan", "Ann"), vote("Eve", "Bob"))
    assert view(s)["condemned"] == "Ann" and view(s)["waiting"] == ["Ann"]  # eliminated...
    s = play(s, resource("Ann", "food", 1))  # ...unless she plays a food card
    assert player(s, "Ann")["alive"] and alive(s) == ["Ann", "Bob", "Cid", "Dan", "Eve"]
    assert view(s)["food"] == 0 and view(s)["phase"] == "end"


def round_three():
    """Round 2's vote: Bob and Cid tie, Eve (first) picks Cid. Round 3 starts with Dan."""
    s = bitten_in_round_two()
    s = play(s, vote("Bob", "Cid"), vote("Cid", "Bob"), vote("Dan", "Cid"), vote("Eve", "Bob"),
             tiebreak("Eve", "Cid"))
    s = closed(s)
    assert alive(s) == ["Ann", "Bob", "Dan", "Eve"]
    return play(s, weather(3))


def test_the_next_round_the_sick_player_takes_no_action() -> None:
    """"Le tour suivant, il ne pourra ni jouer une carte, ni faire une action." """
    s = round_three()
    assert view(s)["first_player"] == "Dan" and player(s, "Ann")["sick"]
    refused(s, fish("Ann", 1), "Ann is sick and cannot act this round")
    s = play(s, water("Dan"), water("Eve"))
    assert view(s)["turn"] == "Bob"  # Ann's turn is skipped
    refused(s, search("Ann"), "Ann is sick and cannot act this round")


def test_the_next_round_the_sick_player_plays_no_card() -> None:
    s = round_three()
    refused(s, resource("Ann", "water", 1), "Ann is sick and cannot play a card")


def test_the_next_round_the_sick_player_votes_again() -> None:
    """"Il peut cependant participer au vote." """
    s = round_three()
    s = confirmed(play(s, water("Dan"), water("Eve"), fish("Bob", 2)))  # water 6, food 2 for 4 mouths
    assert view(s)["vote"] == "food" and "Ann" in view(s)["waiting"]
    s = play(s, vote("Ann", "Bob"))
    assert player(s, "Ann")["voted"]


def test_then_the_sickness_card_is_removed() -> None:
    """"Retirez la carte Etat du naufragé." -- after the round without action."""
    s = round_three()
    s = confirmed(play(s, water("Dan"), water("Eve"), fish("Bob", 3), resource("Dan", "food", 1)))
    assert view(s)["phase"] == "end"
    assert not player(s, "Ann")["sick"]
    s = play(s, weather(2))  # round 4: Bob first (right of Dan is Cid, dead), then Dan, Eve, Ann
    s = play(s, search("Bob"), search("Dan"), search("Eve"))
    assert view(s)["turn"] == "Ann"
    s = play(s, fish("Ann", 2))
    assert player(s, "Ann")["action"] == "fish"


def test_a_card_makes_a_player_sick_and_costs_its_player_a_card() -> None:
    """"3 cas peuvent causer la maladie d'un joueur : La morsure d'un serpent. La carte Eau
    croupie. La carte Poisson pourri." The card is generic: ``sick`` with ``by``."""
    s = play(new(), weather(0), {"type": "sick", "player": "Cid", "by": "Bob"})
    assert player(s, "Cid")["sick"] and player(s, "Bob")["cards"] == 3


def test_sick_in_the_round_before_his_turn_the_player_still_acts_that_round() -> None:
    """The seed bars the action only "Le tour suivant"."""
    s = play(new(), weather(0), {"type": "sick", "player": "Cid"}, search("Ann"), search("Bob"))
    assert view(s)["turn"] == "Cid"
    s = play(s, search("Cid"))
    assert player(s, "Cid")["action"] == "search"


def test_a_sick_voter_loses_the_vote_he_already_cast() -> None:
    s = bitten_in_round_two()
    s = play(s, vote("Bob", "Dan"), {"type": "sick", "player": "Bob", "by": "Cid"})
    assert not player(s, "Bob")["voted"] and "Bob" not in view(s)["waiting"]


def test_anti_venom_heals_and_the_player_acts_again() -> None:
    """"Anti-venin" is a single-use special card: generic ``heal``."""
    s = round_three()
    s = play(s, {"type": "heal", "player": "Ann", "by": "Dan"})
    assert not player(s, "Ann")["sick"]
    s = play(s, water("Dan"), water("Eve"))
    assert view(s)["turn"] == "Ann"


def test_healing_a_healthy_player_is_refused() -> None:
    refused(play(new(), weather(0)), {"type": "heal", "player": "Ann"}, "Ann is not sick")


def test_the_screen_knows_who_is_sick() -> None:
    s = bitten_in_round_two()
    assert [p["sick"] for p in view(s)["players"]] == [True, False, False, False, False]
    assert RULES.expected(s).actions == ("resource", "vote", "debate")  # cards first, then the vote


def test_sick_again_while_sitting_out_means_two_rounds_without_action() -> None:
    """Bitten in round 2, made sick again by a card in round 3: he sits out round 3 (the first
    sickness) and round 4 (the second), and cannot vote in round 3."""
    s = round_three()
    s = play(s, {"type": "sick", "player": "Ann", "by": "Dan"})
    refused(s, fish("Ann", 1), "Ann is sick and cannot act this round")
    s = confirmed(play(s, water("Dan"), water("Eve"), fish("Bob", 2), resource("Dan", "food", 1)))
    assert view(s)["vote"] == "food" and "Ann" not in view(s)["waiting"]  # food 3 for 4
    s = play(s, vote("Bob", "Eve"), vote("Dan", "Eve"), vote("Eve", "Bob"), no_card("Eve"))
    assert view(s)["phase"] == "end" and player(s, "Ann")["sick"]  # still sick for round 4
    s = play(s, weather(2))  # round 4: Bob first (Cid is dead), then Dan; Ann sits out again
    assert player(s, "Ann")["sick"] and view(s)["turn"] == "Bob"
    refused(s, resource("Ann", "food", 1), "Ann is sick and cannot play a card")
    s = play(s, search("Bob"), search("Dan"))
    assert view(s)["phase"] != "actions" and player(s, "Ann")["action"] is None
