"""pocket-galapagos texts: English unchanged, French complete.

Moves (labels, previews, disabled reasons), prompts, narration, log lines,
refusals and the OLED frame's words are rendered for many random states in
French; none may contain an English word of the game, every message id the
package renders in French must be in the catalog, and the compiled catalog must
be the one the ``.po`` gives.
"""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from companion.board.screens import render
from companion.drawing import canvas
from companion.drawing.context import ScreenContext
from companion.engine import catalogs, moves, texts
from companion.engine.rules import RuleError
from companion.games import package
from companion.games.pocket.rules import DOMAIN, SPACES, SPECIES
from tests.games.test_pocket_moves import GRID, random_options
from tests.support.pocket import END, RULES, change, move, new, ocean, play, put

GAME = package("pocket-galapagos")
PO = Path(GAME.folder) / "locale" / "fr" / "LC_MESSAGES" / f"{DOMAIN}.po"

#: English words of the game and of its sentences that French never uses
ENGLISH = re.compile(
    r"\b(ants?|finch(es)?|ocean|island|inhabits?|migrates?|turns?|cards?|ability|icons?|elsewhere|deck|discard"
    r"|survived?|survives|won|lost|wins?|loses?|lose|plays?|moves?|moved|the|and|or|of|to|not|cannot|end|change"
    r"|space|spaces|tracker|level|middle|face-down|falls|rises|stays|there|is|are|at|play|game|over|you"
    r"|from|species|sits?|every|three|two|no|none|taken|full|already|first)\b",
    re.IGNORECASE,
)
#: a value typed in an action or an option, quoted as the player must type it (« ant »)
CODE = re.compile(r"«\s[^»]*\s»|\{[^}]*\}|'[a-z_ ]*'|\"[a-z_]*\"")


def english_words(text: str) -> list[str]:
    text = CODE.sub(" ", text).replace("Pocket Galapagos", " ").replace("Ann", " ")
    return [m.group(0) for m in ENGLISH.finditer(text)]


def form_texts(forms: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []

    def fields(fs: list[dict[str, Any]]) -> None:
        for f in fs:
            out.append(f["label"])
            for c in f.get("choices", []):
                out.append(c["label"])
                if c.get("preview"):
                    out.append(c["preview"]["text"])
                if c.get("disabled"):
                    out.append(c["disabled"])
                fields(c.get("fields") or [])

    for f in forms:
        out.append(f["label"])
        if f.get("preview"):
            out.append(f["preview"]["text"])
        fields(f["fields"])
    return out


def oled_words(public: dict[str, Any], lang: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    drawn: list[str] = []
    original = canvas.Canvas.text

    def spy(self, x, y, text, *args, **kwargs):  # noqa: ANN001 - the canvas' own signature
        drawn.append(str(text))
        return original(self, x, y, text, *args, **kwargs)

    monkeypatch.setattr(canvas.Canvas, "text", spy)
    render("populations", public, ScreenContext(lang=lang))
    monkeypatch.setattr(canvas.Canvas, "text", original)
    return drawn


def french_texts(state: Any, rng: random.Random, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text a French table sees at ``state``: moves, prompt, OLED, and for a sample of actions
    (legal or not) the log line, the narration or the refusal."""
    out = form_texts(GAME.moves(state, "fr"))
    out.append(GAME.prompt(state, "fr"))
    out += oled_words(RULES.public_state(state), "fr", monkeypatch)
    for action in rng.sample(GRID, 40):
        out.append(GAME.describe(action, "fr"))
        try:
            after, events = RULES.apply(state, action)
        except RuleError as err:
            out.append(GAME.error_text(err, "fr"))
        else:
            out += GAME.narrate(state, action, events, after, "fr")
    return out


def test_french_moves_prompts_narration_refusals_and_screen_have_no_english_word(monkeypatch) -> None:
    rng = random.Random(11)
    seen = 0
    rendered: set[str] = set()
    spy_domain: set[str] = set()
    original = texts.gettext_

    def spy(msgid: str, lang: str = "en", domain: str = texts.INTERFACE) -> str:
        if domain == DOMAIN and lang == "fr":
            spy_domain.add(msgid)
        return original(msgid, lang, domain)

    monkeypatch.setattr(texts, "gettext_", spy)
    for _game in range(25):
        state = RULES.setup(["Ann"], random_options(rng))
        for _step in range(25):
            for text in french_texts(state, rng, monkeypatch):
                rendered.add(text)
                assert not english_words(text), (english_words(text), text)
                seen += 1
            if state.result is not None:
                break
            state, _ = RULES.apply(state, rng.choice(RULES.candidates(state)))
    assert seen > 20_000 and len(rendered) > 500
    translated = {m.id for m in read_po(PO.open("rb")) if m.id and m.string}
    assert spy_domain - translated == set(), "message ids rendered in French without a translation"


def test_every_french_refusal_of_set_up_is_translated() -> None:
    bad = [(["Ann", "Bob"], {}), (["Ann"], []), (["Ann"], {"x": 1}), (["Ann"], {"start": 3}),
           (["Ann"], {"start": {"mouse": 1}}), (["Ann"], {"start": {"rat": 8}}), (["Ann"], {"turns": 0}),
           (["Ann"], {"spaces": 2}), (["Ann"], {"spaces": {"sea": 1}}), (["Ann"], {"spaces": {"biome": 0}}),
           (["Ann"], {"eagle_ray": {"biome": "rat"}}),
           (["Ann"], {"eagle_ray": {"biome": "rat", "dominant": "eagle", "invasive": "ant"}}),
           (["Ann"], {"invasive_play": "x"}), (["Ann"], {"dominant_first": 3})]
    for players, options in bad:
        with pytest.raises(RuleError) as err:
            RULES.setup(players, options)
        french = GAME.error_text(err.value, "fr")
        assert french != err.value.message and not english_words(french), french


def test_french_sentences_read_as_a_french_table_says_them() -> None:
    state = play(new(), put("biome", "rat"))
    with pytest.raises(RuleError) as err:
        RULES.apply(state, put("biome", "rat"))
    assert GAME.error_text(err.value, "fr") == (
        "Ann ne peut pas jouer un rat sur le biome de l'île : un rat est déjà sur le biome de l'île.")
    assert err.value.message == "Ann cannot play a rat to the island biome: a rat is already on the island biome."
    with pytest.raises(RuleError) as err:
        RULES.apply(new(), {"type": "ocean", "species": "ant", "icons": 0, "mode": "inhabit"})
    assert GAME.error_text(err.value, "fr") == (
        "Ann ne peut pas jouer une carte dans l'océan : une carte porte de 1 à 7 icônes de population, pas 0.")
    assert GAME.prompt(new(), "fr") == "Tour 1 sur 10 : jouez vos cartes, puis finissez le tour."
    assert GAME.prompt(new(), "en") == "Turn 1 of 10: play your cards, then end the turn."
    lost = play(new(turns=1), END)
    assert GAME.prompt(lost, "fr") == "Partie terminée : vous avez survécu à tous les tours et vous gagnez."


def test_the_game_words_in_french() -> None:
    assert [GAME.term(s, "fr") for s in SPECIES] == ["rat", "fourmi", "pinson"]
    labels = {c["value"]: c["label"] for c in GAME.moves(new(), "fr")[0]["fields"][0]["choices"]}
    assert labels == {"rat": "Rat", "ant": "Fourmi", "finch": "Pinson"}
    spaces = GAME.moves(new(), "fr")[1]["fields"][0]["choices"][0]["fields"][0]["choices"]
    assert [c["label"] for c in spaces] == ["Espèce dominante", "Biome de l'île", "Espèce invasive"]
    assert [c["value"] for c in spaces] == list(SPACES)  # the values stay the action's vocabulary


def test_french_narration_of_a_turn() -> None:
    state = new()
    lines = []
    for action in (ocean("ant", 2, "migrate"), put("dominant", "finch"),
                   change("rat", -3), move("finch", "dominant", "elsewhere"), END):
        after, events = RULES.apply(state, action)
        lines += GAME.narrate(state, action, events, after, "fr")
        state = after
    assert lines == [
        "Ann joue une carte fourmi (2 icônes) dans l'océan ; elle migre, sans sa capacité : fourmi 3→5.",
        "Ann joue une carte pinson face cachée sur l'espèce dominante.",
        "La population de rats passe de 3 à 0.",
        "Ann déplace un pinson depuis l'espèce dominante hors des emplacements d'espèces.",
        "Fin du tour 1 : chaque population baisse d'un cran (rat 0→0, fourmi 5→4, pinson 3→2).",
        "Le tour 2 sur 10 commence.",
    ]


def test_french_oled_words(monkeypatch) -> None:
    words = oled_words(RULES.public_state(play(new(), END)), "fr", monkeypatch)
    assert "Tour 2/10" in words and "survécu 1" in words
    assert {"Rat", "Fourmi", "Pinson"} <= set(words)
    won = oled_words(RULES.public_state(play(new(turns=1), END)), "fr", monkeypatch)
    assert "gagné" in won


def test_the_french_species_names_share_one_size_on_the_oled(monkeypatch) -> None:
    """« Fourmi » is too wide for the big font beside the pips: all three names drop to the small one."""
    sizes: dict[str, str] = {}
    original = canvas.Canvas.text

    def spy(self, x, y, text, size="small", *args, **kwargs):  # noqa: ANN001 - the canvas' own signature
        sizes[str(text)] = size
        return original(self, x, y, text, size, *args, **kwargs)

    monkeypatch.setattr(canvas.Canvas, "text", spy)
    render("populations", RULES.public_state(new()), ScreenContext(lang="fr"))
    assert sizes["Rat"] == sizes["Fourmi"] == sizes["Pinson"] != "medium"
    assert all(canvas.Canvas.width(name, sizes[name]) <= 42 for name in ("Rat", "Fourmi", "Pinson"))
    sizes.clear()
    render("populations", RULES.public_state(new()), ScreenContext(lang="en"))
    assert sizes["Rat"] == sizes["Ant"] == sizes["Finch"] == "medium"


def test_the_compiled_catalog_is_current() -> None:
    assert catalogs.compiled(str(PO)) == PO.with_suffix(".mo").read_bytes()


def test_every_french_text_keeps_the_placeholders_it_needs() -> None:
    """A translation may leave a parameter out or use another one the code passes (« {species} » for
    "{a_species}"), but a placeholder the code never passes would make the sentence fall back to English."""
    passed_too = {"a_species": {"species"}}
    for message in read_po(PO.open("rb")):
        if not message.id:
            continue
        ids = set(re.findall(r"\{(\w+)\}", message.id))
        allowed = ids | {extra for name in ids for extra in passed_too.get(name, ())}
        assert set(re.findall(r"\{(\w+)\}", message.string)) <= allowed, message.id


def test_moves_in_english_are_the_message_ids() -> None:
    f = GAME.moves(new(), "en")
    assert [x["label"] for x in f] == ["Play to the ocean", "Play a face-down species", "End the turn",
                                       "Change a population", "Move a card"]
    assert moves.match(f, {"type": "species", "space": "biome", "species": "ant"}) is None


# -- the page fragments (templates/) ------------------------------------------------------

@functools.cache
def _environment() -> Any:
    """The web layer's loaders (its templates, the package's under its id), compiled once for every render."""
    from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PrefixLoader

    web_templates = Path(__file__).parents[2] / "web" / "templates"
    return Environment(loader=ChoiceLoader([FileSystemLoader(str(web_templates)),
                                            PrefixLoader({GAME.id: FileSystemLoader(GAME.templates())})]))


def page_html(state: Any, lang: str) -> dict[str, str]:
    """The package's three fragments rendered as the web layer renders them (its loader, its context keys)."""
    from web.i18n import translator

    env = _environment()
    public = RULES.public_state(state)
    ctx: dict[str, Any] = {"pub": public, "p": public["players"][0], "t": translator(lang), "game_tpl": GAME.id,
                           "gt": lambda msgid, **params: GAME.t(msgid, lang, **params)}
    ctx.update(GAME.page(state, public, "Ann", lang))
    return {name: env.get_template(f"{GAME.id}/{name}.html").render(**ctx) for name in ("picture", "mine", "player")}


def visible_text(html: str) -> str:
    html = re.sub(r'class="[^"]*"|style="[^"]*"', " ", html)
    return re.sub(r"<[^>]+>", " ", html)


def test_the_french_pages_have_no_english_word() -> None:
    rng = random.Random(4)
    for _game in range(15):
        state = RULES.setup(["Ann"], random_options(rng))
        for _step in range(15):
            for name, html in page_html(state, "fr").items():
                text = visible_text(html)
                assert not english_words(text), (name, english_words(text), text)
            if state.result is not None:
                break
            state, _ = RULES.apply(state, rng.choice(RULES.candidates(state)))


def test_the_page_shows_each_tracker_after_the_end_of_the_turn_and_warns_before_a_loss() -> None:
    state = new(start={"rat": 1, "ant": 1})
    board = GAME.page(state, RULES.public_state(state), "Ann", "en")["board"]
    assert [(p["level"], p["after"], p["danger"]) for p in board["populations"]] == [(1, 0, True), (1, 0, True),
                                                                                        (3, 2, False)]
    assert board["warning"] == "Ending the turn now loses: two or more populations would be at 0."
    html = page_html(state, "en")["picture"]
    assert "Ending the turn now loses" in html and "Island biome" in html
    assert "Finir le tour maintenant perd" in page_html(state, "fr")["picture"]


def test_the_page_shows_the_turn_track_the_rows_and_the_outcome() -> None:
    state = play(new(turns=3, spaces={"biome": 2}), put("biome", "rat"), END)
    board = GAME.page(state, RULES.public_state(state), "Ann", "en")["board"]
    assert [(n["n"], n["done"], n["now"]) for n in board["turns"]] == [(1, True, False), (2, False, True),
                                                                       (3, False, False)]
    biome = next(row for row in board["spaces"] if row["space"] == "biome")
    assert biome["free"] == 1 and biome["free_text"] == "1 of 2 spaces taken"
    assert [c["label"] for c in biome["cards"]] == ["Rat"]
    assert board["turn_text"] == "Turn 2 of 3" and board["survived_text"] == "1 of 3 turns survived"
    won = play(state, END, ocean("rat", 3), ocean("ant", 3), END)
    board = GAME.page(won, RULES.public_state(won), "Ann", "fr")["board"]
    assert board["over"] and board["outcome"] == "Vous avez survécu à tous les tours : vous gagnez."
    assert "gagné" in page_html(won, "fr")["player"]
