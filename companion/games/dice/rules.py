"""Galapagos, the dice game (seed 002): island, turtle bag, planning, movement, set scoring.

Pure rules over an immutable :class:`DiceState` (frozen dataclass of tuples and
frozensets, so ``apply`` only builds the few parts an action changes). The
sand timer is *not* here: the session runs it (``companion.table.timers.SandTimer``)
and journals its expiry as ``timer_expired``. Dice rolled by the companion come
from :func:`roll_dice`, which takes an explicit ``random.Random`` and returns a
``roll`` action to journal.

A round: ``place_turtles`` (not in round 1, where set-up placed them), then
``roll``/``plan``/``done`` per player. The first plan (or ``done``) of a round is
the first finisher's: it turns the sand timer, it is final ("He may NOT re-order
his dice") and its author moves first, then clockwise. Every other player may
plan again as often as he likes until the sand runs out, and says ``done`` when
he has finished (the seat button: ``done`` with the dice lying in his lanes).
``timer_expired`` closes planning, or everyone having said done does, before the
sand has run out. Then one ``move`` per player in that order, everyone
included: a player with no plan moves with no dice, which still takes the
turtle under his pawn ("A player who starts movement with a turtle on his island
spot can collect that turtle").
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.engine.rules import (
    Action,
    Event,
    Expected,
    Outcome,
    Rules,
    evolve,
    require_bool,
    require_player,
)
from companion.engine.texts import Plural, Term
from companion.games.dice.island import (
    COLOURS,
    Island,
    field_number,
    generate_layout,
    parse_layout,
    render,
)
from companion.games.dice.words import ALL_COLOURS, colours, refuse, term

__all__ = ["DiceRules", "DiceState", "generate_layout", "render_island", "roll_dice", "score_of"]

DICE = 5
SET_POINTS = 8
SUDDEN_WIN = 5
DEFAULT_TIMER = 30.0
#: the longest sand timer the rules accept, in seconds (one hour)
MAX_TIMER = 3600
OPTIONS = ("layout", "layout_seed", "turtles", "two_player_variant", "timer_seconds")
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")


@dataclass(frozen=True, eq=False)
class Table:
    """What never changes during a game: island, turtles, players, options.

    ``walks`` caches what :meth:`DiceRules.candidates` derives from the immutable island (the
    walks from a pawn's field towards the turtles lying on it): a plan phase asks for them after
    every plan, with the same pawns and turtles, so they are computed once per field and island.
    """

    island: Island
    turtles: dict[int, str]
    players: tuple[str, ...]
    per_round: int
    two_player_variant: bool
    timer_seconds: float
    walks: dict[tuple[int, frozenset[int]], tuple[tuple[str, ...], ...]] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class DiceState:
    """One moment of the game. ``phase``: setup, plan, move, place or over.

    ``hauls[i]`` are the turtle numbers player ``i`` collected; turtle ``n`` lies
    on field ``n`` while it is in ``island``. ``order`` is the movement order
    (seat indices, every seat) once planning has closed, ``moved`` how many have
    moved. ``plans[i]`` is None while seat ``i`` has made no plan.
    """

    table: Table
    phase: str
    round: int
    pawns: tuple[int | None, ...]
    bag: frozenset[int]
    island: frozenset[int]
    hauls: tuple[tuple[int, ...], ...]
    seeded: bool = False  # set-up turtles placed
    rolls: tuple[tuple[str, ...] | None, ...] = ()
    plans: tuple[tuple[str, ...] | None, ...] = ()
    first: int | None = None  # the first finisher: turned the timer, moves first, may not re-plan
    timer: str = "idle"  # idle, running, expired, stopped (everyone said done before the sand ran out)
    done: frozenset[int] = frozenset()  # the seats that have said they are done (the first finisher included)
    order: tuple[int, ...] = ()
    moved: int = 0
    sudden: str | None = None  # two-player variant winner


def score_of(counts: Sequence[int]) -> int:
    """8 per set of six different colours, 1 per further turtle."""
    sets = min(counts)
    return SET_POINTS * sets + sum(counts) - len(COLOURS) * sets


def colour_counts(table: Table, haul: Sequence[int]) -> list[int]:
    counts = [0] * len(COLOURS)
    for n in haul:
        counts[COLOURS.index(table.turtles[n])] += 1
    return counts


def _short(dice: Sequence[str], rolled: Sequence[str]) -> str | None:
    """The first colour of ``dice`` (in their order) used more often than it was rolled, or None.

    What ``Counter(dice) - Counter(rolled)`` says first, without building two counters: a plan
    may use only the dice rolled.
    """
    for colour in dice:
        if dice.count(colour) > rolled.count(colour):
            return colour
    return None


def _walks(table: Table, pawn: int, lying: frozenset[int]) -> tuple[tuple[str, ...], ...]:
    """The colours of five-step walks from ``pawn``, one per neighbour, each stepping to a
    neighbour with a turtle ``lying`` there when there is one (cached on the table)."""
    key = (pawn, lying)
    found = table.walks.get(key)
    if found is None:
        neighbours, colour = table.island.neighbours, table.island.colour
        out = []
        for first in neighbours[pawn]:
            here, walk = first, [colour[first]]
            while len(walk) < DICE:
                nbrs = neighbours[here]
                nxt = nbrs[len(walk) % len(nbrs)]
                for m in nbrs:
                    if m in lying:
                        nxt = m
                        break
                here = nxt
                walk.append(colour[here])
            out.append(tuple(walk))
        found = table.walks[key] = tuple(out)
    return found


def _set_at(items: tuple, i: int, value: Any) -> tuple:
    return items[:i] + (value,) + items[i + 1 :]


def _colour_list(value: Any, who: str, verb: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        if verb == "roll":
            raise refuse("{who} cannot roll: \"dice\" must be a list of colours such as [\"red\", \"blue\"].", who=who)
        raise refuse("{who} cannot plan: \"dice\" must be a list of colours such as [\"red\", \"blue\"].", who=who)
    for c in value:
        if c not in COLOURS:
            if verb == "roll":
                raise refuse("{who} cannot roll a {die} die: the colours are {colours}.", who=who, die=repr(c), colours=ALL_COLOURS)
            raise refuse("{who} cannot plan a {die} die: the colours are {colours}.", who=who, die=repr(c), colours=ALL_COLOURS)
    return tuple(value)


#: what each action would have done, for the sentence refusing it once the game is over.
AFTER_THE_END = {
    "start": "The game is over: {who} cannot place a pawn.",
    "place_turtles": "The game is over: no more turtles are drawn.",
    "roll": "The game is over: {who} cannot roll.",
    "plan": "The game is over: {who} cannot plan.",
    "done": "The game is over: {who} has nothing left to plan.",
    "timer_expired": "The game is over: the sand timer no longer counts.",
    "move": "The game is over: {who} cannot move.",
}

#: why an action comes at the wrong moment, by phase (a phrase in the game's catalog)
NOT_NOW = {
    "setup": "the game is still being set up",
    "plan": "players are planning",
    "move": "players are moving",
    "place": "every player has moved this round; the turtles are drawn for the next one",
    "over": "the game is over",
}


def turn_order(s: DiceState, exp: Expected) -> Expected:
    """``exp`` with the turn order: moving goes in the order the plans closed; after the last mover the
    table draws the turtles. The planning is simultaneous: nobody is next. The game has no start
    player's figure (the first to finish planning turns the sand timer and moves first, round by round)."""
    nxt: tuple[str, ...] = ()
    table_next = False
    if s.phase == "move":
        if s.moved + 1 < len(s.order):
            nxt = (s.table.players[s.order[s.moved + 1]],)
        else:
            table_next = bool(s.bag)  # the next round starts with the turtles drawn from the bag
    return replace(exp, next=nxt, start=None, table_next=table_next)


class DiceRules(Rules):
    id = "galapagos-dice"
    name = "Galapagos (dice)"
    min_players = 2
    max_players = 4
    actions = {
        "start": frozenset({"player", "field"}),
        "place_turtles": frozenset({"numbers"}),
        "roll": frozenset({"player", "dice"}),
        "plan": frozenset({"player", "dice"}),
        "done": frozenset({"player", "dice"}),
        "timer_expired": frozenset(),
        "move": frozenset({"player", "path"}),
    }
    #: ``done`` without dice keeps the plan as it is (none yet: no dice)
    optional_fields = {"done": frozenset({"dice"})}

    # -- set-up ---------------------------------------------------------------
    def setup(self, players: list[str], options: dict[str, Any]) -> DiceState:
        names = tuple(self.check_players(players))
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise refuse("{game} has no option \"{option}\"; it knows {options}.", game=term(self.name), option=unknown[0],
                         options=", ".join(OPTIONS))
        island = self._island(options)
        turtles = self._turtles(options.get("turtles"), island)
        variant = require_bool(options, "two_player_variant", False)
        if variant and len(names) != 2:
            raise refuse("The two-player variant is for 2 players, not {count}.", count=len(names))
        seconds = options.get("timer_seconds", DEFAULT_TIMER)
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds > 0:
            raise refuse("\"timer_seconds\" must be a positive number of seconds, not {value}.", value=json.dumps(seconds))
        if seconds > MAX_TIMER:  # a sand timer, not a clock for days (and a wait the OS can hold)
            raise refuse("\"timer_seconds\" is at most {most} seconds, not {value}.", most=MAX_TIMER, value=json.dumps(seconds))
        table = Table(island, turtles, names, 5 if len(names) == 2 else 6, variant, float(seconds))
        empty = (None,) * len(names)
        return DiceState(table, "setup", 1, empty, frozenset(turtles), frozenset(), ((),) * len(names), rolls=empty, plans=empty)

    @staticmethod
    def _island(options: dict[str, Any]) -> Island:
        if "layout" in options and "layout_seed" in options:
            raise refuse("Give either a \"layout\" or a \"layout_seed\", not both.")
        if "layout" in options:
            return parse_layout(options["layout"])
        seed = options.get("layout_seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise refuse("\"layout_seed\" must be a whole number, not {value}.", value=json.dumps(seed))
        return parse_layout(generate_layout(seed))

    @staticmethod
    def _turtles(spec: Any, island: Island) -> dict[int, str]:
        """The ``turtles`` option, or six of each colour: the lowest six numbers black, and so on."""
        if spec is None:
            return {n: COLOURS[i // 6] for i, n in enumerate(island.numbers)}
        if not isinstance(spec, dict) or not spec:
            raise refuse("The \"turtles\" option must be an object: turtle number -> colour.")
        turtles: dict[int, str] = {}
        for key, col in spec.items():
            n = field_number(key)
            if n not in island.colour:
                raise refuse("Turtle {n} has no field {n} on the island to lie on.", n=n)
            if col not in COLOURS:
                raise refuse("Turtle {n} has colour {colour}; the colours are {colours}.", n=n, colour=repr(col), colours=ALL_COLOURS)
            turtles[n] = col
        return turtles

    # -- actions --------------------------------------------------------------
    def step(self, state: DiceState, action: Action) -> tuple[DiceState, list[Event]]:
        if state.phase == "over":
            who = action.get("player") or term("nobody")
            raise refuse(AFTER_THE_END[action["type"]], who=who)
        handler = getattr(self, "_" + action["type"])
        return handler(state, action)

    def _start(self, s: DiceState, a: Action) -> tuple[DiceState, list[Event]]:
        """"Each player then draws a turtle from the bag and places his/her pawn on that island tile (number).\""""
        who = require_player(a, s.table.players)
        i = s.table.players.index(who)
        if s.phase != "setup":
            raise refuse("{who}'s pawn is already on the island; pawns are placed only at set-up.", who=who)
        if s.pawns[i] is not None:
            raise refuse("{who}'s pawn is already on field {field}.", who=who, field=s.pawns[i])
        n = self._field(s, a.get("field"))
        if n in s.island:
            raise refuse("{who} cannot start on field {n}: turtle {n} lies on the island, so it cannot be drawn from the bag.", who=who, n=n)
        if n in s.pawns:
            other = s.table.players[s.pawns.index(n)]
            raise refuse("{who} cannot start on field {n}: {other} drew turtle {n} and it is not back in the bag yet.", who=who, n=n, other=other)
        s = evolve(s, pawns=_set_at(s.pawns, i, n))
        return self._after_setup(s), [{"event": "start", "player": who, "field": n}]

    def _place_turtles(self, s: DiceState, a: Action) -> tuple[DiceState, list[Event]]:
        """"...five turtles (with 2 players) or 6 turtles (for 3 and 4 players) are drawn from the bag and placed..." """
        if s.phase == "setup" and s.seeded:
            raise refuse("The first turtles are already on the island; more are drawn when the round ends.")
        if s.phase not in ("setup", "place"):
            raise refuse("Turtles are drawn when a round ends, not now: {why}.", why=self._not_now(s))
        numbers = a.get("numbers")
        if not isinstance(numbers, list) or any(isinstance(n, bool) or not isinstance(n, int) for n in numbers):
            raise refuse("\"numbers\" must be a list of turtle numbers.")
        want = min(s.table.per_round, len(s.bag))
        for n in numbers:
            if n not in s.bag:
                where = "on the island" if n in s.island else "already collected" if n in s.table.turtles else "not one of this game's turtles"
                raise refuse("Turtle {n} is not in the bag (it is {where}).", n=n, where=term(where))
        twice = next((n for n in numbers if numbers.count(n) > 1), None)
        if twice is not None:
            raise refuse("Turtle {n} is named twice: the same turtle cannot be drawn twice.", n=twice)
        if len(numbers) != want:
            if want == 1:
                raise refuse("Draw the last turtle in the bag, not {count}.", count=len(numbers))
            if want < s.table.per_round:
                raise refuse("Draw {want} turtles (only {want} left in the bag), not {count}.", want=want, count=len(numbers))
            raise refuse("Draw {want} turtles, not {count}.", want=want, count=len(numbers))
        drawn = frozenset(numbers)
        s = evolve(s, bag=s.bag - drawn, island=s.island | drawn)
        events: list[Event] = [{"event": "placed", "turtles": sorted(drawn)}]
        if s.phase == "setup":
            return self._after_setup(evolve(s, seeded=True)), events
        return evolve(s, phase="plan"), events

    def _after_setup(self, s: DiceState) -> DiceState:
        if s.seeded and None not in s.pawns:
            return evolve(s, phase="plan")
        return s

    def _roll(self, s: DiceState, a: Action) -> tuple[DiceState, list[Event]]:
        """"All players roll their 5 dice" (observed, or from :func:`roll_dice`)."""
        who, i = self._planner(s, a, "roll")
        if s.rolls[i] is not None:
            raise refuse("{who} has already rolled this round.", who=who)
        dice = _colour_list(a.get("dice"), who, "roll")
        if len(dice) != DICE:
            raise refuse("{who} rolls {dice} dice, not {count}.", who=who, dice=DICE, count=len(dice))
        return evolve(s, rolls=_set_at(s.rolls, i, dice)), [{"event": "rolled", "player": who, "dice": list(dice)}]

    def _plan(self, s: DiceState, a: Action) -> tuple[DiceState, list[Event]]:
        """"...sort them into the order they want to use them... You do not need to use all of your dice."

        The first plan of a round is the first finisher's: it turns the sand timer and
        is final. Any other player may plan again until the sand runs out; a new plan
        takes back his « done » (he is arranging his dice again).
        """
        who, i = self._planner(s, a, "plan")
        dice = self._dice(s, i, who, a.get("dice"))
        again = s.plans[i] is not None
        events: list[Event] = [{"event": "planned", "player": who, "dice": list(dice), **({"again": True} if again else {})}]
        s = evolve(s, plans=_set_at(s.plans, i, dice), done=s.done - {i})
        return self._finished(s, i, who, events, says_done=s.first is None)

    def _done(self, s: DiceState, a: Action) -> tuple[DiceState, list[Event]]:
        """A seat's « I am done »: with ``dice``, those dice (as they lie in its lanes) are its plan.

        Without ``dice`` the plan stays as it is (no plan yet: no dice). The first to be
        done turns the sand timer; once every player is done, movement starts without
        waiting for the sand.
        """
        who, i = self._planner(s, a, "done")
        events: list[Event] = []
        if "dice" in a:
            dice = self._dice(s, i, who, a.get("dice"))
            again = s.plans[i] is not None
            events.append({"event": "planned", "player": who, "dice": list(dice), **({"again": True} if again else {})})
            s = evolve(s, plans=_set_at(s.plans, i, dice))
        elif i in s.done:
            raise refuse("{who} has already said done this round.", who=who)
        elif s.plans[i] is None:
            events.append({"event": "planned", "player": who, "dice": []})
            s = evolve(s, plans=_set_at(s.plans, i, ()))
        return self._finished(s, i, who, events, says_done=True)

    def _finished(self, s: DiceState, i: int, who: str, events: list[Event], says_done: bool) -> tuple[DiceState, list[Event]]:
        """After a plan or a « done »: the first finisher turns the timer; everyone done closes planning."""
        if says_done:
            if s.first is None:
                s = evolve(s, first=i, timer="running", done=s.done | {i})
                events.append({"event": "timer_started", "player": who, "seconds": s.table.timer_seconds})
            else:
                s = evolve(s, done=s.done | {i})
                events.append({"event": "done", "player": who})
        if len(s.done) == len(s.table.players):
            s = evolve(self._close_planning(s), timer="stopped")
            events.append({"event": "planning_closed", "order": [s.table.players[j] for j in s.order], "by": "done"})
        return s, events

    def _dice(self, s: DiceState, i: int, who: str, value: Any) -> tuple[str, ...]:
        """A plan's dice, checked: colours of the game, five at most, only those rolled (if a roll is recorded)."""
        dice = _colour_list(value, who, "plan")
        if len(dice) > DICE:
            raise refuse("{who} has {dice} dice and cannot plan {count}.", who=who, dice=DICE, count=len(dice))
        rolled = s.rolls[i]
        if rolled is not None:
            col = _short(dice, rolled)
            if col is not None:
                raise refuse("{who} rolled {rolled}: not enough {colour} dice for this plan.", who=who, rolled=colours(rolled),
                             colour=term(col))
        return dice

    def _planner(self, s: DiceState, a: Action, verb: str) -> tuple[str, int]:
        """The player who rolls, plans or says done - refused once his plan is final or planning is over."""
        who = require_player(a, s.table.players)
        i = s.table.players.index(who)
        if s.phase == "plan" and s.first == i:
            if verb == "roll":
                raise refuse("{who} has already planned this round; the dice are rolled before the plan.", who=who)
            raise refuse("{who} has already planned and turned the sand timer: the first to finish may not re-order the dice.",
                         who=who)
        if s.phase == "plan" and verb == "roll" and s.plans[i] is not None:
            raise refuse("{who} has already planned this round; the dice are rolled before the plan.", who=who)
        if s.phase == "move":
            if s.timer == "stopped":
                if verb == "roll":
                    raise refuse("Everyone said done: planning is over and {who} can no longer roll this round.", who=who)
                raise refuse("Everyone said done: planning is over and {who} can no longer plan this round.", who=who)
            if verb == "roll":
                raise refuse("The sand timer has run out: {who} can no longer roll this round.", who=who)
            raise refuse("The sand timer has run out: {who} can no longer plan this round.", who=who)
        if s.phase != "plan":
            if verb == "roll":
                raise refuse("{who} cannot roll yet: {why}.", who=who, why=self._not_now(s))
            raise refuse("{who} cannot plan yet: {why}.", who=who, why=self._not_now(s))
        return who, i

    def _timer_expired(self, s: DiceState, a: Action) -> tuple[DiceState, list[Event]]:
        """"When the timer expires, the planning phase ends for all players.\""""
        if s.timer == "idle":
            raise refuse("The sand timer has not been turned yet: the first player to finish planning turns it.")
        if s.timer == "expired":
            raise refuse("The sand timer has already run out this round.")
        if s.timer == "stopped":
            raise refuse("Everyone said done before the sand ran out: the sand timer no longer counts this round.")
        s = self._close_planning(s)
        turned = s.table.players[s.first] if s.first is not None else None
        return evolve(s, timer="expired"), [{"event": "planning_closed", "order": [s.table.players[j] for j in s.order],
                                              "by": "timer", "turned_by": turned}]

    def _close_planning(self, s: DiceState) -> DiceState:
        """"The first to finish planning moves first, then play follows clockwise" - everyone, planned or not."""
        n = len(s.table.players)
        assert s.first is not None
        order = tuple((s.first + k) % n for k in range(n))
        return evolve(s, phase="move", order=order, moved=0)

    def _move(self, s: DiceState, a: Action) -> tuple[DiceState, list[Event]]:
        """Check the whole path die by die, then walk it collecting turtles."""
        who = require_player(a, s.table.players)
        i = s.table.players.index(who)
        self._check_turn(s, who, i)
        path = self.check_path(s, who, a.get("path"))
        events: list[Event] = [{"event": "moved", "player": who, "path": list(path)}]
        haul = list(s.hauls[i])
        island = set(s.island)
        pawn = s.pawns[i]
        sudden = None
        # "A player who starts movement with a turtle on his island spot can collect that turtle."
        for where in (pawn, *path):
            pawn = where
            if where in island:
                island.discard(where)
                haul.append(where)
                events.append({"event": "collected", "player": who, "turtle": where, "colour": s.table.turtles[where]})
                if s.table.two_player_variant and max(colour_counts(s.table, haul)) >= SUDDEN_WIN:
                    sudden = who
                    break
        s = evolve(
            s,
            pawns=_set_at(s.pawns, i, pawn),
            island=frozenset(island),
            hauls=_set_at(s.hauls, i, tuple(haul)),
            moved=s.moved + 1,
            sudden=sudden,
        )
        if sudden or (not s.bag and not s.island):
            events.append({"event": "over", "winners": self.winners(evolve(s, phase="over"))})
            return evolve(s, phase="over", timer="idle"), events
        if s.moved == len(s.order):
            return self._next_round(s), events
        return s, events

    def _check_turn(self, s: DiceState, who: str, i: int) -> None:
        if s.phase == "place":
            raise refuse("{who} cannot move now: everyone has moved in round {done}, and round {round} begins with planning "
                         "once its turtles are drawn.", who=who, done=s.round - 1, round=s.round)
        if s.phase != "move":
            raise refuse("{who} cannot move yet: {why}.", who=who, why=self._not_now(s))
        if s.order.index(i) < s.moved:
            raise refuse("{who} has already moved this round.", who=who)
        mover = s.table.players[s.order[s.moved]]
        if mover != who:
            raise refuse("It is {mover}'s turn to move, not {who}'s.", mover=mover, who=who)

    def check_path(self, s: DiceState, who: str, path: Any) -> tuple[int, ...]:
        """The fields entered, each a neighbour (or sea-linked corner) of the colour of the next die.

        A path may repeat the pawn's own field as its first entry; that is the
        start, not a step (a pawn never steps onto the field it stands on).
        """
        if not isinstance(path, list) or any(isinstance(n, bool) or not isinstance(n, int) for n in path):
            raise refuse("{who} cannot move: \"path\" must be a list of field numbers.", who=who)
        i = s.table.players.index(who)
        here = s.pawns[i]
        assert here is not None
        steps = tuple(path[1:] if path and path[0] == here else path)
        dice = s.plans[i] or ()
        if steps and s.plans[i] is None:
            raise refuse("{who} made no plan before the sand timer ran out: {who} moves with no dice and can only take "
                         "the turtle under the pawn (an empty path).", who=who)
        if len(steps) > len(dice):
            raise refuse("{who} planned {dice} and cannot take {steps}.", who=who,
                         dice=Plural("{n} die", "{n} dice", len(dice)), steps=Plural("{n} step", "{n} steps", len(steps)))
        island = s.table.island
        for k, (die, nxt) in enumerate(zip(dice, steps, strict=False)):
            if nxt not in island.colour:
                if nxt == 0:
                    raise refuse("{who} cannot move to field {field}: there is no such field (nobody can enter the volcano).",
                                 who=who, field=nxt)
                raise refuse("{who} cannot move to field {field}: there is no such field.", who=who, field=nxt)
            if nxt not in island.neighbours[here]:
                raise refuse("{who} cannot move from field {here} to field {field}: they are not neighbours, nor corners linked by sea.",
                             who=who, here=here, field=nxt)
            if island.colour[nxt] != die:
                raise refuse("{who}'s {nth} die is {die}, but field {field} is {colour}: {who} cannot enter it.",
                             who=who, nth=term(ORDINALS[k]), die=term(die), field=nxt, colour=term(island.colour[nxt]))
            here = nxt
        return steps

    def _next_round(self, s: DiceState) -> DiceState:
        """"Replenish the number of turtles on the island by drawing 5 (2 players) or 6 (3-4 players)." """
        empty = (None,) * len(s.table.players)
        phase = "place" if s.bag else "plan"
        return evolve(s, phase=phase, round=s.round + 1, rolls=empty, plans=empty, first=None, timer="idle", order=(), moved=0,
                       done=frozenset())

    def _field(self, s: DiceState, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value not in s.table.island.colour:
            if value == 0:
                raise refuse("There is no field {field} on the island (nobody can stand on the volcano).", field=json.dumps(value))
            raise refuse("There is no field {field} on the island.", field=json.dumps(value))
        return value

    @staticmethod
    def _not_now(s: DiceState) -> Term:
        return term(NOT_NOW[s.phase])

    # -- reading the state ----------------------------------------------------
    def expected(self, s: DiceState) -> Expected:
        return turn_order(s, self._expected(s))

    def _expected(self, s: DiceState) -> Expected:
        names = s.table.players
        if s.phase == "setup":
            waiting = tuple(p for p, f in zip(names, s.pawns, strict=True) if f is None)
            acts = (("start",) if waiting else ()) + (() if s.seeded else ("place_turtles",))
            return Expected(waiting, acts, "Place the pawns and the first turtles.")
        if s.phase == "place":
            count = min(s.table.per_round, len(s.bag))
            if count == 1:
                return Expected((), ("place_turtles",), "Draw the last turtle and place it.")
            return Expected((), ("place_turtles",), "Draw {count} turtles and place them.", {"count": count})
        if s.phase == "plan":
            waiting = tuple(p for i, p in enumerate(names) if i not in s.done)
            if s.first is None:
                return Expected(waiting, ("roll", "plan", "done"), "Roll and plan your dice.")
            return Expected(waiting, ("roll", "plan", "done", "timer_expired"),
                            "{player} turned the sand timer: plan your dice and say done before it runs out.",
                            {"player": names[s.first]})
        if s.phase == "move":
            mover = names[s.order[s.moved]]
            if s.plans[s.order[s.moved]] is None:
                return Expected((mover,), ("move",), "{player} moves with no dice (no plan): only the turtle under the pawn.",
                                {"player": mover})
            return Expected((mover,), ("move",), "{player} moves.", {"player": mover})
        return Expected((), (), "The game is over.")

    def view(self, s: DiceState, viewer: str | None = None) -> dict[str, Any]:
        t = s.table
        players = [
            {"name": p, "field": s.pawns[i], "turtles": dict(zip(COLOURS, colour_counts(t, s.hauls[i]), strict=True))}
            for i, p in enumerate(t.players)
        ]
        n = len(t.players)
        if s.order:
            order = [t.players[j] for j in s.order]
        elif s.first is not None:
            order = [t.players[(s.first + k) % n] for k in range(n)]
        else:
            order = []
        return {
            "game": self.id,
            "round": s.round,
            "over": s.phase == "over",
            "players": players,
            "phase": s.phase,
            "layout": t.island.to_json(),
            "island": {str(k): t.turtles[k] for k in sorted(s.island)},
            "bag": len(s.bag),
            "plans": [p for p, d in zip(t.players, s.plans, strict=True) if d is not None],
            "dice": {p: list(d) for p, d in zip(t.players, s.plans, strict=True) if d is not None},
            "rolls": {p: list(d) for p, d in zip(t.players, s.rolls, strict=True) if d is not None},
            "order": order,
            "mover": t.players[s.order[s.moved]] if s.phase == "move" else None,
            "done": [p for i, p in enumerate(t.players) if i in s.done],
            "timer_turned_by": t.players[s.first] if s.first is not None else None,
            "timer": s.timer,
            "timer_seconds": t.timer_seconds,
            "two_player_variant": t.two_player_variant,
        }

    def render_text(self, s: DiceState) -> str:
        """The island as text, for ``companion show --text`` and the terminal table."""
        return render_island(s)

    def dump(self, s: DiceState) -> dict[str, Any]:
        out = self.view(s)
        out.update(
            bag_turtles=sorted(s.bag),
            hauls={p: list(h) for p, h in zip(s.table.players, s.hauls, strict=True)},
            turtles={str(k): c for k, c in sorted(s.table.turtles.items())},
            seeded=s.seeded,
            moved=s.moved,
            sudden=s.sudden,
        )
        return out

    def scores(self, s: DiceState) -> dict[str, int]:
        return {p: score_of(colour_counts(s.table, h)) for p, h in zip(s.table.players, s.hauls, strict=True)}

    def winners(self, s: DiceState) -> list[str]:
        """"In case of a tie, all tied players win!" - or the two-player variant's sudden winner."""
        if s.phase != "over":
            return []
        if s.sudden:
            return [s.sudden]
        scores = self.scores(s)
        best = max(scores.values())
        return [p for p in s.table.players if scores[p] == best]

    def outcome(self, s: DiceState) -> Outcome | None:
        if s.phase != "over":
            return None
        if s.sudden:
            col = next(c for c, k in zip(COLOURS, colour_counts(s.table, s.hauls[s.table.players.index(s.sudden)]), strict=True) if k >= SUDDEN_WIN)
            return Outcome("five_of_a_colour", (s.sudden,), "{player} collected five {colour} turtles and wins at once.",
                           {"player": s.sudden, "colour": term(col)})
        return Outcome("island_empty", tuple(self.winners(s)), "Every turtle has been collected.")

    # -- playouts ---------------------------------------------------------------
    def candidates(self, s: DiceState) -> list[Action]:
        """A few legal actions: enough variety for playouts that collect turtles and end."""
        names = s.table.players
        if s.phase in ("setup", "place"):
            out: list[Action] = []
            free = sorted(set(s.table.island.colour) - s.island - set(s.pawns))
            for i, f in enumerate(s.pawns):
                if f is None and s.phase == "setup":
                    out += [{"type": "start", "player": names[i], "field": n} for n in free[i :: 7][:3]]
            if s.phase == "place" or not s.seeded:
                bag = sorted(s.bag)
                k = min(s.table.per_round, len(bag))
                out += [{"type": "place_turtles", "numbers": bag[j : j + k]} for j in range(0, max(1, len(bag) - k + 1), 5)]
            return out
        if s.phase == "plan":
            out = []
            for i in range(len(names)):
                if i == s.first:
                    continue
                if s.plans[i] is None or i not in s.done:
                    out += self._plan_candidates(s, i)
                if i not in s.done:
                    out.append({"type": "done", "player": names[i]})
            if s.timer == "running":
                out.append({"type": "timer_expired"})
            return out
        if s.phase == "move":
            i = s.order[s.moved]
            return [{"type": "move", "player": names[i], "path": list(p)} for p in self._paths(s, i)]
        return []

    def _plan_candidates(self, s: DiceState, i: int) -> list[Action]:
        """Plans walking towards turtles from the pawn, fitted to the roll if there is one."""
        who = s.table.players[i]
        pawn = s.pawns[i]
        assert pawn is not None
        plans: list[tuple[str, ...]] = [(), *_walks(s.table, pawn, s.island)]
        rolled = s.rolls[i]
        if rolled is not None:
            plans = [p for p in plans if _short(p, rolled) is None] + [rolled]
        out: list[Action] = [{"type": "plan", "player": who, "dice": list(p)} for p in plans]
        out.append({"type": "done", "player": who, "dice": list(plans[-1])})
        if rolled is None and s.plans[i] is None:
            out.append({"type": "roll", "player": who, "dice": list(plans[-1])})
        return out

    def _paths(self, s: DiceState, i: int, limit: int = 12) -> list[tuple[int, ...]]:
        """Legal paths for seat ``i``: the empty one, then the longest walks found first."""
        island, dice = s.table.island, s.plans[i] or ()
        found: list[tuple[int, ...]] = []
        stack: list[tuple[int, tuple[int, ...]]] = [(s.pawns[i], ())]
        while stack and len(found) < limit:
            here, path = stack.pop()
            found.append(path)
            if len(path) < len(dice):
                stack += [(m, path + (m,)) for m in island.reachable(here, dice[len(path)])]
        return found


# -- helpers for the session, the dashboard and ``companion show`` ----------------

def roll_dice(rng: random.Random, player: str, count: int = DICE) -> Action:
    """Roll ``count`` dice for ``player`` when the physical dice are missing: a ``roll`` action to journal."""
    return {"type": "roll", "player": player, "dice": [rng.choice(COLOURS) for _ in range(count)]}


def render_island(s: DiceState) -> str:
    """The island as text: field number, colour letter, the turtle on it (lower case), pawn seats."""
    t = s.table
    pawns: dict[int, list[int]] = {}
    for seat, f in enumerate(s.pawns, start=1):
        if f is not None:
            pawns.setdefault(f, []).append(seat)
    rows = render(t.island, {n: t.turtles[n] for n in s.island}, pawns)
    legend = "  ".join(f"{seat}={p}" for seat, p in enumerate(t.players, start=1))
    rows.append("")
    rows.append(f"Colours K black, W white, R red, G green, Y yellow, B blue; turtle in lower case; pawns {legend}.")
    rows.append(f"Round {s.round}, {s.phase}; {len(s.bag)} turtles in the bag, {len(s.island)} on the island.")
    return "\n".join(rows)

