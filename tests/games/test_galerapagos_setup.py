"""Mise en place: rations by player count, wreck cards, raft track, first player, options."""

from __future__ import annotations

import pytest

from companion.engine.rules import RuleError
from tests.support.galerapagos import FIVE, RULES, new, player, view

NAMES = [f"P{i}" for i in range(1, 13)]

# "| Nombre de joueurs | Nourriture | Eau |" -- the seed's table, row by row.
TABLE = {3: (5, 6), 4: (7, 8), 5: (9, 10), 6: (10, 12), 7: (12, 14), 8: (13, 16),
         9: (15, 18), 10: (16, 20), 11: (18, 22), 12: (20, 24)}


@pytest.mark.parametrize("count", sorted(TABLE))
def test_starting_food_and_water_follow_the_table(count: int) -> None:
    """"En fonction du nombre de joueurs, placez le jeton Eau et le jeton Nourriture sur la case
    numérotée correspondante." """
    v = view(new(NAMES[:count]))
    assert (v["food"], v["water"]) == TABLE[count]


def test_five_players_start_with_food_9_and_water_10() -> None:
    """The issue's example: 5 players start with food 9 and water 10."""
    v = view(new(FIVE))
    assert v["food"] == 9 and v["water"] == 10


@pytest.mark.parametrize("count,hand", [(3, 4), (8, 4), (9, 3), (12, 3)])
def test_wreck_cards_dealt_by_player_count(count: int, hand: int) -> None:
    """"| 3-8 | 4 cartes par joueur. | 9-12 | 3 cartes par joueur |" """
    v = view(new(NAMES[:count]))
    assert [p["cards"] for p in v["players"]] == [hand] * count
    assert v["wreck"] == 54 - hand * count  # "Le reste formera une pioche"


def test_raft_disc_on_zero_and_no_raft_card() -> None:
    """"Placez le disque en bois sur la case 0 de la piste Radeau." """
    v = view(new())
    assert v["wood"] == 0 and v["rafts"] == 0


def test_everyone_starts_alive_and_healthy() -> None:
    v = view(new())
    assert all(p["alive"] and not p["sick"] for p in v["players"])
    assert v["round"] == 1 and not v["over"] and v["phase"] == "weather"


def test_first_player_is_the_first_listed_unless_chosen() -> None:
    """"La carte Premier joueur est donnée au joueur qui ressemble le plus à un naufragé." """
    assert view(new())["first_player"] == "Ann"
    assert view(new(first_player="Cid"))["first_player"] == "Cid"


@pytest.mark.parametrize("count", [2, 13])
def test_three_to_twelve_players(count: int) -> None:
    """"pour 3 à 12 joueurs" """
    with pytest.raises(RuleError, match="3 to 12"):
        new(NAMES[:count] if count <= 12 else NAMES + ["P13"])


@pytest.mark.parametrize("options,word", [
    ({"dead_votes": True}, "dead_votes"),
    ({"dead_vote": "yes"}, "dead_vote"),
    ({"first_player": "Zed"}, "first_player"),
    ({"scoring": "selfish"}, "scoring"),
    ({"weather_cards": [1, 2]}, "weather_cards"),
    ({"bag": []}, "bag"),
])
def test_bad_options_are_refused_in_both_languages(options: dict, word: str) -> None:
    with pytest.raises(RuleError) as info:
        RULES.setup(FIVE, options)
    assert word in info.value.message and word in info.value.text("fr", "galerapagos")
    assert info.value.text("fr", "galerapagos") != info.value.message


def test_the_voice_of_the_dead_option_is_shown() -> None:
    """"La voix des morts: Dans cette variante, les joueurs éliminés participent au vote." """
    assert view(new(dead_vote=True))["options"]["dead_vote"] is True
    assert view(new())["options"]["dead_vote"] is False


def test_view_has_the_design_fields() -> None:
    v = view(new())
    for key in ("game", "round", "over", "players", "food", "water", "wood", "rafts", "weather",
                "first_player", "phase", "waiting"):
        assert key in v
    assert set(player(new(), "Ann")) >= {"name", "alive", "sick", "cards"}
    assert v["game"] == "galerapagos" and v["weather"] is None
