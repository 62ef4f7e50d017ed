"""Journals written under earlier versions of these rules, brought to today's vocabulary.

Version 1 (before commit f597bc4): a plan was final as soon as it was given, movement
began once every player had planned, and a player with no plan when the sand ran out did not
move at all. Version 2 (today): the first finisher's plan is final, the others stay open until
their « done » (or the sand), and every player moves — one with no plan with no dice.

The lines of a version 1 game are translated, replayed as they go, so that each keeps the
meaning it had at the table:

* a plan given after the round's first one becomes ``done`` with the same dice (it was final);
* a player the earlier rules skipped moves with no dice (``move`` with an empty path) where
  today's rules expect him;
* a ``timer_expired`` after everyone had planned (the earlier rules took it; movement had begun)
  is left out: the sand's end changes nothing once planning is over.
"""

from __future__ import annotations

from typing import Any

#: the version of these rules a new game is journalled under
RULES_VERSION = 2


def migrate(actions: list[dict[str, Any]], version: int, rules: Any, players: list[str],
            options: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
    """``actions`` (journalled under ``version``) as today's rules read them, each with the index of the
    line it translates (None: a line added, a skipped player's move); RuleError when they cannot be."""
    if version >= RULES_VERSION:
        return [(i, dict(a)) for i, a in enumerate(actions)]
    state = rules.setup(list(players), dict(options))
    out: list[tuple[int | None, dict[str, Any]]] = []
    for index, action in enumerate(actions):
        line = dict(action)
        kind = line.get("type")
        if kind == "timer_expired" and state.phase != "plan":
            continue
        if kind == "plan" and state.phase == "plan" and state.first is not None:
            line["type"] = "done"
        while state.phase == "move" and state.plans[state.order[state.moved]] is None:
            mover = players[state.order[state.moved]]
            if kind == "move" and line.get("player") == mover:
                break
            skipped = {"type": "move", "player": mover, "path": []}
            state, _ = rules.apply(state, skipped)
            out.append((None, skipped))
        state, _ = rules.apply(state, line)
        out.append((index, line))
    while state.phase == "move" and state.plans[state.order[state.moved]] is None:  # the round as it ended then
        skipped = {"type": "move", "player": players[state.order[state.moved]], "path": []}
        state, _ = rules.apply(state, skipped)
        out.append((None, skipped))
    return out
