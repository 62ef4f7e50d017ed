"""Galèrapagos' shared pieces: the components' data, the options a game is read with, one moment of a game.

The rules (:mod:`companion.games.galerapagos.rules`), the odds (:mod:`~companion.games.galerapagos.chances`),
the tournaments (:mod:`~companion.games.galerapagos.tournament`) and the options' reading
(:mod:`~companion.games.galerapagos.options`) all read these; none of them is read here, so each
imports this module at its top and none imports another back. Standard library only, like the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from companion.engine.rules import RuleError
from companion.engine.texts import Message

#: the gettext domain of this game's texts (locale/<lang>/LC_MESSAGES/galerapagos.po)
DOMAIN = "galerapagos"


def refusal(msgid: str, /, **params: Any) -> RuleError:
    """A refusal as a message id (the English sentence) and its parameters, rendered per language."""
    return RuleError(msgid, domain=DOMAIN, **params)


def phrase(msgid: str, /, **params: Any) -> Message:
    """A phrase put inside a refusal (what the table is doing now), translated with it."""
    return Message(msgid, DOMAIN, **params)


# -- component data --------------------------------------------------------

#: players -> (food, water), the seed's "Nombre de joueurs | Nourriture | Eau" table.
START_RATIONS: dict[int, tuple[int, int]] = {
    3: (5, 6), 4: (7, 8), 5: (9, 10), 6: (10, 12), 7: (12, 14),
    8: (13, 16), 9: (15, 18), 10: (16, 20), 11: (18, 22), 12: (20, 24),
}
WRECK_CARDS = 54
RAFT_CARDS = 12
RAFT_TRACK = 6  # the disc runs from 0 to 6; reaching 6 lays a raft card
MAX_EXTRA_BALLS = 5
#: the published deck besides the hurricane (option ``weather_deck``, see docs/rules-notes.md).
WEATHER_CARDS: tuple[int, ...] = (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3)
#: "12 cartes Météo" besides "1 carte Ouragan": the twelfth plain card (rulebook silent on its drops)
WEATHER_CARDS_12: tuple[int, ...] = WEATHER_CARDS + (3,)
WEATHER_DECKS = {11: WEATHER_CARDS, 12: WEATHER_CARDS_12}
HURRICANE_WATER = 2
BOTTOM_CARDS = 5  # "tirez-en 5 au hasard" and shuffle them with the hurricane
MAX_DROPS = 9
#: fish shown on the six wooden balls (rulebook silent; option ``bag``).
BAG: tuple[int, ...] = (1, 1, 1, 2, 2, 3)
PERMANENT = ("water_bottle", "club", "axe", "fishing_rod", "crystal_ball", "revolver")
#: permanent cards whose effect moves a track, entered with ``effect`` (the rulebook names no effect:
#: the table enters what the card did, the card staying face up in front of its owner)
EFFECTS = {"water_bottle": "water", "fishing_rod": "food", "axe": "wood"}
#: the permanent cards' names (message ids of the catalog)
CARD_NAMES = {"water_bottle": "Water bottle", "club": "Club", "axe": "Axe", "fishing_rod": "Fishing rod",
              "crystal_ball": "Crystal ball", "revolver": "Revolver"}

WEATHER, ACTIONS, ACTED, WATER, FOOD, END, DEPART, OVER = (
    "weather", "actions", "acted", "water", "food", "end", "depart", "over")
#: the public phase while a moment to show cards is open
SHOW_CARDS = "show_cards"
ZERO, SAVE, RAFT = "zero", "save", "raft"
COUNTS = (WATER, FOOD, DEPART)
ACTS = ("fish", "water", "wood", "search")
CAUSE = {WATER: "thirst", FOOD: "hunger", DEPART: "left_behind"}
#: lines that belong to the survival step: in the pause they imply its confirmation
IMPLIED = frozenset({"weather", "embark", "vote", "tiebreak", "no_card", "close", "debate"})
#: lines that start the departure vote: before the raft leaves they close its moment to show cards
RAFT_IMPLIED = frozenset({"vote", "debate"})
SCORING = ("solidaire", "solitaire")
OPTIONS = ("dead_vote", "first_player", "weather_cards", "weather_deck", "hurricane_water", "bag", "scoring",
           "raft_vote", "sick_show", "match", "manche", "manches", "carried")


@dataclass(frozen=True, slots=True)
class Options:
    dead_vote: bool = False
    weather_cards: tuple[int, ...] = WEATHER_CARDS
    hurricane_water: int = HURRICANE_WATER
    bag: tuple[int, ...] = BAG
    scoring: str = "solidaire"
    #: "Il y a vote ... quand il n'y a pas assez de places sur le radeau", at a normal round's end too
    raft_vote: bool = False
    #: a castaway sick since last round may still show a card when a token is on 0
    sick_show: bool = False
    #: a tournament ("Mode tournois"): the match's name, this manche, how many, the points carried in
    match: str = ""
    manche: int = 0
    manches: int = 0
    carried: tuple[tuple[str, int], ...] = ()

    @property
    def hurricane_from(self) -> int:
        """First round the hurricane can come up: after the cards above the bottom pile."""
        return len(self.weather_cards) - BOTTOM_CARDS + 1


class State(NamedTuple):
    """One moment of a game. Indices are seats, clockwise; ``-1`` means nobody.

    A NamedTuple: ``_replace`` copies it several times faster than dataclasses.replace,
    which keeps random playouts well above 20,000 actions a second.
    """

    names: tuple[str, ...]
    opts: Options
    round: int
    phase: str
    first: int
    start: int  # first player when the round's actions began
    turn_k: int  # seats passed since ``start`` in the action step
    alive: tuple[bool, ...]
    sick: tuple[int, ...]  # bit r set: fell sick in round r (a player can fall sick twice running)
    cards: tuple[int, ...]
    perm: tuple[tuple[str, ...], ...]  # permanent cards face up in front of the player
    did: tuple[str, ...]  # action taken this round, "" if none
    died: tuple[str, ...]  # cause of death, "" while alive
    food: int
    water: int
    wood: int
    rafts: int
    basket: int  # food on the track from the fruit basket, not valid for the voyage
    weather: int | None
    hurricane: bool
    deck: tuple[int, ...]  # weather cards still face down, besides the hurricane
    hurricane_left: bool
    wreck: int
    zero: bool = False  # this count began with the token on 0: no vote
    declared: tuple[tuple[int, int, bool], ...] = ()  # (seat, surplus, basket): cards shown at 0
    ballot: tuple[int, ...] | None = None  # seat -> target seat, -1 not yet voted
    tie: tuple[int, ...] = ()
    condemned: int = -1
    last_vote: tuple[tuple[int, int], ...] = ()
    reason: str = ""
    winners: tuple[int, ...] = ()
    show: str = ""  # the moment to show cards now open: ZERO, SAVE, RAFT, or ""
    answered: tuple[int, ...] = ()  # seats that said "I have none" in this moment
    held: bool = False  # the raft's moment before the departure vote is over
    done: int = 0  # actions applied so far (the journal's count: undoing a whole ballot)
    ballot_at: int = 0  # ``done`` when the current ballot opened
    debate: bool = False  # the ballot is open and the first player has not stopped the debate
    warning: tuple[Any, ...] = ()  # the last weather card's correction of the deck, for the screens


def living_seats(s: State) -> list[int]:
    """The seats of the castaways still alive, clockwise."""
    return [i for i, a in enumerate(s.alive) if a]
