"""The engine: the rules contract, moves, the game-package surface, texts, scripts and their audit.

Nothing here knows of a journal, a device or a page: the table (:mod:`companion.table`)
and the interfaces build on it, and every game package (:mod:`companion.games`) follows it.
"""
