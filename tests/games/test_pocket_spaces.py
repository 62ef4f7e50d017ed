"""pocket-galapagos face-down SPECIES cards: the DOMINANT SPECIES, ISLAND BIOME and
INVASIVE SPECIES spaces, the forced invasive play, the invasive takeover, and moves.

Each test quotes the sentence of seed 003 it checks (see docs/rules-coverage.md).
"""

from __future__ import annotations

from tests.support.pocket import END, RULES, move, new, play, put, refused, spaces


def test_back_shows_a_species() -> None:
    """"The back of all ANIMAL cards features a SPECIES and an INVASIVE EFFECT."

    A face-down card is a rat, an ant or a finch; nothing else.
    """
    refused(new(), put("biome", "iguana"), "Ann cannot play a face-down card: the species are rat, ant and finch")
    state = play(new(), put("biome", "Finch"))
    assert spaces(state)["biome"] == ["finch"]


def test_flipped_card_goes_to_a_non_ocean_space() -> None:
    """"ANIMAL cards may be flipped face down as a RAT, ANT, or FINCH SPECIES cards and played
    to one of the other, non-THE OCEAN spaces."

    A face-down card adds no population icons: only the space changes.
    """
    state = play(new(), put("biome", "rat"))
    assert spaces(state) == {"dominant": [], "biome": ["rat"], "invasive": []}
    assert RULES.view(state)["populations"] == {"rat": 3, "ant": 3, "finch": 3}


def test_face_down_cards_go_to_the_three_species_spaces() -> None:
    """"Face down ANIMAL cards are played to the DOMINANT SPECIES, ISLAND BIOME, or INVASIVE SPECIES spaces.\""""
    state = play(new(spaces={"biome": 1, "dominant": 1}), put("dominant", "rat"), put("biome", "ant"),
                 put("invasive", "finch"))
    assert spaces(state) == {"dominant": ["rat"], "biome": ["ant"], "invasive": ["finch"]}
    refused(state, put("middle", "finch"), "the face-down spaces are dominant, biome and invasive")


def test_species_limitations_come_from_the_reference_cards() -> None:
    """"The effects and limitations of playing face down ANIMAL cards as SPECIES are covered in
    detail on the ISLAND BIOME, DOMINANT SPECIES, INVASIVE SPECIES, POPULATION, and THE OCEAN
    reference cards."

    Their one limitation the seed hints at ("limited capacity") is the number of
    spaces, an option: a full row takes no more cards.
    """
    state = play(new(spaces={"dominant": 2}), put("dominant", "ant"), put("dominant", "ant"))
    refused(state, put("dominant", "ant"), "all 2 of its spaces are taken")


def test_invasive_effects_only_from_the_middle_at_end_of_turn() -> None:
    """"INVASIVE EFFECTS only happen when a card is flipped and discarded from the Middle at the end of the turn."

    Playing a card to the invasive species space has no population effect; the
    Middle's effect is reported (``population``) before ``end_turn`` and counts
    in that turn's check.
    """
    state = play(new(spaces={"biome": 1, "dominant": 1}), put("biome", "rat"), put("dominant", "rat"),
                 put("invasive", "rat"))
    assert RULES.view(state)["populations"] == {"rat": 3, "ant": 3, "finch": 3}
    state = play(new(start={"rat": 1, "ant": 2}), {"type": "population", "species": "ant", "change": -1}, END)
    assert RULES.outcome(state).reason == "populations_collapsed"


def test_face_down_never_to_the_ocean() -> None:
    """"Face down ANIMALS (RAT, ANT, or FINCH) are never played to THE OCEAN.\""""
    refused(new(), put("ocean", "rat"), "cannot play a face-down species to the ocean")


def test_face_down_goes_to_dominant_biome_or_invasive() -> None:
    """"Instead, they are played to either the DOMINANT SPECIES, ISLAND BIOME, or INVASIVE SPECIES spaces."

    Where one may go now is listed per species for the screens.
    """
    view = RULES.view(new())
    assert view["allowed"] == {s: ["dominant", "biome"] for s in ("rat", "ant", "finch")}


def test_space_effects_are_observed_actions() -> None:
    """"The effects of these spaces are covered on the corresponding reference cards on the board."

    The companion cannot read those cards: a space's effect on a population is
    reported with ``population`` and clamped like any change.
    """
    state = play(new(), put("biome", "finch"), {"type": "population", "species": "finch", "change": 5})
    assert RULES.view(state)["populations"]["finch"] == 7


def test_biome_takes_a_species_not_already_there() -> None:
    """"You may play a face down ANIMAL to an ISLAND BIOME space as long as the played card's
    SPECIES is not currently on an ISLAND BIOME space."
    """
    state = play(new(), put("biome", "rat"), put("biome", "ant"))
    refused(state, put("biome", "rat"), "a rat is already on the island biome")
    state = play(state, put("biome", "finch"))
    assert spaces(state)["biome"] == ["rat", "ant", "finch"]


def test_biome_takes_the_species_again_once_it_left() -> None:
    """"... as long as the played card's SPECIES is not *currently* on an ISLAND BIOME space."""
    state = play(new(), put("biome", "rat"), move("rat", "biome", "elsewhere"), put("biome", "rat"))
    assert spaces(state)["biome"] == ["rat"]


def test_dominant_takes_the_first_card_or_the_same_species() -> None:
    """"You may play a face down ANIMAL to the DOMINANT SPECIES as long as it is the first card
    played to a DOMINANT SPECIES space or its SPECIES is currently played on a DOMINANT SPECIES space."
    """
    state = play(new(), put("dominant", "finch"))
    state = play(state, put("dominant", "finch"))
    assert spaces(state)["dominant"] == ["finch", "finch"]
    refused(state, put("dominant", "rat"), "the dominant species is finch, not rat")


def test_dominant_is_open_again_when_emptied() -> None:
    """"... as long as it is the first card played to a DOMINANT SPECIES space" — read as
    "no card is on the dominant species now", so once an ability has cleared it any species may start it.
    """
    state = play(new(), put("dominant", "ant"), move("ant", "dominant", "elsewhere"), put("dominant", "rat"))
    assert spaces(state)["dominant"] == ["rat"]


def test_invasive_refused_while_biome_is_possible() -> None:
    """"If you must play a face down ANIMAL, and you are not able to play it to an ISLAND BIOME
    or DOMINANT SPECIES space, it must be played to an INVASIVE SPECIES space."

    The converse: while the biome can take it, the invasive species may not.
    """
    state = play(new(), put("dominant", "ant"))
    refused(state, put("invasive", "rat"), "it can still go to the island biome")


def test_invasive_refused_while_dominant_is_possible() -> None:
    """"... and you are not able to play it to an ISLAND BIOME or DOMINANT SPECIES space ..." —
    a rat already on the biome but welcome on the dominant species may not go invasive.
    """
    state = play(new(), put("biome", "rat"), put("dominant", "rat"))
    refused(state, put("invasive", "rat"), "it can still go to the dominant species")


def test_invasive_forced_when_neither_is_possible() -> None:
    """"If you must play a face down ANIMAL, and you are not able to play it to an ISLAND BIOME
    or DOMINANT SPECIES space, it must be played to an INVASIVE SPECIES space."
    """
    state = play(new(), put("biome", "rat"), put("dominant", "ant"))
    assert RULES.view(state)["allowed"]["rat"] == ["invasive"]
    state = play(state, put("invasive", "rat"))
    assert spaces(state)["invasive"] == ["rat"]


def test_invasive_forced_when_the_rows_are_full() -> None:
    """The same sentence when the dominant species row is full of the card's own species."""
    state = play(new(spaces={"dominant": 1}), put("biome", "ant"), put("dominant", "ant"))
    state = play(state, put("invasive", "ant"))
    assert spaces(state)["invasive"] == ["ant"]


def test_three_of_one_species_on_invasive_lose_at_end_of_turn() -> None:
    """"At the end of your turn, if there are three SPECIES of a single type on INVASIVE SPECIES
    spaces, the game ends and you lose."
    """
    state = play(new(), put("biome", "finch"), put("dominant", "ant"))
    state = play(state, put("invasive", "finch"), put("invasive", "finch"), put("invasive", "finch"))
    assert RULES.view(state)["over"] is False  # only at the end of the turn
    state = play(state, END)
    assert RULES.view(state)["over"] is True
    outcome = RULES.outcome(state)
    assert outcome.reason == "invasive_takeover" and outcome.winners == ()
    assert RULES.view(state)["turns_survived"] == 0


def test_three_different_species_on_invasive_do_not_lose() -> None:
    """"three SPECIES of a single type" — one rat, one ant and one finch are no takeover."""
    state = play(new(eagle_ray={"dominant": "rat", "biome": "rat", "invasive": "rat"}, spaces={"biome": 1}),
                 put("invasive", "ant"), put("invasive", "finch"), put("invasive", "ant"), END)
    assert RULES.view(state)["over"] is False
    assert spaces(state)["invasive"] == ["rat", "ant", "finch", "ant"]


def test_third_invasive_removed_before_the_end_is_no_takeover() -> None:
    """"At the end of your turn, if there are three ..." — it is the count at the end that matters."""
    state = play(new(eagle_ray={"dominant": "ant", "biome": "rat", "invasive": "rat"}),
                 put("invasive", "rat"), put("invasive", "rat"), move("rat", "invasive", "elsewhere"), END)
    assert RULES.view(state)["over"] is False


def test_moving_is_not_playing() -> None:
    """"Also remember that moving and playing are not the same thing."

    A card an ability *moves* ignores the playing rules (an ant may join a rat
    on the dominant species, a rat may go invasive while the biome is open) —
    only a full row stops it.
    """
    state = play(new(spaces={"dominant": 2}), put("dominant", "rat"), put("biome", "ant"))
    state = play(state, move("ant", "biome", "dominant"), move("finch", "elsewhere", "invasive"))
    assert spaces(state) == {"dominant": ["rat", "ant"], "biome": [], "invasive": ["finch"]}
    refused(state, move("rat", "biome", "invasive"), "there is none there")
    refused(state, move("finch", "invasive", "dominant"), "all 2 of its spaces are taken")
    refused(state, move("rat", "elsewhere", "elsewhere"), "same place")


def test_played_cards_show_only_their_species() -> None:
    """"Additionally, you cannot look at the other side of any card that has been played."

    The companion never asks for or shows the hidden side: a played face-down
    card is just its species, and the species action takes no field for its front.
    """
    state = play(new(), put("biome", "rat"))
    assert spaces(state)["biome"] == ["rat"]
    refused(state, {**put("biome", "ant"), "animal": "spotted eagle ray"}, 'no field "animal"')


def test_dominant_refusal_gives_the_rule_before_the_full_row() -> None:
    """"... or its SPECIES is currently played on a DOMINANT SPECIES space."

    A rat offered to a dominant row full of ants is refused for being the wrong
    species (the sentence's reason), not merely for the row being full.
    """
    state = play(new(), put("dominant", "ant"), put("dominant", "ant"), put("dominant", "ant"))
    refused(state, put("dominant", "rat"), "the dominant species is ant, not rat")
    refused(state, put("dominant", "ant"), "all 3 of its spaces are taken")


def test_invasive_refusal_says_an_empty_dominant_takes_any_species() -> None:
    """"... as long as it is the first card played to a DOMINANT SPECIES space ..." — so with the
    dominant row empty no card is forced to the invasive species, and the refusal says why.
    """
    state = play(new(), put("biome", "rat"))
    refused(state, put("invasive", "rat"), r"dominant species \(it is empty, so any species may start it\)")


def test_option_invasive_play_free_lets_a_card_go_invasive_by_choice() -> None:
    """"If you must play a face down ANIMAL, and you are not able to play it to an ISLAND BIOME or
    DOMINANT SPECIES space, it must be played to an INVASIVE SPECIES space."

    The sentence says where a card *must* go, not that the invasive species is closed otherwise
    (the designer's summary: "played to either the Island Biome or Dominant Species ... or to the
    Invasive Species"). Default ``forced`` refuses a voluntary invasive play; ``free`` allows it.
    """
    refused(new(), put("invasive", "rat"), "it can still go to the island biome")
    state = play(new(invasive_play="free"), put("invasive", "rat"), put("invasive", "rat"))
    assert spaces(state)["invasive"] == ["rat", "rat"]
    assert RULES.view(state)["allowed"]["ant"] == ["dominant", "biome", "invasive"]
    state = play(state, put("invasive", "rat"), END)
    assert RULES.outcome(state).reason == "invasive_takeover"


def test_option_dominant_first_played_reads_the_first_card_literally() -> None:
    """"... as long as it is the first card played to a DOMINANT SPECIES space or its SPECIES is
    currently played on a DOMINANT SPECIES space."

    ``played``: only the game's first *played* card is free. A spotted eagle ray was placed, not
    played, so the first played card may differ from it; once a card has been played, an emptied
    row takes only a species on it now, i.e. nothing.
    """
    rays = {"dominant": "rat", "biome": "ant", "invasive": "finch"}
    refused(new(eagle_ray=rays), put("dominant", "ant"), "the dominant species is rat, not ant")
    state = play(new(eagle_ray=rays, dominant_first="played"), put("dominant", "ant"), put("dominant", "rat"))
    assert spaces(state)["dominant"] == ["rat", "ant", "rat"]
    state = play(new(dominant_first="played"), put("dominant", "ant"), move("ant", "dominant", "elsewhere"))
    assert RULES.view(state)["dominant_played"] is True
    refused(state, put("dominant", "finch"), "its first card was played earlier and no finch is on it now")
    state = play(new(), put("dominant", "ant"), move("ant", "dominant", "elsewhere"), put("dominant", "finch"))
    assert spaces(state)["dominant"] == ["finch"]
