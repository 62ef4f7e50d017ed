"""Galapagos, the dice game — one package: rules, moves, narration, texts, screens, page fragments, table inputs.

``GAME`` is what every interface reads (see :mod:`companion.gamepack`). The
rules' public names are re-exported here for older imports.
"""

from __future__ import annotations

import os

from companion.gamepack import GamePackage
from companion.games.dice.rules import *  # noqa: F403
from companion.games.dice.rules import DiceRules


class Package(GamePackage):
    order = 2


GAME = Package(DiceRules(), os.path.dirname(__file__))
