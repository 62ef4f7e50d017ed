"""The auction game's legal moves as forms (see :mod:`companion.engine.moves`).

``moves(state, lang)`` lists every form that may be submitted now: the table's
species tile, the bidding player's bid and pass, the start player's direction,
the card play of the player on turn, and an exchange for every player who holds
two tokens (exchanges happen "at any time"). It is exact against
``AuctionRules.apply``: each concrete move offered is accepted, each accepted
action is matched, nothing refused is matched (tests/games/test_auction_moves.py).

Where ``apply`` accepts several spellings of one move, the extra spellings are
offered too, marked ``"alias": True`` so a screen shows each move once:

* a species tile's two animals in either order (``alias`` on the choice);
* an exhibition's animals in any order: the form lists each set once (canonical
  order, with its bonus choices), and one form per set of two or more animals,
  marked ``alias``, matches every other order of that set;
* a bonus tile named as a number (``3`` for ``"3"``) or ``null`` where it may be
  left out (``alias`` on the choice).

Previews are data plus a ``"text"`` in the reader's language: "£1000" on an
education step, "9 points (bonus 3)" on an exhibition, "+£600" on a sale.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from companion.engine.moves import Choice, Field, Form, choice, form, items, number, pick, preview
from companion.games.auction import words
from companion.games.auction.rules import (
    ACTIONS,
    ALL_PAIRS,
    ANIMALS,
    BID_UNIT,
    BIDDING,
    CARD_PRICE,
    DIRECTION,
    DIRECTIONS,
    EDUCATION_PRICE,
    HAND,
    OVER,
    SALE_PRICE,
    TILE,
    TRACK_END,
    AuctionState,
    animal_cost,
    bid_of,
    bid_totals,
    face_up,
    free_money,
    fulfils,
    standing,
)

t = words.t

#: the rules' prompts (message ids) as the phone of the player who must act says them (same parameters)
PROMPT_FOR_YOU = {
    "{p}: bid or pass.": "You must bid or pass.",
    "{p}: bid or pass. {square} leads with £{total}.": "You must bid or pass: {square} leads with £{total}.",
    "No bids: {p} chooses the direction.": "Nobody bid: you must choose the direction.",
    "{p}: play your {d} cards, then done.": "You must play your {d} cards, then say done.",
}
#: the rules' prompts for the table's own move, as a phone waiting for the tablet says them
PROMPT_FOR_TABLE = {
    "Lay a species tile on the {squares} square.":
        "Waiting for the tablet to lay a species tile on the {squares} square.",
}


def moves(state: AuctionState, lang: str = "en") -> list[Form]:
    """Every form that may be submitted now, for every player and the table."""
    if state.phase == OVER:
        return []
    out: list[Form] = []
    if state.phase == TILE:
        out.append(_tile_form(state, lang))
    elif state.phase == BIDDING:
        out += _bid_forms(state, lang)
    elif state.phase == DIRECTION:
        out.append(_direction_form(state, lang))
    elif state.phase == ACTIONS:
        out += _card_forms(state, lang)
    for seat in range(len(state.players)):
        out += _exchange_forms(state, seat, lang)
    return out


# -- the table: a species tile ------------------------------------------------------

def _tile_form(state: AuctionState, lang: str) -> Form:
    squares = [pick_direction(d, lang) for d in range(4) if state.tiles[d] is None]
    pairs: list[Choice] = []
    reversed_: list[Choice] = []
    for a, b in ALL_PAIRS:
        if (a, b) in state.used_tiles:
            continue
        names = [ANIMALS[a], ANIMALS[b]]
        pairs.append(choice(names, words.pair(names, lang)))
        alias = choice(names[::-1], words.pair(names[::-1], lang))
        alias["alias"] = True
        reversed_.append(alias)
    return form("tile", None, t("Lay a species tile", lang), [
        pick("direction", t("Square", lang), squares),
        pick("animals", t("Species tile", lang), pairs + reversed_),
    ])


def pick_direction(d: int, lang: str, preview_: dict[str, Any] | None = None) -> Choice:
    return choice(DIRECTIONS[d], words.direction(DIRECTIONS[d], lang), preview_)


# -- bidding --------------------------------------------------------------------------

def _bid_forms(state: AuctionState, lang: str) -> list[Form]:
    seat = state.turn
    me = state.players[seat]
    out: list[Form] = []
    have = me.money - me.money % BID_UNIT
    if have >= BID_UNIT:
        totals = bid_totals(state)
        standing_ = standing(state.bids)
        leader = standing_[0] if standing_ else None
        squares = []
        for d in range(4):
            pair = [ANIMALS[a] for a in state.tiles[d]]
            others = max(totals[e] for e in range(4) if e != d)
            lead = max(BID_UNIT, -(-(others - totals[d] + 1) // BID_UNIT) * BID_UNIT)
            text = words.pair(pair, lang)
            if d == leader:
                text = t("{tile} · {money} bid, leads", lang, tile=text, money=words.money(totals[d], lang))
            elif totals[d]:
                text = t("{tile} · {money} bid", lang, tile=text, money=words.money(totals[d], lang))
            squares.append(pick_direction(d, lang, preview(text, tile=pair, total=totals[d], lead=lead,
                                                           leads=d == leader)))
        amount = number("amount", t("Amount", lang), BID_UNIT, have, BID_UNIT,
                        preview=preview(t("{low} to {high}", lang, low=words.money(BID_UNIT, lang),
                                          high=words.money(have, lang)), money=me.money))
        amount["previews"] = {str(v): t("{money} left in hand", lang, money=words.money(me.money - v, lang))
                              for v in range(BID_UNIT, have + 1, BID_UNIT)}
        out.append(form("bid", me.name, t("Bid", lang), [pick("direction", t("Direction", lang), squares), amount],
                        confirm=True))
    out.append(form("pass", me.name, t("Pass", lang), ends_turn=True, last=True))
    return out


def _direction_form(state: AuctionState, lang: str) -> Form:
    me = state.players[state.turn]
    squares = []
    for d in range(4):
        pair = [ANIMALS[a] for a in state.tiles[d]]
        squares.append(pick_direction(d, lang, preview(words.pair(pair, lang), tile=pair)))
    return form("direction", me.name, t("Choose the direction", lang), [pick("direction", t("Direction", lang), squares)],
                confirm=True)


# -- card play ----------------------------------------------------------------------------

def _card_forms(state: AuctionState, lang: str) -> list[Form]:
    seat = state.turn
    me = state.players[seat]
    left = HAND - state.cards
    out: list[Form] = []
    if left >= 1:
        wildcard = _wildcard_field(left, lang)
        for builder in (_education, _expedition, _sale):
            fields = builder(state, seat, lang)
            if fields is not None:
                out.append(form(fields[0], me.name, fields[1], fields[2] + [wildcard], confirm=True))
        out += _exhibitions(state, seat, wildcard, lang)
        count = number("count", t("Cards", lang), 1, left,
                       preview=preview(t("{money} a card", lang, money=words.money(CARD_PRICE, lang)), gain_each=CARD_PRICE))
        count["previews"] = {str(n): t("+{money}", lang, money=words.money(n * CARD_PRICE, lang)) for n in range(1, left + 1)}
        out.append(form("sell_cards", me.name, t("Sell cards", lang), [count], confirm=True))
    out.append(form("done", me.name, t("Done", lang), confirm=True, ends_turn=True, last=True))
    return out


def _wildcard_field(left: int, lang: str) -> Field:
    """One card, or two cards of the colour as a wildcard (needs two cards left this turn)."""
    two = None if left >= 2 else t("only {left} card left this turn", lang, left=left)
    return pick("wildcard", t("Cards", lang), [
        choice(False, t("one card", lang), preview("", cards=1)),
        choice(True, t("two cards (wildcard)", lang), preview("", cards=2), disabled=two),
    ], optional=True, default=False)


def _enabled_any(choices: list[Choice]) -> bool:
    return any(not c.get("disabled") for c in choices)


def _cannot_pay(have: int, cost: int, lang: str, bid: int = 0) -> str | None:
    """Why ``cost`` cannot be paid from ``have`` (None: it can); ``bid``: money of his lying on the compass."""
    if cost <= have:
        return None
    if bid:
        return t("{cost} is more than the {money} not bid", lang, cost=words.money(cost, lang),
                 money=words.money(have, lang))
    return t("{cost} is more than the {money} in hand", lang, cost=words.money(cost, lang), money=words.money(have, lang))


def _education(state: AuctionState, seat: int, lang: str) -> tuple[str, str, list[Field]] | None:
    me = state.players[seat]
    steps = []
    for s, cost in EDUCATION_PRICE.items():
        why = (t("the track ends at {end}", lang, end=TRACK_END) if me.education + s > TRACK_END
               else _cannot_pay(me.money, cost, lang))
        label = t("+1 step", lang) if s == 1 else t("+{n} steps", lang, n=s)
        steps.append(choice(s, label, preview(words.money(cost, lang), cost=cost, education=me.education + s), why))
    if not _enabled_any(steps):
        return None
    return "education", t("Education", lang), [pick("steps", t("Steps", lang), steps)]


def _expedition(state: AuctionState, seat: int, lang: str) -> tuple[str, str, list[Field]] | None:
    me = state.players[seat]
    animals = []
    for a in state.tiles[state.direction]:
        cost = animal_cost(state, seat, a)
        why = t("none left in the supply", lang) if not state.supply[a] else _cannot_pay(me.money, cost, lang)
        animals.append(choice(ANIMALS[a], words.animal(ANIMALS[a], lang),
                              preview(words.price(cost, lang), cost=cost), why))
    if not _enabled_any(animals):
        return None
    return "expedition", t("Expedition", lang), [pick("animal", t("Animal", lang), animals)]


def _sale(state: AuctionState, seat: int, lang: str) -> tuple[str, str, list[Field]] | None:
    me = state.players[seat]
    held = [a for a in range(6) if me.animals[a]]
    if not held:
        return None
    text = t("+{money}", lang, money=words.money(SALE_PRICE, lang))
    animals = [choice(ANIMALS[a], _held_label(ANIMALS[a], me.animals[a], lang), preview(text, gain=SALE_PRICE))
               for a in held]
    return "sale", t("Sale", lang), [pick("animal", t("Animal", lang), animals)]


def _held_label(name: str, count: int, lang: str) -> str:
    return t("{animal} ({count})", lang, animal=words.animal(name, lang), count=count)


def _exhibitions(state: AuctionState, seat: int, wildcard: Field, lang: str) -> list[Form]:
    """One form listing each set of different held animals once, plus alias forms for other spellings.

    The shown form asks for ``bonus`` only where a tile applies (optional when
    just one does). Alias forms match the same moves spelt otherwise: the
    animals in another order (one form per set of two or more), and
    ``"bonus": null`` where the bonus may be left out.
    """
    me = state.players[seat]
    held = [a for a in range(6) if me.animals[a]]
    if not held:
        return []
    up = face_up(state)
    label = t("Exhibition", lang)
    sets: list[Choice] = []
    nulls: list[Choice] = []
    aliases: list[Form] = []
    none = choice(None, t("no bonus tile", lang))
    none["alias"] = True
    for k in range(len(held), 0, -1):
        for subset in combinations(held, k):
            shown = set(subset)
            applies = [state.bonus_order[i] for i in up if fulfils(state.bonus_order[i], shown)]
            gained = (3 if applies else 2) * k
            text = (t("{points} (bonus {bonus})", lang, points=words.points(gained, lang), bonus=k) if applies
                    else words.points(gained, lang))
            names = [ANIMALS[a] for a in subset]
            bonus = _bonus_field(applies, gained, k, lang)
            look = preview(text, points=gained, bonus=k if applies else 0)
            sets.append(choice(names, words.pair(names, lang), look, fields=[bonus] if bonus else None))
            if len(applies) <= 1:
                nulls.append(choice(names, words.pair(names, lang), look, fields=[pick("bonus", t("Bonus tile", lang), [none])]))
            if k >= 2:
                spelt = pick("bonus", t("Bonus tile", lang), (bonus["choices"] if bonus else []) + [none],
                             optional=True) if len(applies) <= 1 else bonus
                alias = form("exhibition", me.name, label, [
                    items("animals", t("Animals", lang), [choice(n, words.animal(n, lang)) for n in names], k, k,
                          distinct=True),
                    spelt, wildcard], confirm=True)
                alias["alias"] = True
                aliases.append(alias)
    main = form("exhibition", me.name, label, [pick("animals", t("Animals", lang), sets), wildcard], confirm=True)
    if nulls:
        alias = form("exhibition", me.name, label, [pick("animals", t("Animals", lang), nulls), wildcard], confirm=True)
        alias["alias"] = True
        aliases.append(alias)
    return [main] + aliases


def _bonus_field(applies: list[str], gained: int, k: int, lang: str) -> Field | None:
    """The face-up bonus tiles this set fulfils (None: none does); needed only when more than one applies."""
    if not applies:
        return None
    text = t("{points} (bonus {bonus})", lang, points=words.points(gained, lang), bonus=k)
    choices: list[Choice] = []
    aliases: list[Choice] = []
    for req in applies:
        label = t("bonus tile {tile}", lang, tile=words.bonus_tile(req, lang))
        choices.append(choice(req, label, preview(text, points=gained, bonus=k)))
        if req.isdigit():
            alias = choice(int(req), label, preview(text, points=gained, bonus=k))
            alias["alias"] = True
            aliases.append(alias)
    if len(applies) == 1:  # the one tile it fulfils is taken unless the player says otherwise
        return pick("bonus", t("Bonus tile", lang), choices + aliases, optional=True, default=applies[0])
    return pick("bonus", t("Bonus tile", lang), choices + aliases)


# -- exchange (any player, any time) ----------------------------------------------------------

def _exchange_forms(state: AuctionState, seat: int, lang: str) -> list[Form]:
    """Two held tokens back to the supply for one of any kind (paid as an expedition)."""
    me = state.players[seat]
    if sum(me.animals) < 2:
        return []
    held = [a for a in range(6) if me.animals[a]]
    spendable = free_money(state, seat)  # money lying beside the compass board cannot pay
    takes: list[Choice] = []
    back: list[Form] = []
    label = t("Exchange", lang)
    for a in range(6):
        cost = animal_cost(state, seat, a)
        why = _cannot_pay(spendable, cost, lang, bid=bid_of(state, seat))
        take = choice(ANIMALS[a], words.animal(ANIMALS[a], lang), preview(words.price(cost, lang), cost=cost),
                      why or (None if state.supply[a] else t("none left in the supply", lang)))
        takes.append(take)
        if not state.supply[a] and me.animals[a] and why is None:
            # The supply has none, but one of the two given back can be taken again.
            gives = []
            for b in held:
                if b == a and me.animals[a] < 2:
                    continue
                pair = [ANIMALS[a], ANIMALS[b]]
                gives.append(choice(pair, words.pair(pair, lang)))
                if b != a:
                    gives.append(choice(pair[::-1], words.pair(pair[::-1], lang)))
            back.append(form("exchange", me.name, label, [
                pick("give", t("Give two", lang), gives),
                pick("take", t("Take one", lang), [dict(take, disabled=None)]),
            ], confirm=True, anytime=True))
    out: list[Form] = []
    if _enabled_any(takes):
        limits = {ANIMALS[a]: me.animals[a] for a in held if me.animals[a] < 2}
        give = items("give", t("Give two", lang),
                     [choice(ANIMALS[a], _held_label(ANIMALS[a], me.animals[a], lang)) for a in held], 2, 2,
                     limits=limits)
        out.append(form("exchange", me.name, label, [give, pick("take", t("Take one", lang), takes)], confirm=True,
                        anytime=True))
    return out + back


__all__ = ["moves"]
