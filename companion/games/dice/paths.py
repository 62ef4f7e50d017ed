"""Path hints for Galapagos (dice): the best order for a player's rolled dice.

A depth-first search over (field, dice left): from each field only the
neighbours whose colour is still among the unused dice are tried, so five dice
visit a few thousand nodes at most (``bench/dice_hint.py`` measures it). The
value of a path is the points it adds to the player's score - a turtle that
completes a set of six colours is worth the whole set's bonus - including the
turtle under the player's own pawn, collected when the move begins. Ties go to
the shorter path, then to the first found (colours in rulebook order,
neighbours by number), so a hint is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.games.dice.island import COLOURS
from companion.rules import RuleError

if TYPE_CHECKING:
    from companion.games.dice import DiceState

MAX_DICE = 5


def _score(counts: Sequence[int]) -> int:
    sets = min(counts)
    return 8 * sets + sum(counts) - 6 * sets


def best_path(state: DiceState, player: str, dice: Sequence[str]) -> dict[str, Any]:
    """``{"order": [colours], "path": [fields], "points": n}`` for ``player`` holding ``dice``.

    ``order`` lists only the dice the path uses, in the order to lay them out;
    the others stay off the board. In the two-player variant a path reaching
    five turtles of one colour beats any other.
    """
    table = state.table
    if player not in table.players:
        raise RuleError(f"There is no player {player!r} at this table.")
    seat = table.players.index(player)
    start = state.pawns[seat]
    if start is None:
        raise RuleError(f"{player} has no pawn on the island yet.")
    if len(dice) > MAX_DICE or any(c not in COLOURS for c in dice):
        raise RuleError(f"A hint needs up to {MAX_DICE} dice, each one of {', '.join(COLOURS)}.")
    by_colour = table.island.by_colour
    shell = {n: COLOURS.index(table.turtles[n]) for n in state.island}
    counts = [0] * 6
    for n in state.hauls[seat]:
        counts[COLOURS.index(table.turtles[n])] += 1
    base = _score(counts)
    if start in shell:  # collected as the move begins, whatever the dice
        counts[shell[start]] += 1
    left = [0] * 6
    for c in dice:
        left[COLOURS.index(c)] += 1
    sudden = table.two_player_variant
    taken = {start}
    path: list[int] = []
    best: list[Any] = [None, ()]

    def visit(here: int) -> None:
        won = sudden and max(counts) >= 5
        key = (won, _score(counts) - base, -len(path))
        if best[0] is None or key > best[0]:
            best[0], best[1] = key, tuple(path)
        if won:
            return
        options = by_colour[here]
        for c in range(6):
            if not left[c]:
                continue
            left[c] -= 1
            for nxt in options[c]:
                gain = nxt in shell and nxt not in taken
                if gain:
                    taken.add(nxt)
                    counts[shell[nxt]] += 1
                path.append(nxt)
                visit(nxt)
                path.pop()
                if gain:
                    taken.discard(nxt)
                    counts[shell[nxt]] -= 1
            left[c] += 1

    visit(start)
    route = list(best[1])
    return {"order": [table.island.colour[n] for n in route], "path": route, "points": best[0][1]}
