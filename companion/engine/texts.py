"""Texts through gettext: message ids with parameters, rendered in the reader's language.

The rules never write finished sentences: they raise :class:`companion.engine.rules.RuleError`
and emit events with a *message id* (the English source text with ``{name}``
placeholders, as gettext expects) and parameters. Interfaces render them here,
in the reader's language, from the catalogs of a *domain*: one domain per game
package (``companion/games/<game>/locale``) and one for the interface
(``companion/locale``). The catalogs are ``.po`` files extracted and compiled with
Babel (``make catalogs``); at run time only the standard library's
:mod:`gettext` reads the compiled ``.mo`` files, so the rules stay pure.

Parameters may be :class:`Term` (a word that is itself translated in the same
domain: an animal, a colour, a direction), a list of terms (joined with
commas and « and »/« et »), or :class:`Plural` (a phrase with a count, such as
« 1 drop » / « 3 drops », chosen by gettext's ``ngettext`` from the catalog's
``msgid_plural`` entries and its ``Plural-Forms`` rule: French says « 0 goutte »,
« 1 goutte », « 2 gouttes »). A whole sentence whose words follow a count is
rendered with :func:`render_n`.
"""

from __future__ import annotations

import gettext
import os
import re
from functools import lru_cache
from typing import Any

#: the languages every catalog must cover; English is the message ids themselves
LANGUAGES = ("en", "fr")
INTERFACE = "companion"

# the interface's catalogs sit in companion/locale/, beside the sub-packages
_DOMAINS: dict[str, str] = {INTERFACE: os.path.join(os.path.dirname(os.path.dirname(__file__)), "locale")}


class Term(str):
    """A word passed as a parameter that is translated before it is put in a sentence."""

    __slots__ = ()


class Agreed(Term):
    """A term that agrees with the noun it follows: ``Agreed("blue", "feminine")`` is « bleue » after « tortue ».

    Its French comes from a ``msgctxt`` entry of the catalog (``msgctxt "feminine"``,
    ``msgid "blue"``, ``msgstr "bleue"``); English, or a catalog without that entry,
    reads the plain term.
    """

    #: the ``msgctxt`` of its agreement (« feminine »)
    context: str

    def __new__(cls, word: str, context: str) -> Agreed:
        obj = super().__new__(cls, word)
        obj.context = context
        return obj


def register(domain: str, localedir: str) -> None:
    """Make ``domain``'s catalogs (``localedir/<lang>/LC_MESSAGES/<domain>.mo``) known."""
    _DOMAINS[domain] = localedir
    _catalog.cache_clear()
    _lookup.cache_clear()
    _nlookup.cache_clear()


def domains() -> dict[str, str]:
    return dict(_DOMAINS)


@lru_cache(maxsize=64)
def _catalog(domain: str, lang: str) -> gettext.NullTranslations:
    localedir = _DOMAINS.get(domain)
    if not localedir or lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(domain, localedir, languages=[lang], fallback=True)


def gettext_(msgid: str, lang: str = "en", domain: str = INTERFACE) -> str:
    """``msgid`` in ``lang`` (the domain's catalog, then the interface's, else the id itself)."""
    if lang == "en" or not msgid:
        return msgid
    return _lookup(msgid, lang, domain)


@lru_cache(maxsize=1 << 16)
def _lookup(msgid: str, lang: str, domain: str) -> str:
    """The catalogs never change once registered: every screen asks the same words again and again."""
    text = _catalog(domain, lang).gettext(msgid)
    if text == msgid and domain != INTERFACE:
        text = _catalog(INTERFACE, lang).gettext(msgid)
    if text == msgid:  # an error raised without its domain: any game's catalog that knows it
        for other in list(_DOMAINS):
            if other not in (domain, INTERFACE):
                text = _catalog(other, lang).gettext(msgid)
                if text != msgid:
                    break
    return text


def ngettext_(singular: str, plural: str, n: int, lang: str = "en", domain: str = INTERFACE) -> str:
    """The form of ``singular``/``plural`` for the count ``n`` in ``lang`` (English: one is singular).

    The domain's catalog first, then the interface's, then any game's (as :func:`gettext_`);
    an entry nobody translated falls back to the English forms.
    """
    if lang == "en":
        return singular if n == 1 else plural
    return _nlookup(singular, plural, count(n), lang, domain)


@lru_cache(maxsize=1 << 14)
def _nlookup(singular: str, plural: str, n: int, lang: str, domain: str) -> str:
    order = [domain] + ([INTERFACE] if domain != INTERFACE else []) + [d for d in _DOMAINS if d not in (domain, INTERFACE)]
    for name in order:
        if has_plural(singular, lang, name):
            # the form by the language's rule, two forms (a catalog whose header still says three, as
            # Babel's CLDR default for French does, would otherwise miss its second form and say English)
            entries = getattr(_catalog(name, lang), "_catalog", {})
            return entries.get((singular, plural_index(n, lang, name))) or entries[(singular, 0)]
    # no msgid_plural entry: two plain entries, chosen by the language's own rule (French: « 0 point »)
    return gettext_(plural if plural_index(n, lang, domain) else singular, lang, domain)


def plural_index(n: int, lang: str = "en", domain: str = INTERFACE) -> int:
    """0 for the singular, 1 for the plural, by the ``Plural-Forms`` rule of ``domain``'s catalog in ``lang``."""
    rule = getattr(_catalog(domain, lang), "plural", None)
    if lang == "en" or rule is None:
        return 0 if n == 1 else 1
    return min(1, int(rule(n)))


def has_plural(singular: str, lang: str, domain: str) -> bool:
    """Whether ``domain``'s catalog in ``lang`` has a plural entry for ``singular`` (the tests ask)."""
    catalog = _catalog(domain, lang)
    entries = getattr(catalog, "_catalog", {})
    return (singular, 0) in entries


def count(value: Any) -> int:
    """The number a plural is chosen by (a bool or a missing count reads as 0)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def render_n(singular: str, plural: str, n: int, params: dict[str, Any] | None = None, lang: str = "en",
             domain: str = INTERFACE) -> str:
    """A sentence whose words agree with the count ``n`` (``{n}`` is filled in unless ``params`` names it)."""
    values = {"n": n, **(params or {})}
    text = ngettext_(singular, plural, count(n), lang, domain)
    try:
        filled = {k: param(v, lang, domain) for k, v in values.items()}
        return elide(text, filled, lang).format(**filled)
    except (KeyError, IndexError, ValueError):  # a catalog that lost a placeholder: the English
        english = singular if count(n) == 1 else plural
        return english.format(**{k: param(v, "en", domain) for k, v in values.items()})


class Plural:
    """A phrase that agrees with a count, as a parameter: ``Plural("{n} castaway", "{n} castaways", k)``.

    It is rendered in the sentence's own language and domain, so a rule can raise
    ``RuleError("Water for {who} too few.", who=Plural(...))`` and the refusal reads
    « 1 castaway » and « 2 castaways » in English and « 1 naufragé », « 2 naufragés »
    in French. Extra ``params`` fill the phrase's other placeholders.
    """

    __slots__ = ("singular", "plural", "n", "params")

    def __init__(self, singular: str, plural: str, n: int, **params: Any) -> None:
        self.singular = singular
        self.plural = plural
        self.n = n
        self.params = params

    def text(self, lang: str = "en", domain: str = INTERFACE) -> str:
        return render_n(self.singular, self.plural, self.n, self.params, lang, domain)

    def __str__(self) -> str:
        return self.text("en")

    def __repr__(self) -> str:
        return f"Plural({self.singular!r}, {self.plural!r}, {self.n!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Plural) and (self.singular, self.plural, self.n, self.params) == (
            other.singular, other.plural, other.n, other.params)

    def __hash__(self) -> int:
        return hash((self.singular, self.n))


def join(words: list[str], lang: str = "en") -> str:
    """« a, b and c » in the reader's language."""
    if len(words) <= 1:
        return "".join(words)
    last = gettext_("and", lang)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def pgettext_(context: str, msgid: str, lang: str = "en", domain: str = INTERFACE) -> str:
    """``msgid`` in ``lang`` as it reads in ``context`` (the catalog's ``msgctxt``), else as plain ``msgid``."""
    if lang == "en":
        return msgid
    text = _catalog(domain, lang).pgettext(context, msgid)
    return text if text != msgid else gettext_(msgid, lang, domain)


#: French words that lose their vowel before a vowel: « de Ann » → « d'Ann », « le iguane » → « l'iguane »
_ELIDED = re.compile(r"(?<![\w'’])(de|De|que|Que|le|Le|la|La|ne|se|jusque|lorsque|puisque) \{(\w+)\}")
_VOWELS = set("AEIOUÀÂÉÈÊËÎÏÔÛÙaeiouàâéèêëîïôûù")


def elide(text: str, values: dict[str, Any], lang: str) -> str:
    """Elide the French word before a placeholder whose value starts with a vowel.

    Only the words written just before a ``{placeholder}`` change, so « de {p} » reads
    « d'Ann » and « de Bob » alike, and no word of the catalog's own text is touched.
    A name with a silent h or a y stays as it is (« de Hugo », « de Yann »): either reads.
    """
    if lang != "fr" or "{" not in text:
        return text

    def sub(m: re.Match[str]) -> str:
        value = str(values.get(m.group(2), ""))
        if value[:1] in _VOWELS:
            return f"{m.group(1)[:-1]}'{{{m.group(2)}}}"
        return m.group(0)

    return _ELIDED.sub(sub, text)


def param(value: Any, lang: str, domain: str) -> Any:
    if isinstance(value, Agreed):
        return pgettext_(value.context, str(value), lang, domain)
    if isinstance(value, Term):
        return gettext_(str(value), lang, domain)
    if isinstance(value, list | tuple) and value and all(isinstance(v, Term) for v in value):
        return join([gettext_(str(v), lang, domain) for v in value], lang)
    if isinstance(value, Message):
        return value.text(lang)
    if isinstance(value, Plural):
        return value.text(lang, domain)
    return value


def render(msgid: str, params: dict[str, Any] | None = None, lang: str = "en", domain: str = INTERFACE,
           context: str | None = None) -> str:
    """The sentence ``msgid`` with ``params`` filled in, in ``lang``.

    ``context`` reads the catalog's ``msgctxt`` entry first: a better translation of an
    older entry is added that way, the English unchanged and the old entry left as it was.
    """
    text = pgettext_(context, msgid, lang, domain) if context else gettext_(msgid, lang, domain)
    if not params:
        return text
    values = {k: param(v, lang, domain) for k, v in params.items()}
    try:
        return elide(text, values, lang).format(**values)
    except (KeyError, IndexError, ValueError):  # a catalog that lost a placeholder: the English
        return msgid.format(**{k: param(v, "en", domain) for k, v in params.items()})


class Message:
    """A message id, its parameters and its domain: a sentence not yet in any language."""

    __slots__ = ("msgid", "params", "domain")

    def __init__(self, msgid: str, domain: str = INTERFACE, **params: Any) -> None:
        self.msgid = msgid
        self.domain = domain
        self.params = params

    def text(self, lang: str = "en") -> str:
        return render(self.msgid, self.params, lang, self.domain)

    def __str__(self) -> str:
        return self.text("en")

    def __repr__(self) -> str:
        return f"Message({self.msgid!r}, {self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.msgid, self.params, self.domain) == (other.msgid, other.params, other.domain)

    def __hash__(self) -> int:
        return hash((self.msgid, self.domain))


def translator(lang: str, domain: str = INTERFACE):  # noqa: ANN201 - a small closure
    """``t(msgid, **params)`` for one language and domain (what templates and screens call)."""

    def t(msgid: str, **params: Any) -> str:
        return render(msgid, params, lang, domain)

    return t


def ntranslator(lang: str, domain: str = INTERFACE):  # noqa: ANN201 - a small closure
    """``tn(singular, plural, n, **params)`` for one language and domain: a template's count that agrees."""

    def tn(singular: str, plural: str, n: int, **params: Any) -> str:
        return render_n(singular, plural, n, params, lang, domain)

    return tn
