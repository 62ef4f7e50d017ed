"""The dice game's message ids: refusals as msgid + parameters, game words as terms.

The rules raise :func:`refuse` (a :class:`RuleError` whose English text is the
message id filled in, and whose French comes from this game's catalog,
``locale/fr/LC_MESSAGES/galapagos-dice.po``). Colours, ordinals and the short
phrases a sentence is built from are :class:`texts.Term`, translated in the
same catalog. Standard library only (:mod:`companion.engine.texts` reads ``.mo``
files with :mod:`gettext`), so the rules stay pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engine import texts
from companion.engine.rules import RuleError

DOMAIN = "galapagos-dice"
COLOUR_WORDS: tuple[str, ...] = ("black", "white", "red", "green", "yellow", "blue")
#: the six colours as one phrase, as the refusals list them ("black, white, red, ...")
ALL_COLOURS = texts.Term(", ".join(COLOUR_WORDS))


def refuse(msgid: str, **params: Any) -> RuleError:
    """A refusal in this game's words: ``raise refuse("{who} has already moved this round.", who=name)``."""
    return RuleError(msgid, domain=DOMAIN, **params)


def colours(seq: Sequence[str]) -> texts.Message:
    """Colours joined by commas, each translated ("red, red, blue" / "rouge, rouge, bleu")."""
    keys = [f"c{i}" for i in range(len(seq))]
    return texts.Message(", ".join("{" + k + "}" for k in keys), DOMAIN,
                         **{k: texts.Term(c) for k, c in zip(keys, seq, strict=True)})


def term(word: str) -> texts.Term:
    return texts.Term(word)


def join(names: Sequence[str], lang: str = "en") -> str:
    """« Ann, Bob and Cy » in ``lang``, with this game's "and" (so it needs no other catalog)."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {texts.gettext_('and', lang, DOMAIN)} {names[-1]}"
