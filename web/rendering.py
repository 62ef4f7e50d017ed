"""A page of the dashboard rendered whole: its template with what every page reads (the reader's
language and translators, the pass, its CSRF token, the journal's notices), and a game's translator
for its fragments. Every blueprint that serves HTML renders through here."""

from __future__ import annotations

from typing import Any

from flask import render_template

from companion.engine import texts
from web.access import csrf_for
from web.context import dashboard
from web.i18n import LANGS, lang, translator
from web.security import Principal


def page(template: str, who: Principal | None, **ctx: Any) -> str:
    language = ctx.pop("lang", None) or lang()
    ctx.setdefault("t", translator(language))
    ctx.setdefault("tn", texts.ntranslator(language))  # a count that agrees: « 1 player », « 2–4 players »
    notices = dashboard().extra.get("notices", []) if who is not None and who.is_table else []
    return render_template(template, who=who, csrf=csrf_for(who), lang=language, langs=LANGS,
                           has_sim=dashboard().sim is not None, journal_notices=notices, **ctx)


def game_t(pkg: Any, language: str) -> Any:
    """A game's translator for its fragments (``gt(msgid, **params)``)."""
    return lambda msgid, **params: pkg.t(msgid, language, **params)
