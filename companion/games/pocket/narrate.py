"""The story of a Pocket Galapagos game, one sentence per event, in the reader's language.

As Board Game Arena's log would tell it: who played what where, each tracker's
move ("rat 3→5"), the end of the turn with every tracker, the next turn, and
the end of the game with its reason. The events carry the levels before and
after; the end of the turn's decrease is told by comparing ``before`` and
``after`` (the event holds only the new levels).
"""

from __future__ import annotations

from typing import Any

from companion.engine import texts
from companion.engine.texts import Term
from companion.games.pocket import words
from companion.games.pocket.rules import (
    A_SPECIES,
    DOMAIN,
    ELSEWHERE,
    HIGH,
    LOW,
    PLURAL,
    POPULATION,
    SPACE_NAMES,
    SPACES,
    SPECIES,
    PocketState,
    invasive_takeover,
)
from companion.games.pocket.rules import _and as joined


def narrate(before: PocketState, action: dict[str, Any], events: list[dict[str, Any]], after: PocketState,
            lang: str = "en") -> list[str]:
    """One sentence per event of ``action``."""
    out: list[str] = []
    for event in events:
        sentence = _event(before, event, after, lang)
        if sentence:
            out.append(sentence)
    return out


def _event(before: PocketState, event: dict[str, Any], after: PocketState, lang: str) -> str | None:
    kind = event.get("type")
    player = before.player
    t = words.t
    if kind == "ocean":
        species, icons = event["species"], event["icons"]
        card = t("1 icon" if icons == 1 else "{n} icons", lang, n=icons)
        # both the species and the species with its article: each language takes the one it needs
        msgid = ("{player} plays {a_species} card ({icons}) to the ocean; it inhabits and its ability applies: {change}."
                 if event["mode"] == "inhabit" else
                 "{player} plays {a_species} card ({icons}) to the ocean; it migrates, without its ability: {change}.")
        return t(msgid, lang, player=player, species=Term(species), a_species=Term(A_SPECIES[species]), icons=card,
                 change=_change(species, event["from"], event["to"], event["from"] + icons, lang))
    if kind == "species":
        species, space = event["species"], event["space"]
        if space == "invasive":
            count = after.spaces[SPACES.index("invasive")].count(species)
            return t("{player} plays a face-down {species} to the invasive species ({count} there).", lang,
                     player=player, species=Term(species), count=words.plural(species, count, lang))
        return t("{player} plays a face-down {species} to {space}.", lang, player=player, species=Term(species),
                 space=Term(SPACE_NAMES[space]))
    if kind == "population":
        species, old, new = event["species"], event["from"], event["to"]
        population = Term(POPULATION[species])
        if new == old:
            msgid = ("{population} stays at {level}: the tracker cannot go higher." if old == HIGH else
                     "{population} stays at {level}: the tracker cannot go lower.")
            return _capital(t(msgid, lang, population=population, level=old))
        msgid = "{population} rises from {before} to {after}." if new > old else "{population} falls from {before} to {after}."
        return _capital(t(msgid, lang, population=population, before=old, after=new))
    if kind == "move":
        species, source, target = event["species"], event["from"], event["to"]
        params = {"player": player, "a_species": Term(A_SPECIES[species])}
        if source == ELSEWHERE:
            return t("{player} moves {a_species} onto {to}.", lang, **params, to=Term(SPACE_NAMES[target]))
        if target == ELSEWHERE:
            return t("{player} moves {a_species} off {from_}.", lang, **params, from_=Term(SPACE_NAMES[source]))
        return t("{player} moves {a_species} from {from_} to {to}.", lang, **params,
                 from_=Term(SPACE_NAMES[source]), to=Term(SPACE_NAMES[target]))
    if kind == "decrease":
        changes = ", ".join(words.level_change(species, old, new, lang) for species, old, new
                            in zip(SPECIES, before.populations, after.populations, strict=True))
        # « baisse d'un cran » (the first catalog entry said « de un »): its corrected French has a context
        return texts.render("End of turn {turn}: every population falls by one ({changes}).",
                            {"turn": before.turn, "changes": changes}, lang, DOMAIN, context="upkeep")
    if kind == "turn":
        return t("Turn {turn} of {turns} begins.", lang, turn=event["turn"], turns=after.config.turns)
    if kind == "game_over":
        return _over(event["reason"], before, after, lang)
    return None


def _change(species: str, old: int, new: int, wanted: int, lang: str) -> str:
    """"rat 3→5", with the reason when the tracker stopped at 7 or 0."""
    text = words.level_change(species, old, new, lang)
    if new != wanted and new in (HIGH, LOW):
        text += " " + words.t("(the tracker stops at {level})", lang, level=new)
    return text


def _over(reason: str, before: PocketState, after: PocketState, lang: str) -> str:
    player = after.player
    if reason == "survived":
        if after.config.turns == 1:
            return words.t("{player} survives the only turn and wins!", lang, player=player)
        return words.t("{player} survives all {turns} turns and wins!", lang, player=player, turns=after.config.turns)
    if reason == "populations_collapsed":
        zero = [species for species, level in zip(SPECIES, after.populations, strict=True) if level == 0]
        if len(zero) == len(SPECIES):
            return words.t("Every population is at 0: {player} loses.", lang, player=player)
        return words.t("Two populations are at 0 ({which}): {player} loses.", lang, which=joined(zero), player=player)
    species = invasive_takeover(after.spaces) or "rat"
    count = after.spaces[SPACES.index("invasive")].count(species)
    return words.t("{count} sit on the invasive species: {player} loses.", lang,
                   count=words.plural(species, count, lang), player=player) if count != 3 else words.t(
        "Three {plural} sit on the invasive species: {player} loses.", lang, plural=Term(PLURAL[species]), player=player)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- a short line per action (a log, an undo button) --------------------------------------

def describe(action: dict[str, Any], lang: str = "en", viewer: str | None = None) -> str | None:
    """"Rat card to the ocean (2 icons, inhabits)"; None when the action is not one of this game's. A solo
    game has no secret: every ``viewer`` reads the same line."""
    kind = action.get("type")
    t = words.t

    def name(key: str, known: tuple[str, ...]) -> str | None:
        value = action.get(key)
        value = value.strip().lower() if isinstance(value, str) else None
        return value if value in known else None

    species = name("species", SPECIES)
    if kind == "end_turn":
        return t("End of the turn", lang)
    if kind == "ocean" and species and name("mode", ("inhabit", "migrate")) and isinstance(action.get("icons"), int):
        msgid = ("{species} card to the ocean ({icons}, inhabits)" if name("mode", ("inhabit", "migrate")) == "inhabit"
                 else "{species} card to the ocean ({icons}, migrates)")
        icons = action["icons"]
        return _capital(t(msgid, lang, species=Term(species),
                          icons=t("1 icon" if icons == 1 else "{n} icons", lang, n=icons)))
    if kind == "species" and species and name("space", SPACES):
        return _capital(t("Face-down {species} to {space}", lang, species=Term(species),
                          space=Term(SPACE_NAMES[name("space", SPACES) or "biome"])))
    if kind == "population" and species and isinstance(action.get("change"), int):
        return _capital(t("{population} {change}", lang, population=Term(words.POPULATION_LABEL[species]),
                          change=f"{action['change']:+d}"))
    places = (*SPACES, ELSEWHERE)
    source, target = name("from", places), name("to", places)
    if kind == "move" and species and source and target:
        return _capital(t("{species} moved: {from_} → {to}", lang, species=Term(species),
                          from_=Term(words.SPACE_SHORT[source]), to=Term(words.SPACE_SHORT[target])))
    return None
