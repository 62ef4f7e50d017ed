"""galapagos-auction texts: a complete French catalog, and no English game word in French.

Random games are played while everything the package says is rendered in
French: the move forms (labels, choices, previews, reasons), the prompt, the
refusals of near-legal actions, the narration, the log lines and the OLED
costs screen. Every message id the package looks up in its domain must be in
the French catalog, and no English game word (an animal, a direction, an
action name) may appear in what a French reader sees.
"""

from __future__ import annotations

import re
from pathlib import Path
from random import Random
from typing import Any

import pytest
from babel.messages.pofile import read_po

import companion.games.auction.rules as rules_module
from companion.board.screens import context_for, render
from companion.drawing.canvas import Canvas
from companion.engine import catalogs, texts
from companion.engine import moves as M
from companion.engine.rules import RuleError
from companion.games.auction import GAME
from companion.games.auction.words import DOMAIN, ENGLISH_WORDS
from tests.games.test_auction_moves import mutate
from tests.support.auction import RULES, act, choose, new, with_player

PO = Path(GAME.folder) / "locale" / "fr" / "LC_MESSAGES" / f"{DOMAIN}.po"
ENGLISH = [re.compile(rf"(?<![\w_]){re.escape(w)}(?![\w_])") for w in ENGLISH_WORDS]
QUOTED = re.compile(r'"[^"]*"')


def french_catalog() -> set[str]:
    with PO.open("rb") as handle:
        return {m.id for m in read_po(handle) if m.id and m.string}


def english_in(text: str) -> list[str]:
    """English game words in ``text`` (quoted API values such as ["crab"] are not words)."""
    bare = QUOTED.sub("", text)
    return [w for w, rx in zip(ENGLISH_WORDS, ENGLISH, strict=True) if rx.search(bare)]


def form_texts(forms: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []

    def walk_field(f: dict[str, Any]) -> None:
        out.append(f["label"])
        if f.get("preview"):
            out.append(f["preview"]["text"])
        choices = f.get("choices") or (f.get("items") or {}).get("choices") or []
        for c in choices:
            out.append(c["label"])
            if c.get("preview"):
                out.append(c["preview"]["text"])
            if c.get("disabled"):
                out.append(c["disabled"])
            for sub in c.get("fields") or []:
                walk_field(sub)

    for f in forms:
        out.append(f["label"])
        for fld in f["fields"]:
            walk_field(fld)
    return out


@pytest.fixture
def looked_up(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The message ids looked up in this game's domain while the test runs."""
    seen: set[str] = set()
    original = texts.gettext_

    def record(msgid: str, lang: str = "en", domain: str = texts.INTERFACE) -> str:
        if domain == DOMAIN and not msgid.isdigit():
            seen.add(msgid)
        return original(msgid, lang, domain)

    monkeypatch.setattr(texts, "gettext_", record)
    monkeypatch.setattr(rules_module, "gettext_", record)
    return seen


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string the OLED canvas draws while the test runs."""
    out: list[str] = []
    text, header = Canvas.text, Canvas.header

    def record_text(self: Canvas, x: int, y: int, s: str, *args: Any, **kwargs: Any) -> int:
        out.append(s)
        return text(self, x, y, s, *args, **kwargs)

    def record_header(self: Canvas, left: str, right: str = "") -> None:
        out.extend([left, right])
        header(self, left, right)

    monkeypatch.setattr(Canvas, "text", record_text)
    monkeypatch.setattr(Canvas, "header", record_header)
    return out


def french_of_random_games(seed: int, games: int, drawn: list[str]) -> list[tuple[str, str]]:
    """(where, French text) for everything a French reader sees over ``games`` random games."""
    rng = Random(seed)
    seen: list[tuple[str, str]] = []
    for game in range(games):
        state = RULES.setup(["Ann", "Bob", "Cid", "Dee", "Eve"][: 2 + game % 4], {})
        while state.phase != "over":
            forms = GAME.moves(state, "fr")
            seen += [("move", s) for s in form_texts(forms)]
            seen.append(("prompt", GAME.prompt(state, "fr")))
            del drawn[:]
            render("costs", RULES.public_state(state), context_for(RULES, state, lang="fr"))
            seen += [("oled", s) for s in drawn if s]
            pool = [a for f in forms for a in M.expand(f, 20, rng)] + RULES.candidates(state)
            for _ in range(15):
                action = mutate(rng.choice(pool), rng)
                try:
                    RULES.apply(state, action)
                except RuleError as err:
                    if err.domain == DOMAIN:  # the shape checks shared by every game are the interface's
                        seen.append(("refusal", GAME.error_text(err, "fr")))
            action = rng.choice(pool)
            after, events = RULES.apply(state, action)
            seen += [("story", s) for s in GAME.narrate(state, action, events, after, "fr")]
            seen.append(("log", GAME.describe(action, "fr")))
            state = after
    return seen


def test_french_shows_no_english_game_word(looked_up: set[str], drawn: list[str]) -> None:
    seen = french_of_random_games(11, 4, drawn)
    assert len(seen) > 5000
    bad = [(where, text, english_in(text)) for where, text in seen if english_in(text)]
    assert not bad, bad[:10]


def test_every_message_id_used_is_in_the_french_catalog(looked_up: set[str], drawn: list[str]) -> None:
    french_of_random_games(12, 3, drawn)
    for err_state, action in refusals_of_every_kind():
        with pytest.raises(RuleError) as info:
            RULES.apply(err_state, action)
        GAME.error_text(info.value, "fr")
    missing = sorted(looked_up - french_catalog())
    assert not missing, missing


def refusals_of_every_kind() -> list[tuple[Any, dict[str, Any]]]:
    """Refusals random play seldom reaches (each one a rulebook sentence refused)."""
    from dataclasses import replace

    start = RULES.setup(["Ann", "Bob"], {})
    table = new(("Ann", "Bob"))
    going = choose(table, "N")
    poor = with_player(table, "Ann", money=300, animals={"crab": 2})
    return [
        (start, act("bid", "Ann", direction="N", amount=100)),
        (start, act("tile", direction="N", animals=["crab", "crab"])),
        (start, act("tile", direction="N", animals="crab")),
        (start, act("tile", direction="N", animals=["dodo", "crab"])),
        (replace(table, phase="tile", tiles=(None,) + table.tiles[1:]),
         act("tile", direction="N", animals=["sea_lion", "iguana"])),
        (table, act("tile", direction="N", animals=["sea_lion", "iguana"])),
        (table, act("direction", "Ann", direction="N")),
        (going, act("direction", "Ann", direction="N")),
        (replace(going, cards=7), act("education", "Ann", steps=1)),
        (replace(going, cards=6), act("education", "Ann", steps=1, wildcard=True)),
        (with_player(going, "Ann", education=25), act("education", "Ann", steps=1)),
        (with_player(going, "Ann", money=0), act("education", "Ann", steps=1)),
        (replace(going, supply=(0,) * 6), act("expedition", "Ann", animal="sea_lion")),
        (going, act("expedition", "Ann", animal="crab")),
        (going, act("sale", "Ann", animal="crab")),
        (going, act("exhibition", "Ann", animals=["crab"])),
        (with_player(going, "Ann", animals={"crab": 1}), act("exhibition", "Ann", animals=["crab", "crab"])),
        (with_player(going, "Ann", animals={"crab": 1}), act("exhibition", "Ann", animals=["crab"], bonus="6")),
        (with_player(going, "Ann", animals={"crab": 1}), act("exhibition", "Ann", animals=["crab"], bonus="crab")),
        (with_player(going, "Ann", animals={"crab": 1}), act("exhibition", "Ann", animals=["crab"], bonus="x")),
        (going, act("sell_cards", "Ann", count=0)),
        (going, act("exchange", "Ann", give=["crab"], take="crab")),
        (going, act("exchange", "Ann", give=["crab", "crab"], take="crab")),
        (replace(poor, phase="bidding", bids=((0, 0, 200),)), act("exchange", "Ann", give=["crab", "crab"], take="booby")),
        (replace(poor, supply=(0,) * 6), act("exchange", "Ann", give=["crab", "crab"], take="booby")),
        (replace(going, phase="over"), act("done", "Ann")),
    ]


def test_setup_refusals_speak_french() -> None:
    for options in ({"x": 1}, {"bonus_order": 3}, {"bonus_order": ["1"]}):
        with pytest.raises(RuleError) as info:
            RULES.setup(["Ann", "Bob"], options)
        assert info.value.text("fr", DOMAIN) != info.value.message


def test_refusals_keep_their_english_and_gain_a_french_sentence() -> None:
    state = with_player(choose(new(), "S"), "Ann", money=300)
    with pytest.raises(RuleError) as info:
        RULES.apply(state, act("expedition", "Ann", animal="crab"))
    assert info.value.message == "Ann has £300 and cannot pay £1000 for a crab."
    assert GAME.error_text(info.value, "fr") == "Ann a 300 £ et ne peut pas payer 1000 £ pour un crabe."
    assert GAME.prompt(state, "fr") == "Ann : jouez vos cartes Sud, puis « Terminé »."
    assert GAME.prompt(new(), "en") == "Ann: bid or pass."


def test_labels_and_previews_speak_french() -> None:
    forms = GAME.moves(choose(new(), "S"), "fr")
    labels = [c["label"] for f in forms for fld in f["fields"] if "choices" in fld for c in fld["choices"]]
    assert "crabe" in labels and "iguane" in labels
    edu = next(f for f in forms if f["type"] == "education")
    assert edu["label"] == "Éducation"
    assert edu["fields"][0]["choices"][3]["preview"]["text"] == "1000 £"


def test_the_compiled_catalog_is_current() -> None:
    mo = PO.with_suffix(".mo")
    assert mo.read_bytes() == catalogs.compiled(str(PO))
