"""Galapagos, the auction game (seed 000): rules engine and digital bank.

The companion replaces the paper money: it resolves the bids, charges every
education step, expedition and exchange, pays sales, sold cards and the round
income, scores exhibitions with their bonus tiles, runs the round upkeep and
the final scoring. Hands of action cards stay physical and secret, so a card
action is simply "Ann played an expedition card" and the engine only checks
that a 7-card hand could have paid for it.

Turn order (the rulebook, "Playing Action Cards"): after the bids, each player
in turn plays *all* the cards they want, starting with the just-determined
starting player and going clockwise; ``done`` ends a player's turn and after
the last of the ``n`` turns the round's upkeep runs. The next round's bidding
starts with that same starting player. Exchanges happen "at any time": any
player, in any phase, until the game is over.

The state is a frozen dataclass of tuples, so ``step`` never mutates what it
is given and a copy costs one ``dataclasses.replace``. Interpretations are in
docs/rules-notes.md under "galapagos-auction".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.engine.rules import (
    Action,
    Event,
    Expected,
    Outcome,
    RuleError,
    Rules,
    evolve,
    require_bool,
    require_choice,
    require_int,
    require_player,
)
from companion.engine.texts import Message, Plural, Term, gettext_, join

#: the gettext domain of this game's texts (its catalogs are in ``locale/``)
DOMAIN = "galapagos-auction"
ANIMALS = ("sea_lion", "iguana", "tortoise", "booby", "penguin", "crab")
LABELS = ("sea lion", "iguana", "tortoise", "booby", "penguin", "crab")
#: With the article, for refusal sentences ("an iguana", never "a iguana").
A_LABELS = ("a sea lion", "an iguana", "a tortoise", "a booby", "a penguin", "a crab")
PLURALS = ("sea lions", "iguanas", "tortoises", "boobies", "penguins", "crabs")
TOKENS = (13, 12, 11, 10, 9, 8)
TRACK_START = (0, 3, 6, 9, 12, 15)
TRACK_END = 25
DIRECTIONS = ("N", "E", "S", "W")
#: the squares spelled out (message ids of this game's catalog)
DIRECTION_NAMES = ("North", "East", "South", "West")
EDUCATION_PRICE = {1: 100, 2: 300, 3: 600, 4: 1000}
START_MONEY = 1500
ROUNDS = 12
HAND = 7
BID_UNIT = 100
ANIMAL_PRICE = 200
SALE_PRICE = 600
CARD_PRICE = 100
INCOME = 200
REQUIREMENTS = ("1", "2", "3", "4", "5", "6") + ANIMALS
#: Option ``shared_field``: do the other tokens on the chosen animal's field count in its price?
#: "counted" (the default): "up to and including the chosen animal token" takes in the whole
#: field; "not_counted": only the chosen token of that field is paid (docs/rules-notes.md).
SHARED_FIELD = ("counted", "not_counted")
OPTIONS = ("bonus_order", "shared_field")
#: Default flip order: the six number tiles 1..6, then the six animal tiles in
#: the order of the component list (see docs/rules-notes.md).
DEFAULT_BONUS_ORDER = REQUIREMENTS
ALL_PAIRS = tuple((a, b) for a in range(6) for b in range(a + 1, 6))

TILE, BIDDING, DIRECTION, ACTIONS, OVER = "tile", "bidding", "direction", "actions", "over"
CARD_ACTIONS = ("education", "expedition", "sale", "exhibition", "sell_cards", "done")


@dataclass(frozen=True, slots=True)
class Player:
    """One seat: the bank balance, the education figure, exhibition points, tokens."""

    name: str
    money: int = START_MONEY
    education: int = 0
    points: int = 0
    animals: tuple[int, ...] = (0, 0, 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class AuctionState:
    """The whole game. Indexes: animals as ANIMALS, squares as DIRECTIONS, seats clockwise.

    ``bids`` holds one ``(seat, square or -1 for a pass, amount)`` per player in
    bidding order; ``acted`` counts finished card-play turns; ``cards`` the
    cards the current player has used this turn; ``bank`` the net money paid
    into the bank; ``final`` per seat ``(education bonus, animal points,
    money points)`` once the game is over.
    """

    players: tuple[Player, ...]
    track: tuple[int, ...] = TRACK_START
    supply: tuple[int, ...] = tuple(t - 1 for t in TOKENS)
    tiles: tuple[tuple[int, int] | None, ...] = (None, None, None, None)
    used_tiles: frozenset[tuple[int, int]] = frozenset()
    bonus_order: tuple[str, ...] = DEFAULT_BONUS_ORDER
    flipped: int = 1
    bonus_used: frozenset[int] = frozenset()
    round: int = 1
    phase: str = TILE
    start: int = 0
    direction: int | None = None
    turn: int = 0
    bids: tuple[tuple[int, int, int], ...] = ()
    acted: int = 0
    cards: int = 0
    bank: int = 0
    final: tuple[tuple[int, int, int], ...] = ()
    #: option ``shared_field``: True when the tokens sharing the chosen animal's field are paid too
    shared_counted: bool = True


# -- texts: refusals and prompts are message ids with parameters ---------------

def refusal(msgid: str, **params: Any) -> RuleError:
    """A RuleError of this game: ``msgid`` (the English text) and its parameters, in this game's domain."""
    return RuleError(msgid, domain=DOMAIN, **params)


class JoinedWords(Message):
    """Words translated one by one, then joined: the squares "N/E/S/W", the bonus tiles "1 or crab"."""

    __slots__ = ("words", "sep")

    def __init__(self, words: list[str] | tuple[str, ...], sep: str) -> None:
        super().__init__(sep, DOMAIN)
        self.words = tuple(words)
        self.sep = sep

    def text(self, lang: str = "en") -> str:
        sep = self.sep if not self.sep.strip() or self.sep.strip() == "/" else f" {gettext_(self.sep.strip(), lang, DOMAIN)} "
        return sep.join(gettext_(w, lang, DOMAIN) for w in self.words)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JoinedWords) and (self.words, self.sep) == (other.words, other.sep)

    def __hash__(self) -> int:
        return hash((self.words, self.sep))


def say(msgid: str, **params: Any) -> Message:
    """A phrase of this game not yet in any language (a part of a refusal: "bid", "it is Ann's turn")."""
    return Message(msgid, DOMAIN, **params)


class Names(Message):
    """Player names joined in the reader's language ("Ann and Bob", « Ann et Bob »), never translated."""

    __slots__ = ("names",)

    def __init__(self, names: list[str] | tuple[str, ...]) -> None:
        super().__init__("", DOMAIN)
        self.names = tuple(names)

    def text(self, lang: str = "en") -> str:
        if len(self.names) <= 1:
            return "".join(self.names)
        return join(list(self.names), lang)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Names) and self.names == other.names

    def __hash__(self) -> int:
        return hash(self.names)


def points_phrase(n: int) -> Plural:
    """"1 point" / "52 points" (French « 0 point »: chosen by the reader's plural rule)."""
    return Plural("{n} point", "{n} points", n)


def steps_phrase(steps: int) -> Message:
    return say("1 education step") if steps == 1 else say("{n} education steps", n=steps)


# -- pure helpers (also used by the screens) ---------------------------------

def money(amount: int) -> str:
    return f"£{amount}"


def animal_cost(state: AuctionState, seat: int, animal: int) -> int:
    """£200 for every track token the figure has not reached, up to and including ``animal``.

    A token is reached when the figure stands on its field or beyond. The other
    tokens on the chosen animal's own field count as "up to and including" it
    unless the table chose ``shared_field: "not_counted"``; then only the
    chosen one of that field is paid (tokens on earlier fields always are).
    """
    education = state.players[seat].education
    target = state.track[animal]
    if target <= education:
        return 0
    if state.shared_counted:
        return ANIMAL_PRICE * sum(1 for field in state.track if education < field <= target)
    return ANIMAL_PRICE * (1 + sum(1 for field in state.track if education < field < target))


def bid_totals(state: AuctionState) -> list[int]:
    """The money bid on each square this round (N, E, S, W), passes left out."""
    totals = [0, 0, 0, 0]
    for _seat, square, amount in state.bids:
        if square >= 0:
            totals[square] += amount
    return totals


def standing(bids: tuple[tuple[int, int, int], ...]) -> tuple[int, int, int] | None:
    """Who leads the bids so far: (square, its total, the seat that would take the start player).

    The rulebook's settlement applied to the bids made so far: "the direction
    receiving the highest total amount of bids. If more directions are tied for
    the highest amount, early bids beat later bids" (the square whose last bid
    came earliest), then "the player placing the highest bid in this direction
    gets the Starting Player figure. Again, in the event of a tie, early bids
    beat later bids." None while nobody has bid.
    """
    totals = [0, 0, 0, 0]
    reached = [0, 0, 0, 0]
    for index, (_seat, square, amount) in enumerate(bids):
        if square >= 0:
            totals[square] += amount
            reached[square] = index
    if not any(totals):
        return None
    best = max(totals)
    square = min((reached[d], d) for d in range(4) if totals[d] == best)[1]
    winning = [(seat, amount) for seat, d, amount in bids if d == square]
    top = max(amount for _seat, amount in winning)
    return square, best, next(seat for seat, amount in winning if amount == top)


def bid_of(state: AuctionState, seat: int) -> int:
    """The money ``seat`` has lying beside the compass board (only while the bidding lasts)."""
    if state.phase != BIDDING:
        return 0
    return sum(amount for s, _d, amount in state.bids if s == seat)


def free_money(state: AuctionState, seat: int) -> int:
    """Money not bid: what an exchange can be paid with now (all of it outside the bidding)."""
    return state.players[seat].money - bid_of(state, seat)


def face_up(state: AuctionState) -> list[int]:
    """Indexes (into ``bonus_order``) of the face-up bonus tiles still in play, in flip order."""
    return [i for i in range(state.flipped) if i not in state.bonus_used]


def fulfils(requirement: str, shown: set[int] | frozenset[int]) -> bool:
    """A number tile needs that many (different) tokens; an animal tile needs that animal."""
    if requirement.isdigit():
        return len(shown) >= int(requirement)
    return ANIMALS.index(requirement) in shown


def education_bonus(levels: list[int]) -> list[int]:
    """4 / 2 points; a tie for the highest: 3 each and nobody else; a tie for second: 1 each."""
    top = max(levels)
    firsts = [i for i, level in enumerate(levels) if level == top]
    if len(firsts) > 1:
        return [3 if i in firsts else 0 for i in range(len(levels))]
    second = max(level for level in levels if level != top)
    seconds = [i for i, level in enumerate(levels) if level == second]
    award = 2 if len(seconds) == 1 else 1
    return [4 if i in firsts else award if i in seconds else 0 for i in range(len(levels))]


def seat_of(state: AuctionState, name: str) -> int:
    for i, player in enumerate(state.players):
        if player.name == name:
            return i
    raise refusal("There is no player {name} at this table.", name=repr(name))


def costs(state: AuctionState, player: str) -> dict[str, Any]:
    """What each option costs ``player`` right now, for the OLED and the dashboard.

    ``education``: steps → price (only step counts that stay on the track);
    ``expedition``: each animal of the round's tile → price, ``None`` when the
    supply has none left (empty before the direction is chosen);
    ``by_direction``: the same for every tile on the board (to weigh a bid);
    ``exchange``: each animal → price of taking it for two tokens;
    ``free``: the money not bid (what an exchange can be paid with now) and
    ``bid``: the money lying beside the compass board (both while bidding);
    ``totals`` and ``leader``: the money on each square and who leads, while
    bidding (see :func:`standing`); ``cards_used`` of ``hand``: the cards this
    player has used in his card-play turn (None when it is not his turn).
    """
    seat = seat_of(state, player)
    me = state.players[seat]

    def tile_costs(square: int) -> dict[str, int | None]:
        pair = state.tiles[square]
        if pair is None:
            return {}
        return {ANIMALS[a]: animal_cost(state, seat, a) if state.supply[a] else None for a in pair}

    lead = standing(state.bids) if state.phase == BIDDING else None
    return {
        "player": me.name,
        "money": me.money,
        "free": free_money(state, seat),
        "bid": bid_of(state, seat),
        "education": {str(s): p for s, p in EDUCATION_PRICE.items() if me.education + s <= TRACK_END},
        "expedition": tile_costs(state.direction) if state.direction is not None else {},
        "by_direction": {DIRECTIONS[d]: tile_costs(d) for d in range(4) if state.tiles[d]},
        "exchange": {ANIMALS[a]: animal_cost(state, seat, a) for a in range(6)},
        "sale": SALE_PRICE,
        "sell_card": CARD_PRICE,
        "totals": dict(zip(DIRECTIONS, bid_totals(state), strict=True)) if state.phase == BIDDING else {},
        "leader": _leader(state, lead),
        "cards_used": state.cards if state.phase == ACTIONS and seat == state.turn else None,
        "hand": HAND,
    }


def _leader(state: AuctionState, lead: tuple[int, int, int] | None) -> dict[str, Any] | None:
    if lead is None:
        return None
    square, total, seat = lead
    return {"direction": DIRECTIONS[square], "total": total, "player": state.players[seat].name}


def cost_lines(state: AuctionState, player: str) -> list[str]:
    """``costs`` as short screen lines: "education 2 £300", "crab £600", "swap→crab £600"."""
    table = costs(state, player)
    lines = [f"education {s} {money(p)}" for s, p in table["education"].items()]
    for animal, price in table["expedition"].items():
        label = LABELS[ANIMALS.index(animal)]
        lines.append(f"{label} {money(price)}" if price is not None else f"{label} none left")
    lines += [f"swap→{LABELS[ANIMALS.index(a)]} {money(p)}" for a, p in table["exchange"].items()]
    return lines


def _pay(players: tuple[Player, ...], seat: int, delta: int) -> tuple[Player, ...]:
    """Players with ``seat``'s money changed by ``delta`` (negative: paid to the bank)."""
    lst = list(players)
    lst[seat] = evolve(lst[seat], money=lst[seat].money + delta)
    return tuple(lst)


def _add(counts: tuple[int, ...], animal: int, delta: int) -> tuple[int, ...]:
    lst = list(counts)
    lst[animal] += delta
    return tuple(lst)


def _list_of_animals(action: Action, key: str, player: str | Term) -> list[int]:
    value = action.get(key)
    if not isinstance(value, list) or not value:
        raise refusal("{p}'s \"{key}\" must be a list of animals such as [\"crab\"].", p=player, key=key)
    out = []
    for item in value:
        if item not in ANIMALS:
            raise refusal("\"{item}\" is not an animal; the animals are {animals}.", item=item, animals=", ".join(ANIMALS))
        out.append(ANIMALS.index(item))
    return out


def _count(action: Action, key: str, most: int, msgid: str, **params: Any) -> int:
    """A whole number 1..``most`` from ``action[key]``, refused with ``msgid`` (its ``{value}``: what was sent)."""
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise refusal(msgid, value=json.dumps(value, default=str), **params)
    return value


def _requirement(value: Any) -> str:
    """A bonus requirement as written in state: "1".."6" or an animal (ints accepted)."""
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if text not in REQUIREMENTS:
        raise refusal("{value} is not a bonus tile; they are 1 to 6 and the six animals.", value=repr(value))
    return text


def turn_order(state: AuctionState, exp: Expected) -> Expected:
    """``exp`` with the turn order: the bidding goes clockwise from the start player, the cards from the
    new start player; after the last player's cards the table lays the next species tile (no tile
    after round 12). The last bid decides who starts the cards: nobody is named before it."""
    names = [p.name for p in state.players]
    n, start = len(names), names[state.start]
    nxt: tuple[str, ...] = ()
    table_next = False
    if state.phase in (TILE, DIRECTION):
        nxt = (start,)  # the start player opens the bidding once the tiles lie / plays his cards first
    elif state.phase == BIDDING:
        if len(state.bids) + 1 < n:
            nxt = (names[(state.start + len(state.bids) + 1) % n],)
    elif state.phase != OVER:
        if state.acted + 1 < n:
            nxt = (names[(state.turn + 1) % n],)
        else:
            table_next = state.round < ROUNDS
    return replace(exp, next=nxt, start=start, table_next=table_next)


class AuctionRules(Rules):
    """Galapagos, the auction game, for 2 to 5 players."""

    id: ClassVar[str] = "galapagos-auction"
    name: ClassVar[str] = "Galapagos"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    actions: ClassVar[dict[str, frozenset[str]]] = {
        "tile": frozenset({"direction", "animals"}),
        "bid": frozenset({"player", "direction", "amount"}),
        "pass": frozenset({"player"}),
        "direction": frozenset({"player", "direction"}),
        "education": frozenset({"player", "steps", "wildcard"}),
        "expedition": frozenset({"player", "animal", "wildcard"}),
        "sale": frozenset({"player", "animal", "wildcard"}),
        "exhibition": frozenset({"player", "animals", "bonus", "wildcard"}),
        "sell_cards": frozenset({"player", "count"}),
        "exchange": frozenset({"player", "give", "take"}),
        "done": frozenset({"player"}),
    }
    optional_fields: ClassVar[dict[str, frozenset[str]]] = {
        "exhibition": frozenset({"bonus", "wildcard"}),
        "education": frozenset({"wildcard"}),
        "expedition": frozenset({"wildcard"}),
        "sale": frozenset({"wildcard"}),
    }
    short_forms: ClassVar[dict[str, tuple[str, ...]]] = {
        "tile": ("direction", "animals"),
        "bid": ("player", "direction", "amount"),
        "exhibition": ("player", "animals", "bonus"),
        "exchange": ("player", "give", "take"),
    }

    # -- set-up -------------------------------------------------------------
    def setup(self, players: list[str], options: dict[str, Any]) -> AuctionState:
        names = self.check_players(players)
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise refusal("{game} has no option \"{option}\"; it takes bonus_order and shared_field.",
                          game=self.name, option=unknown[0])
        shared = options.get("shared_field", SHARED_FIELD[0])
        if shared not in SHARED_FIELD:
            raise refusal("\"shared_field\" is \"counted\" (the tokens sharing the chosen animal's field are paid "
                          "too) or \"not_counted\", not {value}.", value=json.dumps(shared, default=str))
        order = options.get("bonus_order", list(DEFAULT_BONUS_ORDER))
        if not isinstance(order, list):
            raise refusal("\"bonus_order\" must be a list of the 12 bonus tiles in flip order.")
        order = [_requirement(r) for r in order]
        if sorted(order) != sorted(REQUIREMENTS):
            raise refusal("\"bonus_order\" must list each of the 12 bonus tiles (1 to 6 and the six animals) once.")
        return AuctionState(players=tuple(Player(n) for n in names), bonus_order=tuple(order),
                            shared_counted=shared == "counted")

    # -- dispatch -------------------------------------------------------------
    def step(self, state: AuctionState, action: Action) -> tuple[AuctionState, list[Event]]:
        if state.phase == OVER:
            raise refusal("The game is over; no more actions can be taken.")
        return getattr(self, "_" + action["type"])(state, action)

    def _now(self, state: AuctionState) -> Message:
        """What the game waits for, as the end of a refusal sentence."""
        turn = state.players[state.turn].name
        if state.phase == TILE:
            return say("a species tile must first be laid on the {squares} square", squares=self._empty_squares(state))
        if state.phase == BIDDING:
            return say("it is {p}'s turn to bid", p=turn)
        if state.phase == DIRECTION:
            return say("{p} must choose the direction", p=turn)
        return say("it is {p}'s turn to play cards", p=turn)

    def _empty_squares(self, state: AuctionState) -> JoinedWords:
        return JoinedWords([DIRECTIONS[d] for d in range(4) if state.tiles[d] is None], "/")

    def _seat(self, state: AuctionState, action: Action) -> int:
        name = require_player(action, [p.name for p in state.players])
        return seat_of(state, name)

    def _in_turn(self, state: AuctionState, action: Action, phase: str, verb: str) -> int:
        seat = self._seat(state, action)
        if state.phase != phase or seat != state.turn:
            raise refusal("{p} cannot {verb} now: {now}.", p=state.players[seat].name, verb=say(verb), now=self._now(state))
        return seat

    # -- species tiles ----------------------------------------------------------
    def _tile(self, state: AuctionState, action: Action) -> tuple[AuctionState, list[Event]]:
        square = DIRECTIONS.index(require_choice(action, "direction", DIRECTIONS))
        if state.phase != TILE:
            raise refusal("No species tile is awaited: {now}.", now=self._now(state))
        pair = _list_of_animals(action, "animals", Term("The tile"))
        if len(pair) != 2 or pair[0] == pair[1]:
            raise refusal("A species tile shows two different animals.")
        if state.tiles[square] is not None:
            shown = [Term(LABELS[a]) for a in state.tiles[square]]
            raise refusal("The {square} square already holds the {shown} tile.", square=Term(DIRECTIONS[square]), shown=shown)
        key = (min(pair), max(pair))
        if key in state.used_tiles:
            raise refusal("The {a} and {b} tile has already been used; each tile comes once.",
                          a=Term(LABELS[key[0]]), b=Term(LABELS[key[1]]))
        tiles = list(state.tiles)
        tiles[square] = (pair[0], pair[1])
        new = evolve(state, tiles=tuple(tiles), used_tiles=state.used_tiles | {key})
        if None not in new.tiles:
            new = evolve(new, phase=BIDDING, turn=new.start, bids=())
        return new, [{"type": "tile", "direction": DIRECTIONS[square], "animals": [ANIMALS[a] for a in pair]}]

    # -- bidding --------------------------------------------------------------
    def _bid(self, state: AuctionState, action: Action) -> tuple[AuctionState, list[Event]]:
        seat = self._in_turn(state, action, BIDDING, "bid")
        name = state.players[seat].name
        square = DIRECTIONS.index(require_choice(action, "direction", DIRECTIONS))
        amount = require_int(action, "amount")
        if amount < BID_UNIT or amount % BID_UNIT:
            raise refusal("{p} cannot bid £{amount}: a bid is a multiple of £100, at least £100 (or a pass).",
                          p=name, amount=amount)
        have = state.players[seat].money
        if amount > have:
            raise refusal("{p} has £{money} and cannot bid £{amount}.", p=name, money=have, amount=amount)
        event = {"type": "bid", "player": name, "direction": DIRECTIONS[square], "amount": amount}
        return self._after_bid(state, (seat, square, amount), event)

    def _pass(self, state: AuctionState, action: Action) -> tuple[AuctionState, list[Event]]:
        seat = self._in_turn(state, action, BIDDING, "pass")
        return self._after_bid(state, (seat, -1, 0), {"type": "pass", "player": state.players[seat].name})

    def _after_bid(self, state: AuctionState, bid: tuple[int, int, int], event: Event) -> tuple[AuctionState, list[Event]]:
        bids = state.bids + (bid,)
        n = len(state.players)
        if len(bids) < n:
            return evolve(state, bids=bids, turn=(state.start + len(bids)) % n), [event]
        return self._resolve(evolve(state, bids=bids), [event])

    def _resolve(self, state: AuctionState, events: list[Event]) -> tuple[AuctionState, list[Event]]:
        """Highest total wins, ties to the square that reached it first; its top bid, earliest, starts."""
        lead = standing(state.bids)
        if lead is None:
            events.append({"type": "no_bids", "start_player": state.players[state.start].name})
            return evolve(state, phase=DIRECTION, turn=state.start), events
        square, _best, start = lead
        winning = [(seat, amount) for seat, d, amount in state.bids if d == square]
        players = state.players
        for seat, amount in winning:
            players = _pay(players, seat, -amount)
            events.append({"type": "money", "player": players[seat].name, "amount": -amount, "reason": "bid"})
        paid = sum(amount for _seat, amount in winning)
        events.append({"type": "direction", "direction": DIRECTIONS[square], "start_player": players[start].name})
        return evolve(state, players=players, bank=state.bank + paid, phase=ACTIONS, direction=square,
                       start=start, turn=start, acted=0, cards=0), events

    def _direction(self, state: AuctionState, action: Action) -> tuple[AuctionState, list[Event]]:
        name = state.players[self._seat(state, action)].name
        if state.phase == BIDDING:
            raise refusal("{p} cannot choose the direction during the bidding: "
                          "the start player chooses only when nobody has bid.", p=name)
        if state.phase == ACTIONS:
            raise refusal("{p} cannot choose the direction: this round's direction is already {d}.",
                          p=name, d=Term(DIRECTIONS[state.direction]))
        seat = self._in_turn(state, action, DIRECTION, "choose the direction")
        square = DIRECTIONS.index(require_choice(action, "direction", DIRECTIONS))
        new = evolve(state, phase=ACTIONS, direction=square, turn=seat, acted=0, cards=0)
        return new, [{"type": "direction", "direction": DIRECTIONS[square], "start_player": state.players[seat].name}]

    # -- card play --------------------------------------------------------------
    def _card(self, state: AuctionState, action: Action, verb: str, cards: int | None = None) -> tuple[int, int]:
        """The seat playing now and the cards it uses (2 for a wildcard pair, else 1 or ``cards``).

        Refuses a player out of turn, or more cards than a 7-card hand holds.
        """
        seat = self._in_turn(state, action, ACTIONS, verb)
        if cards is None:
            cards = 2 if require_bool(action, "wildcard", False) else 1
        left = HAND - state.cards
        if cards > left:
            name = state.players[seat].name
            if not left:
                raise refusal("{p} has already played all {hand} cards of a hand this turn and cannot play another.",
                              p=name, hand=HAND)
            raise refusal("{p} has only {left} of {hand} cards left this turn and cannot play {cards}.",
                          p=name, left=left, hand=HAND, cards=cards)
        return seat, cards

    def _charge(self, state: AuctionState, seat: int, price: int, what: Term | Message) -> None:
        have = self._spendable(state, seat)
        if price > have:
            me = state.players[seat]
            if have < me.money:
                raise refusal("{p} has £{money}, £{bid} of it bid, and cannot pay £{price} for {what}.",
                              p=me.name, money=me.money, bid=me.money - have, price=price, what=what)
            raise refusal("{p} has £{money} and cannot pay £{price} for {what}.", p=me.name, money=have, price=price,
                          what=what)

    def _spendable(self, state: AuctionState, seat: int) -> int:
        """Money not lying beside the compass board as a bid."""
        return free_money(state, seat)

    def _bank(self, state: AuctionState, seat: int, delta: int, reason: str, cards: int, **changes: Any) -> tuple[AuctionState, list[Event]]:
        """Move ``delta`` between bank and ``seat`` (plus other player changes), count ``cards``."""
        player = evolve(state.players[seat], money=state.players[seat].money + delta, **changes)
        players = state.players[:seat] + (player,) + state.players[seat + 1:]
        new = evolve(state, players=players, bank=state.bank - delta, cards=state.cards + cards)
        events = [{"type": "money", "player": player.name, "amount": delta, "reason": reason}] if delta else []
        return new, events

    def _education(self, state: AuctionState, action: Action) -> tuple[AuctionState, list[Event]]:
        seat, used = self._card(state, action, "play an education card")
        me = state.players[seat]
        steps = _count(action, "steps", 4, "{p} can advance 1, 2, 3 or 4 steps on the education track, not {value}.",
                       p=me.name)
        if me.education + steps > TRACK_END:
            msgid = ("{p} is on field {field} of the education track, which ends at {end}, and cannot advance 1 step."
                     if steps == 1 else
                     "{p} is on field {field} of the education track, which ends at {end}, and cannot advance {steps} steps.")
            raise refusal(msgid, p=me.name, field=me.education, end=TRACK_END, steps=steps)
        price = EDUCATION_PRICE[steps]
        self._charge(state, seat, price, steps_phrase(steps))
        return self._bank(state, seat, -price, "education", used, education=me.education + steps)

    def _expedition(self, state: AuctionState, action: Action) -> tuple[AuctionState, list[Event]]:
        seat, used = self._card(state, action, "play an expedition card")
        animal = ANIMALS.index(require_choice(action, "animal", ANIMALS))
        pair = state.tiles[state.direction]
        name = state.players[seat].name
        if animal not in pair:
            raise refusal("{p} cannot take {animal}: the {square} tile shows {shown}.", p=name,
                          animal=Term(A_LABELS[animal]), square=Term(DIRECTIONS[state.direction]),
                          shown=[Term(LABELS[a]) for a in pair])
        if not state.supply[animal]:
            raise refusal("{p} cannot take {animal}: none is left in the supply.", p=name, animal=Term(A_LABELS[animal]))
        price = animal_cost(state, seat, animal)
        self._charge(state, seat, price, Term(A_LABELS[animal]))
        new, events = self._bank(state, seat, -price, "expedition", used, animals=_add(state.players[seat].animals, animal, 1))
        return evolve(new, supply=_add(state.supply, animal, -1)), events

    def _sale(self, state: AuctionState, action: Action) -> tuple[AuctionState, list[Event]]:
        seat, used = self._card(state, action, "play a sale card")
        animal = ANIMALS.index(require_choice(action, "animal", ANIMALS))
        me = state.players[seat]
        if not me.animals[animal]:
            raise refusal("{p} has no {animal} to sell.", p=me.name, animal=Term(LABELS[animal]))
        new, events = self._bank(state, seat, SALE_PRICE, "sale", used, animals=_add(me.animals, animal, -1))
        return evolve(new, supply=_add(state.supply, animal, 1)), events

    def _exhibition(self, state: AuctionState, action: Action) -> tuple[AuctionState, list[Event]]:
        seat, cards = self._card(state, action, "play an exhibition card")
        me = state.players[seat]
        shown = _list_of_animals(action, "animals", me.name)
        for i, animal in enumerate(shown):
            if animal in shown[:i]:
                raise refusal("{p}'s exhibition must show different animals, but {animal} is listed twice.",
                              p=me.name, animal=Term(LABELS[animal]))
            if not me.animals[animal]:
                raise refusal("{p} has no {animal} to exhibit.", p=me.name, animal=Term(LABELS[animal]))
        tile = self._bonus_for(state, me.name, set(shown), action.get("bonus"))
        counts, supply = me.animals, state.supply
        for animal in shown:
            counts, supply = _add(counts, animal, -1), _add(supply, animal, 1)
        gained = (3 if tile is not None else 2) * len(shown)
        new, events = self._bank(state, seat, 0, "exhibition", cards, animals=counts, points=me.points + gained)
        bonus_used = state.bonus_used | {tile} if tile is not None else state.bonus_used
        event = {"type": "exhibition", "player": me.name, "points": gained,
                 "bonus": state.bonus_order[tile] if tile is not None else None}
        return evolve(new, supply=supply, bonus_used=bonus_used), events + [event]

    def _bonus_for(self, state: AuctionState, name: str, shown: set[int], asked: Any) -> int | None:
        """The bonus tile this exhibition uses: the only one that applies, or the one named."""
        up = face_up(state)
        applies = [i for i in up if fulfils(state.bonus_order[i], shown)]
        if asked is None:
            if len(applies) > 1:
                choices = JoinedWords([state.bonus_order[i] for i in applies], " or ")
                raise refusal("{p}'s exhibition fulfils several bonus tiles; choose one with \"bonus\": {choices}.",
                              p=name, choices=choices)
            return applies[0] if applies else None
        wanted = _requirement(asked)
        for i in up:
            if state.bonus_order[i] == wanted:
                if i not in applies:
                    raise refusal("{p}'s exhibition does not fulfil the {tile} bonus tile.", p=name, tile=Term(wanted))
                return i
        raise refusal("The {tile} bonus tile is not face up, so {p} cannot use it.", p=name, tile=Term(wanted))

    def _sell_cards(self, state: AuctionState, action: Action) -> tuple[AuctionState, list[Event]]:
        seat = self._in_turn(state, action, ACTIONS, "sell cards")
        count = _count(action, "count", HAND, "{p} can sell 1 to {hand} cards, not {value}.",
                       p=state.players[seat].name, hand=HAND)
        seat, used = self._card(state, action, "sell cards", count)
        return self._bank(state, seat, CARD_PRICE * count, "sell_cards", used)

    def _exchange(self, state: AuctionState, action: Action) -> tuple[AuctionState, list[Event]]:
        """Two tokens back to the supply, then one of any kind taken from it (any time, any player)."""
        seat = self._seat(state, action)
        me = state.players[seat]
        give = _list_of_animals(action, "give", me.name)
        take = ANIMALS.index(require_choice(action, "take", ANIMALS))
        if len(give) != 2:
            raise refusal("{p} must give exactly two tokens to exchange, not {n}.", p=me.name, n=len(give))
        counts, supply = me.animals, state.supply
        for animal in give:
            if not counts[animal]:
                pair = (say("two {animals}", animals=Term(PLURALS[give[0]])) if give[0] == give[1]
                        else [Term(A_LABELS[a]) for a in give])
                raise refusal("{p} does not hold {pair} to exchange.", p=me.name, pair=pair)
            counts, supply = _add(counts, animal, -1), _add(supply, animal, 1)
        if not supply[take]:
            raise refusal("{p} cannot take {animal}: none is left in the supply.", p=me.name, animal=Term(A_LABELS[take]))
        price = animal_cost(state, seat, take)
        self._charge(state, seat, price, Term(A_LABELS[take]))
        new, events = self._bank(state, seat, -price, "exchange", 0, animals=_add(counts, take, 1))
        return evolve(new, supply=_add(supply, take, -1)), events

    def _done(self, state: AuctionState, action: Action) -> tuple[AuctionState, list[Event]]:
        seat = self._in_turn(state, action, ACTIONS, "end a turn")
        n = len(state.players)
        events: list[Event] = [{"type": "done", "player": state.players[seat].name}]
        if state.acted + 1 < n:
            return evolve(state, acted=state.acted + 1, turn=(seat + 1) % n, cards=0), events
        if state.round == ROUNDS:
            return self._finish(state, events)
        return self._upkeep(state, events)

    # -- between rounds and at the end ------------------------------------------
    def _upkeep(self, state: AuctionState, events: list[Event]) -> tuple[AuctionState, list[Event]]:
        """Tile's species +1 (max 25), tile leaves, next bonus face up, £200 to everyone."""
        square = state.direction
        track = list(state.track)
        for animal in state.tiles[square]:
            track[animal] = min(TRACK_END, track[animal] + 1)
        tiles = list(state.tiles)
        tiles[square] = None
        players = tuple(evolve(p, money=p.money + INCOME) for p in state.players)
        events += [{"type": "money", "player": p.name, "amount": INCOME, "reason": "income"} for p in players]
        events.append({"type": "round", "round": state.round + 1})
        new = evolve(state, players=players, track=tuple(track), tiles=tuple(tiles),
                      flipped=state.flipped + 1, bank=state.bank - INCOME * len(players),
                      round=state.round + 1, phase=TILE, direction=None, turn=state.start,
                      acted=0, cards=0, bids=())
        return new, events

    def _finish(self, state: AuctionState, events: list[Event]) -> tuple[AuctionState, list[Event]]:
        bonus = education_bonus([p.education for p in state.players])
        final = tuple((bonus[i], sum(p.animals) // 2, p.money // 1000) for i, p in enumerate(state.players))
        new = evolve(state, phase=OVER, final=final, acted=0, cards=0)
        events.append({"type": "game_over", "winners": self.winners(new)})
        return new, events

    # -- reading the state -------------------------------------------------------
    def costs(self, state: AuctionState, player: str) -> dict[str, Any]:
        """What each option costs ``player`` now (see the module function :func:`costs`)."""
        return costs(state, player)

    def points(self, state: AuctionState) -> list[int]:
        """Exhibition points, with the final bonuses once the game is over."""
        if not state.final:
            return [p.points for p in state.players]
        return [p.points + sum(f) for p, f in zip(state.players, state.final, strict=True)]

    def scores(self, state: AuctionState) -> dict[str, int]:
        return {p.name: pts for p, pts in zip(state.players, self.points(state), strict=True)}

    def winners(self, state: AuctionState) -> list[str]:
        """Most points; a tie goes to the most money; still tied, all share the win."""
        if state.phase != OVER:
            return []
        ranked = [(pts, p.money) for p, pts in zip(state.players, self.points(state), strict=True)]
        best = max(ranked)
        return [p.name for p, key in zip(state.players, ranked, strict=True) if key == best]

    def outcome(self, state: AuctionState) -> Outcome | None:
        """The winners and a sentence that names the tie-break when points were tied.

        "The player with the most exhibition points wins the game. In the case of
        a tie, the tied player with the most money wins the game." So the
        sentence says who else had the top score and lost on money ("Ann wins
        with 52 points; Bob also has 52 and loses on money."), and, when the
        money ties too, that the winners share the win.
        """
        if state.phase != OVER:
            return None
        names = self.winners(state)
        pts = self.points(state)
        top = max(pts)
        others = [p.name for p, x in zip(state.players, pts, strict=True) if x == top and p.name not in names]
        cash = state.players[seat_of(state, names[0])].money
        if len(names) == 1:
            msgid = "{names} wins with {points}."
            if others:
                msgid = ("{names} wins with {points}; {others} also has {n} and loses on money." if len(others) == 1
                         else "{names} wins with {points}; {others} also have {n} and lose on money.")
        else:
            msgid = "{names} share the win with {points} and {money} each."
            if others:
                msgid = ("{names} share the win with {points} and {money} each; {others} also has {n} and loses on money."
                         if len(others) == 1 else
                         "{names} share the win with {points} and {money} each; {others} also have {n} and lose on money.")
        params = {"names": Names(names), "points": points_phrase(top), "n": top, "others": Names(others),
                  "money": say("£{amount}", amount=cash)}
        return Outcome("twelve_rounds", tuple(names), text=msgid, params=params)

    def expected(self, state: AuctionState) -> Expected:
        return turn_order(state, self._expected(state))

    def _expected(self, state: AuctionState) -> Expected:
        turn = (state.players[state.turn].name,)
        if state.phase == TILE:
            return Expected((), ("tile", "exchange"), "Lay a species tile on the {squares} square.",
                            {"squares": self._empty_squares(state)})
        if state.phase == BIDDING:
            lead = standing(state.bids)
            if lead is None:
                return Expected(turn, ("bid", "pass", "exchange"), "{p}: bid or pass.", {"p": turn[0]})
            # Who leads so far, so the bidder (and every screen showing the prompt) sees what he must beat.
            return Expected(turn, ("bid", "pass", "exchange"), "{p}: bid or pass. {square} leads with £{total}.",
                            {"p": turn[0], "square": Term(DIRECTION_NAMES[lead[0]]), "total": lead[1]})
        if state.phase == DIRECTION:
            return Expected(turn, ("direction", "exchange"), "No bids: {p} chooses the direction.", {"p": turn[0]})
        if state.phase == ACTIONS:
            return Expected(turn, CARD_ACTIONS + ("exchange",), "{p}: play your {d} cards, then done.",
                            {"p": turn[0], "d": Term(DIRECTION_NAMES[state.direction])})
        return Expected((), (), "The game is over.")

    def view(self, state: AuctionState, viewer: str | None = None) -> dict[str, Any]:
        over = state.phase == OVER
        pts = self.points(state)
        players = []
        for i, p in enumerate(state.players):
            entry = {"name": p.name, "money": p.money, "education": p.education, "points": pts[i],
                     "animals": dict(zip(ANIMALS, p.animals, strict=True))}
            if over:
                bonus, animal_pts, money_pts = state.final[i]
                entry["final"] = {"exhibitions": p.points, "education_bonus": bonus, "animals": animal_pts, "money": money_pts}
            players.append(entry)
        acting = state.phase in (BIDDING, DIRECTION, ACTIONS)
        lead = standing(state.bids) if state.phase == BIDDING else None
        return {
            "game": self.id,
            "round": state.round,
            "over": over,
            "players": players,
            "phase": state.phase,
            "direction": DIRECTIONS[state.direction] if state.direction is not None else None,
            "start_player": state.players[state.start].name,
            "tiles": {DIRECTIONS[d]: [ANIMALS[a] for a in t] if t else None for d, t in enumerate(state.tiles)},
            "education_track": dict(zip(ANIMALS, state.track, strict=True)),
            "bonus_face_up": [state.bonus_order[i] for i in face_up(state)],
            "bonus_face_down": list(state.bonus_order[state.flipped:]),
            "turn": state.players[state.turn].name if acting else None,
            "bids": [{"player": state.players[s].name, "direction": DIRECTIONS[d] if d >= 0 else None, "amount": a}
                     for s, d, a in state.bids],
            "supply": dict(zip(ANIMALS, state.supply, strict=True)),
            "bank": state.bank,
            # Money not lying beside a compass board: what each player can pay an exchange with now.
            "free_money": {p.name: free_money(state, i) for i, p in enumerate(state.players)},
            "bid_totals": dict(zip(DIRECTIONS, bid_totals(state), strict=True)),
            "leader": _leader(state, lead),
            "cards_used": state.cards if state.phase == ACTIONS else None,
            "hand": HAND,
            "shared_field": SHARED_FIELD[0] if state.shared_counted else SHARED_FIELD[1],
        }

    def dump(self, state: AuctionState) -> dict[str, Any]:
        """Every field, including the bookkeeping the view leaves out (for fingerprints)."""
        out = self.view(state)
        out["_internal"] = {"used_tiles": sorted(state.used_tiles), "bonus_used": sorted(state.bonus_used),
                            "flipped": state.flipped, "acted": state.acted, "cards": state.cards,
                            "bonus_order": list(state.bonus_order), "final": [list(f) for f in state.final],
                            "shared_counted": state.shared_counted}
        return out

    # -- playouts -------------------------------------------------------------------
    def candidates(self, state: AuctionState) -> list[Action]:
        """A handful of legal actions: every tile pair, a few bid sizes, each affordable card play."""
        phase = state.phase
        if phase == OVER:
            return []
        if phase == TILE:
            square = DIRECTIONS[state.tiles.index(None)]
            return [{"type": "tile", "direction": square, "animals": [ANIMALS[a], ANIMALS[b]]}
                    for a, b in ALL_PAIRS if (a, b) not in state.used_tiles]
        me = state.players[state.turn]
        if phase == BIDDING:
            out: list[Action] = [{"type": "pass", "player": me.name}]
            top = me.money - me.money % BID_UNIT
            for amount in sorted({100, 300, top} - {0}):
                if amount <= me.money:
                    out += [{"type": "bid", "player": me.name, "direction": d, "amount": amount} for d in DIRECTIONS]
            return out
        if phase == DIRECTION:
            return [{"type": "direction", "player": me.name, "direction": d} for d in DIRECTIONS]
        return self._card_candidates(state, state.turn)

    def _card_candidates(self, state: AuctionState, seat: int) -> list[Action]:
        me = state.players[seat]
        name = me.name
        out: list[Action] = [{"type": "done", "player": name}]
        owned = [a for a in range(6) if me.animals[a]]
        if sum(me.animals) >= 2:
            give = [ANIMALS[a] for a in range(6) for _ in range(me.animals[a])][:2]
            for take in (0, 5):
                back = state.supply[take] + give.count(ANIMALS[take])
                if back and animal_cost(state, seat, take) <= me.money:
                    out.append({"type": "exchange", "player": name, "give": give, "take": ANIMALS[take]})
        if state.cards >= HAND:
            return out
        out.append({"type": "sell_cards", "player": name, "count": 1})
        out += [{"type": "education", "player": name, "steps": s} for s, p in EDUCATION_PRICE.items()
                if p <= me.money and me.education + s <= TRACK_END]
        out += [{"type": "expedition", "player": name, "animal": ANIMALS[a]} for a in state.tiles[state.direction]
                if state.supply[a] and animal_cost(state, seat, a) <= me.money]
        out += [{"type": "sale", "player": name, "animal": ANIMALS[a]} for a in owned[:2]]
        for shown in ({owned[0]}, set(owned)) if owned else ():
            applies = [state.bonus_order[i] for i in face_up(state) if fulfils(state.bonus_order[i], shown)]
            base = {"type": "exhibition", "player": name, "animals": [ANIMALS[a] for a in sorted(shown)]}
            out += [dict(base, bonus=r) for r in applies] if len(applies) > 1 else [base]
        return out
