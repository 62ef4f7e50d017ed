"""The auction game's animal tokens as the pictures and charts draw them: a colour, an ink, a shape each.

The colours are the tokens' own (seed 000: "13 blue (sea lions), 12 yellow (iguanas), … 9 pink
(penguins), 8 brown (crabs)"), each with an ink that reads on it at 4.5:1 or better, and a shape of
its own (the pictures draw it beside the name) so the animals part in grey and for colour-blind eyes.
The package's :meth:`~companion.engine.gamepack.GamePackage.palette` and the course's chart of the
education track both read it.
"""

from __future__ import annotations

FILL = {"sea_lion": "#2f6fbf", "iguana": "#f2c230", "tortoise": "#3f9b4b",
        "booby": "#c62f2f", "penguin": "#f19cbb", "crab": "#8b5a2b"}
INK = {"sea_lion": "#fff", "iguana": "#222", "tortoise": "#111", "booby": "#fff", "penguin": "#222", "crab": "#fff"}
SHAPE = {"sea_lion": "circle", "iguana": "diamond", "tortoise": "hexagon", "booby": "triangle",
         "penguin": "square", "crab": "cross"}
