"""Game-specific extras for the dashboard, behind one small adapter.

The web layer talks to the session API only. What a screen needs beyond the
public state — the auction's costs, the dice game's path hint, Galèrapagos'
odds, a score per round, a fresh island to build — is a *public function of
a game module*; this module is the only place the dashboard reaches them, and
every function degrades to ``None`` / ``[]`` when a game does not offer it.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterable
from contextlib import nullcontext
from typing import Any

from companion.rules import Action, RuleError
from companion.session import Session

#: game id -> module holding its public helpers
_MODULES = {
    "galapagos-auction": "companion.games.auction",
    "galapagos-dice": "companion.games.dice",
    "pocket-galapagos": "companion.games.pocket",
    "galerapagos": "companion.games.galerapagos",
}

#: action fields nobody but their author may see in the action log, per game and type
#: (a vote's target stays secret for good in the log; the game's own view reveals the tally).
SECRET_FIELDS: dict[str, dict[str, tuple[str, ...]]] = {
    "galerapagos": {"vote": ("target",)},
}


def _module(game: str) -> Any | None:
    name = _MODULES.get(game)
    if not name:
        return None
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        return None


def _helper(game: str, name: str) -> Any | None:
    fn = getattr(_module(game), name, None)
    return fn if callable(fn) else None


# -- the action vocabulary ---------------------------------------------------

def action_fields(session: Session, kind: str) -> tuple[list[str], frozenset[str]]:
    """The fields an action type takes (declared order where the game gives one) and the optional ones."""
    rules = session.rules
    fields = rules.actions.get(kind)
    if fields is None:
        raise RuleError(f"{rules.name} has no action \"{kind}\".")
    order = list(getattr(rules, "short_forms", {}).get(kind, ()))
    rest = sorted(f for f in fields if f not in order and f != "player")
    head = ["player"] if "player" in fields and "player" not in order else []
    return head + order + rest, rules.optional_fields.get(kind, frozenset())


def action_types(session: Session) -> list[str]:
    return list(session.rules.actions)


def takes_player(session: Session, kind: str) -> bool:
    return "player" in session.rules.actions.get(kind, ())


def seat_may(session: Session, kind: str) -> bool:
    """Whether a phone may send ``kind`` for its own seat.

    Only actions that must name their player: where the player is optional the
    action is the table's (Galèrapagos' weather card, the raft leaving), unless
    the game has a single seat anyway.
    """
    if not takes_player(session, kind):
        return False
    return "player" not in session.rules.optional_fields.get(kind, frozenset()) or len(session.players) == 1


def candidates(session: Session, seat: str | None = None, limit: int = 24) -> list[Action]:
    """A few legal actions now (for one-tap buttons); only ``seat``'s when given."""
    found = session.rules.candidates(session.state)  # states are immutable: a snapshot is safe
    if seat is not None:
        found = [a for a in found if a.get("player") == seat
                 or ("player" not in a and takes_player(session, a["type"]) and session.players == [seat])]
    return found[:limit]


def redact(game: str, action: Action, viewer: str | None) -> Action:
    """``action`` as ``viewer`` may see it in the log: secret fields of others' actions hidden."""
    hidden = SECRET_FIELDS.get(game, {}).get(action.get("type", ""), ())
    if not hidden or (viewer is not None and action.get("player") == viewer):
        return action
    return {k: ("hidden" if k in hidden else v) for k, v in action.items()}


def last_actions(session: Session, viewer: str | None, limit: int = 8) -> list[dict[str, Any]]:
    """The newest actions in play, newest first, redacted for ``viewer``."""
    return [
        {"seq": e.seq, "at": e.at, "source": e.source.split(":")[0], "action": redact(session.game, e.action, viewer)}
        for e in reversed(session.history(limit))
    ]


#: actions the companion journals by itself; an undo takes them back with the action before
AUTOMATIC = ("timer_expired",)


def to_undo(session: Session) -> Action | None:
    """The action :func:`undo` would take back: the last one a person made."""
    for entry in reversed(session.history(4)):
        if entry.action.get("type") not in AUTOMATIC:
            return entry.action
    return None


def undo(session: Session) -> Action | None:
    """Take back the last action a person made, with the sand timer's expiry that followed it.

    Undoing the expiry alone cannot work: the sand turned long ago, so the timer
    would only run out again at once and the undo would seem to do nothing.
    """
    with getattr(session, "_lock", nullcontext()):  # the alarm must not re-journal in between
        done = session.undo()
        while done is not None and done.get("type") in AUTOMATIC:
            done = session.undo()
        return done


# -- per-game helpers ----------------------------------------------------------

def costs(session: Session, player: str) -> dict[str, Any] | None:
    """galapagos-auction: what each option costs ``player`` now (education, animals, exchange)."""
    fn = _helper(session.game, "costs")
    if fn is None or player not in session.players:
        return None
    return fn(session.state, player)


def hint(session: Session, player: str, dice: list[str]) -> dict[str, Any] | None:
    """galapagos-dice: the best order and path for ``player``'s rolled ``dice``."""
    fn = _helper(session.game, "hint")
    if fn is None or player not in session.players:
        return None
    return fn(session.state, player, dice)


def odds(session: Session) -> dict[str, Any] | None:
    """galerapagos: snake odds per extra ball, expected fish, rations after this round, rounds left."""
    fn = _helper(session.game, "odds")
    return fn(session.state) if fn is not None else None


def timer(session: Session) -> dict[str, Any] | None:
    """The sand timer, if this game has one: seconds in all, seconds left, running or not."""
    sand = getattr(session, "timer", None)
    if sand is not None and hasattr(sand, "remaining"):
        return {"seconds": sand.seconds, "remaining": round(sand.remaining(), 2),
                "running": bool(sand.running), "expired": bool(sand.expired())}
    pub = session.public()
    if "timer" in pub and "timer_seconds" in pub:  # the game knows the phase, not the clock
        state = pub["timer"]
        seconds = float(pub["timer_seconds"])
        return {"seconds": seconds, "remaining": 0.0 if state == "expired" else seconds,
                "running": state == "running", "expired": state == "expired"}
    return None


def score_history(session: Session) -> list[dict[str, Any]]:
    """Scores at the start and at the end of every round: the replay of the journal."""
    rules = session.rules
    state = rules.setup(session.players, session.options)
    rows = [{"round": 0, "scores": rules.scores(state)}]
    last_round = rules.view(state).get("round")
    for entry in session.history():
        state, _ = rules.apply(state, entry.action)
        rnd = rules.view(state).get("round")
        if rnd != last_round:
            rows.append({"round": last_round, "scores": rules.scores(state)})
            last_round = rnd
    final = {"round": last_round, "scores": rules.scores(state)}
    if rows[-1] != final:
        rows.append(final)
    return rows


#: what the companion can draw when a component is missing: game -> what -> (module helper, needs a player)
DRAWS: dict[str, dict[str, tuple[str, bool]]] = {
    "galapagos-dice": {"dice": ("roll_dice", True)},
    "galerapagos": {"weather": ("draw_weather", False)},
}


def draws(game: str) -> dict[str, bool]:
    """What can be drawn digitally in ``game``, and whether each draw is for a player."""
    return {what: needs for what, (_, needs) in DRAWS.get(game, {}).items()}


def draw(session: Session, what: str, player: str | None = None, seed: int | None = None) -> tuple[Action, int]:
    """A digital draw (dice thrown, weather card turned): the action to journal and its seed.

    The game's own randomiser takes an explicit ``random.Random`` (the rules stay
    pure); the result is journaled like an observed throw, so replay needs no seed.
    The seed goes into the journal entry's source all the same (``...:digital:SEED``),
    so a disputed throw can be re-drawn exactly from the same state.
    """
    spec = DRAWS.get(session.game, {}).get(what)
    if spec is None:
        known = ", ".join(DRAWS.get(session.game, {})) or "nothing"
        raise RuleError(f"{session.rules.name} cannot draw {what!r} digitally; it can draw {known}.")
    name, needs_player = spec
    fn = _helper(session.game, name)
    if fn is None:
        raise RuleError(f"{session.rules.name} has no digital {what}.")
    seed = random.SystemRandom().getrandbits(63) if seed is None else seed
    rng = random.Random(seed)
    if needs_player:
        if player not in session.players:
            raise RuleError(f"Say whose {what} to draw: one of {', '.join(session.players)}.")
        return fn(rng, player), seed
    return fn(session.state, rng), seed


def new_island(seed: int | None = None) -> tuple[int, dict[str, Any]]:
    """galapagos-dice: a random island (seed, layout) for the table to build."""
    seed = random.SystemRandom().randrange(1, 1_000_000) if seed is None else seed
    from companion.games.dice.island import generate_layout

    return seed, generate_layout(seed)


def weather_deck(seed: int | None = None) -> dict[str, Any] | None:
    """galerapagos: the weather deck's cards and one shuffled order built as the set-up says."""
    mod = _module("galerapagos")
    if mod is None:
        return None
    seed = random.SystemRandom().randrange(1, 1_000_000) if seed is None else seed
    cards = [{"water": w, "hurricane": False} for w in mod.WEATHER_CARDS]
    cards.append({"water": mod.HURRICANE_WATER, "hurricane": True})
    order = [{"water": a["water"], "hurricane": a["hurricane"]} for a in mod.weather_deck_order(random.Random(seed))]
    return {"seed": seed, "cards": cards, "order": order, "bottom": mod.BOTTOM_CARDS + 1}


def game_names() -> list[dict[str, Any]]:
    from companion import games

    out = []
    for gid in games.ids():
        rules = games.get(gid)
        out.append({"id": gid, "name": rules.name, "min": rules.min_players, "max": rules.max_players})
    return out


# -- history and statistics ------------------------------------------------------

def player_stats(records: Iterable[Any]) -> list[dict[str, Any]]:
    """Per player over finished games: played, won, best and average score, per game."""
    stats: dict[str, dict[str, Any]] = {}
    for rec in records:
        result = rec.result or {}
        if not rec.finished:
            continue
        winners = set(result.get("winners") or [])
        scores = result.get("scores") or {}
        for name in rec.players:
            s = stats.setdefault(name, {"name": name, "played": 0, "won": 0, "scores": [], "games": {}})
            s["played"] += 1
            s["won"] += name in winners
            if isinstance(scores.get(name), int | float):
                s["scores"].append(scores[name])
            g = s["games"].setdefault(rec.game, {"played": 0, "won": 0})
            g["played"] += 1
            g["won"] += name in winners
    out = []
    for s in stats.values():
        pts = s.pop("scores")
        s["best"] = max(pts) if pts else None
        s["average"] = round(sum(pts) / len(pts), 1) if pts else None
        s["win_rate"] = round(100 * s["won"] / s["played"]) if s["played"] else 0
        out.append(s)
    return sorted(out, key=lambda s: (-s["won"], -s["played"], s["name"]))
