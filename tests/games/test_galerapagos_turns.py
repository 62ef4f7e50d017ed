"""Étape 1 and Étape 3's order: the first-player card passes right, play goes clockwise,
one action each, out-of-turn moves refused."""

from __future__ import annotations

from tests.support.galerapagos import (
    FIVE,
    RULES,
    fed_round,
    fish,
    new,
    play,
    refused,
    resource,
    search,
    shoot,
    view,
    water,
    weather,
)


def order_of_play(state, drops: int = 1) -> tuple[list[str], object]:
    """Play a round (everyone searches) and return who acted, in order."""
    state = play(state, weather(drops))
    v = view(state)
    mouths = sum(p["alive"] for p in v["players"])
    feeder = max(v["players"], key=lambda p: p["cards"] if p["alive"] else -1)["name"]
    state = play(state, resource(feeder, "water", mouths), resource(feeder, "food", mouths))
    seen = []
    while view(state)["phase"] == "actions":
        seen.append(view(state)["turn"])
        state = play(state, search(seen[-1]))
    return seen, state


def test_first_round_starts_with_the_first_player_and_goes_clockwise() -> None:
    """"En commençant par le premier joueur et dans l'ordre des tours, chacun réalise une action"
    and "Jouez dans le sens horaire." (seating order is clockwise)."""
    seen, _ = order_of_play(new())
    assert seen == FIVE


def test_the_first_player_card_passes_right_each_round() -> None:
    """"Quand le tour revient au premier joueur, la carte Premier joueur passe au joueur assis à sa
    droite." The right-hand neighbour is the previous one clockwise."""
    s = new()
    firsts = []
    for drops in [0, 0, 1, 1, 2, 2]:
        seen, s = order_of_play(s, drops)
        firsts.append(seen[0])
        assert seen == FIVE[FIVE.index(seen[0]):] + FIVE[:FIVE.index(seen[0])]
    assert firsts == ["Ann", "Eve", "Dan", "Cid", "Bob", "Ann"]


def test_no_change_of_first_player_at_the_start() -> None:
    """"Ignorez cette étape en début de partie." """
    s = play(new(first_player="Cid"), weather(0))
    assert view(s)["first_player"] == "Cid" and view(s)["turn"] == "Cid"


def test_the_card_skips_the_dead() -> None:
    """From round 2 the card goes right, skipping the dead."""
    s = play(new(), weather(1), shoot("Ann", "Eve"))  # Eve, right of Ann, dies in round 1
    while view(s)["phase"] == "actions":
        s = play(s, search(view(s)["turn"]))
    assert view(s)["phase"] == "acted"
    s = play(s, weather(2))  # the next weather card implies the survival step (water and food shared)
    assert view(s)["first_player"] == "Dan"
    assert view(s)["turn"] == "Dan"


def test_when_the_first_player_dies_the_rotation_goes_on_as_if_he_had_passed_it() -> None:
    s = play(new(), weather(1), shoot("Ann", "Bob"))
    s = play(s, shoot("Eve", "Ann"))  # Eve may shoot out of turn: cards are played any time
    assert view(s)["first_player"] == "Cid"  # the card moved left for the rest of the round
    while view(s)["phase"] == "actions":
        s = play(s, search(view(s)["turn"]))
    s = play(s, weather(0))
    assert view(s)["first_player"] == "Eve"  # Ann would have passed it to Eve


def test_out_of_turn_actions_are_refused_naming_whose_turn_it_is() -> None:
    s = play(new(), weather(2))
    refused(s, fish("Cid", 2), "Ann's turn", "Cid")
    s = play(s, water("Ann"))
    refused(s, water("Ann"), "Ann has already acted")
    refused(s, search("Dan"), "Bob's turn")


def test_one_action_each_then_the_survival_step() -> None:
    """"chacun réalise une action sur les 4 suivantes" """
    s = play(new(), weather(3), fish("Ann", 1), water("Bob"), search("Cid"), fish("Dan", 2))
    assert view(s)["phase"] == "actions" and view(s)["turn"] == "Eve"
    s = play(s, fish("Eve", 3))
    v = view(s)
    assert v["phase"] == "acted" and v["turn"] is None and RULES.expected(s).players[0] == "Ann"
    assert v["food"] == 9 + 1 + 2 + 3 and v["water"] == 10 + 3, "« go to survival? » comes first"
    refused(s, {"type": "survival", "player": "Bob"}, "Only Ann, the first player")
    s = play(s, {"type": "survival", "player": "Ann"})
    v = view(s)
    assert v["phase"] == "end" and v["food"] == 9 + 1 + 2 + 3 - 5 and v["water"] == 10 + 3 - 5


def test_expected_names_the_player_to_act() -> None:
    s = play(new(), weather(0), fish("Ann", 1))
    exp = RULES.expected(s)
    assert exp.players == ("Bob",) and set(exp.actions) == {"fish", "water", "wood", "search"}
    assert view(s)["waiting"] == ["Bob"]


def test_the_end_of_a_round_waits_for_the_next_weather_card() -> None:
    """"Étape 5 : fin du tour - Entamez un nouveau tour." """
    s = fed_round(new())
    assert view(s)["phase"] == "end" and RULES.expected(s).actions[0] == "weather"
    assert view(play(s, weather(1)))["round"] == 2
