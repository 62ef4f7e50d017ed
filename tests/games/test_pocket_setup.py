"""pocket-galapagos set-up: no set-up at the table, the documented options, the advanced game.

Each test quotes the sentence of seed 003 it checks (see docs/rules-coverage.md).
"""

from __future__ import annotations

import pytest

from companion import games
from companion.engine.rules import RuleError
from companion.games.pocket.rules import PocketRules
from tests.support.pocket import RULES, new, play


def test_registry_maps_the_game_id() -> None:
    """docs/design.md: the ``game`` field ``pocket-galapagos`` names this game."""
    rules = games.get("pocket-galapagos")
    assert isinstance(rules, PocketRules)
    assert rules.id == "pocket-galapagos"


def test_no_set_up_required() -> None:
    """"There is no set up required; everything is laid out for you."

    With no options at all the game starts on turn 1 with the documented
    default populations (3 each) and empty species spaces, ready for a move.
    """
    view = RULES.view(new())
    assert view["turn"] == 1 and view["round"] == 1
    assert view["populations"] == {"rat": 3, "ant": 3, "finch": 3}
    assert view["spaces"] == {"dominant": [], "biome": [], "invasive": []}
    assert view["over"] is False
    assert RULES.expected(new()).players == ("Ann",)


def test_one_player_only() -> None:
    """Pocket Galapagos is a solo game: one name, no more."""
    with pytest.raises(RuleError, match="solo game: name one player, not 2 players"):
        RULES.setup(["Ann", "Bob"], {})
    with pytest.raises(RuleError):
        RULES.setup([], {})


def test_option_start_sets_each_tracker() -> None:
    """Option ``start``: species → starting level (missing species keep the default 3)."""
    view = RULES.view(new(start={"rat": 7, "finch": 0}))
    assert view["populations"] == {"rat": 7, "ant": 3, "finch": 0}


@pytest.mark.parametrize("start", [{"rat": 8}, {"ant": -1}, {"bird": 2}, {"rat": "3"}, [3, 3, 3]])
def test_option_start_refuses_levels_off_the_track(start) -> None:
    """"A POPULATION can never go below 0 or above 7." — so no tracker starts off the track."""
    with pytest.raises(RuleError):
        new(start=start)


def test_option_turns_defaults_to_ten() -> None:
    """docs/design.md: ``turns`` is how many turns you must survive; the published game uses 10."""
    assert RULES.view(new())["turns"] == 10
    assert RULES.view(new(turns=4))["turns"] == 4
    with pytest.raises(RuleError):
        new(turns=0)


def test_option_spaces_sets_the_number_of_spaces() -> None:
    """"The effects of these spaces are covered on the corresponding reference cards on the board."

    The reference cards are not in the seed, so the number of spaces of each
    kind is an option (defaults 3 dominant, 3 biome, 7 invasive; null = no limit).
    """
    assert RULES.view(new())["space_counts"] == {"dominant": 3, "biome": 3, "invasive": 7}
    state = new(spaces={"dominant": 1})
    state = play(state, {"type": "species", "space": "dominant", "species": "rat"})
    with pytest.raises(RuleError, match="its only space is taken"):
        RULES.apply(state, {"type": "species", "space": "dominant", "species": "rat"})
    with pytest.raises(RuleError):
        new(spaces={"ocean": 2})


def test_unknown_option_is_refused() -> None:
    """A misspelt option is one clear sentence, not silently ignored."""
    with pytest.raises(RuleError, match='no option "turn"'):
        new(turn=5)


def test_eagle_ray_removes_six_cards_before_the_first_turn() -> None:
    """"Before taking your first turn, remove the top six SPOTTED EAGLE RAY cards from the deck."

    The advanced set-up is the ``eagle_ray`` option; without it no card is on
    the species spaces.
    """
    assert RULES.view(new())["eagle_ray"] is None
    view = RULES.view(new(eagle_ray={"dominant": "rat", "biome": "ant", "invasive": "finch"}))
    assert view["eagle_ray"] == {"dominant": "rat", "biome": "ant", "invasive": "finch"}


def test_eagle_ray_places_one_species_on_each_space() -> None:
    """"Shuffle them, then place 1 card face down as a SPECIES on the DOMINANT SPECIES,
    1 card face down as a SPECIES on the ISLAND BIOME, and 1 card face down as a SPECIES
    on the INVASIVE SPECIES."

    The placed cards then count like played ones: the dominant rat keeps ants
    out of the dominant space, the biome ant keeps a second ant out of the
    biome, and the invasive finch counts towards three finches.
    """
    state = new(eagle_ray={"dominant": "rat", "biome": "ant", "invasive": "finch"})
    assert RULES.view(state)["spaces"] == {"dominant": ["rat"], "biome": ["ant"], "invasive": ["finch"]}
    with pytest.raises(RuleError, match="dominant species is rat"):
        RULES.apply(state, {"type": "species", "space": "dominant", "species": "ant"})
    state = play(state, {"type": "species", "space": "invasive", "species": "ant"})
    assert RULES.view(state)["spaces"]["invasive"] == ["finch", "ant"]


def test_eagle_ray_option_needs_all_three_species() -> None:
    """The eagle ray set-up names the species put on each of the three spaces."""
    with pytest.raises(RuleError):
        new(eagle_ray={"dominant": "rat", "biome": "ant"})
    with pytest.raises(RuleError):
        new(eagle_ray={"dominant": "rat", "biome": "ant", "invasive": "ray"})


def test_eagle_ray_then_begin_the_game_as_usual() -> None:
    """"Move the remaining three SPOTTED EAGLE RAY cards to the discard and begin the game as usual."

    Nothing else changes: turn 1, the usual starting populations, the usual win.
    """
    state = new(eagle_ray={"dominant": "finch", "biome": "finch", "invasive": "rat"}, turns=1)
    view = RULES.view(state)
    assert view["turn"] == 1 and view["populations"] == {"rat": 3, "ant": 3, "finch": 3}
    state = play(state, {"type": "end_turn"})
    assert RULES.winners(state) == ["Ann"]


def test_reading_options_default_and_refuse_unknown_values() -> None:
    """The two ambiguous sentences (forced invasive, the dominant's first card) are options
    with documented defaults, shown in the view; another value is one clear sentence."""
    view = RULES.view(new())
    assert (view["invasive_play"], view["dominant_first"], view["dominant_played"]) == ("forced", "empty", False)
    view = RULES.view(new(invasive_play="free", dominant_first="played"))
    assert (view["invasive_play"], view["dominant_first"]) == ("free", "played")
    with pytest.raises(RuleError, match='Option "invasive_play" must be "forced" or "free", not "always"'):
        new(invasive_play="always")
    with pytest.raises(RuleError, match='Option "dominant_first" must be "empty" or "played", not true'):
        new(dominant_first=True)
