"""galapagos-auction table inputs: tags on the squares and readers.

"one tile is placed face up on each of the square fields in the directions North, East,
South and West around the volcano": a tagged species tile laid on a square is the ``tile``
action; an animal token fills the animal of the move being dialled. That every scenario
plays through the simulated table only (buttons, encoder, tags) is checked once for every
game, in tests/engine/test_interfaces_contract.py.
"""

from __future__ import annotations

from companion.games.auction import GAME
from hw.tags import Component
from tests.support.auction import new


def test_a_tile_laid_on_a_square_is_the_tile_action() -> None:
    state = GAME.rules.setup(["Ann", "Bob"], {})
    tile = Component("tile", {"animals": ["crab", "iguana"]})
    assert GAME.tag_action(tile, "S", state) == {"type": "tile", "direction": "S", "animals": ["crab", "iguana"]}
    assert GAME.tag_action(tile, "scan", state) is None
    assert GAME.tag_action(tile, "seat1.slot1", state) is None


def test_an_animal_token_fills_the_animal_of_the_move_being_dialled() -> None:
    token = Component("animal", {"animal": "penguin"})
    assert GAME.tag_action(token, "scan", new()) == {"fill": {"animal": "penguin"}}
    assert GAME.tag_action(Component("animal", {"animal": "dodo"}), "scan", new()) is None
    assert GAME.tag_action(Component("turtle", {"number": 3}), "scan", new()) is None


def test_table_tags_say_how_a_table_enters_an_action() -> None:
    assert GAME.table_tags({"type": "tile", "direction": "W", "animals": ["penguin", "crab"]}) == [
        ("W", "tile", {"animals": ["penguin", "crab"]})]
    assert GAME.table_tags({"type": "expedition", "player": "Ann", "animal": "crab"}) == [
        ("scan", "animal", {"animal": "crab"})]
    assert GAME.table_tags({"type": "bid", "player": "Ann", "direction": "N", "amount": 300}) is None
    assert set(GAME.component_kinds()) == {"tile", "animal"}
    assert GAME.die_face(4) == 4 and GAME.lane_action("Ann", [], new()) is None
