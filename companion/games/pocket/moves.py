"""Pocket Galapagos' legal moves as forms (see :mod:`companion.engine.moves`).

What is offered is exactly what :meth:`PocketRules.apply` accepts, in its
canonical spelling (lower-case names; the rules also read ``"Rat"`` for
``"rat"``, a typing courtesy that is not a move of its own):

* ``ocean``: any species, 1 to 7 icons, inhabit or migrate (always legal).
* ``species``: a face-down species to the spaces :func:`rules.allowed` lists;
  the other spaces are shown disabled with the rules' own reason.
* ``population``: any species, a change from -7 to 7 but not 0.
* ``move``: a species from a space holding it (or from elsewhere) to another
  place with room.
* ``end_turn``.

Each form names the player and says ``player_optional`` (one player: the rules
accept an action without ``player``). Previews are data with a short ``text``:
the tracker after ("rat 3→5"), the row after, and — cheap to know — how the game
would end if the turn ended right after the move, when that differs from now
("end now: loss"). The end_turn form carries its own preview (every tracker
after the decrease and the result) and asks for confirmation when it ends the game.
"""

from __future__ import annotations

from typing import Any

from companion.engine import moves as engine_moves
from companion.engine.rules import evolve
from companion.engine.texts import Term
from companion.games.pocket import words
from companion.games.pocket.rules import (
    A_SPECIES,
    ELSEWHERE,
    HIGH,
    INVASIVE_LIMIT,
    MODES,
    PLURAL,
    SPACES,
    SPECIES,
    PocketState,
    _full,
    allowed,
    clamp,
    end_of_turn,
    invasive_takeover,
    refusal_message,
)

Form = dict[str, Any]

#: the rules' prompt (message id) as the phone of the player says it (same parameters)
PROMPT_FOR_YOU = {
    "Turn {turn} of {turns}: play your cards, then end the turn.":
        "Turn {turn} of {turns}: play your cards, then end your turn.",
}
#: every legal population change: "a change is a whole number from -7 to 7", and not 0
CHANGES: tuple[int, ...] = tuple(n for n in range(-HIGH, HIGH + 1) if n)
ICONS: tuple[int, ...] = tuple(range(1, HIGH + 1))
#: what the end of the turn would bring, as a preview's warning
END_NOW = {
    "populations_collapsed": "end now: loss",
    "invasive_takeover": "end now: loss",
    "survived": "end now: win",
    None: "end now: safe",
}
#: the end_turn form's last words when ending the turn ends the game
END_TEXT = {
    "populations_collapsed": "you lose: two populations at 0",
    "survived": "you win",
}


def moves(state: PocketState, lang: str = "en") -> list[Form]:
    """Every form the player may submit now (none once the game is over)."""
    if state.result is not None:
        return []
    now = end_of_turn(state)[1]
    levels: dict[tuple[str, int], tuple[str, str | None]] = {}
    out = [_ocean(state, now, lang, levels)]
    played = _species(state, now, lang)
    if played is not None:
        out.append(played)
    out.append(_population(state, now, lang, levels))
    moved = _move(state, now, lang)
    if moved is not None:
        out.append(moved)
    out.append(_end_turn(state, lang))
    return out


# -- previews ------------------------------------------------------------------------

def _risk(after: PocketState, now: str | None, lang: str) -> tuple[str | None, str]:
    """How the game would end if the turn ended in ``after``, and the warning when that changes."""
    result = end_of_turn(after)[1]
    return result, ("" if result == now else " · " + words.t(END_NOW[result], lang))


def _level(state: PocketState, species: str, delta: int, now: str | None, lang: str,
           seen: dict[tuple[str, int], tuple[str, str | None]] | None = None) -> dict[str, Any]:
    """The preview of a population change: "rat 3→5" (and the end-of-turn warning).

    ``seen`` holds the text and the end of the turn already worked out for a tracker's level in
    this state: the ocean's 7 icon counts and the 14 changes of each species reach at most 8
    levels (a tracker stops at 0 and 7), so one call of :func:`moves` computes each once.
    """
    index = SPECIES.index(species)
    before = state.populations[index]
    after = clamp(before + delta)
    known = None if seen is None else seen.get((species, after))
    if known is None:
        pops = state.populations[:index] + (after,) + state.populations[index + 1 :]
        result, warning = _risk(evolve(state, populations=pops), now, lang)
        known = (words.level_change(species, before, after, lang) + warning, result)
        if seen is not None:
            seen[(species, after)] = known
    text, result = known
    return engine_moves.preview(text, species=species, before=before, after=after, end_now=result)


def _row(state: PocketState, space: str, species: str, now: str | None, lang: str) -> dict[str, Any]:
    """The preview of a card laid on ``space``: the row after (and the end-of-turn warning)."""
    index = SPACES.index(space)
    cards = state.spaces[index] + (species,)
    after = evolve(state, spaces=state.spaces[:index] + (cards,) + state.spaces[index + 1 :])
    result, warning = _risk(after, now, lang)
    room = state.config.capacity[index]
    data: dict[str, Any] = {"space": space, "cards": list(cards), "room": room, "end_now": result}
    if space == "invasive":
        count = cards.count(species)
        text = words.t("{count} on the invasive species ({limit} lose)", lang,
                       count=words.plural(species, count, lang), limit=INVASIVE_LIMIT)
        data["count"] = count
    elif room is None:
        text = words.t("{taken} cards there", lang, taken=len(cards))
    else:
        text = words.t("{taken} of {room} spaces taken", lang, taken=len(cards), room=room)
    return engine_moves.preview(text + warning, **data)


# -- the forms ----------------------------------------------------------------------

def _form(state: PocketState, kind: str, label: str, fields: list[dict[str, Any]], lang: str,
          **extra: Any) -> Form:
    return engine_moves.form(kind, state.player, words.t(label, lang), fields, player_optional=True, **extra)


def _species_choice(species: str, state: PocketState, lang: str, fields: list[dict[str, Any]] | None = None,
                    disabled: str | None = None) -> dict[str, Any]:
    level = state.populations[SPECIES.index(species)]
    return engine_moves.choice(species, words.label(species, lang),
                     engine_moves.preview(words.t("{species} at {level}", lang, species=Term(species), level=level),
                                level=level),
                     disabled=disabled, fields=fields)


def _ocean(state: PocketState, now: str | None, lang: str,
           levels: dict[tuple[str, int], tuple[str, str | None]] | None = None) -> Form:
    """A face-up card to THE OCEAN: +ICONS either way, the ABILITY only when it inhabits."""
    modes = engine_moves.pick("mode", words.t("Mode", lang), [
        engine_moves.choice(mode, words.label(mode, lang),
                  engine_moves.preview(words.t("its ability applies" if mode == "inhabit" else "no ability", lang),
                             ability=mode == "inhabit"))
        for mode in MODES])
    choices = []
    for species in SPECIES:
        icons = engine_moves.pick("icons", words.t("Icons", lang), [
            engine_moves.choice(n, words.t("1 icon" if n == 1 else "{n} icons", lang, n=n), _level(state, species, n, now, lang, levels))
            for n in ICONS])
        choices.append(_species_choice(species, state, lang, [icons, modes]))
    return _form(state, "ocean", "Play to the ocean", [engine_moves.pick("species", words.t("Species", lang), choices)], lang)


def _species(state: PocketState, now: str | None, lang: str) -> Form | None:
    """A face-down card to a species space: the allowed spaces, the others with the rules' reason."""
    choices = []
    for species in SPECIES:
        if not allowed(state, species):
            choices.append(_species_choice(species, state, lang, disabled=words.t(
                "no space takes {a_species} now", lang, a_species=Term(A_SPECIES[species]))))
            continue
        spaces = []
        for space in SPACES:
            why = refusal_message(state, species, space)
            spaces.append(engine_moves.choice(space, words.label(space, lang), _row(state, space, species, now, lang),
                                    disabled=None if why is None else why.text(lang)))
        choices.append(_species_choice(species, state, lang, [engine_moves.pick("space", words.t("Space", lang), spaces)]))
    if not engine_moves.enabled(choices):
        return None
    return _form(state, "species", "Play a face-down species", [engine_moves.pick("species", words.t("Species", lang), choices)],
                 lang)


def _population(state: PocketState, now: str | None, lang: str,
                levels: dict[tuple[str, int], tuple[str, str | None]] | None = None) -> Form:
    """An ability's or effect's change the companion cannot see: any species, -7..7 but not 0."""
    choices = []
    for species in SPECIES:
        change = engine_moves.pick("change", words.t("Change", lang), [
            engine_moves.choice(n, f"{n:+d}", _level(state, species, n, now, lang, levels)) for n in CHANGES])
        choices.append(_species_choice(species, state, lang, [change]))
    # an ability's effect: legal whenever a card says so, never the turn's own step
    return _form(state, "population", "Change a population", [engine_moves.pick("species", words.t("Species", lang), choices)],
                 lang, step="also")


def _move(state: PocketState, now: str | None, lang: str) -> Form | None:
    """A card moved by an ability: from where it is (or elsewhere) to another place with room."""
    places = SPACES + (ELSEWHERE,)
    species_choices = []
    for species in SPECIES:
        sources = []
        for source in places:
            spaces = state.spaces
            if source != ELSEWHERE:
                index = SPACES.index(source)
                if species not in spaces[index]:
                    sources.append(engine_moves.choice(source, words.label(source, lang), disabled=words.t(
                        "no {species} is there", lang, species=Term(species))))
                    continue
                cards = list(spaces[index])
                cards.reverse()
                cards.remove(species)
                cards.reverse()
                spaces = spaces[:index] + (tuple(cards),) + spaces[index + 1 :]
            lifted = evolve(state, spaces=spaces)
            targets = [_target(lifted, species, target, now, lang) for target in places if target != source]
            if not engine_moves.enabled(targets):
                sources.append(engine_moves.choice(source, words.label(source, lang),
                                         disabled=words.t("every species space is full", lang)))
                continue
            sources.append(engine_moves.choice(source, words.label(source, lang),
                                     fields=[engine_moves.pick("to", words.t("To", lang), targets)]))
        disabled = None if engine_moves.enabled(sources) else words.t("no {species} can move now", lang, species=Term(species))
        species_choices.append(_species_choice(
            species, state, lang, None if disabled else [engine_moves.pick("from", words.t("From", lang), sources)], disabled))
    if not engine_moves.enabled(species_choices):
        return None
    return _form(state, "move", "Move a card", [engine_moves.pick("species", words.t("Species", lang), species_choices)], lang,
                 step="also")


def _target(lifted: PocketState, species: str, target: str, now: str | None, lang: str) -> dict[str, Any]:
    """Where a lifted card may go: a row with room (with the row after) or elsewhere."""
    if target == ELSEWHERE:
        result, warning = _risk(lifted, now, lang)
        text = words.t("off the species spaces", lang) + warning
        return engine_moves.choice(target, words.label(target, lang), engine_moves.preview(text, end_now=result))
    index = SPACES.index(target)
    full = _full(lifted.spaces[index], lifted.config.capacity[index])
    if full is not None:
        return engine_moves.choice(target, words.label(target, lang), disabled=full.text(lang))
    return engine_moves.choice(target, words.label(target, lang), _row(lifted, target, species, now, lang))


def _end_turn(state: PocketState, lang: str) -> Form:
    """The end of the turn: every tracker −1, then the losses, the turn tracker, the win."""
    pops, result = end_of_turn(state)
    changes = " · ".join(words.level_change(species, before, after, lang)
                         for species, before, after in zip(SPECIES, state.populations, pops, strict=True))
    if result == "invasive_takeover":
        takeover = invasive_takeover(state.spaces) or "rat"
        changes += " · " + words.t("you lose: three {plural} on the invasive species", lang,
                                   plural=Term(PLURAL[takeover]))
    elif result is not None:
        changes += " · " + words.t(END_TEXT[result], lang)
    preview = engine_moves.preview(changes, populations=dict(zip(SPECIES, pops, strict=True)), result=result)
    return _form(state, "end_turn", "End the turn", [], lang, confirm=result is not None, preview=preview,
                 ends_turn=True, last=True)
