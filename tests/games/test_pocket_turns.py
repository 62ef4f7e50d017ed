"""pocket-galapagos turns: the turn sequence, the Turn Number tracker, the win, the end of
the game and the public view the screens and `companion script` print.

Each test quotes the sentence of seed 003 it checks (see docs/rules-coverage.md).
"""

from __future__ import annotations

import pytest

from companion.engine.rules import RuleError
from tests.support.pocket import END, RULES, new, play


def test_turn_sequence_actions_are_offered() -> None:
    """"You begin playing by following the instructions on the TURN SEQUENCE card."

    The card is not in the seed; the companion offers every step a turn can hold
    (ocean plays, face-down plays, observed effects, moves) and the end of the turn.
    """
    exp = RULES.expected(new())
    assert exp.players == ("Ann",)
    assert set(exp.actions) == {"ocean", "species", "population", "move", "end_turn"}
    assert "Turn 1 of 10" in exp.text("en")


def test_this_card_outlines_what_you_must_do() -> None:
    """"This card outlines what you must do during your turn."

    When no face-down play is possible anywhere (every row full), ``species``
    is not offered, and the rest still is.
    """
    full = {"dominant": 1, "biome": 1, "invasive": 1}
    state = play(new(spaces=full), {"type": "species", "space": "dominant", "species": "rat"},
                 {"type": "species", "space": "biome", "species": "ant"},
                 {"type": "species", "space": "invasive", "species": "rat"})
    exp = RULES.expected(state)
    assert "species" not in exp.actions and "end_turn" in exp.actions
    with pytest.raises(RuleError, match="its only space is taken"):
        RULES.apply(state, {"type": "species", "space": "invasive", "species": "finch"})


def test_losing_and_winning_conditions() -> None:
    """"The losing and winning conditions of the game can be found on the various reference cards."

    The seed names two losses and one win; each has its own outcome reason.
    """
    won = play(new(turns=1), END)
    collapsed = play(new(start={"rat": 1, "ant": 1}), END)
    assert RULES.outcome(won).reason == "survived"
    assert RULES.outcome(collapsed).reason == "populations_collapsed"
    assert RULES.outcome(new()) is None


def test_nothing_is_optional_the_decrease_always_happens() -> None:
    """"No abilities, effects, or actions in this game are optional, unless they include "may."."

    Ending a turn always applies the decrease: there is no way to skip it.
    """
    with pytest.raises(RuleError, match='no field "decrease"'):
        RULES.apply(new(), {"type": "end_turn", "decrease": False})
    assert RULES.view(play(new(), END))["populations"] == {"rat": 2, "ant": 2, "finch": 2}


def test_reshuffled_deck_never_stops_play() -> None:
    """"If at any point there are no ANIMAL cards remaining in the deck, shuffle together the
    discard to form a new deck and place the TURN SEQUENCE card on top of the deck."

    The deck never runs out, so the companion puts no limit on the number of cards
    played over a game: 60 ocean plays over ten turns are all accepted.
    """
    state = new()
    for _ in range(10):
        for species in ("rat", "ant", "finch", "rat", "ant", "finch"):
            state = play(state, {"type": "ocean", "species": species, "icons": 1, "mode": "migrate"})
        state = play(state, END)
    assert RULES.winners(state) == ["Ann"]


def test_middle_cards_need_no_input() -> None:
    """"Cards in the Middle are always face up, and you cannot look at the back of those cards
    unless directed to do so."

    The companion asks nothing about the Middle's hidden backs: ending the turn takes no field.
    """
    state = play(new(), END)
    assert RULES.view(state)["turn"] == 2


def test_discard_is_not_tracked() -> None:
    """"You may look at any card in the discard."

    The discard is open information at the table; the companion neither tracks
    nor hides it, and a card coming back from it is a ``move`` from ``elsewhere``.
    """
    state = play(new(), {"type": "move", "species": "ant", "from": "elsewhere", "to": "biome"})
    assert RULES.view(state)["spaces"]["biome"] == ["ant"]
    assert "discard" not in RULES.view(state)


def test_turn_tracker_advances_after_a_turn_survived() -> None:
    """"After taking a turn, if you did not lose, advance the Turn Number tracker at the bottom by 1.\""""
    state = play(new(), END)
    view = RULES.view(state)
    assert view["turn"] == 2 and view["round"] == 2 and view["turns_survived"] == 1
    state = play(state, END)
    assert RULES.view(state)["turn"] == 3


def test_turn_tracker_stays_when_you_lose() -> None:
    """"... if you did not lose, advance the Turn Number tracker ..." — a lost turn does not advance it."""
    state = play(new(start={"rat": 2, "ant": 2, "finch": 5}), END, END)
    view = RULES.view(state)
    assert view["over"] is True
    assert view["turn"] == 2 and view["turns_survived"] == 1


def test_last_space_wins() -> None:
    """"If it reaches the last space, you win!"

    With the published 10 turns: nine ends of turn do not win, the tenth does.
    """
    state = new(start={"rat": 7, "ant": 7, "finch": 7})
    boost = [{"type": "ocean", "species": s, "icons": 1, "mode": "inhabit"} for s in ("rat", "ant", "finch")]
    for _ in range(9):
        state = play(state, *boost, END)
    assert RULES.view(state)["over"] is False and RULES.winners(state) == []
    state = play(state, *boost, END)
    view = RULES.view(state)
    assert view["over"] is True and view["turns_survived"] == 10 and view["turn"] == 10
    assert RULES.winners(state) == ["Ann"]
    assert RULES.outcome(state).reason == "survived"
    assert RULES.scores(state) == {"Ann": 10}


def test_last_turn_loss_is_no_win() -> None:
    """"After taking a turn, if you did not lose ..." — losing on the last turn is a loss."""
    state = play(new(turns=1, start={"rat": 1, "ant": 1}), END)
    assert RULES.outcome(state).reason == "populations_collapsed"
    assert RULES.winners(state) == []


def test_game_over_refuses_further_actions() -> None:
    """"the game ends" — after a win or a loss nothing more is accepted."""
    state = play(new(turns=1), END)
    with pytest.raises(RuleError, match="The game is over"):
        RULES.apply(state, END)
    assert RULES.expected(state).actions == ()
    assert RULES.candidates(state) == []


def test_player_field_must_name_the_player() -> None:
    """The script format lets an action name its player; in a solo game only that one."""
    state = play(new(), {"type": "end_turn", "player": "Ann"})
    assert RULES.view(state)["turn"] == 2
    with pytest.raises(RuleError, match="Bob"):
        RULES.apply(state, {"type": "end_turn", "player": "Bob"})


def test_view_has_the_script_contract_fields() -> None:
    """docs/design.md: game, round, over, players (with name), populations, turn, spaces."""
    out = RULES.public_state(new())
    for key in ("game", "round", "over", "players", "populations", "turn", "spaces", "scores", "winners"):
        assert key in out
    assert out["game"] == "pocket-galapagos"
    assert out["players"][0]["name"] == "Ann"
    assert out["scores"] == {"Ann": 0} and out["winners"] == []


def test_terminal_board_shows_trackers_and_rows() -> None:
    """The terminal table draws each tracker (level out of 7) and each species row."""
    state = play(new(start={"rat": 5}), {"type": "species", "space": "biome", "species": "ant"})
    text = RULES.render_text(state)
    assert "rat   #####.. 5" in text
    assert "biome    ant . ." in text


@pytest.mark.parametrize(
    ("action", "sentence"),
    [
        ({"type": "ocean", "species": "rat", "icons": 0, "mode": "inhabit"},
         'Ann cannot play a card to the ocean: a card shows 1 to 7 population icons, not 0.'),
        ({"type": "ocean", "species": "eagle", "icons": 1, "mode": "inhabit"},
         'Ann cannot play a card to the ocean: the species are rat, ant and finch, not "eagle".'),
        ({"type": "population", "species": "ant", "change": "2"},
         'Ann cannot change the ant population: a change is a whole number from -7 to 7, not "2".'),
        ({"type": "move", "species": "ant", "from": "middle", "to": "biome"},
         'Ann cannot move a card: a card moves between dominant, biome, invasive and elsewhere, not "middle".'),
    ],
)
def test_a_malformed_move_is_one_sentence_naming_the_player_and_the_move(action, sentence) -> None:
    """Errors are one sentence a player understands that names the player and the move."""
    with pytest.raises(RuleError) as err:
        RULES.apply(new(), action)
    assert err.value.message == sentence
