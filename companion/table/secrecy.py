"""Secrets through corrections: an edit never lets the table learn a phone's hidden field.

An edit replays the actions after the one corrected. A secret action (a vote before the
reveal, ``GamePackage.secret_fields``) whose hidden value decides whether it still applies
would tell the table something: that it was set aside, and the rules' refusal names the
hidden target (« Cleo is dead and cannot be chosen »). So while its secret is still hidden
the decision is taken from public facts only: the choices its author had then and has now
(the game's ``moves``). Unchanged, it is played again (its value was among them); changed,
it is set aside whatever it was, with a line that names no value (« Ann's vote no longer
applies… »), for its author alone to make again. A replay that would reveal a secret still
hidden (a ballot closing on the votes kept) needs the hidden values: the edit is refused.
Nothing here names a game.
"""

from __future__ import annotations

import json
from typing import Any

from companion.engine import moves
from companion.engine.rules import RuleError

#: the line of a secret action set aside (no value named), in the interface's catalog
ASIDE = "{player}'s {move} no longer applies after a correction: {player} makes it again."
#: an edit whose replay would need the hidden values
NEEDS = ("This correction would reveal secret moves that are still hidden (the replay would need them); "
         "finish that round first, or remove those moves so that each player makes them again.")


def is_secret(pkg: Any, action: dict[str, Any]) -> bool:
    return bool(pkg.secret_fields.get(str(action.get("type", ""))))


def reveals(events: list[dict[str, Any]]) -> bool:
    """Whether these events made the earlier secret fields public (by convention a ``reveal`` event)."""
    return any(e.get("event", e.get("type")) == "reveal" for e in events or ())


def hidden_seqs(pkg: Any, steps: list[Any]) -> set[int]:
    """The journal entries whose secret fields are still hidden: the secret actions after the last reveal.

    ``steps``: the session's replay (:meth:`companion.table.session.Session.steps`), read for each
    action's events, never played again here.
    """
    if not pkg.secret_fields:
        return set()
    hidden: set[int] = set()
    for step in steps:
        if reveals(step.events):
            hidden.clear()
        if is_secret(pkg, step.entry.action):
            hidden.add(step.entry.seq)
    return hidden


def choices(pkg: Any, state: Any, action: dict[str, Any]) -> Any:
    """What the author of ``action`` could choose for its hidden fields in ``state``: public facts only
    (the game's move forms for that player and type), never the value he chose."""
    hidden = pkg.secret_fields.get(str(action.get("type", "")), ())
    try:
        forms = [f for f in pkg.moves(state) if f.get("type") == action.get("type")
                 and f.get("player") == action.get("player")]
    except Exception:  # a moves bug: nothing can be compared, so the action is set aside
        return None
    out: list[tuple[str, list[str] | str]] = []
    for f in forms:
        for field in f.get("fields") or ():
            if field.get("name") not in hidden:
                continue
            if "choices" in field:
                out.append((field["name"], sorted(json.dumps(c.get("value"), sort_keys=True)
                                                  for c in moves.enabled(field["choices"]))))
            else:
                out.append((field["name"], json.dumps({k: field.get(k) for k in ("min", "max", "step", "items")},
                                                      sort_keys=True, default=str)))
    return sorted(out) if forms else None


def aside_note(pkg: Any, action: dict[str, Any]) -> dict[str, Any]:
    """The note a secret action set aside keeps: the interface's line, no hidden value in it."""
    player = str(action.get("player", "?"))
    move = pkg.t(str(action.get("type", "?")).replace("_", " "))
    return {"msgid": ASIDE, "params": {"player": player, "move": move}, "domain": None,
            "message": ASIDE.format(player=player, move=move), "secret": True}


def needs_them() -> RuleError:
    return RuleError(NEEDS)


def replay_tail(pkg: Any, rules: Any, before: Any, old: dict[str, Any], new: dict[str, Any] | None,
                tail: list[Any], hidden: set[int], note: Any) -> tuple[list[Any], list[Any], list[Any], Any]:
    """Play ``tail`` (the entries after the one corrected) onto the corrected history.

    ``before``: the state before the corrected action; ``old`` it, ``new`` its correction (None: removed);
    ``hidden``: the entries whose secret is still hidden (:func:`hidden_seqs`); ``note(err)``: the journal's
    note of a refusal. Returns (kept, aside, dropped, the corrected state) as :meth:`Session.edit` journals them; raises
    RuleError (nothing changes) when the replay would reveal a hidden secret.
    """
    state = before
    if new is not None:
        state, events = rules.apply(state, new)
    watch = bool(hidden)
    revealed_new = watch and new is not None and reveals(events)
    then = None
    if watch:  # the old history, alongside: what each secret action's author could choose then
        then, events = rules.apply(before, old)
        revealed_old = reveals(events)
        if revealed_new and not revealed_old:
            raise needs_them()
    kept: list[Any] = []
    aside: list[tuple[Any, dict[str, Any]]] = []
    dropped: list[tuple[Any, dict[str, Any]]] = []
    for entry in tail:
        secret, now_reveals = entry.seq in hidden, False
        if secret and choices(pkg, then, entry.action) != choices(pkg, state, entry.action):
            aside.append((entry, aside_note(pkg, entry.action)))  # whatever its value: nothing learnt from it
        else:
            try:
                state, events = rules.apply(state, entry.action)
                kept.append(entry)
                now_reveals = watch and reveals(events)
            except RuleError as err:
                (dropped if entry.author.auto else aside).append(
                    (entry, aside_note(pkg, entry.action) if secret else note(err)))
        if watch:
            then, events = rules.apply(then, entry.action)
            if now_reveals and not reveals(events):
                raise needs_them()
    return kept, aside, dropped, state
