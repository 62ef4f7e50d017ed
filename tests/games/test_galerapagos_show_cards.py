"""Nobody dies before showing their cards (docs/design.md, « Galèrapagos: the moment to show cards »).

The companion counts hands; it cannot know who holds a Water card. So when a death depends on a card
someone may hold, it asks (phase ``show_cards``) and applies the deaths and the ending only once the
moment has closed: by the first player (``close``), when everyone asked has answered, or when the next
weather card is turned. Each rule's test quotes the rulebook (seed 004).
"""

from __future__ import annotations

from pathlib import Path

from companion.engine.script import run_file, run_lines
from tests.support.galerapagos import (
    FIVE,
    RULES,
    alive,
    close,
    closed,
    fed_round,
    food_vote_round_two,
    hurricane,
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
    wood,
)

SCENARIOS = Path(__file__).parent.parent / "scenarios"
THREE = ["Ann", "Bob", "Cid"]


def water_on_zero():
    """Three castaways; round 3 begins its survival step with water and food on 0 (each holds cards)."""
    s = play(new(THREE), weather(0), *searches(*THREE))
    s = play(s, survival(s))  # water 3, food 2
    s = play(s, weather(0), search("Cid"), fish_one("Ann"), search("Bob"))
    s = play(s, survival(s))  # water 0, food 0
    return play(s, weather(0), *searches("Bob", "Cid", "Ann"))


def fish_one(p: str) -> dict:
    return {"type": "fish", "player": p, "fish": 1}


# -- the scripts of water on zero and of the departure ----------------------------------------------------------------------------

def test_water_on_zero_ends_in_the_moment_to_show_cards_not_in_a_lost_game() -> None:
    """« Si un jeton Ressource se trouve sur la case 0 au début de cette étape, il n'y a pas de vote.
    Seuls les joueurs disposant de cartes correspondant à la ressource manquante survivent. »"""
    lines = (SCENARIOS / "galerapagos_water_on_zero.jsonl").read_text().splitlines()
    out = run_lines(lines).output
    assert out["over"] is False and out["phase"] == "show_cards" and out["winners"] == []
    assert all(p["alive"] for p in out["players"])
    assert "no_card" in out["expected"]["actions"] and "close" in out["expected"]["actions"]
    answered = run_lines(lines + ['{"type": "no_card", "player": "Ana"}',
                                  '{"type": "resource", "player": "Ben", "resource": "water"}']).output
    assert answered["over"] is False and answered["phase"] == "show_cards", "still open until close"
    assert answered["show_cards"]["shown"] == ["Ben"] and answered["show_cards"]["answered"] == ["Ana"]
    done = run_lines(lines + ['{"type": "no_card", "player": "Ana"}',
                              '{"type": "resource", "player": "Ben", "resource": "water"}',
                              '{"type": "close", "player": "Dan"}']).output
    assert [p["name"] for p in done["players"] if p["alive"]] == ["Ben"] and done["over"] is False


def test_the_departure_script_leaves_dan_behind_and_ends_the_game() -> None:
    """« Il peut se sauver en jouant une carte Ressource »: Dan's water card adds no raft card, so the
    raft has no more places than before: the verdict stands (the departure fix)."""
    result = run_file(str(SCENARIOS / "galerapagos_departure.jsonl"))
    assert result.exit_code == 0
    out = result.output
    dan = next(p for p in out["players"] if p["name"] == "Dan")
    assert out["over"] and dan["died"] == "left_behind" and out["winners"] == ["Ana", "Ben", "Cleo"]


# -- the moment at a count on 0 --------------------------------------------------------------------

def test_at_zero_every_castaway_holding_a_card_is_asked_and_nobody_dies_before_the_close() -> None:
    s = water_on_zero()
    v = view(s)
    assert v["phase"] == "show_cards" and v["count"] == "water" and not v["over"]
    assert v["show_cards"]["players"] == THREE and v["show_cards"]["at_risk"] == THREE
    assert RULES.expected(s).prompt == "Water is on 0: each castaway who holds a water card shows it now."
    s = play(s, resource("Cid", "water"))
    assert view(s)["show_cards"]["shown"] == ["Cid"] and view(s)["show_cards"]["at_risk"] == ["Ann", "Bob"]
    refused(s, vote("Ann", "Bob"), "There is no vote now")


def test_only_the_first_player_closes_the_moment() -> None:
    """« le premier joueur » ends it (docs/design.md: ``close`` by the first player)."""
    s = water_on_zero()
    assert view(s)["first_player"] == "Bob"
    refused(s, {"type": "close", "player": "Ann"}, "Only Bob, the first player, closes the moment")
    s = play(s, resource("Ann", "water"), {"type": "close"})  # the table may close it for the first player
    assert alive(s) == ["Ann"]


def test_close_and_none_are_refused_when_nobody_is_asked() -> None:
    s = play(new(), weather(1))
    refused(s, {"type": "close", "player": "Ann"}, "There is no moment to close now")
    refused(s, no_card("Ann"), "Nobody is asked to show a card now")


def test_an_answer_is_given_once_and_only_by_someone_at_risk() -> None:
    s = food_vote_round_two()
    s = play(s, *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"))
    refused(s, no_card("Ann"), "Ann is not asked to show a card now", "Dan may still escape the verdict")
    s = water_on_zero()
    s = play(s, no_card("Ann"))
    refused(s, no_card("Ann"), "Ann has already answered « I have none »")


def test_a_castaway_handed_a_card_after_saying_none_may_still_show_it() -> None:
    """« Peuvent être offertes »: a card handed over while the moment is open can still save its new owner."""
    s = play(water_on_zero(), no_card("Ann"))
    s = play(s, {"type": "give", "player": "Bob", "target": "Ann"})
    assert "Ann" in view(s)["show_cards"]["players"]
    s = play(s, resource("Ann", "water"), resource("Bob", "water"), resource("Cid", "water"))
    assert alive(s) == THREE and view(s)["count"] == "food", "everyone showed: the water count closed"


def test_when_everyone_asked_has_answered_the_deaths_follow_at_once() -> None:
    s = play(water_on_zero(), resource("Ann", "water"), no_card("Bob"), no_card("Cid"))
    assert alive(s) == ["Ann"] and player(s, "Bob")["died"] == "thirst"
    assert view(s)["show_cards"]["resource"] == "food", "then the food count, also on 0"


def test_a_sick_castaway_since_last_round_cannot_show_a_card_unless_the_table_reads_it_so() -> None:
    """« Le tour suivant, il ne pourra ni jouer une carte, ni faire une action. » Option ``sick_show``."""
    for option, asked in ((False, ["Ann", "Cid"]), (True, THREE)):
        s = play(new(THREE, sick_show=option), weather(0), *searches(*THREE))
        s = play(s, survival(s))
        s = play(s, weather(0), search("Cid"), fish_one("Ann"), wood("Bob", 1, snake=True))
        s = play(s, survival(s))  # water 0, food 0; Bob bitten in round 2
        s = play(s, weather(0), *searches("Cid", "Ann"))  # round 3: Bob sick since last round, no action
        assert view(s)["show_cards"]["players"] == asked
        if option:
            s = play(s, resource("Bob", "water"))
            assert view(s)["show_cards"]["shown"] == ["Bob"]
        else:
            refused(s, resource("Bob", "water"), "Bob is sick and cannot play a card")


def test_nobody_holding_any_card_means_no_moment_and_the_deaths_at_once() -> None:
    """With no card anywhere nobody can show one: the count on 0 kills at once, as the rule says."""
    lay = [{"type": "place", "player": p, "card": "axe"} for p in THREE for _ in range(4)]
    s = play(new(THREE), weather(0), *lay, fish_one("Ann"), fish_one("Bob"), fish_one("Cid"))
    s = play(s, survival(s))  # water 3, food 5; no card in any hand
    s = play(s, weather(0), fish_one("Cid"), fish_one("Ann"), fish_one("Bob"))
    s = play(s, survival(s))  # water 0
    s = play(s, weather(0), fish_one("Bob"), fish_one("Cid"), fish_one("Ann"))
    v = view(s)
    assert v["over"] and v["show_cards"] is None and RULES.outcome(s).reason == "hecatomb"


# -- the target's moment ------------------------------------------------------------------------------

def test_the_target_is_asked_before_he_dies_and_his_card_must_supply_what_he_lacks() -> None:
    """« Il peut se sauver en jouant une carte Ressource » -- at the food count, a food card; a water card
    gives him nothing he lacks (« the same at the water and food counts »)."""
    s = food_vote_round_two()
    s = play(s, *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"))
    assert view(s)["condemned"] == "Dan" and view(s)["phase"] == "show_cards" and not view(s)["over"]
    wrong = play(s, resource("Dan", "water"))
    assert player(wrong, "Dan")["died"] == "hunger" and view(wrong)["water"] == 1, "the card still went on"
    right = play(s, resource("Dan", "food"))
    assert alive(right) == FIVE and view(right)["phase"] == "end"


def test_another_castaways_card_that_ends_the_shortage_spares_the_target() -> None:
    """« Les joueurs peuvent jouer des cartes Nourriture pour augmenter la ration. » Food 4 for five, one short."""
    s = food_vote_round_two()
    s = play(s, *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"))
    s = play(s, resource("Ann", "food"))
    assert alive(s) == FIVE and view(s)["phase"] == "end" and view(s)["food"] == 0


def test_a_shot_saves_the_target_one_mouth_fewer() -> None:
    """« ... ou en tirant sur un autre joueur (une bouche de moins). »"""
    s = food_vote_round_two()
    s = play(s, *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"), shoot("Dan", "Cid"))
    assert alive(s) == ["Ann", "Bob", "Dan", "Eve"] and view(s)["phase"] == "end"


def test_the_tiebreak_names_the_target_who_is_then_asked() -> None:
    """« En cas d'égalité, le premier joueur tranche. » -- and the one he names may still save himself."""
    s = food_vote_round_two()
    s = play(s, vote("Ann", "Bob"), vote("Bob", "Ann"), vote("Cid", "Bob"), vote("Dan", "Ann"), vote("Eve", "Cid"))
    s = play(s, tiebreak("Eve", "Ann"))
    assert view(s)["condemned"] == "Ann" and view(s)["waiting"] == ["Ann"]
    s = closed(s)
    assert player(s, "Ann")["died"] == "hunger"


def test_the_next_weather_card_closes_the_targets_moment() -> None:
    """docs/design.md: the moment ends « when the next weather is entered »: the target dies, the round ends."""
    s = play(new(THREE), weather(0), *searches(*THREE))
    s = play(s, survival(s))  # water 3, food 2
    s = play(s, weather(1), water("Cid"), water("Ann"), search("Bob"))  # water 5, food 2
    s = play(s, survival(s))  # water 2, food 2 for 3: the food vote
    s = play(s, vote("Ann", "Bob"), vote("Bob", "Cid"), vote("Cid", "Bob"))
    assert view(s)["condemned"] == "Bob"
    later = play(s, weather(2))
    assert player(later, "Bob")["died"] == "hunger" and view(later)["round"] == 3


def test_the_next_weather_card_is_refused_while_closing_would_lead_to_another_vote() -> None:
    """Water 3 for five: two rations lack, so two votes; the first target's moment cannot be skipped by
    turning the next card, because the second vote must come first."""
    s = play(new(), weather(0), *searches(*FIVE))
    s = play(s, survival(s))  # water 5, food 4
    s = play(s, weather(0), {"type": "fish", "player": "Eve", "fish": 3}, *searches("Ann", "Bob", "Cid", "Dan"))
    s = play(s, survival(s))  # water 0, food 2
    s = play(s, weather(1), water("Dan"), water("Eve"), water("Ann"), {"type": "fish", "player": "Bob", "fish": 2},
             search("Cid"))
    s = play(s, survival(s))  # water 3 for five
    s = play(s, *[vote(p, "Cid") for p in FIVE if p != "Cid"], vote("Cid", "Ann"))
    assert view(s)["condemned"] == "Cid"
    refused(s, weather(2), "cannot be turned yet", "once the cards are shown",
            "voting on who goes without water")


# -- the pause before survival -------------------------------------------------------------------------

def test_the_survival_step_waits_for_the_first_player_and_cards_may_come_first() -> None:
    """« Étape 3 : action des joueurs » then « Étape 4 : survie ». « The survival step starts
    when the first player confirms (« Everyone has acted: go to survival? »), so cards can still be played ».
    Water 4 for five: a water card before the step spares the vote."""
    s = play(new(), weather(0), *searches(*FIVE))
    s = play(s, survival(s))  # water 5, food 4
    s = play(s, weather(0), fish_one("Eve"), *searches("Ann", "Bob", "Cid", "Dan"))  # water 5, food 5
    assert view(s)["phase"] == "acted" and RULES.expected(s).prompt == "Everyone has acted: {p}, go to survival?"
    assert RULES.expected(s).players[0] == "Eve"
    refused(play(s, survival(s)), survival(s), "The survival step cannot start now")
    s = play(s, resource("Bob", "food"))
    s = play(s, survival(s))
    assert view(s)["phase"] == "end" and (view(s)["water"], view(s)["food"]) == (0, 1)


def test_a_line_of_the_survival_step_implies_the_confirmation() -> None:
    """« a script may go on without it (the next action after step 3 implies it) »."""
    s = food_vote_round_two()
    assert view(s)["phase"] == "acted"
    voted = play(s, vote("Ann", "Dan"))
    assert view(voted)["count"] == "food" and player(voted, "Ann")["voted"]
    turned = play(s, resource("Ann", "food"), weather(2))  # food 5 for five: the round ends, the next card
    assert view(turned)["round"] == 3 and view(turned)["food"] == 0


def test_with_a_token_on_zero_the_step_begins_at_once() -> None:
    """The moment to show cards is then the pause (the water-on-zero script ends in it)."""
    s = water_on_zero()
    assert view(s)["phase"] == "show_cards"
    s2 = play(s, survival(s))  # a table that confirms anyway: accepted, nothing changes
    assert RULES.public_state(s2) == RULES.public_state(s)


# -- the hurricane's raft --------------------------------------------------------------------------------

def hurricane_round_three():
    s = new(THREE)
    for drops in [0, 0, 0, 1, 1, 1]:
        s = fed_round(s, drops)
    s = play(s, hurricane(), wood("Ann", 5), wood("Bob", 5), wood("Cid", 5))
    return play(s, survival(s))  # water 3, food 2 for the voyage, 3 raft cards: places 2 for 3


def test_before_the_raft_leaves_cards_may_be_played_then_the_vote() -> None:
    """« Si les ressources ne sont pas assez ou s'il n'y a pas assez de place, procédez à un vote ou éliminez
    un joueur. » First the moment: a food card makes room for all three."""
    s = hurricane_round_three()
    v = view(s)
    assert v["phase"] == "show_cards" and v["show_cards"]["kind"] == "raft" and v["show_cards"]["places"] == 2
    assert not v["over"] and set(v["show_cards"]["at_risk"]) == set(THREE)
    s2 = play(s, resource("Cid", "food"))
    assert view(s2)["over"] and RULES.winners(s2) == THREE


def test_the_raft_moment_closes_with_embark_close_answers_or_the_vote() -> None:
    s = hurricane_round_three()
    for way in ([{"type": "embark"}], [close(s)], [no_card("Ann"), no_card("Bob"), no_card("Cid")],
                [vote("Ann", "Cid")]):
        t = play(s, *way)
        assert view(t)["vote"] == "depart" and view(t)["phase"] == "depart", way


def test_the_left_behind_is_saved_only_by_a_card_that_adds_a_place() -> None:
    """Food was short for the voyage (2 for 3): his food card adds a place, his water card none."""
    s = hurricane_round_three()
    s = play(s, vote("Ann", "Cid"), vote("Bob", "Cid"), vote("Cid", "Ann"))
    assert view(s)["condemned"] == "Cid"
    saved = play(s, resource("Cid", "food"))
    assert RULES.winners(saved) == THREE
    behind = play(s, resource("Cid", "water"))
    assert player(behind, "Cid")["died"] == "left_behind" and RULES.winners(behind) == ["Ann", "Bob"]


def test_without_a_raft_card_no_card_saves_anyone() -> None:
    """« ... sinon, tout le monde est perdant. » -- only once the moment has closed."""
    s = new(THREE)
    for drops in [0, 0, 0, 1, 1, 1]:
        s = fed_round(s, drops)
    s = play(s, hurricane(), *searches("Ann", "Bob", "Cid"))
    s = play(s, survival(s))
    assert view(s)["show_cards"]["places"] == 0 and not view(s)["over"]
    s = play(s, resource("Ann", "water"), resource("Bob", "food"), close(s))
    assert view(s)["over"] and RULES.winners(s) == [] and alive(s) == THREE


# -- a vote for places at a normal round end (option raft_vote) ------------------------------------------

def test_a_vote_for_the_raft_places_at_a_normal_round_end_is_a_reading_the_table_chooses() -> None:
    """« Il y a vote en cas de pénurie d'eau, de nourriture ou quand il n'y a pas assez de places sur le
    radeau. » By default the survivors leave only when there is room for all (« Il y a autant de cartes
    Radeau que de survivants »); option ``raft_vote`` lets them vote for the places."""
    def two_rafts(**options):
        s = play(new(THREE, **options), weather(3), wood("Ann", 5), wood("Bob", 5), water("Cid"))
        return play(s, survival(s))  # 2 raft cards for 3; water 9 - 3 = 6, food 5 - 3 = 2

    refused(two_rafts(), {"type": "embark"}, "3 survivors need 3 raft cards and there are 2")
    s = two_rafts(raft_vote=True)
    s = play(s, resource("Ann", "food", 2), {"type": "embark"})
    assert view(s)["vote"] == "depart" and not view(s)["over"]
    s = play(s, vote("Ann", "Cid"), vote("Bob", "Cid"), vote("Cid", "Ann"), no_card("Cid"))
    assert view(s)["over"] and RULES.outcome(s).reason == "embark" and RULES.winners(s) == ["Ann", "Bob"]


# -- the debate ---------------------------------------------------------------------------------------------

def test_the_first_player_may_stop_the_debate_and_the_first_vote_ends_it() -> None:
    """« Avant le vote, les joueurs peuvent organiser un débat que le premier joueur est en droit d'arrêter
    quand il veut. Le premier joueur compte jusqu'à 3, puis tous pointent du doigt ». The debate is table
    talk; the companion only knows whether it still runs (for the screens' timer)."""
    s = play(food_vote_round_two(), survival(food_vote_round_two()))
    assert view(s)["debate"] is True and "debate" in RULES.expected(s).actions
    refused(s, {"type": "debate", "player": "Ann"}, "Only Eve, the first player, may stop the debate")
    stopped = play(s, {"type": "debate", "player": "Eve"})
    assert view(stopped)["debate"] is False and view(stopped)["vote"] == "food"
    refused(stopped, {"type": "debate"}, "The debate is already over")
    assert view(play(s, vote("Ann", "Bob")))["debate"] is False, "pointing ends the debate"


# -- permanent cards ------------------------------------------------------------------------------------------

def test_a_permanent_card_stays_in_front_of_its_owner_and_its_effect_can_be_entered() -> None:
    """Cartes à effet permanent: « À placer, face visible, devant le joueur. » The rulebook names no effect;
    the table enters what the card did (``effect``): the track moves, no card leaves the hand."""
    s = play(new(), weather(0), {"type": "place", "player": "Ann", "card": "fishing_rod"})
    assert player(s, "Ann")["permanent"] == ["fishing_rod"] and player(s, "Ann")["cards"] == 3
    s2 = play(s, {"type": "effect", "player": "Ann", "card": "fishing_rod", "amount": 2})
    assert view(s2)["food"] == 9 + 2 and player(s2, "Ann")["cards"] == 3
    assert player(s2, "Ann")["permanent"] == ["fishing_rod"], "permanent: it stays face up"
    refused(s, {"type": "effect", "player": "Bob", "card": "fishing_rod"}, "Bob has no Fishing rod face up")
    refused(s, {"type": "effect", "player": "Ann", "card": "club"}, "has no effect on a track")
    axe = play(new(), weather(0), {"type": "place", "player": "Bob", "card": "axe"},
               {"type": "effect", "player": "Bob", "card": "axe", "amount": 6})
    assert (view(axe)["rafts"], view(axe)["wood"]) == (1, 0), "six pieces lay a raft card"
