"""What the dashboard and the table need beyond the public state, for any game.

The web layer talks to the session API only. What only one game has (costs,
a path hint, odds, an island to build) comes from its game package
(:class:`companion.engine.gamepack.GamePackage`); this module holds what every game
shares: the action log, undo, digital draws, the sand timer, the score per
round, history and statistics. It names no game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from contextlib import nullcontext
from typing import Any

from companion import games
from companion.engine import moves
from companion.engine.rules import Action, RuleError
from companion.table.session import Session


def _package(game: str) -> Any:
    return games.package(game)


def has_secrets(session: Session) -> bool:
    """Whether some action fields of this game stay hidden from the other seats (a vote's target)."""
    return bool(_package(session.game).secret_fields)


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
    """Whether a phone may send ``kind`` for its own seat (by the rules' vocabulary).

    Only actions that must name their player: where the player is optional the
    action is the table's (Galèrapagos' weather card, the raft leaving), unless
    the game has a single seat anyway.
    """
    if not takes_player(session, kind):
        return False
    return "player" not in session.rules.optional_fields.get(kind, frozenset()) or len(session.players) == 1


def offered_to(session: Session, seat: str | None, action: Action) -> bool:
    """Whether ``action`` is among the moves the game offers ``seat`` now."""
    forms = moves.for_seat(_package(session.game).moves(session.state), seat)
    return moves.match(forms, action) is None


def candidates(session: Session, seat: str | None = None, limit: int = 24) -> list[Action]:
    """A few legal actions now (for one-tap buttons); only ``seat``'s when given."""
    found = session.rules.candidates(session.state)  # states are immutable: a snapshot is safe
    if seat is not None:
        found = [a for a in found if a.get("player") == seat
                 or ("player" not in a and takes_player(session, str(a["type"])) and session.players == [seat])]
    return found[:limit]


def redact(game: str, action: Action, viewer: str | None) -> Action:
    """``action`` as ``viewer`` may see it in the log: secret fields of others' actions hidden."""
    return _package(game).redact(action, viewer)


def last_actions(session: Session, viewer: str | None, limit: int = 8) -> list[dict[str, Any]]:
    """The newest actions in play, newest first, redacted for ``viewer``."""
    return [
        {"seq": e.seq, "at": e.at, "source": e.source, "author": e.author.to_json(),
         "action": redact(session.game, e.action, viewer)}
        for e in reversed(session.history(limit))
    ]


def automatic(session: Session) -> tuple[str, ...]:
    """Action types the companion journals by itself (the package's list, for screens that name them);
    whether one journal entry was is its author's ``auto``, set when it was written."""
    return tuple(_package(session.game).automatic)


def last_person(session: Session) -> Any:
    """The journal entry of the last action a person made (None when there is none)."""
    found = _last_person(session)
    return found[1] if found else None


def may_undo(session: Session, seat: str | None) -> bool:
    """Whether ``seat``'s phone may undo now (None: the table, always when there is something):
    only an action that phone sent itself, by its author, whatever the action's ``player``."""
    entry = last_person(session)
    if entry is None:
        return False
    return seat is None or entry.author.phone_of(seat)


def to_undo(session: Session) -> Action | None:
    """The action :func:`undo` would take back: the last one a person made."""
    found = _last_person(session)
    return found[1].action if found else None


def _last_person(session: Session) -> tuple[int, Any] | None:
    """(index in the history, entry) of the last action a person made."""
    history = session.history()
    for i in range(len(history) - 1, -1, -1):
        entry = history[i]
        if not entry.author.auto:
            return i, entry
    return None


def _around(session: Session, index: int) -> tuple[Any, Any]:
    """The game's state before and after the history's entry ``index`` (from the session's replay)."""
    step = session.steps()[index]
    return step.before, step.after


def undo_refusal(session: Session, by_table: bool, lang: str = "en") -> str | None:
    """Why the last action may not be undone by this screen (a revealed ballot, for a seat), or None."""
    found = _last_person(session)
    if found is None:
        return None
    before, after = _around(session, found[0])
    return _package(session.game).undo_refusal(before, found[1].action, after, by_table, lang)


def undo_cut(session: Session, by_table: bool = True) -> int | None:
    """Where the next :func:`undo` cuts the history: it keeps ``history()[:cut]``; None when nothing to undo.

    The same reckoning as :func:`undo` (the person's action, the automatic ones after it,
    the whole ballot when the game says so), without doing it: the undo dialog shows
    what moves back before anyone confirms.
    """
    found = _last_person(session)
    if found is None:
        return None
    before, after = _around(session, found[0])
    span = max(1, int(_package(session.game).undo_span(before, found[1].action, after, by_table) or 1))
    history = session.history()
    cut, people = len(history), 0
    while cut > 0 and people < span:
        cut -= 1
        if not history[cut].author.auto:
            people += 1
    return cut


#: game id -> what the screens say after an undo that the game explains (the version it holds for)
NOTICES: dict[str, tuple[int, Any, Action]] = {}


def notice(session: Session, lang: str = "en") -> str | None:
    """What every screen says after the last undo, while nothing else has happened since."""
    held = NOTICES.get(session.id)
    if held is None or held[0] != session.version:
        return None
    return _package(session.game).undo_notice(held[1], held[2], lang)


def undo(session: Session, by_table: bool = True, lang: str = "en") -> Action | None:
    """Take back the last action a person made, with the automatic ones after it (the sand's expiry).

    Undoing the expiry alone cannot work: the sand turned long ago, so the timer would
    only run out again at once and the undo would seem to do nothing. The game may refuse
    (a seat's vote once the ballot is revealed: RuleError) or take back more than one
    action (the whole ballot, for the table), all in one journal transaction.
    """
    pkg = _package(session.game)
    found = _last_person(session)
    span = 1
    if found is not None:
        before, after = _around(session, found[0])
        reason = pkg.undo_refusal(before, found[1].action, after, by_table, lang)
        if reason:
            raise RuleError(reason)
        span = max(1, int(pkg.undo_span(before, found[1].action, after, by_table) or 1))
    undo_last = getattr(session, "undo_last", None)
    if callable(undo_last):  # one journal transaction: a power cut keeps all or nothing
        done = undo_last(count=span)
    else:
        auto = automatic(session)
        with getattr(session, "lock", nullcontext()):  # the alarm must not re-journal in between
            done = session.undo()
            while done is not None and done.get("type") in auto:
                done = session.undo()
    if done is not None and found is not None and pkg.undo_notice(before, found[1].action, lang):
        NOTICES[session.id] = (session.version, before, found[1].action)
    return done


def to_redo(session: Session) -> Action | None:
    """The action :func:`redo` would play again (the oldest undone one), None when there is nothing to redo."""
    undone = getattr(session, "undone", None) or []
    return undone[0].action if undone else None


def redo(session: Session) -> Action | None:
    """Play again the last undone action, with the automatic ones that were taken back with it, in one
    transaction (a plan comes back with its sand's expiry, as :func:`undo` took them back together)."""
    redo_next = getattr(session, "redo_next", None)
    if callable(redo_next):
        return redo_next()
    return session.redo()


def timer(session: Session) -> dict[str, Any] | None:
    """The sand timer, if this game has one: seconds in all, seconds left, running or not."""
    sand = getattr(session, "timer", None)
    if sand is not None and hasattr(sand, "remaining"):
        return {"seconds": sand.seconds, "remaining": round(sand.remaining(), 2),
                "running": bool(sand.running), "expired": bool(sand.expired())}
    pub = session.public()
    if "timer" in pub and "timer_seconds" in pub:  # the game knows the phase, not the clock
        state = pub["timer"]
        if state not in ("running", "expired", "idle"):  # stopped once everyone is done: no bar
            return None
        seconds = float(pub["timer_seconds"])
        return {"seconds": seconds, "remaining": 0.0 if state == "expired" else seconds,
                "running": state == "running", "expired": state == "expired"}
    return None


def score_history(session: Session) -> list[dict[str, Any]]:
    """Scores at the start and at the end of every round: the replay of the journal."""
    rules = session.rules
    steps = session.steps()  # the session's replay
    state = steps[0].before if steps else session.state
    rows = [{"round": 0, "scores": rules.scores(state)}]
    last_round = rules.view(state).get("round")
    for step in steps:
        state = step.after
        rnd = rules.view(state).get("round")
        if rnd != last_round:
            rows.append({"round": last_round, "scores": rules.scores(state)})
            last_round = rnd
    final = {"round": last_round, "scores": rules.scores(state)}
    if rows[-1] != final:
        rows.append(final)
    return rows


def draws(game: str) -> dict[str, bool]:
    """What can be drawn digitally in ``game``, and whether each draw is for a player."""
    return {what: bool(spec.get("player")) for what, spec in (_package(game).draws() or {}).items()}


def draw(session: Session, what: str, player: str | None = None, seed: int | None = None) -> tuple[Action, int]:
    """A digital draw (dice thrown, weather card turned): the action to journal and its seed.

    A draw fills the fields of a move offered now (:func:`companion.engine.moves.with_draws`):
    when that move is not offered, nothing is drawn (RuleError). Its step is that move's: a
    screen asks that move's question (an override's) before it calls this.

    The game's own randomiser takes an explicit ``random.Random`` (the rules stay
    pure); the result is journaled like an observed throw, so replay needs no seed.
    The seed goes into the journal entry's author all the same (its ``seed``),
    so a disputed throw can be re-drawn exactly from the same state.
    """
    specs = _package(session.game).draws() or {}
    spec = specs.get(what)
    if spec is None:
        known = ", ".join(specs) or "nothing"
        raise RuleError("{game} cannot draw {what!r} digitally; it can draw {known}.",
                        game=session.rules.name, what=what, known=known)
    if spec.get("player") and player not in session.players:
        raise RuleError("Say whose {what} to draw: one of {players}.", what=what, players=", ".join(session.players))
    whose = player if spec.get("player") else None
    if draw_move(session, what, whose) is None:  # a draw fills a move: only while that move is offered
        raise RuleError("Nothing to draw now: the move the {what} would fill is not offered.", what=what)
    seed = random.SystemRandom().getrandbits(63) if seed is None else seed
    return spec["fn"](session.state, random.Random(seed), whose), seed


def draw_move(session: Session, what: str, player: str | None, lang: str = "en") -> Any:
    """The move the draw ``what`` (``player``'s; None: the table's) fills now, with its step and ``ask``;
    None when that move is not offered now."""
    return moves.draw_form(_package(session.game).moves(session.state, lang), what, player)


def game_names(lang: str = "en") -> list[dict[str, Any]]:
    out = []
    for pkg in games.packages():
        rules = pkg.rules
        out.append({"id": pkg.id, "name": pkg.title(lang), "min": rules.min_players, "max": rules.max_players,
                    "options": pkg.option_specs(lang)})
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
