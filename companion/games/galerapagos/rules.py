"""Galèrapagos (seed 004, French): rations, weather, raft, sickness, votes and endings.

The companion tracks what the board tracks (the water and food tokens, the raft
disc and cards, the weather deck, the first-player card) and what the players
hold as *counts* (cards in hand), plus the sickness cards, the graves and the
votes. Card effects beyond counts are generic actions the players apply
(``resource``, ``sick``, ``heal``, ``revive``, ``shoot``, ``give``, ``place``).

The moment to show cards
------------------------
Because hands are counts, the companion cannot know who holds a Water card. So
whenever a death depends on a card someone may hold, the game *asks*, in phase
``show_cards`` (docs/design.md, "Galèrapagos: the moment to show cards"):

* a count finds its token on 0 ("Seuls les joueurs disposant de cartes
  correspondant à la ressource manquante survivent"): each castaway shows his
  card (``resource``) or says he has none (``no_card``);
* a vote's target may still save himself ("Il peut se sauver en jouant une carte
  Ressource ou en tirant sur un autre joueur"): his card, his shot, or ``no_card``;
* the hurricane's raft lacks places or rations: cards and shots before it leaves.

The moment ends with ``close`` (the first player: "nobody else"), when every
castaway concerned has answered, or when the next ``weather`` is entered. Only
then are the deaths applied and the ending decided: ``over`` is never true while
a moment is open.

Before the survival step the game pauses (phase ``acted``) until the first player
confirms with ``survival``, so cards can still be played; a line that belongs to
the survival step (a vote, ``no_card``, ``close``, the next ``weather``,
``embark``) implies the confirmation. With a token on 0 there is nothing to pause
for: the step starts at once with its moment to show cards.

All states are immutable (NamedTuples of tuples): ``apply`` never changes the
state it is given and copying is cheap for playouts.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from companion.engine.rules import Action, Event, Expected, Outcome, RuleError, Rules, sees_secret
from companion.engine.texts import Message, Plural, Term
from companion.games.galerapagos.chances import cards_left, deck_left, odds
from companion.games.galerapagos.options import parse_options
from companion.games.galerapagos.state import (
    ACTED,
    ACTIONS,
    ACTS,
    CARD_NAMES,
    CAUSE,
    COUNTS,
    DEPART,
    EFFECTS,
    END,
    FOOD,
    IMPLIED,
    MAX_DROPS,
    MAX_EXTRA_BALLS,
    OVER,
    PERMANENT,
    RAFT,
    RAFT_CARDS,
    RAFT_IMPLIED,
    RAFT_TRACK,
    SAVE,
    SHOW_CARDS,
    START_RATIONS,
    WATER,
    WEATHER,
    WRECK_CARDS,
    ZERO,
    State,
    living_seats,
    phrase,
    refusal,
)
from companion.games.galerapagos.tournament import game_points, match_view

#: the four actions as verbs, for "{p} cannot {verb} now"
VERBS: dict[str, Term] = {
    "fish": Term("fish"), "water": Term("collect water"), "wood": Term("collect wood"),
    "search": Term("search the wreck"),
}
#: what the table is doing, for "cannot ... now: {now}" sentences
NOW: dict[str, str] = {
    "weather": "the weather card must be turned first",
    "actions": "the castaways are taking their actions ({q}'s turn)",
    "acted": "everyone has acted and {q}, the first player, starts the survival step",
    "water": "the water is being shared",
    "food": "the food is being shared",
    "vote_water": "the castaways are voting on who goes without water",
    "vote_food": "the castaways are voting on who goes without food",
    "vote_depart": "the castaways are voting on who stays behind",
    "tie": "{q}, the first player, must break the tie",
    "zero_water": "water is on 0 and the castaways are showing their water cards",
    "zero_food": "food is on 0 and the castaways are showing their food cards",
    "save": "{q} may still escape the verdict",
    "raft": "cards may still be played before the raft leaves",
    "end": "the round is over; turn the next weather card",
    "depart": "the raft is leaving",
    "over": "the game is over",
}

# -- small queries ---------------------------------------------------------

def _n(s: State) -> int:
    return len(s.names)


def _step(s: State, i: int, direction: int, alive: tuple[bool, ...] | list[bool] | None = None) -> int:
    """Next living seat from ``i`` (+1 clockwise = left, -1 = right); -1 if none."""
    alive = s.alive if alive is None else alive
    n = len(alive)
    for k in range(1, n + 1):
        j = (i + direction * k) % n
        if alive[j]:
            return j
    return -1


def disabled(s: State, i: int) -> bool:
    """Sick since last round: "Le tour suivant, il ne pourra ni jouer une carte, ni faire une action"."""
    return bool(s.sick[i] >> (s.round - 1) & 1) and s.phase not in (END, DEPART, OVER)


def is_sick(s: State, i: int) -> bool:
    """The sickness card lies in front of the player (from the bite to the end of the next round)."""
    return s.alive[i] and (sick_now(s, i) or disabled(s, i))


def sick_now(s: State, i: int) -> bool:
    """Fell sick this round: "Un joueur malade ne peut pas voter à la fin du tour"."""
    return bool(s.sick[i] >> s.round & 1)


def can_vote(s: State, i: int) -> bool:
    if not s.alive[i]:
        return s.opts.dead_vote
    return not sick_now(s, i)


def can_play(s: State, i: int) -> bool:
    return s.alive[i] and not disabled(s, i)


def may_show(s: State, i: int) -> bool:
    """May show a card at a count on 0: able to play one, or sick since last round under ``sick_show``."""
    return s.alive[i] and (not disabled(s, i) or s.opts.sick_show)


def has_shown(s: State, i: int) -> bool:
    return any(d[0] == i for d in s.declared)


def track_of(s: State, kind: str) -> int:
    return s.water if kind == WATER else s.food


def capacity(s: State) -> int:
    """Survivors the raft can take: places, and water and food for the voyage."""
    return min(s.rafts, s.water, s.food - s.basket)


def _short(s: State) -> bool:
    """The count under way still lacks something: rations for the living, or places on the raft."""
    n = len(living_seats(s))
    if s.phase == DEPART:
        return capacity(s) < n
    return track_of(s, s.phase) < n


def turn_order(s: State, exp: Expected) -> Expected:
    """``exp`` with the turn order: the actions go round from the first player, the sick and the dead
    skipped; after the last one the first player runs the survival step. A weather card is the
    table's, then the first player acts. During a vote or the moment to show cards nobody is next."""
    first = s.names[s.first]
    nxt: tuple[str, ...] = ()
    if s.phase != OVER and not (s.show or s.ballot is not None or s.tie):
        n = len(s.names)
        if s.phase == ACTIONS:
            nxt = next(((s.names[i],) for i in ((s.start + k) % n for k in range(s.turn_k + 1, n))
                        if s.alive[i] and not disabled(s, i) and not s.did[i]), (first,))  # then the survival step
        elif s.phase in (WEATHER, END) and not exp.players and exp.actions:
            nxt = (first,)
    return replace(exp, next=nxt, start=first)


def actor(s: State) -> int:
    return (s.start + s.turn_k) % _n(s) if s.phase == ACTIONS and s.turn_k < _n(s) else -1


def gift_possible(s: State, i: int) -> bool:
    """Another living castaway holds a card he could hand to ``i`` ("Peuvent être offertes")."""
    return any(s.alive[j] and s.cards[j] > 0 for j in range(_n(s)) if j != i)


def givers(s: State, i: int) -> list[int]:
    """Who could hand ``i`` a card, most cards first (then from his left): for « Cleo holds 3 »."""
    n = _n(s)
    order = [(i + k) % n for k in range(1, n)]
    return sorted((j for j in order if s.alive[j] and s.cards[j] > 0), key=lambda j: -s.cards[j])


def concerned(s: State) -> list[int]:
    """The castaways the open moment still waits for (their card, their shot, or "I have none").

    At a count on 0 and for the condemned: each castaway at risk who may play a card and holds
    one, *or* to whom another living castaway could still hand one ("Peuvent être offertes"):
    he is asked until he answers (after any gift), so the outcome never depends on who spoke
    first. At the raft's moment: those who hold a card (a gift adds no place). A card handed to
    a castaway who said « I have none » makes him asked again.
    """
    if s.show == ZERO:
        return [i for i in living_seats(s) if i not in s.answered and not has_shown(s, i) and may_show(s, i)
                and (s.cards[i] > 0 or gift_possible(s, i))]
    if s.show == SAVE:
        c = s.condemned
        return ([c] if c >= 0 and c not in s.answered and can_play(s, c)
                and (s.cards[c] > 0 or gift_possible(s, c)) else [])
    if s.show == RAFT:
        return [i for i in living_seats(s) if i not in s.answered and can_play(s, i) and s.cards[i] > 0]
    return []


def may_answer(s: State, i: int) -> bool:
    """May say « I have none » now: anyone the moment concerns, or at risk though holding nothing."""
    if i in s.answered or not s.alive[i]:
        return False
    if s.show == ZERO:
        return not has_shown(s, i)
    if s.show == SAVE:
        return i == s.condemned
    return s.show == RAFT


def at_risk(s: State) -> list[int]:
    """Who dies if the moment closes now."""
    if s.show == ZERO:
        return [i for i in living_seats(s) if not has_shown(s, i)]
    if s.show == SAVE:
        return [s.condemned] if s.condemned >= 0 else []
    if s.show == RAFT:
        return living_seats(s)
    return []


# -- validation helpers ----------------------------------------------------

def _seat(s: State, action: Action, key: str = "player") -> int:
    name = action.get(key)
    try:
        return s.names.index(name)
    except ValueError:
        raise refusal("There is no player {name} at this table.", name=_show(name)) from None


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _int(action: Action, key: str, default: int | None = None) -> int:
    value = action.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise refusal("\"{key}\" must be a whole number, not {v}.", key=key, v=_show(value))
    return value


def _bool(action: Action, key: str, default: bool) -> bool:
    value = action.get(key, default)
    if not isinstance(value, bool):
        raise refusal("\"{key}\" must be true or false, not {v}.", key=key, v=_show(value))
    return value


def _now(s: State) -> Message:
    """What the table is doing, for refusals."""
    if s.phase == ACTIONS:
        return phrase(NOW["actions"], q=s.names[actor(s)])
    if s.phase == ACTED:
        return phrase(NOW["acted"], q=s.names[s.first])
    if s.show == ZERO:
        return phrase(NOW["zero_" + s.phase])
    if s.show == SAVE:
        return phrase(NOW["save"], q=s.names[s.condemned])
    if s.show == RAFT:
        return phrase(NOW["raft"])
    if s.phase in COUNTS:
        if s.tie:
            return phrase(NOW["tie"], q=s.names[s.first])
        if s.ballot is not None:
            return phrase(NOW["vote_" + s.phase])
        return phrase(NOW[s.phase])
    return phrase(NOW[s.phase])


def _first_only(s: State, a: Action, what: str) -> int:
    """The first player's own move (``player`` may be left out: it is his)."""
    if "player" not in a:
        return s.first
    i = _seat(s, a)
    if i != s.first:
        raise refusal(what, f=s.names[s.first], p=s.names[i])
    return i


def _need_card_player(s: State, i: int) -> None:
    if not s.alive[i]:
        raise refusal("{p} is dead and cannot play a card.", p=s.names[i])
    if disabled(s, i):
        raise refusal("{p} is sick and cannot play a card this round.", p=s.names[i])
    if s.cards[i] < 1:
        raise refusal("{p} has no card left to play.", p=s.names[i])


def _by(s: State, action: Action, own: bool = False) -> State:
    """Who played the card (``by``): it leaves their hand.

    Left out, the card is the player's own when ``own`` and he may play one (his
    antivenom); otherwise the table did not say whose it was and no hand changes.
    """
    if "by" not in action:
        i = _seat(s, action)
        if own and can_play(s, i) and s.cards[i] > 0:
            return s._replace(cards=_set(s.cards, i, s.cards[i] - 1))
        return s
    j = _seat(s, action, "by")
    _need_card_player(s, j)
    return s._replace(cards=_set(s.cards, j, s.cards[j] - 1))


def _set(t: tuple, i: int, value: Any) -> tuple:
    return t[:i] + (value,) + t[i + 1:]


# -- deaths ----------------------------------------------------------------

def _kill(s: State, seats: Iterable[int], cause: str, ev: list[Event], killer: int = -1) -> State:
    """Several castaways die at once; each hand goes to the killer or the nearest living neighbours.

    "Les cartes que vous aviez en main sont ... distribuées équitablement entre votre
    voisin de gauche et votre voisin de droite. Les cartes Permanent sont défaussées
    sauf le revolver, qui est récupéré."
    """
    seats = sorted(set(seats))
    if not seats:
        return s
    alive = list(s.alive)
    for i in seats:
        alive[i] = False
    cards, perm, died, sick = list(s.cards), list(s.perm), list(s.died), list(s.sick)
    for i in seats:
        hand, guns = cards[i], tuple(c for c in perm[i] if c == "revolver")
        left, right = _step(s, i, +1, alive), _step(s, i, -1, alive)
        if killer >= 0:
            left = right = killer
        dealt: dict[str, int] = {}
        if left >= 0:
            share = hand if left == right else (hand + 1) // 2
            cards[left] += share
            cards[right] += hand - share
            perm[left] = perm[left] + guns
            for j, k in ((left, share), (right, hand - share)):
                if k:
                    dealt[s.names[j]] = dealt.get(s.names[j], 0) + k
        cards[i], perm[i], died[i], sick[i] = 0, (), cause, 0
        # who gets the hand: the table deals the real cards (« distribuées équitablement »)
        ev.append({"event": "death", "player": s.names[i], "cause": cause, "cards": hand, "dealt": dealt})
    first = s.first
    if not alive[first]:  # the card goes on to the left, so that it next passes right as usual
        first = _step(s, first, +1, alive) if any(alive) else first
    restart = s.ballot is not None or bool(s.tie)
    gone = s.condemned in seats
    return s._replace(
        alive=tuple(alive), cards=tuple(cards), perm=tuple(perm), died=tuple(died),
        sick=tuple(sick), first=first,
        condemned=-1 if gone else s.condemned,
        show="" if gone and s.show == SAVE else s.show,
        answered=() if gone and s.show == SAVE else s.answered,
        ballot=None if restart else s.ballot, tie=() if restart else s.tie)


def _finish(s: State, reason: str, winners: list[int], ev: list[Event]) -> State:
    n = len(winners)
    ev.append({"event": "over", "reason": reason, "winners": [s.names[i] for i in winners]})
    return s._replace(phase=OVER, reason=reason, winners=tuple(winners), water=s.water - n,
                      food=s.food - n, ballot=None, tie=(),
                      condemned=-1, zero=False, declared=(), show="", answered=(), debate=False)


# -- the survival step -----------------------------------------------------

def _enter_count(s: State, phase: str, held: bool = False) -> State:
    return s._replace(phase=phase, zero=phase != DEPART and track_of(s, phase) == 0,
                      declared=(), ballot=None, tie=(), condemned=-1, show="", answered=(), held=held,
                      debate=False)


def _after_count(s: State, ev: list[Event]) -> State:
    """Water, then food; then the round ends, or under the hurricane the raft must leave."""
    if s.phase == WATER:
        return _enter_count(s, FOOD)
    if s.hurricane and s.phase == FOOD:
        return _depart(s, ev)
    return s._replace(phase=END, zero=False, declared=(), ballot=None, tie=(), condemned=-1, show="",
                      answered=(), debate=False)


def _depart(s: State, ev: list[Event], held: bool = False) -> State:
    """"Le radeau doit quitter l'île à la fin du tour": the places are counted (a vote if they lack)."""
    ev.append({"event": "departure", "survivors": len(living_seats(s)), "places": max(0, capacity(s)),
               "rafts": s.rafts, "water": s.water, "food": s.food - s.basket})
    return _enter_count(s, DEPART, held)


def _distribute(s: State, ev: list[Event]) -> State:
    """Everyone alive gets a ration: "Le pion recule d'une case pour chaque ration donnée"."""
    n = len(living_seats(s))
    track = track_of(s, s.phase)
    ev.append({"event": "rations", "resource": s.phase, "given": n, "before": track, "after": track - n})
    if s.phase == WATER:
        s = s._replace(water=s.water - n)
    else:
        s = s._replace(food=s.food - n, basket=max(0, s.basket - n))
    return _after_count(s, ev)


def _close_zero(s: State, ev: list[Event]) -> State:
    """No vote: only those who showed a matching card survive; card surplus stays on the track."""
    saved = {d[0] for d in s.declared if s.alive[d[0]]}
    surplus = sum(d[1] for d in s.declared)
    basket = sum(d[1] for d in s.declared if d[2])
    track = track_of(s, s.phase)
    ev.append({"event": "no_vote", "resource": s.phase, "saved": [s.names[i] for i in sorted(saved)],
               "before": track, "after": track + surplus})
    s = _kill(s, [i for i in living_seats(s) if i not in saved], CAUSE[s.phase], ev)
    if s.phase == WATER:
        s = s._replace(water=s.water + surplus)
    else:
        s = s._replace(food=s.food + surplus, basket=s.basket + basket)
    return _after_count(s, ev)


def _reveal(s: State, ev: list[Event]) -> State:
    """All eligible voters have pointed: "Le joueur qui récolte le plus de voix est éliminé"."""
    assert s.ballot is not None
    votes = tuple((i, t) for i, t in enumerate(s.ballot) if t >= 0 and can_vote(s, i))
    tally: dict[int, int] = {}
    for _, t in votes:
        tally[t] = tally.get(t, 0) + 1
    top = max(tally.values(), default=0)
    tied = tuple(t for t in living_seats(s) if tally.get(t, 0) == top)
    ev.append({"event": "reveal", "votes": {s.names[i]: s.names[t] for i, t in votes}})
    s = s._replace(ballot=None, last_vote=votes, debate=False)
    if len(tied) == 1:
        ev.append({"event": "designated", "player": s.names[tied[0]], "resource": s.phase, "votes": top})
        return s._replace(condemned=tied[0])
    ev.append({"event": "tie", "players": [s.names[t] for t in tied], "votes": top,
               "first_player": s.names[s.first]})
    return s._replace(tie=tied)


def _open_moment(s: State, kind: str, ev: list[Event]) -> tuple[State, bool]:
    """Open a moment to show cards; True when somebody is concerned (the game waits for them)."""
    s = s._replace(show=kind, answered=())
    who = concerned(s)
    if not who:
        return s, False
    resource = s.phase if s.phase != DEPART else None
    ev.append({"event": "show_cards", "kind": kind, "resource": resource,
               "players": [s.names[i] for i in who], "at_risk": [s.names[i] for i in at_risk(s)],
               "places": max(0, capacity(s)) if s.phase == DEPART else None,
               "survivors": len(living_seats(s))})
    return s, True


def close_moment(s: State, ev: list[Event]) -> State:
    """Apply what the moment decided: the deaths at 0, the target's, or the raft moving on to its count."""
    if s.show == ZERO:
        return _close_zero(s, ev)
    if s.show == SAVE:
        return _kill(s, [s.condemned], CAUSE[s.phase], ev)
    if s.show == RAFT:
        return s._replace(show="", answered=(), held=True)
    return s


def _settle_count(s: State, ev: list[Event]) -> tuple[State, bool]:
    """One move of a count (water, food, or places at departure); True when it must wait."""
    if s.show == ZERO:
        return (s, True) if concerned(s) else (_close_zero(s, ev), False)
    if s.show == RAFT:
        if _short(s) and concerned(s):
            return s, True
        return s._replace(show="", answered=(), held=True), False
    if s.show == SAVE:
        if not _short(s):  # the rations (the places) suffice now: nobody has to go
            ev.append({"event": "spared", "player": s.names[s.condemned], "count": s.phase})
            return s._replace(show="", answered=(), condemned=-1), False
        if concerned(s):
            return s, True
        return _kill(s, [s.condemned], CAUSE[s.phase], ev), False
    if s.phase in (WATER, FOOD):
        if s.zero:
            s, wait = _open_moment(s, ZERO, ev)
            return (s, True) if wait else (_close_zero(s, ev), False)
        if not _short(s):
            return _distribute(s, ev), False
    else:
        if not _short(s):
            return _finish(s, "hurricane" if s.hurricane else "embark", living_seats(s), ev), False
        if not s.held:
            s, wait = _open_moment(s, RAFT, ev)
            return (s, True) if wait else (s._replace(show="", held=True), False)
        if capacity(s) <= 0:
            return _finish(s, "hurricane", [], ev), False
    if s.condemned >= 0:
        s, wait = _open_moment(s, SAVE, ev)
        return (s, True) if wait else (_kill(s, [s.condemned], CAUSE[s.phase], ev), False)
    if s.tie:
        return s, True
    if s.ballot is None:
        s = s._replace(ballot=(-1,) * _n(s), ballot_at=s.done, debate=True)
        ev.append({"event": "ballot", "resource": s.phase, "short": _shortfall(s)})
    if all(s.ballot[i] >= 0 for i in range(_n(s)) if can_vote(s, i)):
        return _reveal(s, ev), False
    return s, True


def _shortfall(s: State) -> int:
    """How many rations (places) the count lacks."""
    n = len(living_seats(s))
    return n - (capacity(s) if s.phase == DEPART else track_of(s, s.phase))


def settle(s: State, ev: list[Event]) -> State:
    """Run everything that needs nobody: skip those who cannot act, share rations, end the game."""
    while True:
        if s.phase == OVER:
            return s
        if not any(s.alive):
            return _finish(s, "hecatomb", [], ev)
        if s.phase == ACTIONS:
            k = s.turn_k
            while k < _n(s):
                i = (s.start + k) % _n(s)
                if s.alive[i] and not disabled(s, i) and not s.did[i]:
                    break
                k += 1
            if k < _n(s):
                return s if k == s.turn_k else s._replace(turn_k=k)
            s = s._replace(turn_k=k)
            if s.water == 0 or s.food == 0:  # a token on 0: the moment to show cards is the pause
                s = _enter_count(s, WATER)
                continue
            return s._replace(phase=ACTED)
        if s.phase in COUNTS:
            s, wait = _settle_count(s, ev)
            if wait:
                return s
            continue
        return s  # weather, acted, end


def close_all(s: State, ev: list[Event]) -> State:
    """The next round's weather card: every moment still open closes with its default."""
    while s.show and s.phase != OVER:
        s = settle(close_moment(s, ev), ev)
    return s


def begin_survival(s: State, ev: list[Event], implied: bool) -> State:
    """Étape 4 begins: the water count, then the food count."""
    ev.append({"event": "survival", "player": s.names[s.first], "implied": implied})
    return settle(_enter_count(s, WATER), ev)


# -- the actions -----------------------------------------------------------

def _observe(s: State, hurricane: bool, drops: int, next_round: int, ev: list[Event]) -> tuple[tuple[int, ...], tuple[Any, ...]]:
    """The card turned, checked against the deck: an unexpected one corrects the deck, with a warning.

    The card lies on the table: the companion's idea of the deck was wrong, never the card.
    A plain card that no longer fits takes the place of the card nearest to it (the table
    most likely mis-sorted a card of one drop more or less); the deck keeps its size.
    """
    if hurricane:
        notes = []
        if next_round < s.opts.hurricane_from:
            notes.append("early")
        if drops != s.opts.hurricane_water:
            notes.append("drops")
        if notes:
            ev.append({"event": "deck_warning", "hurricane": True, "water": drops, "round": next_round,
                       "from": s.opts.hurricane_from, "expected": s.opts.hurricane_water, "notes": notes})
        return s.deck, (("hurricane", drops, tuple(notes)),) if notes else ()
    if drops in s.deck:
        k = s.deck.index(drops)
        return s.deck[:k] + s.deck[k + 1:], ()
    if s.deck:
        removed = min(s.deck, key=lambda w: (abs(w - drops), -w))
        k = s.deck.index(removed)
        deck = s.deck[:k] + s.deck[k + 1:]
    else:
        removed, deck = None, ()
    ev.append({"event": "deck_warning", "hurricane": False, "water": drops, "round": next_round,
               "removed": removed, "left": list(deck)})
    return deck, (("card", drops, removed),)


def _weather(s: State, a: Action, ev: list[Event]) -> State:
    if s.show:  # "or when the next round's weather is entered": the moment closes first
        closed = close_all(s, ev)
        if closed.phase != END:
            raise refusal("The weather card cannot be turned yet: once the cards are shown, {now}.", now=_now(closed))
        s = closed
    if s.phase not in (WEATHER, END):
        raise refusal("The weather card cannot be turned now: {now}.", now=_now(s))
    hurricane = _bool(a, "hurricane", False)
    next_round = s.round if s.phase == WEATHER else s.round + 1
    if hurricane:
        if not s.hurricane_left:
            raise refusal("The hurricane has already come up.")
        drops = _int(a, "water", s.opts.hurricane_water)
    else:
        if "water" not in a:
            raise refusal("Say how many drops the weather card shows (\"water\").")
        drops = _int(a, "water")
    if not 0 <= drops <= MAX_DROPS:
        raise refusal("A weather card shows 0 to 9 drops, not {n}.", n=drops)
    warned: list[Event] = []
    deck, warning = _observe(s, hurricane, drops, next_round, warned)
    first = s.first
    if s.phase == END:  # Étape 1: the first-player card passes to the right
        first = _step(s, s.first, -1)
        ev.append({"event": "first_player", "player": s.names[first]})
    ev.append({"event": "weather", "water": drops, "hurricane": hurricane, "round": next_round})
    ev.extend(warned)
    return s._replace(
        round=next_round, phase=ACTIONS, first=first, start=first, turn_k=0,
        did=("",) * _n(s), weather=drops, hurricane=hurricane or s.hurricane, deck=deck,
        hurricane_left=s.hurricane_left and not hurricane, last_vote=(), warning=warning)


def _check_actor(s: State, a: Action) -> int:
    i = _seat(s, a)
    name, kind = s.names[i], a["type"]
    if not s.alive[i]:
        raise refusal("{p} is dead and cannot act.", p=name)
    if disabled(s, i):
        raise refusal("{p} is sick and cannot act this round.", p=name)
    if s.phase != ACTIONS:
        raise refusal("{p} cannot {verb} now: {now}.", p=name, verb=VERBS[kind], now=_now(s))
    if s.did[i]:
        raise refusal("{p} has already acted this round.", p=name)
    if i != actor(s):
        raise refusal("It is {q}'s turn to act, not {p}'s.", q=s.names[actor(s)], p=name)
    return i


def _acted(s: State, i: int, kind: str, ev: list[Event], **fields: Any) -> State:
    ev.append({"event": kind, "player": s.names[i], **fields})
    return s._replace(did=_set(s.did, i, kind), turn_k=s.turn_k + 1)


def _fish(s: State, a: Action, ev: list[Event]) -> State:
    i = _check_actor(s, a)
    fish = _int(a, "fish")
    if not 0 <= fish <= max(s.opts.bag):
        raise refusal("{p} cannot catch {n} fish: a ball shows 0 to {hi}.", p=s.names[i], n=fish, hi=max(s.opts.bag))
    return _acted(s._replace(food=s.food + fish), i, "fish", ev, fish=fish, before=s.food, after=s.food + fish)


def _water(s: State, a: Action, ev: list[Event]) -> State:
    i = _check_actor(s, a)
    drops = s.weather or 0
    return _acted(s._replace(water=s.water + drops), i, "water", ev, water=drops, before=s.water,
                  after=s.water + drops)


def add_wood(s: State, pieces: int) -> State:
    """Move the disc; at 6 a raft card is laid and the disc goes back to 0 (at most 12 cards)."""
    wood, rafts = s.wood, s.rafts
    for _ in range(pieces):
        if wood + 1 < RAFT_TRACK:
            wood += 1
        elif rafts < RAFT_CARDS:
            wood, rafts = 0, rafts + 1
    return s._replace(wood=wood, rafts=rafts)


def _wood(s: State, a: Action, ev: list[Event]) -> State:
    i = _check_actor(s, a)
    extra, snake = _int(a, "extra", 0), _bool(a, "snake", False)
    if not 0 <= extra <= MAX_EXTRA_BALLS:
        raise refusal("{p} may draw 0 to 5 extra balls for wood, not {k}.", p=s.names[i], k=extra)
    if snake and extra == 0:
        raise refusal("{p} drew no extra ball, so no snake can have bitten.", p=s.names[i])
    s = add_wood(s, 1 if snake else 1 + extra)
    if snake:
        s = s._replace(sick=_set(s.sick, i, s.sick[i] | 1 << s.round))
    return _acted(s, i, "wood", ev, extra=extra, snake=snake, wood=s.wood, rafts=s.rafts)


def _search(s: State, a: Action, ev: list[Event]) -> State:
    i = _check_actor(s, a)
    if s.wreck < 1:
        raise refusal("The wreck is empty: {p} cannot search it.", p=s.names[i])
    s = s._replace(cards=_set(s.cards, i, s.cards[i] + 1), wreck=s.wreck - 1)
    return _acted(s, i, "search", ev, cards=s.cards[i])


def survival_moot(s: State) -> bool:
    """Whether a ``survival`` line now is the first player's moot confirmation, accepted and changing nothing.

    The step began by itself (a token on 0) and nothing of it has been decided yet. Once a
    ballot is open, a tie waits for the first player or a castaway is condemned, the same line
    is a stale press: refused with the step's state, so the table knows why nothing happened.
    """
    return s.phase in (WATER, FOOD) and s.ballot is None and not s.tie and s.condemned < 0


def _survival(s: State, a: Action, ev: list[Event]) -> State:
    if s.phase in (WATER, FOOD):
        if not survival_moot(s):
            raise refusal("The survival step is already under way: {now}.", now=_now(s))
        # begun by itself (a token on 0): the confirmation is moot
        _first_only(s, a, "Only {f}, the first player, starts the survival step, not {p}.")
        return s
    if s.phase != ACTED:
        raise refusal("The survival step cannot start now: {now}.", now=_now(s))
    _first_only(s, a, "Only {f}, the first player, starts the survival step, not {p}.")
    return begin_survival(s, ev, implied=False)


def card_supplies(before: State, after: State, i: int, kind: str) -> bool:
    """Does the condemned's card supply what he lacked (the departure fix)?

    At a count, a card of that count's resource is his own ration; at the departure
    a card saves him only if the raft can take one more castaway with it.
    """
    if before.phase == DEPART:
        return capacity(after) > capacity(before)
    return kind == before.phase


def _resource(s: State, a: Action, ev: list[Event]) -> State:
    i = _seat(s, a)
    kind = a.get("resource")
    if kind not in (WATER, FOOD):
        raise refusal("{p}'s resource card must be water or food, not {v}.", p=s.names[i], v=_show(kind))
    amount, basket = _int(a, "amount", 1), _bool(a, "basket", False)
    if not 1 <= amount <= 9:
        raise refusal("{p} cannot play a resource card of {rations}: a card adds 1 to 9.", p=s.names[i],
                   rations=Plural("{n} ration", "{n} rations", amount))
    if basket and kind != FOOD:
        raise refusal("{p}'s fruit basket is a food card, not a water card.", p=s.names[i])
    shown = s.show == ZERO and s.phase == kind
    if shown and may_show(s, i) and s.cards[i] > 0:
        pass  # sick since last round, under the option ``sick_show``: he may still show it
    else:
        _need_card_player(s, i)
    cards = _set(s.cards, i, s.cards[i] - 1)
    track = track_of(s, kind)
    if shown:  # a declared card: the player's own ration ("À usage personnel en cas de pénurie")
        if has_shown(s, i):
            raise refusal("{p} has already shown a water card." if kind == WATER
                       else "{p} has already shown a food card.", p=s.names[i])
        ev.append({"event": "resource", "player": s.names[i], "resource": kind, "amount": amount, "shown": True,
                   "before": track, "after": track})
        answered = tuple(j for j in s.answered if j != i)
        return s._replace(cards=cards, declared=s.declared + ((i, amount - 1, basket),), answered=answered)
    ev.append({"event": "resource", "player": s.names[i], "resource": kind, "amount": amount, "shown": False,
               "before": track, "after": track + amount})
    before = s
    s = s._replace(cards=cards)
    if kind == WATER:
        s = s._replace(water=s.water + amount)
    else:
        s = s._replace(food=s.food + amount, basket=s.basket + (amount if basket else 0))
    if before.show == SAVE and before.condemned == i:  # "Il peut se sauver en jouant une carte Ressource"
        if card_supplies(before, s, i, kind):
            ev.append({"event": "saved", "player": s.names[i]})
            return s._replace(condemned=-1, show="", answered=())
        # his answer: the card goes on its track but the verdict stands (it gives nothing he lacked)
        ev.append({"event": "not_saved", "player": s.names[i], "resource": kind, "count": before.phase})
        return s._replace(answered=s.answered + (i,))
    return s


def _open_ballot(s: State) -> tuple[int, ...]:
    if s.phase not in COUNTS or s.ballot is None or s.tie or s.condemned >= 0 or s.show:
        raise refusal("There is no vote now: {now}.", now=_now(s))
    return s.ballot


def _vote(s: State, a: Action, ev: list[Event]) -> State:
    ballot = _open_ballot(s)
    i, t = _seat(s, a), _seat(s, a, "target")
    if not can_vote(s, i):
        raise refusal("{p} is dead and cannot vote (the variant « la voix des morts » is off)." if not s.alive[i]
                   else "{p} is sick and cannot vote this round.", p=s.names[i])
    if ballot[i] >= 0:
        raise refusal("{p} has already voted.", p=s.names[i])
    if not s.alive[t]:
        raise refusal("{q} is dead and cannot be chosen.", q=s.names[t])
    ev.append({"event": "voted", "player": s.names[i]})  # the target stays secret
    return s._replace(ballot=_set(ballot, i, t), debate=False)


def _debate(s: State, a: Action, ev: list[Event]) -> State:
    """"un débat que le premier joueur est en droit d'arrêter quand il veut": then all point."""
    _open_ballot(s)
    if not s.debate:
        raise refusal("The debate is already over: the castaways are pointing.")
    i = _first_only(s, a, "Only {f}, the first player, may stop the debate, not {p}.")
    ev.append({"event": "debate_over", "player": s.names[i]})
    return s._replace(debate=False)


def _tiebreak(s: State, a: Action, ev: list[Event]) -> State:
    if s.phase not in COUNTS or not s.tie:
        raise refusal("There is no tie to break now.")
    i, t = _seat(s, a), _seat(s, a, "target")
    if i != s.first:
        raise refusal("Only {f}, the first player, breaks the tie, not {p}.", f=s.names[s.first], p=s.names[i])
    if t not in s.tie:
        raise refusal("{q} is not among the tied players ({tied}).", q=s.names[t], tied=", ".join(s.names[j] for j in s.tie))
    ev.append({"event": "tiebreak", "player": s.names[i], "target": s.names[t]})
    return s._replace(tie=(), condemned=t)


def _shoot(s: State, a: Action, ev: list[Event]) -> State:
    i, t = _seat(s, a), _seat(s, a, "target")
    _need_card_player(s, i)
    if i == t:
        raise refusal("{p} must aim at another castaway.", p=s.names[i])
    if not s.alive[t]:
        raise refusal("{q} is dead and cannot be chosen.", q=s.names[t])
    armed = "revolver" in s.perm[i]
    if s.cards[i] < (1 if armed else 2):
        raise refusal("{p} needs a revolver and a cartridge to shoot but has {cards} in hand.", p=s.names[i],
                   cards=_cards(s.cards[i]))
    perm = s.perm if armed else _set(s.perm, i, s.perm[i] + ("revolver",))
    saved = s.condemned == i  # "Il peut se sauver ... en tirant sur un autre joueur (une bouche de moins)"
    s = s._replace(cards=_set(s.cards, i, s.cards[i] - (1 if armed else 2)), perm=perm,
                   condemned=-1 if saved else s.condemned,
                   show="" if saved else s.show, answered=() if saved else s.answered)
    ev.append({"event": "shot", "player": s.names[i], "target": s.names[t], "cards": s.cards[t],
               "armed": armed, "saved": saved})
    return _kill(s, [t], "shot", ev, killer=i)


def _give(s: State, a: Action, ev: list[Event]) -> State:
    i, t = _seat(s, a), _seat(s, a, "target")
    count = _int(a, "count", 1)
    if not s.alive[i]:
        raise refusal("{p} is dead and cannot play a card.", p=s.names[i])
    if i == t:
        raise refusal("{p} cannot give cards to {p}: choose another castaway.", p=s.names[i])
    if not s.alive[t]:
        raise refusal("{q} is dead and cannot be chosen.", q=s.names[t])
    if not 1 <= count <= s.cards[i]:
        raise refusal("{p} has {cards} and cannot give {n}.", p=s.names[i], cards=_cards(s.cards[i]), n=count)
    cards = _set(_set(s.cards, i, s.cards[i] - count), t, s.cards[t] + count)
    ev.append({"event": "give", "player": s.names[i], "target": s.names[t], "count": count})
    # a castaway who said he had none may now show the card he was handed
    return s._replace(cards=cards, answered=tuple(j for j in s.answered if j != t))


def _place(s: State, a: Action, ev: list[Event]) -> State:
    i = _seat(s, a)
    card = a.get("card")
    if card not in PERMANENT:
        raise refusal("{card} is not a permanent card; they are {known}.", card=_show(card), known=", ".join(PERMANENT))
    _need_card_player(s, i)
    ev.append({"event": "place", "player": s.names[i], "card": card})
    return s._replace(cards=_set(s.cards, i, s.cards[i] - 1), perm=_set(s.perm, i, s.perm[i] + (card,)))


def _sick(s: State, a: Action, ev: list[Event]) -> State:
    i = _seat(s, a)
    if not s.alive[i]:
        raise refusal("{p} is dead and cannot act.", p=s.names[i])
    if sick_now(s, i):
        raise refusal("{p} is already sick this round.", p=s.names[i])
    s = _by(s, a)
    ev.append({"event": "sick", "player": s.names[i]})
    ballot = s.ballot
    if ballot is not None and ballot[i] >= 0:  # a sick castaway cannot vote: his vote is withdrawn
        ballot = _set(ballot, i, -1)
    return s._replace(sick=_set(s.sick, i, s.sick[i] | 1 << s.round), ballot=ballot)


def _heal(s: State, a: Action, ev: list[Event]) -> State:
    i = _seat(s, a)
    if not s.alive[i]:
        raise refusal("{p} is dead and cannot act.", p=s.names[i])
    if not is_sick(s, i):
        raise refusal("{p} is not sick.", p=s.names[i])
    s = _by(s, a, own=True)
    ev.append({"event": "heal", "player": s.names[i]})
    return s._replace(sick=_set(s.sick, i, s.sick[i] & ~(1 << s.round | 1 << (s.round - 1))))


def _revive(s: State, a: Action, ev: list[Event]) -> State:
    i = _seat(s, a)
    if s.alive[i]:
        raise refusal("{p} is alive.", p=s.names[i])
    s = _by(s, a)
    ev.append({"event": "revive", "player": s.names[i]})
    restart = s.ballot is not None or bool(s.tie)
    return s._replace(alive=_set(s.alive, i, True), died=_set(s.died, i, ""),
                      cards=_set(s.cards, i, 0), sick=_set(s.sick, i, 0),
                      ballot=None if restart else s.ballot, tie=() if restart else s.tie)


def _effect(s: State, a: Action, ev: list[Event]) -> State:
    """A permanent card's effect on its track: « À placer, face visible, devant le joueur » -- it stays there."""
    i = _seat(s, a)
    card = a.get("card")
    if not isinstance(card, str) or card not in EFFECTS:
        raise refusal("{card} has no effect on a track; those that do are {known}.", card=_show(card),
                   known=", ".join(EFFECTS))
    if not s.alive[i]:
        raise refusal("{p} is dead and cannot play a card.", p=s.names[i])
    if card not in s.perm[i]:
        raise refusal("{p} has no {card} face up.", p=s.names[i], card=Term(CARD_NAMES[card]))
    amount = _int(a, "amount", 1)
    if not 1 <= amount <= 9:
        raise refusal("{p}'s card cannot add {n}: 1 to 9.", p=s.names[i], n=amount)
    kind = EFFECTS[card]
    if kind == "wood":
        after = add_wood(s, amount)
        ev.append({"event": "effect", "player": s.names[i], "card": card, "resource": kind, "amount": amount,
                   "wood": after.wood, "rafts": after.rafts, "before_rafts": s.rafts})
        return after
    track = track_of(s, kind)
    ev.append({"event": "effect", "player": s.names[i], "card": card, "resource": kind, "amount": amount,
               "before": track, "after": track + amount})
    return s._replace(water=s.water + amount) if kind == WATER else s._replace(food=s.food + amount)


def _no_card(s: State, a: Action, ev: list[Event]) -> State:
    """"I have none": the castaway answers the moment without a card (or a shot)."""
    i = _seat(s, a)
    if not s.show:
        raise refusal("Nobody is asked to show a card now: {now}.", now=_now(s))
    if i in s.answered:
        raise refusal("{p} has already answered « I have none ».", p=s.names[i])
    if not may_answer(s, i):
        raise refusal("{p} is not asked to show a card now: {now}.", p=s.names[i], now=_now(s))
    ev.append({"event": "no_card", "player": s.names[i], "kind": s.show,
               "resource": s.phase if s.phase != DEPART else None})
    return s._replace(answered=s.answered + (i,))


def _close(s: State, a: Action, ev: list[Event]) -> State:
    """"Nobody else": the first player ends the moment; its deaths and the ending follow."""
    if not s.show:
        raise refusal("There is no moment to close now: {now}.", now=_now(s))
    i = _first_only(s, a, "Only {f}, the first player, closes the moment, not {p}.")
    ev.append({"event": "close", "player": s.names[i], "kind": s.show})
    return close_moment(s, ev)


def embark_problem(s: State) -> RuleError | None:
    """Why the survivors cannot leave now, or None (Scénario 1's three conditions)."""
    if s.phase != END:
        return refusal("The raft can only leave at the end of a round, once the rations are shared: {now}.", now=_now(s))
    n = len(living_seats(s))
    # n >= 1 here (with nobody alive the game is over): English and French agree on « 1 survivor needs »
    one = n == 1
    if s.rafts < n:
        return refusal("The raft cannot leave: 1 survivor needs 1 raft card and {left}." if one else
                    "The raft cannot leave: {n} survivors need {n} raft cards and {left}.", n=n,
                    left=Plural("there is {n}", "there are {n}", s.rafts))
    if s.water < n:
        return refusal("The raft cannot leave: 1 survivor needs 1 water for the voyage and {left}." if one else
                    "The raft cannot leave: {n} survivors need {n} water for the voyage and {left}.", n=n,
                    left=Plural("{n} is left", "{n} are left", s.water))
    if s.food - s.basket < n:
        if s.basket:
            return refusal("The raft cannot leave: 1 survivor needs 1 food for the voyage and only {f} counts, the fruit "
                        "basket's {b} not being a ration for the voyage." if one else
                        "The raft cannot leave: {n} survivors need {n} food for the voyage and only {f} count, the "
                        "fruit basket's {b} not being a ration for the voyage.", n=n, f=s.food - s.basket, b=s.basket)
        return refusal("The raft cannot leave: 1 survivor needs 1 food for the voyage and {left}." if one else
                    "The raft cannot leave: {n} survivors need {n} food for the voyage and {left}.", n=n,
                    left=Plural("{n} is left", "{n} are left", s.food))
    return None


def _cards(n: int) -> Plural:
    """« 1 card », « 3 cards » in a refusal (French: « 0 carte », « 1 carte », « 3 cartes »)."""
    return Plural("{n} card", "{n} cards", n)


def _embark(s: State, a: Action, ev: list[Event]) -> State:
    if s.show == RAFT:  # the raft leaves now: no more cards before its places are counted
        ev.append({"event": "close", "player": None, "kind": RAFT})
        return close_moment(s, ev)
    if s.phase == END and s.hurricane:
        return _depart(s, ev)
    problem = embark_problem(s)
    if problem is None:
        return _finish(s, "embark", living_seats(s), ev)
    if s.opts.raft_vote and s.phase == END and capacity(s) > 0:  # "Il y a vote ... pas assez de places"
        return _depart(s, ev, held=True)
    raise problem


_HANDLERS = {
    "weather": _weather, "fish": _fish, "water": _water, "wood": _wood, "search": _search,
    "survival": _survival, "resource": _resource, "vote": _vote, "debate": _debate, "tiebreak": _tiebreak,
    "shoot": _shoot, "give": _give, "place": _place, "sick": _sick, "heal": _heal, "revive": _revive,
    "no_card": _no_card, "close": _close, "embark": _embark, "effect": _effect,
}


def _core(s: State, action: Action, ev: list[Event]) -> State:
    kind = action["type"]
    if s.phase == ACTED and kind in IMPLIED:  # "the next action after step 3 implies it"
        s = begin_survival(s, ev, implied=True)
    if s.show == RAFT and kind in RAFT_IMPLIED:  # the vote for the places begins: no more cards first
        s = settle(close_moment(s, ev), ev)
    if s.phase == OVER:
        if kind == "embark" and s.reason == "hurricane":
            return s  # the raft already left (or could not): nothing more to do
        raise refusal("The game is over.")
    return _HANDLERS[kind](s, action, ev)


# -- pure helpers for the screens and the session ---------------------------


# -- tournaments ("Mode tournois") ---------------------------------------------


# -- the rules object --------------------------------------------------------

def _names(s: State, seats: Iterable[int]) -> list[str]:
    return [s.names[i] for i in seats]


class GalerapagosRules(Rules):
    """Galèrapagos: the castaways' board, sickness, votes, the moment to show cards and the three endings."""

    id = "galerapagos"
    name = "Galèrapagos"
    min_players = 3
    max_players = 12
    actions = {
        "weather": frozenset({"water", "hurricane", "player"}),
        "fish": frozenset({"player", "fish"}),
        "water": frozenset({"player"}),
        "wood": frozenset({"player", "extra", "snake"}),
        "search": frozenset({"player"}),
        "survival": frozenset({"player"}),
        "resource": frozenset({"player", "resource", "amount", "basket"}),
        "vote": frozenset({"player", "target"}),
        "debate": frozenset({"player"}),
        "tiebreak": frozenset({"player", "target"}),
        "shoot": frozenset({"player", "target"}),
        "give": frozenset({"player", "target", "count"}),
        "place": frozenset({"player", "card"}),
        "sick": frozenset({"player", "by"}),
        "heal": frozenset({"player", "by"}),
        "revive": frozenset({"player", "by"}),
        "no_card": frozenset({"player"}),
        "close": frozenset({"player"}),
        "embark": frozenset({"player"}),
        "effect": frozenset({"player", "card", "amount"}),
    }
    optional_fields = {
        "weather": frozenset({"water", "hurricane", "player"}),
        "wood": frozenset({"extra", "snake"}),
        "survival": frozenset({"player"}),
        "resource": frozenset({"amount", "basket"}),
        "debate": frozenset({"player"}),
        "give": frozenset({"count"}),
        "sick": frozenset({"by"}),
        "heal": frozenset({"by"}),
        "revive": frozenset({"by"}),
        "close": frozenset({"player"}),
        "embark": frozenset({"player"}),
        "effect": frozenset({"amount"}),
    }

    def setup(self, players: list[str], options: dict[str, Any]) -> State:
        names = self.check_players(players)
        opts, first = parse_options(names, options)
        n = len(names)
        food, water = START_RATIONS[n]
        hand = 4 if n <= 8 else 3
        return State(
            names=tuple(names), opts=opts, round=1, phase=WEATHER, first=first, start=first,
            turn_k=0, alive=(True,) * n, sick=(0,) * n, cards=(hand,) * n, perm=((),) * n,
            did=("",) * n, died=("",) * n, food=food, water=water, wood=0, rafts=0, basket=0,
            weather=None, hurricane=False, deck=tuple(sorted(opts.weather_cards)),
            hurricane_left=True, wreck=WRECK_CARDS - hand * n)

    def step(self, state: State, action: Action) -> tuple[State, list[Event]]:
        ev: list[Event] = []
        s = settle(_core(state._replace(done=state.done + 1), action, ev), ev)
        if action["type"] in ("vote", "debate") and s.ballot is not None and s.ballot_at == s.done:
            s = s._replace(ballot_at=s.done - 1)  # the vote that opened the ballot belongs to it
        return s, ev

    # -- reading -----------------------------------------------------------
    def expected(self, state: State) -> Expected:
        return turn_order(state, self._expected(state))

    def _expected(self, state: State) -> Expected:
        s = state
        first = s.names[s.first]
        if s.phase == OVER:
            return Expected((), (), "The game is over.")
        if s.show:
            who = _names(s, concerned(s))
            players = tuple(dict.fromkeys([*who, first]))
            needy = [i for i in concerned(s) if s.cards[i] == 0]
            if s.show == ZERO:
                if needy:
                    msg = {(WATER, True): "Water is on 0: show your water cards; {names} holds no card: someone may give him one.",
                           (WATER, False): "Water is on 0: show your water cards; {names} hold no card: someone may give them one.",
                           (FOOD, True): "Food is on 0: show your food cards; {names} holds no card: someone may give him one.",
                           (FOOD, False): "Food is on 0: show your food cards; {names} hold no card: someone may give them one.",
                           }[s.phase, len(needy) == 1]
                    return Expected(players, ("resource", "give", "no_card", "close"), msg,
                                    {"names": ", ".join(_names(s, needy))})
                msg = ("Water is on 0: each castaway who holds a water card shows it now." if s.phase == WATER
                       else "Food is on 0: each castaway who holds a food card shows it now.")
                return Expected(players, ("resource", "give", "no_card", "close"), msg)
            if s.show == SAVE and needy:
                c = s.condemned
                q = givers(s, c)[0]
                return Expected(players, ("give", "no_card", "close"),
                                "{p} has no card: someone may give him one ({q} holds {cards}).",
                                {"p": s.names[c], "q": s.names[q], "cards": _cards(s.cards[q])})
            if s.show == SAVE:
                c = s.names[s.condemned]
                msg = {WATER: "{p} may still escape the verdict with a water card or a shot.",
                       FOOD: "{p} may still escape the verdict with a food card or a shot.",
                       DEPART: "{p} may still escape the verdict with a card that gives the raft a place, or a shot."}
                return Expected(players, ("resource", "shoot", "give", "no_card", "close"), msg[s.phase], {"p": c})
            return Expected(players, ("resource", "shoot", "give", "no_card", "embark", "close"),
                            "The raft has {places} for {survivors}: play water or food cards, or shoot, before it leaves.",
                            {"places": Plural("{n} place", "{n} places", max(0, capacity(s))),
                             "survivors": Plural("{n} survivor", "{n} survivors", len(living_seats(s)))})
        if s.phase == END and not s.hurricane and embark_problem(s) is None:
            # « Scénario 1 »: the raft can take every survivor; leaving is the step, not the next card
            return Expected((), ("embark", "weather"), "The raft can leave now: embark?")
        if s.phase == WEATHER or s.phase == END:
            acts = ("weather", "embark") if s.phase == END and self._may_embark(s) else ("weather",)
            return Expected((), acts, "Turn the next weather card.")
        if s.phase == ACTIONS:
            who = s.names[actor(s)]
            return Expected((who,), ACTS, "{p}: fish, collect water or wood, or search the wreck.", {"p": who})
        if s.phase == ACTED:
            # the first player runs the survival step: he alone is awaited (a line of that step, a vote
            # or a card, is still accepted and implies it, but nobody else is asked for anything yet)
            nxt = self.expected(begin_survival(s, [], implied=True))
            acts = ("survival",) + tuple(a for a in nxt.actions if a in IMPLIED)
            return Expected((first,), acts, "Everyone has acted: {p}, go to survival?", {"p": first})
        if s.tie:
            return Expected((first,), ("tiebreak",), "{p} breaks the tie.", {"p": first})
        waiting = self.waiting(s)
        if s.debate:  # « Les joueurs peuvent jouer des cartes Eau pour augmenter la ration. Si après
            # l'utilisation des cartes la ration ne suffit toujours pas, procédez à un vote »
            msg = {WATER: "Water is short by {n}: play water cards, then {f} ends the debate and everyone votes.",
                   FOOD: "Food is short by {n}: play food cards, then {f} ends the debate and everyone votes.",
                   DEPART: "The raft lacks {n}: play cards, then {f} ends the debate and everyone votes."}
            short = _shortfall(s)
            return Expected(tuple(dict.fromkeys([*waiting, first])), ("resource", "vote", "debate"), msg[s.phase],
                            {"n": Plural("{n} place", "{n} places", short) if s.phase == DEPART else short, "f": first})
        acts = ("vote",)
        topic = Term("places on the raft") if s.phase == DEPART else Term(s.phase)  # not the phase's id « depart »
        return Expected(tuple(waiting), acts, "Vote ({phase}): {names}.",
                        {"phase": topic, "names": ", ".join(waiting)})

    @staticmethod
    def _may_embark(s: State) -> bool:
        return embark_problem(s) is None or (s.opts.raft_vote and capacity(s) > 0)

    def waiting(self, s: State) -> list[str]:
        """Who must still act, vote or answer."""
        if s.phase == ACTIONS:
            return [s.names[actor(s)]]
        if s.phase == ACTED:
            return [s.names[s.first]]
        if s.show:
            return _names(s, concerned(s))
        if s.tie:
            return [s.names[s.first]]
        if s.ballot is not None:
            return [s.names[i] for i in range(_n(s)) if can_vote(s, i) and s.ballot[i] < 0]
        return []

    def view(self, state: State, viewer: str | None = None) -> dict[str, Any]:
        s = state
        players = []
        for i, name in enumerate(s.names):
            entry: dict[str, Any] = {
                "name": name, "alive": s.alive[i], "sick": is_sick(s, i), "cards": s.cards[i],
                "permanent": list(s.perm[i]), "action": s.did[i] or None, "died": s.died[i] or None,
                "can_vote": s.phase in COUNTS and can_vote(s, i),
            }
            if s.ballot is not None:
                entry["voted"] = s.ballot[i] >= 0
                if s.ballot[i] >= 0 and sees_secret(viewer, name):
                    entry["vote"] = s.names[s.ballot[i]]
            players.append(entry)
        return {
            "game": self.id, "round": s.round, "over": s.phase == OVER,
            "phase": SHOW_CARDS if s.show else s.phase,
            "count": s.phase if s.phase in COUNTS else None,
            "players": players, "food": s.food, "water": s.water, "wood": s.wood, "rafts": s.rafts,
            "weather": s.weather, "hurricane": s.hurricane, "first_player": s.names[s.first],
            "turn": s.names[actor(s)] if s.phase == ACTIONS else None,
            "waiting": self.waiting(s),
            "vote": None if s.ballot is None else s.phase,
            "debate": s.debate,
            "tie": [s.names[i] for i in s.tie],
            "condemned": s.names[s.condemned] if s.condemned >= 0 else None,
            "last_vote": {s.names[i]: s.names[t] for i, t in s.last_vote},
            "no_vote": s.zero,
            "show_cards": self._moment(s),
            "basket": s.basket, "wreck": s.wreck, "weather_left": cards_left(s),
            "deck": deck_left(s), "hurricane_left": s.hurricane_left,
            "deck_warning": self._warning(s),
            "odds": odds(s),
            "match": match_view(s),
            "options": {"dead_vote": s.opts.dead_vote, "scoring": s.opts.scoring, "raft_vote": s.opts.raft_vote,
                        "sick_show": s.opts.sick_show, "weather_cards": len(s.opts.weather_cards)},
        }

    @staticmethod
    def _moment(s: State) -> dict[str, Any] | None:
        """The moment to show cards, for the screens: who is asked, who is at risk, what saves them."""
        if not s.show:
            return None
        saves = {ZERO: [s.phase], SAVE: ([s.phase] if s.phase != DEPART else [WATER, FOOD]) + ["shot"],
                 RAFT: [WATER, FOOD, "shot"]}[s.show]
        return {"kind": s.show, "resource": s.phase if s.phase != DEPART else None,
                "players": _names(s, concerned(s)), "answered": _names(s, s.answered),
                "shown": _names(s, (d[0] for d in s.declared)), "at_risk": _names(s, at_risk(s)),
                "saves": saves, "first_player": s.names[s.first],
                "places": max(0, capacity(s)) if s.phase == DEPART else None}

    @staticmethod
    def _warning(s: State) -> dict[str, Any] | None:
        if not s.warning:
            return None
        kind, drops, extra = s.warning[0]
        if kind == "hurricane":
            return {"hurricane": True, "water": drops, "notes": list(extra)}
        return {"hurricane": False, "water": drops, "removed": extra}

    def scores(self, state: State) -> dict[str, int]:
        s = state
        points = game_points(_n(s), len(s.winners), s.opts.scoring) if s.winners else 0
        return {name: (points if i in s.winners else 0) for i, name in enumerate(s.names)}

    def winners(self, state: State) -> list[str]:
        return [state.names[i] for i in state.winners]

    def outcome(self, state: State) -> Outcome | None:
        s = state
        if s.phase != OVER:
            return None
        texts = {
            "embark": "The survivors left the island on the raft.",
            "hurricane": "The hurricane came: " + ("the survivors left on the raft." if s.winners
                                                   else "nobody could leave, everyone loses."),
            "hecatomb": "Every castaway died: everyone loses.",
        }
        return Outcome(s.reason, tuple(self.winners(s)), texts[s.reason])

    def candidates(self, state: State) -> list[Action]:
        """A few legal moves (random playouts): the moment's answers first, some cards, the main line."""
        s = state
        out: list[Action] = []
        if s.phase == OVER:
            return out
        first = s.names[s.first]
        if s.show:
            for i in concerned(s):
                p = s.names[i]
                if s.show == ZERO and s.cards[i] > 0 and not has_shown(s, i):
                    out.append({"type": "resource", "player": p, "resource": s.phase})
                elif s.show == SAVE and s.cards[i] > 0 and can_play(s, i):
                    out.append({"type": "resource", "player": p, "resource": s.phase if s.phase != DEPART else WATER})
                out.append({"type": "no_card", "player": p})
            out.append({"type": "close", "player": first})
        elif s.phase in (WEATHER, END):
            nxt = s.round if s.phase == WEATHER else s.round + 1
            out.extend({"type": "weather", "water": w} for w in sorted(set(s.deck)))
            if s.hurricane_left and (nxt >= s.opts.hurricane_from or not s.deck):
                out.append({"type": "weather", "water": s.opts.hurricane_water, "hurricane": True})
            if not s.deck and not s.hurricane_left:
                out.append({"type": "weather", "water": 1})
            if s.phase == END and self._may_embark(s):
                out.append({"type": "embark"})
        elif s.phase == ACTIONS:
            p = s.names[actor(s)]
            out.extend({"type": "fish", "player": p, "fish": f} for f in sorted(set(s.opts.bag)))
            out.append({"type": "water", "player": p})
            out.append({"type": "wood", "player": p})
            out.append({"type": "wood", "player": p, "extra": 2, "snake": False})
            out.append({"type": "wood", "player": p, "extra": 2, "snake": True})
            if s.wreck > 0:
                out.append({"type": "search", "player": p})
        elif s.phase == ACTED:
            out.append({"type": "survival", "player": first})
        elif s.tie:
            out.extend({"type": "tiebreak", "player": first, "target": s.names[t]} for t in s.tie)
        elif s.ballot is not None:
            voter = next(i for i in range(_n(s)) if can_vote(s, i) and s.ballot[i] < 0)
            out.extend({"type": "vote", "player": s.names[voter], "target": s.names[t]} for t in living_seats(s))
        for i in range(_n(s)):
            if can_play(s, i) and s.cards[i] > 0 and not (s.show == ZERO and has_shown(s, i)):
                out.append({"type": "resource", "player": s.names[i], "resource": "water", "amount": 1})
                break
        return out

    def dump(self, state: State) -> Any:
        out = super().dump(state)
        out["secret"] = {"ballot": None if state.ballot is None else list(state.ballot),
                         "declared": [list(d) for d in state.declared], "condemned": state.condemned,
                         "deck": list(state.deck), "hurricane_left": state.hurricane_left,
                         "sick_rounds": [[r for r in range(state.round + 1) if m >> r & 1] for m in state.sick],
                         "start": state.start, "turn_k": state.turn_k, "answered": list(state.answered),
                         "held": state.held, "ballot_at": state.ballot_at, "done": state.done}
        return out


# -- what the session needs to keep a ballot secret --------------------------------

def ballot_span(before: State) -> int:
    """How many journal actions, the revealing one included, make up the ballot just revealed."""
    if before.ballot is None:  # the ballot opened with this very action (a lone voter)
        return 1
    return max(1, before.done + 1 - before.ballot_at)

