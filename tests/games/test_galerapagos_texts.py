"""Galèrapagos in French: every refusal, prompt, form, preview, narration line and OLED word.

Random games are played with the moves offered; at each state everything a player can read is
rendered in French, and (1) every message id rendered has a French entry in the game's catalog,
(2) no English game word is left in what is shown.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.board.screens import render
from companion.drawing import canvas as canvas_mod
from companion.drawing.context import ScreenContext
from companion.engine import moves as M
from companion.engine import texts
from companion.engine.rules import RuleError
from companion.games.galerapagos import rules as R
from tests.games.test_galerapagos_moves import starving_playout, universe

PKG = games.package("galerapagos")
RULES = PKG.rules
#: English words of the game that must not reach a French reader (cognates like « vote » left out)
ENGLISH = re.compile(r"\b(water|food|wood|raft|rafts|fish|fishes|hurricane|weather|snake|wreck|sick|dead|alive|"
                     r"round|drops?|search|shoot|shoots|survivors?|cards?|the|and|has|with|votes for|tie)\b",
                     re.IGNORECASE)
#: JSON keys and values quoted in a refusal are the API's, not words
QUOTED = re.compile(r"«[^»]*»|\"[^\"]*\"|water \(eau\) ou food \(nourriture\)")


def french_words(text: str) -> list[str]:
    return ENGLISH.findall(QUOTED.sub("", text))


def form_texts(forms: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []

    def walk(fields: list[dict[str, Any]]) -> None:
        for f in fields:
            out.append(f["label"])
            if f.get("preview"):
                out.append(f["preview"]["text"])
            for c in f.get("choices") or []:
                if isinstance(c["value"], str) and c["label"] == c["value"]:
                    continue  # a player's name
                out.append(c["label"])
                if c.get("preview"):
                    out.append(c["preview"]["text"])
                walk(c.get("fields") or [])

    for f in forms:
        out.append(f["label"])
        if f.get("preview"):
            out.append(f["preview"]["text"])
        walk(f["fields"])
    return out


def oled_texts(state: R.State, lang: str) -> list[str]:
    """Every string the game's own screen draws."""
    drawn: list[str] = []
    original = canvas_mod.Canvas.text

    def spy(self: Any, x: int, y: int, text: str, *args: Any, **kw: Any) -> Any:
        drawn.append(text)
        return original(self, x, y, text, *args, **kw)

    canvas_mod.Canvas.text = spy  # type: ignore[method-assign]
    try:
        public = RULES.public_state(state)
        render("rations", public, ScreenContext(lang=lang, data=PKG.screen_data(state, lang)))
    finally:
        canvas_mod.Canvas.text = original  # type: ignore[method-assign]
    return drawn


def everything(state: R.State, rng: random.Random, lang: str) -> list[str]:
    shown = [PKG.prompt(state, lang)]
    shown += form_texts(PKG.moves(state, lang))
    shown += PKG.page(state, RULES.public_state(state), None, lang)["chances"]
    for action in rng.sample(universe(state), 60):
        try:
            after, events = RULES.apply(state, action)
        except RuleError as err:
            shown.append(PKG.error_text(err, lang))
        else:
            shown += PKG.narrate(state, action, events, after, lang)
            shown.append(PKG.describe(action, lang))
    return shown


@pytest.fixture(scope="module")
def states() -> list[R.State]:
    found: list[R.State] = []
    for seed in range(8):
        found += starving_playout(seed)[::4]
    return found


def test_every_text_shown_in_french_is_in_the_catalog(states: list[R.State], monkeypatch: pytest.MonkeyPatch) -> None:
    missing: set[str] = set()
    catalog = texts._catalog("galerapagos", "fr")
    same_in_french = {"Revolver", "Galèrapagos", "{p}→{q}", "{what} {a}→{b}", "{what} +1"}
    original = texts.gettext_

    def spy(msgid: str, lang: str = "en", domain: str = texts.INTERFACE) -> str:
        if domain == "galerapagos" and lang == "fr" and catalog.gettext(msgid) == msgid and msgid not in same_in_french:
            missing.add(msgid)
        return original(msgid, lang, domain)

    monkeypatch.setattr(texts, "gettext_", spy)
    rng = random.Random(1)
    for state in states:
        everything(state, rng, "fr")
        oled_texts(state, "fr")
    assert not missing, sorted(missing)


def test_no_english_game_word_reaches_a_french_reader(states: list[R.State]) -> None:
    rng = random.Random(2)
    leaks: dict[str, str] = {}
    for state in states:
        for text in everything(state, rng, "fr") + oled_texts(state, "fr"):
            for word in french_words(text):
                leaks.setdefault(word.lower(), text)
    assert not leaks, leaks


def test_the_english_is_english(states: list[R.State]) -> None:
    """The check above would pass on an empty page: the same texts in English do name the game's words."""
    rng = random.Random(2)
    words = {w.lower() for state in states[:20] for t in everything(state, rng, "en") for w in french_words(t)}
    assert {"water", "food", "fish"} <= words


def test_a_refusal_keeps_its_english_sentence_and_has_its_french_one() -> None:
    s = RULES.setup(["Ann", "Bob", "Cid"], {})
    with pytest.raises(RuleError) as info:
        RULES.apply(s, {"type": "fish", "player": "Ann", "fish": 1})
    err = info.value
    assert err.message == "Ann cannot fish now: the weather card must be turned first."
    assert PKG.error_text(err, "fr") == "Ann ne peut pas pêcher maintenant : il faut d'abord retourner la carte Météo."


def test_prompts_are_message_ids_rendered_per_language() -> None:
    s = RULES.apply(RULES.setup(["Ann", "Bob", "Cid"], {}), {"type": "weather", "water": 1})[0]
    exp = RULES.expected(s)
    assert exp.prompt == "{p}: fish, collect water or wood, or search the wreck." and exp.params == {"p": "Ann"}
    assert exp.text("en") == "Ann: fish, collect water or wood, or search the wreck."
    assert PKG.prompt(s, "fr") == "Ann : pêchez, collectez de l'eau ou du bois, ou fouillez l'épave."


def test_the_oled_speaks_french() -> None:
    s = RULES.apply(RULES.setup(["Ann", "Bob", "Cid"], {}), {"type": "weather", "water": 2})[0]
    assert "Nourriture" in oled_texts(s, "fr") and "Eau" in oled_texts(s, "fr") and "Food" in oled_texts(s, "en")
    assert any("pluie 2" in t for t in oled_texts(s, "fr"))


def test_the_page_fragments_speak_through_the_game_translator() -> None:
    folder = Path(PKG.templates() or "")
    for name in ("macros.html", "mine.html", "player.html", "setup.html"):
        src = (folder / name).read_text(encoding="utf-8")
        assert not re.search(r"(?<![g\w])t\(", src), f"{name} still uses the interface's t()"


def test_forms_are_labelled_in_french() -> None:
    s = RULES.apply(RULES.setup(["Ann", "Bob", "Cid"], {}), {"type": "weather", "water": 1})[0]
    labels = {f["type"]: f["label"] for f in PKG.moves(s, "fr") if f["player"] in (None, "Ann")}
    assert labels["fish"] == "Pêcher" and labels["search"] == "Fouiller l'épave"
    assert labels["resource"] == "Jouer une carte Ressource"
    wood = next(f for f in PKG.moves(s, "fr") if f["type"] == "wood")
    assert M.enabled(wood["fields"][0]["choices"])[2]["preview"]["text"] == "serpent 33 %, ~2,3 bois"
