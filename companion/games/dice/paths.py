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
from typing import Any

from companion.games.dice.island import COLOURS
from companion.games.dice.rules import DiceState
from companion.games.dice.words import ALL_COLOURS, refuse

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
        raise refuse("There is no player {player} at this table.", player=repr(player))
    seat = table.players.index(player)
    start = state.pawns[seat]
    if start is None:
        raise refuse("{player} has no pawn on the island yet.", player=player)
    if len(dice) > MAX_DICE or any(c not in COLOURS for c in dice):
        raise refuse("A hint needs up to {most} dice, each one of {colours}.", most=MAX_DICE, colours=ALL_COLOURS)
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


def walks(state: DiceState, seat: int) -> list[dict[str, Any]]:
    """Every path the player in ``seat`` may walk with the dice as planned, and what each takes.

    The exhaustive search behind the ``move`` forms: from the pawn, each step
    goes to a field one step away (by land or by sea) of the colour of the
    next planned die; stopping is allowed after any step, so the empty path is
    always there. Each walk is ``{"path": [fields], "turtles": [numbers],
    "points": gain, "wins": bool, "ends": bool}``, counted exactly as the
    rules walk it: the turtle under the pawn is taken first, each field's
    turtle once, nothing more once a two-player-variant win is reached, and
    ``ends`` when the walk takes the last turtle of an empty bag.
    """
    table = state.table
    start = state.pawns[seat]
    if start is None:
        return []
    dice = [COLOURS.index(c) for c in (state.plans[seat] or ())]
    by_colour = table.island.by_colour
    lying = state.island
    shell = table.turtles
    counts = [0] * 6
    for n in state.hauls[seat]:
        counts[COLOURS.index(shell[n])] += 1
    base = _score(counts)
    sudden = table.two_player_variant
    taken: list[int] = []
    won = [False]

    def take(n: int) -> bool:
        """Take the turtle on ``n`` if one lies there; True when it was taken."""
        if won[0] or n not in lying or n in taken:
            return False
        taken.append(n)
        c = COLOURS.index(shell[n])
        counts[c] += 1
        if sudden and counts[c] >= 5:
            won[0] = True
        return True

    def drop(n: int) -> None:
        taken.pop()
        counts[COLOURS.index(shell[n])] -= 1
        won[0] = False  # a turtle is only taken while the game is not yet won

    out: list[dict[str, Any]] = []
    path: list[int] = []
    last = not state.bag

    def visit(here: int) -> None:
        out.append({
            "path": list(path), "turtles": list(taken), "points": _score(counts) - base, "wins": won[0],
            "ends": won[0] or (last and len(taken) == len(lying)),
        })
        if len(path) == len(dice):
            return
        for nxt in by_colour[here][dice[len(path)]]:
            gained = take(nxt)
            path.append(nxt)
            visit(nxt)
            path.pop()
            if gained:
                drop(nxt)

    take(start)
    visit(start)
    return out
