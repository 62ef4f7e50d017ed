"""galapagos-dice in French: no English game word on any text the game gives.

For many random states this renders, in French, every form (labels, field and
choice labels, previews, disabled reasons, the plan hint), the prompt, the
narration of the next action, the refusal of wild actions and the OLED timer's
texts, and looks for English game words. It also records every message id
looked up in the game's domain and checks the French catalog has each one, and
that the compiled ``.mo`` is current. The English sentences are unchanged: the
older tests (``test_dice_messages.py``, the scenarios) still read them.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from companion.drawing.canvas import Canvas
from companion.drawing.context import ScreenContext
from companion.engine import catalogs, texts
from companion.engine.rules import RuleError
from companion.games.dice import GAME
from companion.games.dice import oled as dice_oled
from tests.games.test_dice_moves import random_game, wild

RULES = GAME.rules
DOMAIN = GAME.domain
PO = Path(GAME.folder) / "locale" / "fr" / "LC_MESSAGES" / f"{DOMAIN}.po"
#: English game words that must not appear in French texts ("plan" and "points" are French too)
ENGLISH = re.compile(
    r"\b(black|white|red|green|yellow|blue|turtles?|fields?|pawns?|dice|die|sand|timer|bag|rounds?|moves?|"
    r"rolls?|plans|planned|island|volcano|wins?|sets?|takes|stays?|the|and|no|of|nobody|draw)\b",
    re.IGNORECASE,
)
#: what a French text may quote as it is: the API's field names and values, a wrong input echoed back
QUOTED = re.compile(r"«[^»]*»|\[[^\]]*\]|'[^']*'|\"[^\"]*\"")


def english_words(text: str) -> list[str]:
    return ENGLISH.findall(QUOTED.sub("", text))


def french_texts(state, rng: random.Random) -> list[str]:
    """Every text the game gives for ``state`` in French, and for a few actions from it."""
    out = [GAME.prompt(state, "fr")]
    forms = GAME.moves(state, "fr")
    for f in forms:
        out.append(f["label"])
        if f.get("preview"):
            out.append(f["preview"]["text"])
        if f.get("hint"):
            out.append(f["hint"]["text"])
        for field in f["fields"]:
            out.append(field["label"])
            choices = field.get("choices") or field.get("items", {}).get("choices") or []
            for c in choices:
                out.append(c["label"])
                if c.get("preview"):
                    out.append(c["preview"]["text"])
                if c.get("disabled"):
                    out.append(c["disabled"])
    for action in RULES.candidates(state)[:6]:
        after, events = RULES.apply(state, action)
        out += GAME.narrate(state, action, events, after, "fr")
        out.append(GAME.describe(action, "fr"))
    for _ in range(4):
        try:
            RULES.apply(state, wild(rng, state))
        except RuleError as err:
            if err.domain == DOMAIN:  # the interface's own refusals (an unknown player) are not this game's
                out.append(GAME.error_text(err, "fr"))
    out += oled_texts(RULES.public_state(state))
    return out


def oled_texts(public: dict) -> list[str]:
    """The words the timer screen draws (recorded from the canvas)."""
    drawn: list[str] = []
    canvas = Canvas()
    canvas.text = lambda x, y, text, *a, **k: drawn.append(text) or 0  # type: ignore[method-assign]
    canvas.header = lambda left, right="": drawn.extend([left, right])  # type: ignore[method-assign]
    for timer in ("idle", "running", "expired"):
        dice_oled.timer(canvas, {**public, "timer": timer}, ScreenContext(lang="fr"))
    return drawn


@pytest.fixture
def looked_up(monkeypatch):
    """The message ids looked up in the game's domain while rendering French."""
    seen: set[str] = set()
    real = texts.gettext_

    def recording(msgid: str, lang: str = "en", domain: str = texts.INTERFACE) -> str:
        if domain == DOMAIN and lang == "fr":
            seen.add(msgid)
        return real(msgid, lang, domain)

    monkeypatch.setattr(texts, "gettext_", recording)
    return seen


def french_catalog() -> dict[str, str]:
    from babel.messages.pofile import read_po

    with open(PO, "rb") as handle:
        return {m.id: m.string for m in read_po(handle) if m.id}


def test_random_states_show_no_english_game_word_in_french(looked_up):
    rng = random.Random(21)
    states = 0
    for _ in range(10):
        state = random_game(rng)
        for _ in range(150):
            for text in french_texts(state, rng):
                assert not english_words(text), (text, english_words(text))
            states += 1
            if RULES.view(state)["over"]:
                break
            state, _ = RULES.apply(state, rng.choice(RULES.candidates(state)))
    assert states > 300
    catalog = french_catalog()
    placeholders = re.compile(r"^(\{c\d+\}(, )?)*$")  # a list of colours: only its words are translated
    missing = sorted(m for m in looked_up if m not in catalog and not placeholders.match(m))
    assert not missing, missing
    untranslated = sorted(m for m in looked_up if catalog.get(m) == "")
    assert not untranslated, untranslated


def test_every_refusal_of_the_rules_has_its_french_sentence(looked_up):
    """Each refusal the rules can give (the messages tests' cases and the scenarios') reads in French."""
    import json

    scenarios = sorted((Path(__file__).parent.parent / "scenarios").glob("dice_*.jsonl"))
    checked = 0
    for script in scenarios:
        lines = [json.loads(x) for x in script.read_text().splitlines() if x.strip()]
        try:
            state = RULES.setup(lines[0]["players"], lines[0].get("options", {}))
        except RuleError as err:
            assert not english_words(GAME.error_text(err, "fr")), GAME.error_text(err, "fr")
            checked += 1
            continue
        for action in lines[1:]:
            try:
                state, _ = RULES.apply(state, action)
            except RuleError as err:
                fr = GAME.error_text(err, "fr")
                assert fr != err.message and not english_words(fr), fr
                checked += 1
                break
    assert checked >= 20


def test_game_words_and_the_title_are_french():
    assert [GAME.term(c, "fr") for c in ("black", "white", "red", "green", "yellow", "blue")] == [
        "noir", "blanc", "rouge", "vert", "jaune", "bleu"]
    assert GAME.title("fr") == "Galapagos (dés)"
    assert GAME.prompt(RULES.setup(["Ann", "Bob"], {}), "fr") == "Posez les pions et les premières tortues."


def test_the_english_sentences_are_the_message_ids_themselves():
    state = RULES.setup(["Ann", "Bob"], {})
    with pytest.raises(RuleError) as err:
        RULES.apply(state, {"type": "place_turtles", "numbers": [1, 2]})
    assert err.value.message == "Draw 5 turtles, not 2."
    assert GAME.error_text(err.value, "fr") == "Tirez 5 tortues, pas 2."
    assert err.value.msgid == "Draw {want} turtles, not {count}." and err.value.params == {"want": 5, "count": 2}


def test_the_compiled_catalog_is_current():
    assert catalogs.compiled(str(PO)) == PO.with_suffix(".mo").read_bytes()
