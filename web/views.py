"""What the table and seat pages show: the context for the templates, and live fragments.

A page is rendered whole once; afterwards every SSE message carries the same
fragments rendered again for that page's viewer (``fragments``), which the
page swaps in. Rendering stays on the server, in the templates, and a phone
never receives a fragment rendered for another viewer.

Nothing here names a game: the game package gives the title, the prompt,
the moves, the story, its page extras and its page fragments
(``companion/games/<game>/templates/``, loaded under the game's id).
"""

from __future__ import annotations

import json
import os
import sqlite3
from typing import Any

from flask import render_template

from companion import games
from companion.engine import texts
from companion.table import extras, story
from companion.table.session import Session
from web import amend_view, course_charts, forms, joining, pictures, seat_view, table_view
from web.access import csrf_for
from web.context import dashboard
from web.i18n import translator
from web.security import Principal


def context(session: Session, who: Principal | None, view: str, language: str, seat: str | None = None) -> dict[str, Any]:
    """Everything the table/seat templates read; secrets only for ``who``'s own seat."""
    pkg = games.package(session.game)
    viewer = who.viewer() if who else None
    state = session.state
    pub = session.public(viewer)
    names = [p["name"] for p in pub.get("players", [])]
    me = seat if seat is not None else viewer
    my_entry = next((p for p in pub.get("players", []) if p["name"] == me), None)
    exp = pub.get("expected") or {}
    d = dashboard()
    try:
        claimed = d.seats.claimed(session.id)
    except sqlite3.DatabaseError:  # a read-only card: the page still shows the game
        claimed = []
    is_table = bool(who and who.is_table)
    forms_now, forms_more = forms.page_forms(session, me if view == "seat" else None, language, claimed)
    act_for = forms.act_for_forms(session, language, claimed) if view == "table" and who and who.is_table else []
    t = translator(language)
    tpl = pkg.templates()
    ctx: dict[str, Any] = {
        "session": session, "game": session.game, "title": pkg.title(language),
        "pub": pub, "players": names, "me": me, "my": my_entry, "view": view,
        "expected": exp, "my_turn": me in (exp.get("players") or []),
        "timer": extras.timer(session),
        "prompt": pkg.prompt(state, language),
        "outcome_text": pkg.outcome_text(state, language),
        "phase_label": pkg.phase_label(pub, language),
        "last": story.recent(session, language, viewer),
        "forms_now": forms_now, "forms_more": forms_more, "forms_act_for": act_for, "fx": forms.helpers(),
        "t": t, "gt": lambda msgid, **params: pkg.t(msgid, language, **params), "lang": language,
        "gtn": texts.ntranslator(language, pkg.domain),  # a count that agrees: gtn('{n} card', '{n} cards', n)
        "pictures": pictures, "seat_colour": {n: pictures.SEAT_COLOURS[i % len(pictures.SEAT_COLOURS)] for i, n in enumerate(names)},
        "claimed": claimed, "is_table": is_table,
        "current": d.hub.current == session.id,
        "game_tpl": pkg.id if tpl else None,
        "has_player_tpl": bool(tpl and os.path.exists(os.path.join(tpl, "player.html"))),
        "has_mine_tpl": bool(tpl and os.path.exists(os.path.join(tpl, "mine.html"))),
        "wide_picture": bool(getattr(pkg, "wide_picture", False)),
        "palette": pkg.palette(),
    }
    undoable = extras.to_undo(session)
    ctx["undo_what"] = pkg.describe(pkg.redact(undoable, viewer), language, me) if undoable else ""
    ctx["can_undo"] = bool(undoable) and (is_table or undoable.get("player") == me)
    if ctx["can_undo"] and not is_table and extras.undo_refusal(session, by_table=False, lang=language):
        ctx["can_undo"] = False  # the ballot is revealed: only the table may take it back, whole
    ctx["notice"] = extras.notice(session, language)
    ctx.update(pkg.page(state, pub, me if view == "seat" else None, language) or {})
    ctx["failing"] = _failing(d)
    ctx["form_csrf"] = csrf_for(who) if who is not None else ""
    ctx["next_manche"] = None
    if pub.get("over") and is_table:  # a tournament goes on at the same table with the same players
        nxt = pkg.next_manche(session.options, pub)
        if nxt is not None:
            ctx["next_manche"] = {"game": session.game, "players": "\n".join(session.players),
                                  "options": json.dumps(nxt, ensure_ascii=False)}
    if view == "table":
        ctx["chart"] = pictures.score_chart(extras.score_history(session), names)
        ctx["join_code"] = d.keys.join_code(session.id) if is_table else None
    for extend in EXTENSIONS:  # each page area adds what its templates read (one module each)
        extend(ctx, session, who, view, language)
    return ctx


#: the modules that add to a page's context: the phone's "your move", the table's ribbon and results,
#: the fixing of earlier actions, and the seats the tablet keeps; each is ``extend(ctx, session, who, view, language)``
EXTENSIONS = (seat_view.extend, table_view.extend, amend_view.extend, joining.extend, course_charts.extend)


def _failing(d: Any) -> list[str]:
    """Devices of the table that stopped answering (« bridge lost »), for a banner on every page."""
    try:
        return list((d.health() or {}).get("failing") or []) if d.health else []
    except Exception:  # the health report must never take a page down
        return []


def fragments(session: Session, who: Principal, view: str, language: str, seat: str | None = None) -> dict[str, str]:
    """The live parts of a page, rendered for ``who`` (the table may watch any ``seat``'s page)."""
    ctx = context(session, who, view, language, seat=seat)
    return {
        "state": render_template(f"_{view}_state.html", **ctx),
        "actions": render_template(f"_{view}_actions.html", **ctx),
    }
