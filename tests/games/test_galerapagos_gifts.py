"""A castaway without cards can still be saved by a gift, at every count and at the departure.

From seed 004: the condemned « peut se sauver en jouant une carte Ressource ou en tirant sur un autre
joueur »; resource cards « Peuvent être offertes »; « Les cartes Épave peuvent être jouées à tout
moment ». So the moment to show cards waits for a castaway at risk who holds no card as long as
another living castaway holds one (a gift may come), and closes on his answer, on the first player's
« nobody else », or when every castaway at risk has answered.
"""

from __future__ import annotations

from tests.games.test_galerapagos_show_cards import THREE, hurricane_round_three, water_on_zero
from tests.support.galerapagos import (
    FIVE,
    FOUR,
    RULES,
    alive,
    close,
    fish,
    food_vote_round_two,
    new,
    no_card,
    play,
    player,
    quiet_round,
    refused,
    resource,
    search,
    survival,
    tiebreak,
    view,
    vote,
    water,
    weather,
)


def give(p: str, target: str, count: int = 1) -> dict:
    return {"type": "give", "player": p, "target": target, "count": count}


def water_vote_round_three():
    """Four castaways; round 3's water count has 1 water for 4: a water vote (Cid first player)."""
    s = play(new(FOUR), weather(1), water("Ann"), fish("Bob", 3), search("Cid"), search("Dan"))
    s = quiet_round(play(s, survival(s)))
    s = play(s, weather(0))
    while view(s)["phase"] == "actions":
        s = play(s, search(view(s)["turn"]))
    s = play(s, survival(s))
    assert view(s)["vote"] == "water" and view(s)["water"] == 1
    return s


def emptied(s, who: str, to: str):
    """``who`` hands his whole hand to ``to`` (he holds no card after)."""
    return play(s, give(who, to, player(s, who)["cards"]))


# -- a condemned castaway with no card -----------------------------------------------------------------

def test_at_the_water_count_a_neighbours_gift_saves_the_condemned() -> None:
    """« Il peut se sauver en jouant une carte Ressource »; « Peuvent être offertes »."""
    s = emptied(water_vote_round_three(), "Dan", "Ann")
    s = play(s, vote("Ann", "Dan"), vote("Bob", "Dan"), vote("Cid", "Dan"), vote("Dan", "Ann"))
    v = view(s)
    assert v["condemned"] == "Dan" and "Dan" in alive(s), "he is not dead: a gift may still come"
    assert v["phase"] == "show_cards" and v["show_cards"]["kind"] == "save" and v["show_cards"]["players"] == ["Dan"]
    s = play(s, give("Cid", "Dan"), resource("Dan", "water", 1))
    assert "Dan" in alive(s) and view(s)["condemned"] is None


def test_at_the_food_count_a_neighbours_gift_saves_the_condemned() -> None:
    s = emptied(food_vote_round_two(), "Dan", "Cid")
    s = play(s, *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"))
    assert view(s)["condemned"] == "Dan" and alive(s) == FIVE
    s = play(s, give("Eve", "Dan"))
    assert view(s)["show_cards"]["players"] == ["Dan"], "still his moment: he now holds a card"
    s = play(s, resource("Dan", "food", 1))
    assert alive(s) == FIVE and view(s)["phase"] == "end"


def test_after_the_first_players_tiebreak_a_gift_saves_the_one_he_named() -> None:
    """« En cas d'égalité, c'est le premier joueur qui tranche », then the same chance to be saved."""
    s = emptied(water_vote_round_three(), "Ann", "Bob")
    s = play(s, vote("Ann", "Bob"), vote("Bob", "Ann"), vote("Cid", "Ann"), vote("Dan", "Bob"))
    assert view(s)["tie"]
    s = play(s, tiebreak("Cid", "Ann"))
    assert view(s)["condemned"] == "Ann" and "Ann" in alive(s)
    s = play(s, give("Dan", "Ann", 2), resource("Ann", "water", 1))
    assert "Ann" in alive(s) and player(s, "Ann")["cards"] == 1


def test_the_condemned_without_a_gift_dies_on_his_own_answer_or_the_first_players_close() -> None:
    s = emptied(water_vote_round_three(), "Dan", "Ann")
    s = play(s, vote("Ann", "Dan"), vote("Bob", "Dan"), vote("Cid", "Dan"), vote("Dan", "Ann"))
    answered = play(s, no_card("Dan"))
    assert player(answered, "Dan")["died"] == "thirst" and view(answered)["show_cards"] is None
    closed = play(s, close(s))
    assert view(s)["first_player"] == "Cid"
    assert player(closed, "Dan")["died"] == "thirst" and view(closed)["show_cards"] is None


def test_at_the_hurricane_a_card_handed_to_the_castaway_left_behind_gives_the_raft_its_place() -> None:
    """The voyage lacks food (2 for 3): Cid, voted off the raft with an empty hand, is handed a food
    card and plays it: the raft takes all three (« autant de rations que de survivants »)."""
    s = hurricane_round_three()
    s = play(s, give("Cid", "Bob", player(s, "Cid")["cards"]))
    s = play(s, vote("Ann", "Cid"), vote("Bob", "Cid"), vote("Cid", "Ann"))
    v = view(s)
    assert v["condemned"] == "Cid" and not v["over"], "the game is not over while a gift may come"
    assert v["show_cards"]["kind"] == "save" and v["show_cards"]["players"] == ["Cid"]
    s = play(s, give("Ann", "Cid"), resource("Cid", "food", 1))
    assert view(s)["over"] and RULES.winners(s) == THREE


# -- a token on 0 --------------------------------------------------------------------------------------

def test_at_zero_a_castaway_who_showed_his_card_may_still_give_one() -> None:
    """« Seuls les joueurs disposant de cartes correspondant à la ressource manquante survivent »: the
    moment stays open for a castaway at risk without a card while someone could hand him one."""
    s = water_on_zero()
    assert view(s)["phase"] == "show_cards" and view(s)["show_cards"]["kind"] == "zero"
    s = emptied(s, "Bob", "Cid")
    assert "Bob" in view(s)["show_cards"]["players"], "asked though he holds none: a gift may come"
    s = play(s, resource("Ann", "water", 1), resource("Cid", "water", 1))
    assert view(s)["phase"] == "show_cards", "still open: Bob has not answered"
    s = play(s, give("Cid", "Bob"), resource("Bob", "water", 1))
    assert alive(s) == THREE, "all three showed a water card"


def test_at_zero_the_moment_closes_once_every_castaway_at_risk_has_answered() -> None:
    s = emptied(water_on_zero(), "Bob", "Cid")
    s = play(s, resource("Ann", "water", 1), resource("Cid", "water", 1), no_card("Bob"))
    assert player(s, "Bob")["died"] == "thirst" and alive(s) == ["Ann", "Cid"]


def test_at_zero_the_first_player_may_close_before_the_gift() -> None:
    s = emptied(water_on_zero(), "Bob", "Cid")
    s = play(s, resource("Ann", "water", 1), resource("Cid", "water", 1), close(s))
    assert player(s, "Bob")["died"] == "thirst"
    refused(s, give("Cid", "Bob"), "Bob is dead")
