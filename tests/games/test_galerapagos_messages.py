"""Refusals name the player and the move, in English with a French translation."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.games.galerapagos import GAME
from tests.support.galerapagos import (
    fish,
    new,
    play,
    refused,
    searches,
    shoot,
    view,
    vote,
    weather,
    wood,
)

PO = Path(GAME.folder) / "locale" / "fr" / "LC_MESSAGES" / "galerapagos.po"

def _flat(text: str | tuple[str, ...]) -> str:
    """A ``msgid_plural`` entry's forms joined (its blanks are the union of its forms')."""
    return text if isinstance(text, str) else " | ".join(text) if all(text) else ""


CATALOG = {_flat(m.id): _flat(m.string) for m in read_po(PO.open("rb")) if m.id}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("msgid", sorted(CATALOG))
def test_every_sentence_has_a_french_twin_with_the_same_blanks(msgid: str) -> None:
    fr = CATALOG[msgid]
    assert fr, f"no French for {msgid!r}"
    assert fields(msgid) == fields(fr)


def test_the_compiled_catalog_is_current() -> None:
    from companion.engine.catalogs import compiled

    assert PO.with_suffix(".mo").read_bytes() == compiled(str(PO))


def test_a_sick_player_is_told_in_both_languages() -> None:
    s = play(new(), weather(0), *searches("Ann", "Bob", "Cid", "Dan", "Eve"))
    s = play(s, weather(1), wood("Eve", 1, snake=True), *searches("Ann", "Bob", "Cid", "Dan"))
    s = play(s, *[vote(p, "Dan") for p in ["Ann", "Bob", "Cid"]], vote("Dan", "Ann"))
    s = play(s, weather(2))
    err = refused(s, fish("Eve", 1), "Eve is sick and cannot act this round")
    assert err.text("fr", "galerapagos") == "Eve est malade et ne peut pas agir ce tour-ci."
    assert err.text("fr") == err.text("fr", "galerapagos") and err.text("en") == err.message
    assert err.msgid == "{p} is sick and cannot act this round." and err.params == {"p": "Eve"}


def test_out_of_turn_in_both_languages() -> None:
    err = refused(play(new(), weather(0)), fish("Cid", 1), "It is Ann's turn to act, not Cid's.")
    assert err.text("fr", "galerapagos") == "C'est au tour d'Ann d'agir, pas de Cid."


def test_a_dead_player_in_both_languages() -> None:
    s = play(new(), weather(0), shoot("Ann", "Bob"))
    err = refused(s, fish("Bob", 1), "Bob is dead")
    assert "Bob est mort" in err.text("fr", "galerapagos")


def test_what_the_table_is_doing_is_translated_too() -> None:
    err = refused(new(), fish("Ann", 1), "weather card must be turned")
    assert "Ann ne peut pas pêcher maintenant" in err.text("fr", "galerapagos")
    assert "carte Météo" in err.text("fr", "galerapagos")


def test_unknown_players_are_named() -> None:
    err = refused(play(new(), weather(0)), fish("Zed", 1), '"Zed"')
    assert "Zed" in err.text("fr", "galerapagos")
    assert view(new())["players"][0]["name"] == "Ann"


@pytest.mark.parametrize(
    ("card", "words"),
    [
        ({"resource": "water", "amount": 0}, "Ann cannot play a resource card of 0 rations"),
        ({"resource": "wood"}, "Ann's resource card must be water or food"),
        ({"resource": "water", "basket": True}, "Ann's fruit basket is a food card"),
    ],
)
def test_a_refused_resource_card_names_its_player(card: dict, words: str) -> None:
    err = refused(play(new(), weather(0)), {"type": "resource", "player": "Ann", **card}, words)
    assert "Ann" in err.text("fr", "galerapagos")
