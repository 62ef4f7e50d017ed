"""The game's words in the reader's language, shared by its moves, narration, screens and pages.

Every text is a message id of the ``pocket-galapagos`` gettext domain (the
English itself) rendered with :func:`companion.engine.texts.render`; this module only
names the game's labels once (a species, a space, a mode) so that no
caller spells them again.
"""

from __future__ import annotations

from typing import Any

from companion.engine import texts
from companion.games.pocket.rules import DOMAIN, ELSEWHERE, PLURAL

#: a species as a label (a button, a tracker) — capitalised game words
SPECIES_LABEL = {"rat": "Rat", "ant": "Ant", "finch": "Finch"}
#: a place as a label; the sentences use :data:`SPACE_NAMES` ("the island biome")
SPACE_LABEL = {
    "dominant": "Dominant species",
    "biome": "Island biome",
    "invasive": "Invasive species",
    ELSEWHERE: "Elsewhere (Middle, ocean, deck, discard)",
}
#: the short place names of a tight screen (the OLED, a log line)
SPACE_SHORT = {"dominant": "dominant", "biome": "biome", "invasive": "invasive", ELSEWHERE: "elsewhere"}
#: a population as a label ("Rat population +2" in a log line)
POPULATION_LABEL = {"rat": "Rat population", "ant": "Ant population", "finch": "Finch population"}
MODE_LABEL = {"inhabit": "Inhabit", "migrate": "Migrate"}


def t(msgid: str, lang: str = "en", **params: Any) -> str:
    """``msgid`` of this game's catalog in ``lang``, with ``params`` filled in."""
    return texts.render(msgid, params, lang, DOMAIN)


def plural(name: str, count: int, lang: str = "en") -> str:
    """"1 rat", "3 finches" / « 3 pinsons »."""
    if count == 1:
        return t("1 {species}", lang, species=texts.Term(name))
    return t("{count} {plural}", lang, count=count, plural=texts.Term(PLURAL[name]))


def label(word: str, lang: str = "en") -> str:
    """A label of :data:`SPECIES_LABEL`, :data:`SPACE_LABEL` or :data:`MODE_LABEL` (or any msgid)."""
    return t(SPECIES_LABEL.get(word) or SPACE_LABEL.get(word) or MODE_LABEL.get(word) or word, lang)


def level_change(name: str, before: int, after: int, lang: str = "en") -> str:
    """"rat 3→5" / « rat 3→5 »: a tracker's move, as the previews and the log show it."""
    return t("{species} {before}→{after}", lang, species=texts.Term(name), before=before, after=after)
