"""The drawing floor: what the OLED screens of the board and of every game draw with.

A 128×64 one-bit canvas with the Terminus bitmap fonts (:mod:`companion.drawing.canvas`), what a
screen may know besides the public state (:mod:`companion.drawing.context`), and the pieces every
game's screens share (:mod:`companion.drawing.common`: who acts, the round's label, the scores).
It sits below the games and the board alike and imports neither (``tests/house/test_layout.py``), so a
game package's ``oled.py`` draws its screens without reaching up into the board.
"""
