"""Étape 4, survie des naufragés: water then food, the worked examples, shortages, votes and ties.

The step starts when the first player confirms (``survival``; a vote or the next
weather card imply it), and nobody dies before the moment to show cards has closed: the target of a
vote and, at a count on 0, every castaway are asked first (``no_card``: « I have none »)."""

from __future__ import annotations

from companion.games.galerapagos.rules import GalerapagosRules
from tests.support.galerapagos import (
    FIVE,
    RULES,
    alive,
    closed,
    fish,
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
    tiebreak,
    view,
    vote,
    water,
    weather,
)

SIX = ["P1", "P2", "P3", "P4", "P5", "P6"]


def confirmed(s):
    """The first player's « go to survival » once everyone has acted."""
    return play(s, survival(s)) if view(s)["phase"] == "acted" else s


def test_each_survivor_gets_a_ration_of_water_and_food() -> None:
    """"Chaque survivant reçoit une ration d'eau et une ration de nourriture." """
    s = play(new(), weather(0), *searches(*FIVE))
    assert view(s)["phase"] == "acted" and (view(s)["water"], view(s)["food"]) == (10, 9)
    s = confirmed(s)
    assert (view(s)["water"], view(s)["food"]) == (10 - 5, 9 - 5)
    assert alive(s) == FIVE


def test_worked_example_eight_water_for_six_survivors_ends_on_two() -> None:
    """"Exemple : Rations d'eau : 8 / Nombre de survivants : 6 / Chaque survivant reçoit une ration.
    À chaque ration distribuée, le pion Eau recule d'une case. Après la distribution de l'eau, il
    finit sur la case 2." """
    s = play(new(SIX), weather(0), *searches(*SIX))  # water 12 - 6 = 6, food 10 - 6 = 4
    s = play(s, weather(2), water("P6"), fish("P1", 3), *searches("P2", "P3", "P4", "P5"))
    s = confirmed(s)
    assert view(s)["water"] == 2
    assert alive(s) == SIX and view(s)["last_vote"] == {}


def worked_example_two():
    """Rounds 1-2 leave water 0 and food 4; round 3 (P5 first) collects 2 + 2 water."""
    s = play(new(SIX), weather(0), *searches(*SIX))
    s = confirmed(play(s, weather(0), fish("P6", 3), fish("P1", 3), *searches("P2", "P3", "P4", "P5")))
    assert (view(s)["water"], view(s)["food"]) == (0, 4)
    return confirmed(play(s, weather(2), water("P5"), water("P6"), fish("P1", 3),
                          *searches("P2", "P3", "P4")))


def test_worked_example_four_water_for_six_a_card_then_a_vote() -> None:
    """"Exemple : Ration d'eau : 4 / Nombre de survivants : 6 / Un joueur joue une carte Eau,
    ramenant la ration d'eau à 5. Il manque une ration. Un joueur meurt de soif suite au vote.
    Le pion Eau recule d'une case pour chaque ration distribuée, il finit sur la case 0." """
    s = worked_example_two()
    assert view(s)["water"] == 4 and view(s)["vote"] == "water"
    s = play(s, resource("P2", "water", 1))
    assert view(s)["water"] == 5 and view(s)["vote"] == "water"  # "Il manque une ration."
    s = play(s, *[vote(p, "P3") for p in SIX if p != "P3"], vote("P3", "P4"), no_card("P3"))
    assert not player(s, "P3")["alive"] and player(s, "P3")["died"] == "thirst"
    assert view(s)["water"] == 0
    assert view(s)["food"] == 4 + 3 - 5  # the dead eats no more
    assert view(s)["phase"] == "end"


def test_enough_water_needs_no_vote_and_cards_may_end_a_shortage() -> None:
    """"Les joueurs peuvent jouer des cartes Eau pour augmenter la ration." """
    s = worked_example_two()
    s = play(s, resource("P2", "water", 2))
    assert view(s)["water"] == 0 and alive(s) == SIX and view(s)["phase"] == "end"


def three_water_for_five():
    """Round 3 (Dan first): water 3 and food 4 for five castaways."""
    s = play(new(), weather(0), *searches(*FIVE))  # water 5, food 4
    s = play(s, weather(0), fish("Eve", 3), *searches("Ann", "Bob", "Cid", "Dan"))  # 0 and 2
    s = play(s, weather(1), water("Dan"), water("Eve"), water("Ann"), fish("Bob", 2), search("Cid"))
    s = confirmed(s)
    assert (view(s)["water"], view(s)["food"], view(s)["vote"]) == (3, 4, "water")
    return s


def test_votes_follow_until_the_rations_suffice_water_before_food() -> None:
    """"Si après l'utilisation des cartes la ration ne suffit toujours pas, procédez à un vote pour
    désigner quel joueur ne recevra pas sa ration. Le joueur meurt de soif et est éliminé." Two
    rations are missing: two votes. Then the food (4) covers the three left without a vote."""
    s = three_water_for_five()
    s = play(s, vote("Ann", "Cid"), vote("Bob", "Cid"), vote("Cid", "Ann"), vote("Dan", "Cid"),
             vote("Eve", "Cid"), no_card("Cid"))
    assert not player(s, "Cid")["alive"] and view(s)["vote"] == "water"
    refused(s, vote("Cid", "Ann"), "Cid is dead and cannot vote")
    s = play(s, vote("Ann", "Bob"), vote("Bob", "Ann"), vote("Dan", "Bob"), vote("Eve", "Bob"), no_card("Bob"))
    assert alive(s) == ["Ann", "Dan", "Eve"]
    assert (view(s)["water"], view(s)["food"], view(s)["phase"]) == (0, 1, "end")


def test_votes_are_secret_until_everyone_has_voted() -> None:
    """"Le premier joueur compte jusqu'à 3, puis tous pointent du doigt le joueur qu'il veut
    éliminer." Simultaneous: nobody sees another's vote before the reveal."""
    s = play(three_water_for_five(), vote("Ann", "Cid"))
    state, events = RULES.apply(s, vote("Bob", "Dan"))
    assert all("target" not in e for e in events)
    assert player(state, "Ann")["voted"] and not player(state, "Cid")["voted"]
    assert "vote" not in player(state, "Ann")
    ann_sees = next(p for p in view(state, "Ann")["players"] if p["name"] == "Ann")
    bob_sees = next(p for p in view(state, "Bob")["players"] if p["name"] == "Ann")
    assert ann_sees["vote"] == "Cid" and "vote" not in bob_sees
    s = play(state, vote("Cid", "Dan"), vote("Dan", "Cid"), vote("Eve", "Cid"))
    assert view(s)["last_vote"] == {"Ann": "Cid", "Bob": "Dan", "Cid": "Dan", "Dan": "Cid",
                                    "Eve": "Cid"}


def test_a_castaway_votes_once() -> None:
    s = play(three_water_for_five(), vote("Ann", "Cid"))
    refused(s, vote("Ann", "Bob"), "Ann has already voted")


def test_the_dead_cannot_be_voted_against() -> None:
    s = play(three_water_for_five(), vote("Ann", "Cid"), vote("Bob", "Cid"), vote("Cid", "Ann"),
             vote("Dan", "Cid"), vote("Eve", "Cid"), no_card("Cid"))
    refused(s, vote("Ann", "Cid"), "Cid is dead")


def test_the_voice_of_the_dead_lets_the_eliminated_vote() -> None:
    """"La voix des morts : Dans cette variante, les joueurs éliminés participent au vote." """
    s = play(new(dead_vote=True), weather(0), *searches(*FIVE))
    s = play(s, weather(0), fish("Eve", 3), *searches("Ann", "Bob", "Cid", "Dan"))
    s = play(s, weather(1), water("Dan"), water("Eve"), water("Ann"), fish("Bob", 2), search("Cid"))
    s = play(s, vote("Ann", "Cid"), vote("Bob", "Cid"), vote("Cid", "Ann"), vote("Dan", "Cid"),
             vote("Eve", "Cid"), no_card("Cid"))
    assert "Cid" in view(s)["waiting"]
    s = play(s, vote("Ann", "Bob"), vote("Bob", "Ann"), vote("Dan", "Bob"), vote("Eve", "Ann"))
    assert view(s)["vote"] == "water"  # still waiting for the dead Cid
    s = play(s, vote("Cid", "Ann"), no_card("Ann"))
    assert alive(s) == ["Bob", "Dan", "Eve"]


def test_a_food_shortage_is_voted_the_same_way() -> None:
    """"Décompte de nourriture ... Le joueur meurt de faim et est éliminé." """
    s = confirmed(food_vote_round_two())
    assert view(s)["water"] == 0 and view(s)["vote"] == "food"
    s = play(s, *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"), no_card("Dan"))
    assert player(s, "Dan")["died"] == "hunger" and view(s)["food"] == 0


def test_the_first_player_breaks_a_tie() -> None:
    """"En cas d'égalité, le premier joueur tranche." """
    s = food_vote_round_two()
    s = play(s, vote("Ann", "Bob"), vote("Bob", "Ann"), vote("Cid", "Bob"), vote("Dan", "Ann"),
             vote("Eve", "Cid"))
    assert view(s)["tie"] == ["Ann", "Bob"] and alive(s) == FIVE
    assert RULES.expected(s).players == ("Eve",) and RULES.expected(s).actions == ("tiebreak",)
    refused(s, tiebreak("Ann", "Bob"), "Only Eve, the first player")
    refused(s, tiebreak("Eve", "Cid"), "Cid is not among the tied players")
    refused(s, vote("Cid", "Ann"), "Eve, the first player, must break the tie")
    s = play(s, tiebreak("Eve", "Bob"))
    assert view(s)["condemned"] == "Bob" and alive(s) == FIVE, "Bob may still save himself"
    s = closed(s)
    assert alive(s) == ["Ann", "Cid", "Dan", "Eve"] and view(s)["food"] == 0


def test_nobody_voting_leaves_every_survivor_tied() -> None:
    """With every voter sick, the first player decides among all (a tie at zero votes)."""
    s = play(new(), weather(0), *searches(*FIVE))
    s = play(s, weather(1), *[{"type": "sick", "player": p} for p in FIVE],
             *searches("Eve", "Ann", "Bob", "Cid", "Dan"))
    s = confirmed(s)
    assert view(s)["tie"] == FIVE


def test_the_target_saves_himself_with_a_resource_card() -> None:
    """"Il peut se sauver en jouant une carte Ressource" -- asked before he dies (the moment to show cards)."""
    s = food_vote_round_two()
    s = play(s, *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"))
    assert player(s, "Dan")["alive"] and not view(s)["over"]
    moment = view(s)["show_cards"]
    assert (moment["kind"], moment["resource"], moment["players"], moment["at_risk"]) == ("save", "food", ["Dan"],
                                                                                          ["Dan"])
    assert view(s)["phase"] == "show_cards" and view(s)["waiting"] == ["Dan"]
    s = play(s, resource("Dan", "food", 1))
    assert alive(s) == FIVE and view(s)["food"] == 0
    assert player(s, "Dan")["cards"] == 4 + 2 - 1  # dealt, two searches, one card played


def test_the_target_saves_himself_by_shooting_another() -> None:
    """"... ou en tirant sur un autre joueur (une bouche de moins)." """
    s = food_vote_round_two()
    s = play(s, *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"))
    s = play(s, shoot("Dan", "Bob"))
    assert alive(s) == ["Ann", "Cid", "Dan", "Eve"]
    assert player(s, "Bob")["died"] == "shot" and view(s)["food"] == 0
    assert player(s, "Dan")["cards"] == 6 - 2 + 6  # revolver and cartridge out, Bob's hand in


def test_the_chance_to_be_saved_stays_open_until_the_next_weather_card() -> None:
    """« any unrelated entry from another phone closes it » was the bug: another castaway's
    card or sickness leaves the moment open; the next round's weather card closes it."""
    s = food_vote_round_two()
    s = play(s, *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"))
    s = play(s, {"type": "sick", "player": "Ann", "by": "Bob"}, {"type": "place", "player": "Cid", "card": "axe"})
    assert view(s)["condemned"] == "Dan" and player(s, "Dan")["alive"]
    s = play(s, weather(2))
    refused(s, resource("Dan", "food", 1), "Dan is dead")


def zero_water_round_three():
    """Three castaways; after round 3's actions water and food are both on 0."""
    s = play(new(["Ann", "Bob", "Cid"]), weather(0), *searches("Ann", "Bob", "Cid"))  # 3 / 2
    s = confirmed(play(s, weather(0), search("Cid"), fish("Ann", 1), search("Bob")))  # water 0, food 0
    assert (view(s)["water"], view(s)["food"]) == (0, 0)
    return play(s, weather(0), *searches("Bob", "Cid", "Ann"))


def test_no_vote_when_the_token_is_on_zero_only_card_holders_survive() -> None:
    """"Attention ! Si un jeton Ressource (Eau et/ou Nourriture) se trouve sur la case 0 au début
    de cette étape, il n'y a pas de vote. Seuls les joueurs disposant de cartes correspondant à la
    ressource manquante survivent." """
    s = zero_water_round_three()
    assert not view(s)["over"] and alive(s) == ["Ann", "Bob", "Cid"]  # nobody dies before showing
    assert view(s)["phase"] == "show_cards" and view(s)["no_vote"]
    refused(s, vote("Ann", "Bob"), "There is no vote now", "water is on 0")
    s = play(s, resource("Ann", "water", 1), no_card("Bob"))
    assert view(s)["show_cards"]["players"] == ["Cid"] and alive(s) == ["Ann", "Bob", "Cid"]
    s = play(s, no_card("Cid"))  # everyone asked has answered: the deaths, then the food count
    assert player(s, "Bob")["died"] == "thirst" and player(s, "Cid")["died"] == "thirst"
    assert view(s)["show_cards"]["resource"] == "food" and view(s)["show_cards"]["players"] == ["Ann"]
    s = play(s, resource("Ann", "food", 1))
    assert alive(s) == ["Ann"] and not view(s)["over"] and view(s)["phase"] == "end"
    assert (view(s)["water"], view(s)["food"]) == (0, 0)


def test_no_vote_when_one_token_is_on_zero_the_other_count_votes() -> None:
    s = play(new(["Ann", "Bob", "Cid"]), weather(0), *searches("Ann", "Bob", "Cid"))  # 3 / 2
    s = play(s, weather(0), search("Cid"), fish("Ann", 1), search("Bob"))  # 0 / 0
    s = play(s, weather(1), water("Bob"), water("Cid"), *searches("Ann"))  # water 2, food 0
    assert view(s)["vote"] == "water", "a token on 0: the step starts at once, no pause"
    s = play(s, vote("Ann", "Cid"), vote("Bob", "Cid"), vote("Cid", "Ann"), no_card("Cid"))
    assert alive(s) == ["Ann", "Bob"]  # Cid dies of thirst; then food is on 0: cards are shown
    assert view(s)["show_cards"]["kind"] == "zero" and view(s)["show_cards"]["resource"] == "food"
    s = play(s, resource("Bob", "food", 1), no_card("Ann"))
    assert alive(s) == ["Bob"] and player(s, "Ann")["died"] == "hunger"


def test_cards_shown_at_zero_are_the_owners_ration_and_the_rest_stays_on_the_track() -> None:
    """"À usage personnel en cas de pénurie de vivres." """
    s = zero_water_round_three()
    s = play(s, resource("Ann", "water", 3), resource("Bob", "water", 1), no_card("Cid"))
    assert alive(s) == ["Ann", "Bob"] and view(s)["water"] == 2  # both drank; Ann's 2 spare stay on the track
    s = play(s, resource("Bob", "food", 2), no_card("Ann"))
    assert alive(s) == ["Bob"] and view(s)["food"] == 1 and player(s, "Ann")["died"] == "hunger"


def test_the_next_weather_card_closes_the_moment() -> None:
    """docs/design.md: the moment ends « when the next weather is entered »: those who showed nothing die."""
    s = zero_water_round_three()
    s = play(s, resource("Ann", "water", 1), resource("Ann", "food", 1))  # her food card goes on the track
    assert view(s)["food"] == 1 and view(s)["phase"] == "show_cards"
    s = play(s, weather(2))  # Bob and Cid die; food 1 for Ann alone: no longer on 0, her ration
    assert view(s)["round"] == 4 and alive(s) == ["Ann"] and view(s)["food"] == 0
    refused(s, resource("Bob", "water", 1), "Bob is dead")


def test_a_card_shown_twice_is_refused() -> None:
    s = play(zero_water_round_three(), resource("Ann", "water", 1))
    refused(s, resource("Ann", "water", 1), "Ann has already shown a water card")


def test_a_resource_card_needs_a_card_in_hand() -> None:
    rules = GalerapagosRules()
    s = play(new(), weather(0))
    for _ in range(4):
        s, _ = rules.apply(s, resource("Ann", "food", 1))
    refused(s, resource("Ann", "food", 1), "Ann has no card")
    assert view(s)["food"] == 9 + 4


def test_wreck_cards_may_be_played_at_any_time() -> None:
    """"Les cartes Épave peuvent être jouées à tout moment." -- before the weather card, out of
    turn, during a vote and between rounds; "elles sont défaussées après utilisation"."""
    s = play(new(), resource("Eve", "water", 1))  # before the first weather card
    s = play(s, weather(0), resource("Dan", "food", 2))  # Ann's turn, Dan plays
    s = play(s, *searches(*FIVE))
    s = play(s, resource("Bob", "food", 1))  # everyone has acted, before the survival step
    s = confirmed(s)
    s = play(s, resource("Cid", "food", 1))  # between rounds
    assert (view(s)["water"], view(s)["food"]) == (10 + 1 - 5, 9 + 2 + 1 - 5 + 1)
    assert [player(s, p)["cards"] for p in FIVE] == [5, 4, 4, 4, 4]


def closed_by(p: str) -> dict:
    """The first player ends the moment: « nobody else »."""
    return {"type": "close", "player": p}


def give(p: str, target: str, count: int = 1) -> dict:
    return {"type": "give", "player": p, "target": target, "count": count}


def test_a_card_handed_to_the_target_lets_him_save_himself() -> None:
    """Cartes Ressources: "Peuvent être offertes." with "Il peut se sauver en jouant une carte
    Ressource": the one designated has given his hand away; another hands him a card during the vote
    (before the reveal), he plays it once named."""
    s = food_vote_round_two()
    s = play(s, give("Dan", "Cid", 6))  # Dan empties his hand before the vote
    s = play(s, *[vote(p, "Dan") for p in ("Ann", "Bob", "Cid")], give("Ann", "Dan"))
    s = play(s, vote("Dan", "Ann"), vote("Eve", "Dan"))
    assert view(s)["condemned"] == "Dan" and view(s)["show_cards"]["players"] == ["Dan"]
    s = play(s, resource("Dan", "food", 1))
    assert alive(s) == FIVE and view(s)["food"] == 0 and view(s)["phase"] == "end"
    assert [player(s, p)["cards"] for p in FIVE] == [5, 6, 12, 0, 6]


def test_a_target_who_holds_no_card_waits_for_a_gift_while_someone_holds_one() -> None:
    """« Il peut se sauver en jouant une carte Ressource » and the resource cards
    « Peuvent être offertes »: Dan has given his hand away, but the others still hold cards, so the
    moment waits for him (a gift may come) instead of killing him at the reveal."""
    s = food_vote_round_two()
    s = play(s, give("Dan", "Cid", 6))
    s = play(s, *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"))
    assert alive(s) == FIVE and view(s)["condemned"] == "Dan"
    assert view(s)["show_cards"]["players"] == ["Dan"]
    s = play(s, give("Bob", "Dan"), resource("Dan", "food", 1))
    assert alive(s) == FIVE and view(s)["phase"] == "end"


def test_a_target_dies_at_once_when_nobody_holds_a_card() -> None:
    """Nobody can play or hand him a card (every hand laid out as permanent cards): nothing to wait for."""
    three = ["Ann", "Bob", "Cid"]
    s = play(new(three), weather(0), *[fish(p, 0) for p in three])
    s = play(s, survival(s), weather(0))
    for _ in three:  # round 2 starts with the next first player
        s = play(s, fish(view(s)["turn"], 0))  # water 3, food 2 for three
    s = play(s, *[{"type": "place", "player": p, "card": "club"} for p in three for _ in range(4)])
    assert [player(s, p)["cards"] for p in three] == [0, 0, 0]
    s = play(s, vote("Ann", "Bob"), vote("Bob", "Ann"), vote("Cid", "Ann"))
    assert player(s, "Ann")["died"] == "hunger" and view(s)["show_cards"] is None


def test_a_card_handed_to_the_target_after_the_table_moved_on_is_refused() -> None:
    s = food_vote_round_two()
    s = play(s, *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"), weather(2))
    refused(s, give("Ann", "Dan"), "Dan is dead")


def test_a_card_handed_over_at_zero_may_be_shown_by_its_new_owner() -> None:
    """"Seuls les joueurs disposant de cartes correspondant à la ressource manquante survivent."
    -- a castaway without a card may be handed one ("Peuvent être offertes") and show it."""
    s = play(new(["Ann", "Bob", "Cid"]), weather(0), *searches("Ann", "Bob", "Cid"))  # 3 / 2
    s = confirmed(play(s, weather(0), search("Cid"), fish("Ann", 1), search("Bob")))  # 0 / 0
    s = play(s, weather(0), search("Bob"), give("Bob", "Ann", 7), *searches("Cid", "Ann"))
    assert player(s, "Bob")["cards"] == 0 and view(s)["phase"] == "show_cards"  # nobody has shown a card yet
    # He holds none but the others do, so he is asked too (a gift may come)
    assert "Bob" in view(s)["show_cards"]["players"] and "Bob" in view(s)["show_cards"]["at_risk"]
    s = play(s, give("Ann", "Bob"))  # Ann hands him one while the moment is open
    assert "Bob" in view(s)["show_cards"]["players"]
    s = play(s, resource("Bob", "water", 1), resource("Ann", "water", 1), closed_by("Bob"))
    assert player(s, "Cid")["died"] == "thirst"  # his 7 cards: 4 to Ann (left), 3 to Bob
    s = play(s, resource("Ann", "food", 1), resource("Bob", "food", 1))
    assert alive(s) == ["Ann", "Bob"] and view(s)["phase"] == "end"
    assert [player(s, p)["cards"] for p in ("Ann", "Bob")] == [13 - 1 - 1 + 4 - 1, 1 - 1 + 3 - 1]
