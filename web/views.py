"""What the table and seat pages show: the context for the templates, and live fragments.

A page is rendered whole once; afterwards every SSE message carries the same
fragments rendered again for that page's viewer (``fragments``), which the
page swaps in. Rendering stays on the server, in the templates, and a phone
never receives a fragment rendered for another viewer.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from flask import render_template

from companion import extras
from companion.session import Session
from web import forms, pictures
from web.context import dashboard
from web.i18n import prompt, translator
from web.security import Principal

GAME_TITLES = {
    "galapagos-auction": "Galapagos",
    "galapagos-dice": "Galapagos (dice)",
    "pocket-galapagos": "Pocket Galapagos",
    "galerapagos": "Galèrapagos",
}


def context(session: Session, who: Principal | None, view: str, language: str, seat: str | None = None) -> dict[str, Any]:
    """Everything the table/seat templates read; secrets only for ``who``'s own seat."""
    viewer = who.viewer() if who else None
    pub = session.public(viewer)
    names = [p["name"] for p in pub.get("players", [])]
    me = seat if seat is not None else viewer
    my_entry = next((p for p in pub.get("players", []) if p["name"] == me), None)
    exp = pub.get("expected") or {}
    primary, more = forms.split_kinds(session, pub, me if view == "seat" else None)
    d = dashboard()
    t = translator(language)
    ctx: dict[str, Any] = {
        "session": session, "game": session.game, "title": GAME_TITLES.get(session.game, session.rules.name),
        "pub": pub, "players": names, "me": me, "my": my_entry, "view": view,
        "expected": exp, "my_turn": me in (exp.get("players") or []),
        "timer": extras.timer(session),
        "prompt": prompt(exp.get("prompt") or "", language),
        "last": [{"seq": a["seq"], "text": forms.describe_in(session, a["action"], None, t), "source": a["source"]}
                 for a in extras.last_actions(session, viewer)],
        "forms_now": forms.forms(session, pub, me if view == "seat" else None, primary),
        "forms_more": forms.forms(session, pub, me if view == "seat" else None, more),
        "quick": forms.quick(session, me if view == "seat" else None, t),
        "t": t, "lang": language,
        "pictures": pictures, "seat_colour": {n: pictures.SEAT_COLOURS[i % len(pictures.SEAT_COLOURS)] for i, n in enumerate(names)},
        "claimed": d.seats.claimed(session.id),
        "is_table": bool(who and who.is_table),
        "current": d.hub.current == session.id,
    }
    undoable = extras.to_undo(session)
    ctx["undo_what"] = forms.describe_in(session, extras.redact(session.game, undoable, viewer), me, t) if undoable else ""
    ctx["can_undo"] = bool(undoable) and (ctx["is_table"] or undoable.get("player") == me)
    bare = {f.type for f in ctx["forms_now"] + ctx["forms_more"] if not f.visible}
    ctx["quick"] = [q for q in ctx["quick"] if q["type"] not in bare]  # the form is already one button
    ctx.update(_game_extras(session, pub, me))
    rolled = (pub.get("rolls") or {}).get(me) if view == "seat" else None
    if rolled:  # dice are thrown once a round: no second roll, and the plan starts from them
        ctx["forms_now"] = [f for f in ctx["forms_now"] if f.type != "roll"]
        for f in ctx["forms_now"]:
            f.fields = [replace(x, value=list(rolled)) if x.name == "dice" else x for x in f.fields]
    if view == "table":
        ctx["chart"] = pictures.score_chart(extras.score_history(session), names)
        ctx["join_code"] = d.keys.join_code(session.id) if who and who.is_table else None
    return ctx


def _game_extras(session: Session, pub: dict[str, Any], me: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if session.game == "galapagos-dice" and pub.get("layout"):
        pawns: dict[int, list[tuple[int, str]]] = {}
        for seat, p in enumerate(pub.get("players", [])):
            if p.get("field") is not None:
                pawns.setdefault(int(p["field"]), []).append((seat, p["name"]))
        out["island"] = pictures.island(pub["layout"], pub.get("island"), pawns)
    if me and session.game == "galapagos-auction":
        out["costs"] = extras.costs(session, me)
    if me and session.game == "galapagos-dice":
        rolled = (pub.get("rolls") or {}).get(me)
        if rolled and me not in (pub.get("plans") or []) and pub.get("phase") == "plan":
            try:
                hint = extras.hint(session, me, rolled)
            except Exception:  # no pawn yet, odd dice: no hint rather than no page
                hint = None
            if hint is not None:
                plan = {"type": "plan", "player": me, "dice": hint["order"]}
                out["hint"] = {**hint, "json": json.dumps(plan)}
    draws = extras.draws(session.game)
    exp = pub.get("expected") or {}
    out["draws"] = [
        {"what": what, "player": p}
        for what, needs in draws.items()
        if _draw_action(what) in (exp.get("actions") or [])
        for p in ((exp.get("players") or []) if needs else [None])
        if me is None or (needs and p == me)  # a phone draws only its own (dice), never the table's cards
        if not (what == "dice" and p in (pub.get("rolls") or {}))  # thrown already
    ]
    if session.game == "galerapagos":
        out["odds"] = extras.odds(session)
    return out


def _draw_action(what: str) -> str:
    return {"dice": "roll"}.get(what, what)


def fragments(session: Session, who: Principal, view: str, language: str, seat: str | None = None) -> dict[str, str]:
    """The live parts of a page, rendered for ``who`` (the table may watch any ``seat``'s page)."""
    ctx = context(session, who, view, language, seat=seat)
    return {
        "state": render_template(f"_{view}_state.html", **ctx),
        "actions": render_template(f"_{view}_actions.html", **ctx),
    }
