"""The OLED's « who acts now » for three or more players at once: words, never « Ann +2 ».

Three castaways voting or four dice players planning at once: the prompt screen names them all
when the line fits the 128-pixel screen, else « Ann & 2 others » (« Ann et 2 autres »), else
« 5 players ».
"""

from __future__ import annotations

from dataclasses import replace

from PIL import ImageChops

from companion.board import screens
from companion.drawing.canvas import WIDTH, Canvas
from companion.drawing.common import who
from companion.drawing.context import ScreenContext


def waiting(*names: str) -> dict:
    return {"game": "galapagos-dice", "round": 2, "over": False,
            "expected": {"players": list(names), "actions": ["plan"], "prompt": "Roll and plan your dice."}}


def fits(line: str) -> bool:
    return Canvas.width(line, "small_bold") <= WIDTH - 4


def test_three_short_names_are_all_named() -> None:
    assert who(waiting("Ann", "Bob", "Cy"), "en", fits) == "Ann, Bob & Cy"


def test_too_many_names_for_the_line_read_as_the_first_and_how_many_others() -> None:
    state = waiting("Annabelle", "Bertrand", "Cleopatra", "Dominique")
    assert who(state, "en", fits) == "Annabelle & 3 others"
    assert who(waiting("Bertrand", "Annabelle", "Cleopatra"), "fr", fits) == "Bertrand et 2 autres"
    assert who(state) == "Annabelle & 3 others"  # no screen to fit: the second form
    assert "+" not in who(state, "en", fits)


def test_a_first_name_too_long_even_alone_gives_the_count() -> None:
    state = waiting("Maximilianus-Alexander", "Bertrand", "Cleopatra", "Dominique", "Eve")
    assert who(state, "en", fits) == "5 players" and who(state, "fr", fits) == "5 joueurs"


def test_one_or_two_players_and_the_table_read_as_before() -> None:
    assert who(waiting("Ann"), "en", fits) == "Ann"
    assert who(waiting("Ann", "Bob"), "en", fits) == "Ann & Bob"
    assert who({"expected": {"players": [], "actions": ["tile"]}}, "en", fits) == "Table"


def test_the_prompt_screen_draws_that_line() -> None:
    state = waiting("Bertrand", "Annabelle", "Cleopatra")
    ctx = ScreenContext(lang="fr")
    drawn = screens.render("prompt", state, ctx)
    expected = screens.render("prompt", state, replace(ctx, heading="Bertrand et 2 autres"))
    assert ImageChops.difference(drawn.convert("L"), expected.convert("L")).getbbox() is None
    other = screens.render("prompt", state, replace(ctx, heading="Bertrand +2"))
    assert ImageChops.difference(drawn.convert("L"), other.convert("L")).getbbox() is not None
