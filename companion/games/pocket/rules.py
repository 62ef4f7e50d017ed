"""Pocket Galapagos (seed 003): a one-player game of three population trackers.

The companion keeps the Rat, Ant and Finch trackers, the face-down SPECIES cards
on the DOMINANT SPECIES, ISLAND BIOME and INVASIVE SPECIES spaces, and the turn
tracker, and it decides the win and the two losses. What it cannot see (an
ABILITY's effect, an INVASIVE EFFECT, a card moved by an ability) the player
reports as an observed action: ``population`` or ``move``.

Every interpretation of the rulebook is written, with the sentence it reads, in
docs/rules-notes.md under "pocket-galapagos". States are small frozen
dataclasses of tuples so that each action costs one ``dataclasses.replace``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.engine.rules import (
    Action,
    Event,
    Expected,
    Outcome,
    RuleError,
    Rules,
    evolve,
)
from companion.engine.texts import Message, Term

#: the gettext domain of this game's texts (its package's ``locale/``)
DOMAIN = "pocket-galapagos"

SPECIES: tuple[str, ...] = ("rat", "ant", "finch")
#: the face-down SPECIES spaces, in the order the view lists them
SPACES: tuple[str, ...] = ("dominant", "biome", "invasive")
#: where a ``move`` may take a card from or to besides the SPECIES spaces: the
#: Middle, THE OCEAN, the deck or the discard — none of which the companion tracks.
ELSEWHERE = "elsewhere"
MODES: tuple[str, ...] = ("inhabit", "migrate")

SPACE_NAMES = {
    "dominant": "the dominant species",
    "biome": "the island biome",
    "invasive": "the invasive species",
    ELSEWHERE: "off the species spaces",
}

#: the species with their article and in the plural, as game words of their own
#: (French needs "une fourmi" but "un rat"; "three finches", not "finchs")
A_SPECIES = {"rat": "a rat", "ant": "an ant", "finch": "a finch"}
PLURAL = {"rat": "rats", "ant": "ants", "finch": "finches"}
#: a population as a phrase ("the rat population": « la population de rats »)
POPULATION = {"rat": "the rat population", "ant": "the ant population", "finch": "the finch population"}

LOW, HIGH = 0, 7
#: the reference cards are not in the seed: these defaults are documented in
#: docs/rules-notes.md and every one is an option.
DEFAULT_START = 3
DEFAULT_TURNS = 10
DEFAULT_SPACES: dict[str, int | None] = {"dominant": 3, "biome": 3, "invasive": 7}
#: three of one species on the INVASIVE SPECIES spaces ends the game
INVASIVE_LIMIT = 3

#: readings of two ambiguous sentences (docs/rules-notes.md), default first
INVASIVE_PLAYS: tuple[str, ...] = ("forced", "free")
DOMINANT_FIRSTS: tuple[str, ...] = ("empty", "played")

OPTION_NAMES = ("start", "turns", "spaces", "eagle_ray", "invasive_play", "dominant_first")

OVER_TEXT = {
    "survived": "you survived every turn and win",
    "populations_collapsed": "two or more populations are at 0 and you lose",
    "invasive_takeover": "three of one species sit on the invasive species spaces and you lose",
}


@dataclass(frozen=True)
class Config:
    """The options, fixed at set-up (shared by every state of one game)."""

    turns: int
    capacity: tuple[int | None, ...]  # per SPACES; None = no limit
    start: tuple[int, ...]  # per SPECIES
    eagle_ray: tuple[str, ...] | None  # species put on each of SPACES, or None
    invasive_play: str = "forced"  # INVASIVE_PLAYS
    dominant_first: str = "empty"  # DOMINANT_FIRSTS


@dataclass(frozen=True)
class PocketState:
    """One moment of a game. ``spaces`` holds, per SPACES, the species in play order."""

    player: str
    config: Config
    populations: tuple[int, ...]
    spaces: tuple[tuple[str, ...], ...]
    turn: int = 1
    survived: int = 0
    ocean_played: int = 0
    species_played: int = 0
    #: a card has been *played* (not placed or moved) to the dominant species this game
    dominant_played: bool = False
    result: str | None = None


def clamp(level: int) -> int:
    """"A POPULATION can never go below 0 or above 7.\""""
    return LOW if level < LOW else HIGH if level > HIGH else level


def _m(msgid: str, **params: Any) -> Message:
    """A phrase of this game not yet in any language (a reason inside a refusal, a prompt's part)."""
    return Message(msgid, DOMAIN, **params)


def _refused(state: PocketState, species: str, space: str) -> tuple[str, ...] | None:
    """Which rule refuses a face-down ``species`` *played* to ``space`` now (None: none does).

    ``("biome",)``, ``("dominant",)``, ``("fits", other)`` (forced to the invasive species while it
    fits ``other``) or ``("full",)``: the decision alone, so that :func:`allowed`, asked after every
    action by the candidates, ``expected`` and the view, builds no sentence it throws away;
    :func:`refusal_message` words it.
    """
    index = SPACES.index(space)
    cards = state.spaces[index]
    config = state.config
    if space == "biome" and species in cards:
        return ("biome",)
    if space == "dominant" and species not in cards:
        first = not cards if config.dominant_first == "empty" else not state.dominant_played
        if not first:
            return ("dominant",)
    if space == "invasive" and config.invasive_play == "forced":
        for other in ("biome", "dominant"):
            if _refused(state, species, other) is None:
                return ("fits", other)
    room = config.capacity[index]
    if room is not None and len(cards) >= room:
        return ("full",)
    return None


def refusal_message(state: PocketState, species: str, space: str) -> Message | None:
    """Why a face-down ``species`` may not be *played* to ``space`` now, or None if it may.

    Playing is checked, not moving ("moving and playing are not the same thing").
    A message id with its parameters, so that the phone's disabled choice and the
    refusal speak the reader's language.
    """
    why = _refused(state, species, space)
    if why is None:
        return None
    cards = state.spaces[SPACES.index(space)]
    if why[0] == "biome":
        return _m("{a_species} is already on the island biome", a_species=_a(species))
    if why[0] == "dominant":
        if cards:
            return _m("the dominant species is {present}, not {species}",
                      present=_and(sorted(set(cards))), species=Term(species))
        return _m("its first card was played earlier and no {species} is on it now", species=Term(species))
    if why[0] == "fits":
        other = why[1]
        where: Term | Message = Term(SPACE_NAMES[other])
        if other == "dominant" and not state.spaces[SPACES.index("dominant")]:
            where = _m("{where} (it is empty, so any species may start it)", where=where)
        return _m("it can still go to {where}, and only a card that fits neither the island biome "
                  "nor the dominant species goes to the invasive species", where=where)
    return _full(cards, state.config.capacity[SPACES.index(space)])


def refusal(state: PocketState, species: str, space: str) -> str | None:
    """:func:`refusal_message` as an English phrase (None if the play is allowed)."""
    why = refusal_message(state, species, space)
    return None if why is None else why.text("en")


def _full(cards: tuple[str, ...], room: int | None) -> Message | None:
    """Why a row with ``room`` spaces takes no more cards, or None if it has room."""
    if room is None or len(cards) < room:
        return None
    return _m("its only space is taken") if room == 1 else _m("all {room} of its spaces are taken", room=room)


def _or(values: list[str]) -> str | Message:
    """'"forced" or "free"': values as they are typed, joined in the reader's language."""
    if len(values) == 1:
        return values[0]
    return _m("{first} or {rest}", first=values[0], rest=_or(values[1:]))


def _and(words: list[str]) -> Term | Message:
    """"ant and rat and finch" as game words, each translated (the English of the first release)."""
    if len(words) == 1:
        return Term(words[0])
    return _m("{first} and {rest}", first=Term(words[0]), rest=_and(words[1:]))


def allowed(state: PocketState, species: str) -> list[str]:
    """The SPECIES spaces a face-down ``species`` may be played to now."""
    if state.result is not None:
        return []
    # the reason is a message id, never rendered to be compared with None: every screen, candidate
    # and ``expected`` asks this after each action
    return [space for space in SPACES if _refused(state, species, space) is None]


def invasive_takeover(spaces: tuple[tuple[str, ...], ...]) -> str | None:
    """The species that has three or more cards on the INVASIVE SPECIES spaces, if any."""
    cards = spaces[SPACES.index("invasive")]
    for species in SPECIES:
        if cards.count(species) >= INVASIVE_LIMIT:
            return species
    return None


def end_of_turn(state: PocketState) -> tuple[tuple[int, ...], str | None]:
    """The populations after the end-of-turn decrease, and how the game ends if the turn ended now.

    One function for ``end_turn`` and for the previews that warn of a loss
    before it happens: populations −1 (not below 0); "if two or more POPULATIONS
    are at 0, the game ends and you lose"; else three of a species on the
    invasive species; else, on the last turn, the win. None: the game goes on.
    """
    pops = tuple(clamp(level - 1) for level in state.populations)
    if sum(1 for level in pops if level == 0) >= 2:
        return pops, "populations_collapsed"
    if invasive_takeover(state.spaces) is not None:
        return pops, "invasive_takeover"
    if state.survived + 1 >= state.config.turns:
        return pops, "survived"
    return pops, None


def _without(cards: tuple[str, ...], species: str) -> tuple[str, ...]:
    """``cards`` with the last ``species`` taken off."""
    index = len(cards) - 1 - cards[::-1].index(species)
    return cards[:index] + cards[index + 1 :]


def _with_spaces(
    spaces: tuple[tuple[str, ...], ...], index: int, cards: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    return spaces[:index] + (cards,) + spaces[index + 1 :]


def _a(species: str) -> Term:
    """"a rat", "an ant" as a game word (« un rat », « une fourmi »)."""
    return Term(A_SPECIES[species])


def refuse(msgid: str, **params: Any) -> RuleError:
    """A refusal of this game: a message id of its catalog and its parameters."""
    return RuleError(msgid, domain=DOMAIN, **params)


def _cannot(state: PocketState, doing: Message, reason: Message, value: Any) -> RuleError:
    return refuse("{player} cannot {doing}: {reason}, not {value}.", player=state.player, doing=doing,
                  reason=reason, value=json.dumps(value))


def _name(state: PocketState, action: Action, key: str, choices: tuple[str, ...], doing: Message,
          reason: Message) -> str:
    """``action[key]`` as one of ``choices`` (any case), or a sentence naming the player and the move."""
    value = action.get(key)
    if isinstance(value, str) and value.strip().lower() in choices:
        return value.strip().lower()
    raise _cannot(state, doing, reason, value)


def _species(state: PocketState, action: Action, doing: Message) -> str:
    return _name(state, action, "species", SPECIES, doing, _m("the species are rat, ant and finch"))


def _number(state: PocketState, action: Action, key: str, lo: int, hi: int, doing: Message,
            reason: Message) -> int:
    """``action[key]`` as a whole number from ``lo`` to ``hi``, or a sentence naming the player and the move."""
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _cannot(state, doing, reason, value)
    return value


# -- options -----------------------------------------------------------------

def _read_start(value: Any) -> tuple[int, ...]:
    if value is None:
        return (DEFAULT_START,) * len(SPECIES)
    if not isinstance(value, dict):
        raise refuse("Option \"start\" must map rat, ant and finch to starting levels 0 to 7.")
    unknown = sorted(set(value) - set(SPECIES))
    if unknown:
        raise refuse("Option \"start\" names {name}; the populations are rat, ant and finch.", name=repr(unknown[0]))
    levels = []
    for species in SPECIES:
        level = value.get(species, DEFAULT_START)
        if isinstance(level, bool) or not isinstance(level, int) or not LOW <= level <= HIGH:
            raise refuse("The starting {species} population must be a whole number from 0 to 7, not {level}.",
                         species=Term(species), level=repr(level))
        levels.append(level)
    return tuple(levels)


def _read_turns(value: Any) -> int:
    if value is None:
        return DEFAULT_TURNS
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise refuse("Option \"turns\" must be a whole number of at least 1, not {value}.", value=repr(value))
    return value


def _read_spaces(value: Any) -> tuple[int | None, ...]:
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise refuse("Option \"spaces\" must map dominant, biome and invasive to their number of spaces.")
    unknown = sorted(set(value) - set(SPACES))
    if unknown:
        raise refuse("Option \"spaces\" names {name}; the spaces are dominant, biome and invasive.",
                     name=repr(unknown[0]))
    counts: list[int | None] = []
    for space in SPACES:
        count = value.get(space, DEFAULT_SPACES[space])
        if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
            raise refuse("The number of {space} spaces must be a whole number of at least 1 (or null for no "
                         "limit), not {count}.", space=space, count=repr(count))
        counts.append(count)
    return tuple(counts)


def _read_eagle_ray(value: Any) -> tuple[str, ...] | None:
    if value is None or value is False:
        return None
    if not isinstance(value, dict) or set(value) != set(SPACES):
        raise refuse("Option \"eagle_ray\" must give the species of the spotted eagle ray card put on "
                        "each of dominant, biome and invasive, e.g. {\"dominant\": \"rat\", \"biome\": \"ant\", \"invasive\": \"finch\"}.")
    picks = []
    for space in SPACES:
        species = value[space]
        if species not in SPECIES:
            raise refuse("The spotted eagle ray on {space} must be a rat, ant or finch, not {value}.",
                         space=Term(SPACE_NAMES[space]), value=repr(species))
        picks.append(species)
    return tuple(picks)


def _read_reading(name: str, value: Any, readings: tuple[str, ...]) -> str:
    """One of an ambiguous sentence's ``readings`` (the first is the default)."""
    if value is None:
        return readings[0]
    if value not in readings:
        raise refuse("Option \"{name}\" must be {readings}, not {value}.", name=name,
                     readings=_or([json.dumps(r) for r in readings]), value=json.dumps(value))
    return value


class PocketRules(Rules):
    """Pocket Galapagos for one player; see the module docstring."""

    id = "pocket-galapagos"
    name = "Pocket Galapagos"
    min_players = 1
    max_players = 1
    actions = {
        "ocean": frozenset({"player", "species", "icons", "mode"}),
        "species": frozenset({"player", "space", "species"}),
        "population": frozenset({"player", "species", "change"}),
        "move": frozenset({"player", "species", "from", "to"}),
        "end_turn": frozenset({"player"}),
    }
    optional_fields = {kind: frozenset({"player"}) for kind in actions}
    short_forms = {
        "ocean": ("species", "icons", "mode"),
        "species": ("space", "species"),
        "population": ("species", "change"),
        "move": ("species", "from", "to"),
        "end_turn": (),
    }

    # -- set-up --------------------------------------------------------------
    def check_players(self, players: Any) -> list[str]:
        """A solo game: say so plainly instead of "played by 1 players"."""
        if isinstance(players, list) and len(players) != 1:
            raise refuse("{game} is a solo game: name one player, not {count} players.", game=self.name,
                         count=len(players))
        return super().check_players(players)

    def setup(self, players: list[str], options: dict[str, Any]) -> PocketState:
        """"There is no set up required": every option has a default."""
        names = self.check_players(players)
        if not isinstance(options, dict):
            raise refuse("Options must be a JSON object.")
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise refuse("{game} has no option \"{option}\"; it takes {options}.", game=self.name,
                         option=unknown[0], options=", ".join(OPTION_NAMES))
        config = Config(
            turns=_read_turns(options.get("turns")),
            capacity=_read_spaces(options.get("spaces")),
            start=_read_start(options.get("start")),
            eagle_ray=_read_eagle_ray(options.get("eagle_ray")),
            invasive_play=_read_reading("invasive_play", options.get("invasive_play"), INVASIVE_PLAYS),
            dominant_first=_read_reading("dominant_first", options.get("dominant_first"), DOMINANT_FIRSTS),
        )
        spaces: tuple[tuple[str, ...], ...] = ((),) * len(SPACES)
        if config.eagle_ray is not None:
            spaces = tuple((species,) for species in config.eagle_ray)
        return PocketState(player=names[0], config=config, populations=config.start, spaces=spaces)

    # -- actions -------------------------------------------------------------
    def step(self, state: PocketState, action: Action) -> tuple[PocketState, list[Event]]:
        if "player" in action and action["player"] != state.player:
            raise refuse("There is no player {name} at this table; {player} plays alone.",
                         name=repr(action["player"]), player=state.player)
        if state.result is not None:
            raise refuse("The game is over: {why}.", why=_m(OVER_TEXT[state.result]))
        kind = action["type"]
        if kind == "ocean":
            return self._ocean(state, action)
        if kind == "species":
            return self._play_species(state, action)
        if kind == "population":
            return self._population(state, action)
        if kind == "move":
            return self._move(state, action)
        return self._end_turn(state)

    def _ocean(self, state: PocketState, action: Action) -> tuple[PocketState, list[Event]]:
        """Face up to THE OCEAN: +ICONS to the population either way; the ABILITY only on INHABIT."""
        doing = _m("play a card to the ocean")
        species = _species(state, action, doing)
        icons = _number(state, action, "icons", 1, HIGH, doing, _m("a card shows 1 to 7 population icons"))
        mode = _name(state, action, "mode", MODES, doing, _m("a card in the ocean either inhabits or migrates"))
        index = SPECIES.index(species)
        before = state.populations[index]
        after = clamp(before + icons)
        pops = state.populations[:index] + (after,) + state.populations[index + 1 :]
        new = evolve(state, populations=pops, ocean_played=state.ocean_played + 1)
        event = {"type": "ocean", "species": species, "icons": icons, "mode": mode,
                 "from": before, "to": after, "ability": mode == "inhabit"}
        return new, [event]

    def _play_species(self, state: PocketState, action: Action) -> tuple[PocketState, list[Event]]:
        """Face down to a SPECIES space, if the ISLAND BIOME / DOMINANT / forced-INVASIVE rules allow."""
        doing = _m("play a face-down card")
        space = action.get("space")
        if isinstance(space, str) and space.strip().lower() == "ocean":
            raise refuse("{player} cannot play a face-down species to the ocean; "
                         "it goes to the dominant species, island biome or invasive species.", player=state.player)
        space = _name(state, action, "space", SPACES, doing,
                      _m("the face-down spaces are dominant, biome and invasive"))
        species = _species(state, action, doing)
        why = refusal_message(state, species, space)
        if why is not None:
            raise refuse("{player} cannot play {a_species} to {space}: {why}.", player=state.player,
                         a_species=_a(species), space=Term(SPACE_NAMES[space]), why=why)
        index = SPACES.index(space)
        spaces = _with_spaces(state.spaces, index, state.spaces[index] + (species,))
        new = evolve(state, spaces=spaces, species_played=state.species_played + 1,
                      dominant_played=state.dominant_played or space == "dominant")
        return new, [{"type": "species", "space": space, "species": species}]

    def _population(self, state: PocketState, action: Action) -> tuple[PocketState, list[Event]]:
        """An ABILITY's, space's or INVASIVE EFFECT's change that the companion cannot see."""
        doing = _m("change a population")
        species = _species(state, action, doing)
        change = _number(state, action, "change", -HIGH, HIGH, _m("change {population}",
                         population=Term(POPULATION[species])), _m("a change is a whole number from -7 to 7"))
        if change == 0:
            raise refuse("{player}'s {species} population change must not be 0.", player=state.player,
                         species=Term(species))
        index = SPECIES.index(species)
        before = state.populations[index]
        after = clamp(before + change)
        pops = state.populations[:index] + (after,) + state.populations[index + 1 :]
        return evolve(state, populations=pops), [
            {"type": "population", "species": species, "from": before, "to": after}
        ]

    def _move(self, state: PocketState, action: Action) -> tuple[PocketState, list[Event]]:
        """A card moved by an ability or effect: only room is checked, not the playing rules."""
        doing = _m("move a card")
        species = _species(state, action, doing)
        places = SPACES + (ELSEWHERE,)
        where = _m("a card moves between dominant, biome, invasive and elsewhere")
        source = _name(state, action, "from", places, doing, where)
        target = _name(state, action, "to", places, doing, where)
        if source == target:
            raise refuse("{player} cannot move {a_species} from {space} to the same place.", player=state.player,
                         a_species=_a(species), space=Term(SPACE_NAMES[source]))
        spaces = state.spaces
        if source != ELSEWHERE:
            index = SPACES.index(source)
            if species not in spaces[index]:
                raise refuse("{player} cannot move {a_species} from {space}: there is none there.",
                             player=state.player, a_species=_a(species), space=Term(SPACE_NAMES[source]))
            spaces = _with_spaces(spaces, index, _without(spaces[index], species))
        if target != ELSEWHERE:
            index = SPACES.index(target)
            full = _full(spaces[index], state.config.capacity[index])
            if full is not None:
                raise refuse("{player} cannot move {a_species} to {space}: {why}.", player=state.player,
                             a_species=_a(species), space=Term(SPACE_NAMES[target]), why=full)
            spaces = _with_spaces(spaces, index, spaces[index] + (species,))
        return evolve(state, spaces=spaces), [
            {"type": "move", "species": species, "from": source, "to": target}
        ]

    def _end_turn(self, state: PocketState) -> tuple[PocketState, list[Event]]:
        """Populations −1, then the two losses, then the turn tracker and the win."""
        pops, result = end_of_turn(state)
        events: list[Event] = [{"type": "decrease", "populations": dict(zip(SPECIES, pops, strict=True))}]
        common = {"populations": pops, "ocean_played": 0, "species_played": 0}
        if result is None:
            events.append({"type": "turn", "turn": state.turn + 1})
            return evolve(state, survived=state.survived + 1, turn=state.turn + 1, **common), events
        events.append({"type": "game_over", "reason": result})
        if result == "survived":
            return evolve(state, survived=state.survived + 1, result=result, **common), events
        return evolve(state, result=result, **common), events

    # -- reading the state -----------------------------------------------------
    def expected(self, state: PocketState) -> Expected:
        if state.result is not None:
            return Expected((), (), "Game over: {why}.", {"why": _m(OVER_TEXT[state.result])})
        kinds = ["ocean"]
        if any(allowed(state, species) for species in SPECIES):
            kinds.append("species")
        kinds += ["population", "move", "end_turn"]
        prompt = "Turn {turn} of {turns}: play your cards, then end the turn."
        return Expected((state.player,), tuple(kinds), prompt, {"turn": state.turn, "turns": state.config.turns})

    def view(self, state: PocketState, viewer: str | None = None) -> dict[str, Any]:
        """Everything is public in a one-player game; the view is also the full dump."""
        pops = dict(zip(SPECIES, state.populations, strict=True))
        status = "playing" if state.result is None else "won" if state.result == "survived" else "lost"
        config = state.config
        return {
            "game": self.id,
            "round": state.turn,
            "turn": state.turn,
            "turns": config.turns,
            "turns_survived": state.survived,
            "over": state.result is not None,
            "players": [{"name": state.player, "populations": dict(pops),
                         "turns_survived": state.survived, "status": status}],
            "populations": pops,
            "spaces": {space: list(cards) for space, cards in zip(SPACES, state.spaces, strict=True)},
            "space_counts": dict(zip(SPACES, config.capacity, strict=True)),
            "allowed": {species: allowed(state, species) for species in SPECIES},
            "played_this_turn": {"ocean": state.ocean_played, "species": state.species_played},
            "start": dict(zip(SPECIES, config.start, strict=True)),
            "eagle_ray": None if config.eagle_ray is None else dict(zip(SPACES, config.eagle_ray, strict=True)),
            "invasive_play": config.invasive_play,
            "dominant_first": config.dominant_first,
            "dominant_played": state.dominant_played,
        }

    def render_text(self, state: PocketState) -> str:
        """The board as a terminal shows it: three trackers and the three species rows."""
        lines = [f"  {species:<6}{'#' * level}{'.' * (HIGH - level)} {level}"
                 for species, level in zip(SPECIES, state.populations, strict=True)]
        for space, cards, room in zip(SPACES, state.spaces, state.config.capacity, strict=True):
            free = "" if room is None else " ." * (room - len(cards))
            lines.append(f"  {space:<9}{' '.join(cards) or '-'}{free}")
        return "\n".join(lines)

    def scores(self, state: PocketState) -> dict[str, int]:
        """The seed has no points: the score is the number of turns survived."""
        return {state.player: state.survived}

    def winners(self, state: PocketState) -> list[str]:
        return [state.player] if state.result == "survived" else []

    def outcome(self, state: PocketState) -> Outcome | None:
        if state.result is None:
            return None
        text = OVER_TEXT[state.result]
        if state.result == "invasive_takeover":
            text = f"three {PLURAL[invasive_takeover(state.spaces) or 'rat']} sit on the invasive species spaces and you lose"
        return Outcome(state.result, tuple(self.winners(state)), text[0].upper() + text[1:] + ".")

    def candidates(self, state: PocketState) -> list[Action]:
        if state.result is not None:
            return []
        out: list[Action] = [{"type": "end_turn"}]
        for species in SPECIES:
            for icons in (1, 2):
                for mode in MODES:
                    out.append({"type": "ocean", "species": species, "icons": icons, "mode": mode})
            for space in allowed(state, species):
                out.append({"type": "species", "space": space, "species": species})
            out.append({"type": "population", "species": species, "change": -1})
            for index, cards in enumerate(state.spaces):
                if species in cards:
                    out.append({"type": "move", "species": species, "from": SPACES[index], "to": ELSEWHERE})
        return out
