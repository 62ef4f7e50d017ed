"""pocket-galapagos ANIMAL cards played face up to THE OCEAN (``ocean`` action).

Each test quotes the sentence of seed 003 it checks (see docs/rules-coverage.md).
"""

from __future__ import annotations

import pytest

from companion.engine.rules import RuleError
from tests.support.pocket import RULES, new, ocean


def test_the_front_shows_population_icons() -> None:
    """"The front of all ANIMAL cards include the following: POPULATION ICONS, AQUATIC SPECIES, and ABILITY."

    So an ocean play says which population the icons show and how many there are.
    """
    for missing in ("species", "icons", "mode"):
        action = ocean("rat", 1)
        del action[missing]
        with pytest.raises(RuleError, match=f'needs a "{missing}"'):
            RULES.apply(new(), action)
    with pytest.raises(RuleError):
        RULES.apply(new(), ocean("rat", 0))


@pytest.mark.parametrize("mode", ["inhabit", "migrate"])
def test_ocean_raises_the_population_by_its_icons_either_way(mode) -> None:
    """"When an ANIMAL is played to THE OCEAN, you increase the corresponding POPULATION
    (Rat, Ant, or Finch) shown on the played card by the number of ICONS on the played card,
    regardless of whether it MIGRATES or INHABITS."
    """
    state, _ = RULES.apply(new(), ocean("ant", 2, mode))
    assert RULES.view(state)["populations"] == {"rat": 3, "ant": 5, "finch": 3}
    state, _ = RULES.apply(state, ocean("finch", 1, mode))
    assert RULES.view(state)["populations"] == {"rat": 3, "ant": 5, "finch": 4}


def test_ability_only_when_it_inhabits() -> None:
    """"When an ANIMAL is played to THE OCEAN, you use its ABILITY if it INHABITS.
    If it MIGRATES, you do not gain the ABILITY."

    The ocean event tells the screens whether to prompt for the ability.
    """
    _, events = RULES.apply(new(), ocean("rat", 1, "inhabit"))
    assert events[0]["ability"] is True
    _, events = RULES.apply(new(), ocean("rat", 1, "migrate"))
    assert events[0]["ability"] is False


def test_mode_is_migrate_or_inhabit() -> None:
    """"MIGRATE and INHABIT are explained in detail on THE OCEAN reference card."

    Those are the only two ways to play to the ocean.
    """
    with pytest.raises(RuleError, match="Ann cannot play a card to the ocean: a card in the ocean either inhabits or migrates"):
        RULES.apply(new(), ocean("rat", 1, "swim"))


def test_face_up_cards_only_go_to_the_ocean() -> None:
    """"Face up ANIMAL cards can only be played to THE OCEAN spaces."

    A face-up (ocean) play never touches the species spaces, and has no space to name.
    """
    state, _ = RULES.apply(new(), ocean("rat", 2))
    assert RULES.view(state)["spaces"] == {"dominant": [], "biome": [], "invasive": []}
    with pytest.raises(RuleError, match='no field "space"'):
        RULES.apply(new(), {**ocean("rat", 2), "space": "biome"})


def test_ocean_play_is_clamped_at_seven() -> None:
    """"A POPULATION can never go below 0 or above 7." — an ocean play past 7 stops at 7."""
    state, events = RULES.apply(new(start={"rat": 6}), ocean("rat", 2))
    assert RULES.view(state)["populations"]["rat"] == 7
    assert events[0]["to"] == 7


def test_two_icon_hint_needs_no_special_rule() -> None:
    """"Hint: If an ANIMAL card has two POPULATION ICONS, it will have the same SPECIES on
    the back as the POPULATION ICONS shown on the front."

    A hint, not a rule: a two-icon rat may be played to the ocean or face down
    as a rat, and the companion treats both like any other card.
    """
    state, _ = RULES.apply(new(), ocean("rat", 2))
    assert RULES.view(state)["populations"]["rat"] == 5
    state, _ = RULES.apply(new(), {"type": "species", "space": "biome", "species": "rat"})
    assert RULES.view(state)["spaces"]["biome"] == ["rat"]
