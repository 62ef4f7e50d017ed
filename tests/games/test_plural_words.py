"""Counts agree with their nouns in every game's story, prompts and refusals, in English and French.

The tester's report: « 1 drops », « castaway(s) », « card(s) ». A count now picks its form
with gettext's ngettext (``msgid_plural`` entries; French: « 0 goutte », « 1 goutte »,
« 2 gouttes »). Random games of the four games are played through the moves offered; at
each state the prompt, the narration and short line of offered moves, and the refusals of
moves bent out of shape are rendered in both languages, and no « (s) », no « 1 <plural> »,
no English « 0 <singular> » and no French « 2 <singular> » or « 0/1 <plural> » is left.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from companion import games
from companion.engine import moves as M
from companion.engine import texts
from companion.engine.rules import RuleError

GAMES = ("galapagos-auction", "galapagos-dice", "galerapagos", "pocket-galapagos")
#: names with a vowel first, so the French elision checks (test_french_words) meet them too
NAMES = ["Ann", "Eve", "Bob", "Oscar", "Ines"]

EN_NOUNS = r"(drop|card|castaway|place|survivor|point|turtle|ball|vote|ration|water ration|step|education step|icon|piece)"
FR_NOUNS = r"(goutte|carte|naufragé|place|survivant|point|tortue|boule|ration|case|icône|morceau)"
EN_BAD = [re.compile(r"\(s\)"), re.compile(rf"(?<![\d.,£])\b1 (more )?{EN_NOUNS}s\b"),
          re.compile(rf"(?<![\d.,£])\b0 (more )?{EN_NOUNS}\b(?!s)")]
FR_BAD = [re.compile(r"\((s|e|es|x|en)\)"), re.compile(rf"(?<![\d.,])\b[01] {FR_NOUNS}s\b"),
          re.compile(rf"(?<![\d.,])\b([2-9]|[1-9]\d+) {FR_NOUNS}\b(?![sx])")]


def players_for(game: str) -> list[str]:
    rules = games.get(game)
    return NAMES[: max(rules.min_players, min(3, rules.max_players))]


def concrete(form: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """One offered move, the longest of a few (a path that reaches turtles, so the dice game ends)."""
    found = list(M.expand(form, limit=6, rng=rng))
    if not found:
        return None
    return max(found, key=lambda a: sum(len(v) for v in a.values() if isinstance(v, list)))


def bent(action: dict[str, Any], names: list[str]) -> Iterator[dict[str, Any]]:
    """The same move made wrong: another player, counts off by one or far out, a field left out."""
    for name in names:
        if action.get("player") not in (None, name):
            yield {**action, "player": name}
    for key, value in action.items():
        if isinstance(value, bool):
            yield {**action, key: not value}
        elif isinstance(value, int):
            for v in (value - 1, value + 1, 0, 1, 2, 99):
                yield {**action, key: v}
        elif isinstance(value, list) and value:
            yield {**action, key: value[:-1]}
            yield {**action, key: value + value[-1:]}
        if key not in ("type", "player"):
            yield {k: v for k, v in action.items() if k != key}


def playout(game: str, seed: int, steps: int = 800) -> Iterator[tuple[Any, dict[str, Any], Any, list[dict[str, Any]]]]:
    """(before, action, after, events) of a random game played through the offered moves."""
    rng = random.Random(seed)
    pkg = games.package(game)
    rules = pkg.rules
    names = players_for(game)
    state = rules.setup(names, pkg.default_options({}) if hasattr(pkg, "default_options") else {})
    recent: list[str] = []
    for _ in range(steps):
        forms = [f for f in pkg.moves(state, "en") if M.count(f)]
        rng.shuffle(forms)
        # a move played again and again (a plan changed, a card laid) would keep the game from its end
        forms.sort(key=lambda f: recent[-12:].count(f"{f['type']}:{f['player']}"))
        for form in forms:
            action = concrete(form, rng)
            if action is None:
                continue
            try:
                after, events = rules.apply(state, action)
            except RuleError:
                continue
            yield state, action, after, events
            recent.append(f"{form['type']}:{form['player']}")
            state = after
            break
        else:
            return
        if rules.outcome(state) is not None:
            return


def shown(game: str, seeds: range) -> Iterator[tuple[str, str]]:
    """(language, text) for everything a reader meets along random games."""
    pkg = games.package(game)
    rules = pkg.rules
    rng = random.Random(7)
    for seed in seeds:
        for before, action, after, events in playout(game, seed):
            names = players_for(game)
            for lang in ("en", "fr"):
                yield lang, pkg.prompt(before, lang)
                yield from ((lang, line) for line in pkg.narrate(before, action, events, after, lang))
                yield lang, pkg.describe(action, lang)
            wrong = list(bent(action, names))
            for other in rng.sample(wrong, min(6, len(wrong))):
                try:
                    rules.apply(before, other)
                except RuleError as err:
                    yield "en", pkg.error_text(err, "en")
                    yield "fr", pkg.error_text(err, "fr")
                else:
                    for lang in ("en", "fr"):
                        yield lang, pkg.describe(other, lang)


def mismatches(pairs: Iterator[tuple[str, str]]) -> dict[str, str]:
    found: dict[str, str] = {}
    for lang, text in pairs:
        for pattern in EN_BAD if lang == "en" else FR_BAD:
            hit = pattern.search(text)
            if hit:
                found.setdefault(f"{lang}: {hit.group(0)}", text)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_counts_agree_with_their_nouns_in_random_games(game: str) -> None:
    seeds = range(10) if game == "galerapagos" else range(3)  # its games are short: more of them
    found = mismatches(shown(game, seeds))
    assert not found, found


def test_the_check_finds_what_the_tester_found() -> None:
    """The patterns are not blind: the tester's sentences are caught."""
    bad = [("en", "Weather card: 1 drops"), ("en", "Water for 2 castaway(s) too few"), ("fr", "1 cartes"),
           ("fr", "Carte Météo : 3 goutte"), ("en", "0 point"), ("fr", "0 points")]
    assert len(mismatches(iter(bad))) == len(bad)
    good = [("en", "Weather card: 1 drop"), ("en", "0 points"), ("fr", "0 point"), ("fr", "2 gouttes"),
            ("fr", "la tortue 36"), ("en", "£1 points")]
    assert not mismatches(iter(good))


@pytest.mark.parametrize(("lang", "n", "expected"), [
    ("en", 0, "0 drops"), ("en", 1, "1 drop"), ("en", 2, "2 drops"),
    ("fr", 0, "0 goutte"), ("fr", 1, "1 goutte"), ("fr", 2, "2 gouttes"),
])
def test_french_counts_zero_and_one_as_singular(lang: str, n: int, expected: str) -> None:
    line = games.package("galerapagos").describe({"type": "weather", "water": n}, lang)
    assert line.endswith(expected), line


def test_a_refusal_carries_its_count_into_each_language() -> None:
    rules = games.get("galerapagos")
    s = rules.setup(["Ann", "Bob", "Cid"], {})
    s = rules.apply(s, {"type": "weather", "water": 1})[0]
    for a in ({"type": "fish", "player": "Ann", "fish": 1}, {"type": "fish", "player": "Bob", "fish": 1},
              {"type": "fish", "player": "Cid", "fish": 1}):
        s = rules.apply(s, a)[0]
    with pytest.raises(RuleError) as info:
        rules.apply(s, {"type": "give", "player": "Ann", "target": "Bob", "count": 9})
    pkg = games.package("galerapagos")
    held = s.cards[0]
    assert f"{held} card" in info.value.message and "(s)" not in info.value.message
    assert texts.ngettext_("{n} card", "{n} cards", 0, "fr", "galerapagos") == "{n} carte"
    assert "carte(s)" not in pkg.error_text(info.value, "fr")


def test_every_plural_rendered_has_its_french_forms() -> None:
    """Each ngettext pair met along the games has a ``msgid_plural`` entry (or two plain ones) in French."""
    missing: set[str] = set()
    original = texts.render_n

    def spy(singular: str, plural: str, n: int, params: Any = None, lang: str = "en",
            domain: str = texts.INTERFACE) -> str:
        if lang == "fr" and not any(texts.has_plural(singular, "fr", d) for d in texts.domains()) \
                and texts.gettext_(singular, "fr", domain) == singular and texts.gettext_(plural, "fr", domain) == plural:
            missing.add(singular)
        return original(singular, plural, n, params, lang, domain)

    texts.render_n = spy  # type: ignore[assignment]
    try:
        for game in GAMES:
            for _ in shown(game, range(1)):
                pass
    finally:
        texts.render_n = original  # type: ignore[assignment]
    assert not missing, sorted(missing)


@pytest.mark.parametrize(("singular", "plural", "n", "french"), [
    ("{k} such card left", "{k} such cards left", 1, "encore 1 carte de ce type"),
    ("+{n} ball", "+{n} balls", 3, "+3 boules"),
    ("{n} vote", "{n} votes", 0, "0 voix"),
    ("{names} dies", "{names} die", 2, "Ann et Bob meurent"),
    ("{n} raft card", "{n} raft cards", 3, "3 cartes Radeau"),
])
def test_the_move_previews_plurals_are_ready_in_french(singular: str, plural: str, n: int, french: str) -> None:
    """The plural entries of the Galèrapagos previews and page (moves.py, macros.html: their owners' files)."""
    games.packages()  # registers each game's catalogs
    tn = texts.ntranslator("fr", "galerapagos")
    assert tn(singular, plural, n, k=n, names="Ann et Bob") == french
    assert "(s)" not in texts.ntranslator("en", "galerapagos")(singular, plural, n, k=n, names="Ann")


def test_a_catalog_whose_header_says_three_french_forms_still_gives_the_plural(tmp_path: Any,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Babel's default French header has three forms (the « many » of millions); a plural entry still works."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalog = Catalog(locale="fr", domain="words-test")
    catalog.add(("{n} drop", "{n} drops"), ("{n} goutte", "{n} gouttes"))
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(folder / "words-test.mo", "wb") as handle:
        write_mo(handle, catalog)
    monkeypatch.setattr(texts, "_DOMAINS", dict(texts._DOMAINS))
    texts.register("words-test", str(tmp_path))
    try:
        assert [texts.ngettext_("{n} drop", "{n} drops", n, "fr", "words-test") for n in (0, 1, 2, 5)] == [
            "{n} goutte", "{n} goutte", "{n} gouttes", "{n} gouttes"]
    finally:  # the domain goes with the monkeypatched registry; its cached lookups go now
        texts._catalog.cache_clear()
        texts._lookup.cache_clear()
        texts._nlookup.cache_clear()
