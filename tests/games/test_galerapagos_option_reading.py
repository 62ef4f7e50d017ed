"""Galèrapagos' options are checked and read in its options module, the one the set-up page reads too."""

from __future__ import annotations

import pytest

from companion.engine.rules import RuleError
from companion.games.galerapagos import options as O
from companion.games.galerapagos import rules as R
from companion.games.galerapagos.state import WEATHER_DECKS


def test_the_options_are_read_once_in_the_options_module() -> None:
    opts, first = O.parse_options(["Ann", "Bob", "Cid"], {"first_player": "Bob", "scoring": "solitaire"})
    assert first == 1 and opts.scoring == "solitaire" and opts.weather_cards == WEATHER_DECKS[11]
    assert not hasattr(R, "_options")
    state = R.GalerapagosRules().setup(["Ann", "Bob", "Cid"], {"first_player": "Bob"})
    assert state.first == 1


@pytest.mark.parametrize("options, key", [({"scoring": "chacun"}, "scoring"), ({"first_player": "Zoe"}, "first_player"),
                                          ({"colour": "red"}, "colour")])
def test_a_wrong_option_is_one_refusal_naming_its_key(options: dict, key: str) -> None:
    with pytest.raises(RuleError) as err:
        R.GalerapagosRules().setup(["Ann", "Bob", "Cid"], options)
    assert key in err.value.message
