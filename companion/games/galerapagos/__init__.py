"""Galèrapagos — one package: rules, moves, narration, texts, screens, page fragments, table inputs.

``GAME`` is what every interface reads (see :mod:`companion.gamepack`). The
rules' public names are re-exported here for older imports.
"""

from __future__ import annotations

import os

from companion.gamepack import GamePackage
from companion.games.galerapagos.rules import *  # noqa: F403
from companion.games.galerapagos.rules import GalerapagosRules


class Package(GamePackage):
    order = 4


GAME = Package(GalerapagosRules(), os.path.dirname(__file__))
