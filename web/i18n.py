"""English and French for the dashboard, chosen per phone (a ``lang`` cookie).

The texts are gettext catalogs (:mod:`companion.engine.texts`): the interface's own
(``companion/locale``) and each game package's. Keys are the English texts
themselves, so a missing translation shows English. Prompts, moves, the story
and refusals come from the game package already in the reader's language.
"""

from __future__ import annotations

from typing import Any

from flask import has_request_context, request

from companion.engine import texts

LANGS = texts.LANGUAGES


def lang() -> str:
    """The phone's language: the ``lang`` cookie, else the browser's preference, else English."""
    if not has_request_context():
        return "en"
    chosen = request.cookies.get("lang")
    if chosen in LANGS:
        return chosen
    best = request.accept_languages.best_match(LANGS)
    return best or "en"


def translate(text: str, language: str) -> str:
    return texts.gettext_(text, language)


def translator(language: str):  # noqa: ANN201 - a small closure
    """``t(text, **params)`` in ``language`` (the interface's catalog)."""

    def t(text: str, **params: Any) -> str:
        return texts.render(str(text), params, language)

    def field(name: str) -> str:
        return t(name.replace("_", " "))

    t.field = field  # type: ignore[attr-defined]
    return t
