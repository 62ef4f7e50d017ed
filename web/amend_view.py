"""What fixing mistakes adds to the context: what an undo moves back, redo only when there is something to redo, editing earlier actions."""

from __future__ import annotations

from typing import Any

from flask import render_template

from companion import games
from companion.engine import texts
from companion.table import amend, extras, story
from companion.table.session import Session
from web import forms
from web.i18n import translator
from web.security import Principal

#: what a phone says when an edit set one of its own moves aside (its own value shown: the author's)
MINE_ASIDE = "A correction at the table set your move aside ({what}): make it again, the same or another."


def extend(ctx: dict[str, Any], session: Session, who: Principal | None, view: str, language: str) -> None:
    """Add this area's keys to ``ctx`` (called last by ``web.views.context``).

    * ``can_redo``: only the table redoes, and only when the journal holds an undone action
      (a Redo that always answers « nothing to redo » teaches people to ignore it);
    * ``redo_what``: that action in the game's words, for the button's question;
    * ``undo_what`` / ``undo_back``: what the next undo takes back and the figures that move back
      (« Bob's money: 700 → 1000 »), from the public view for this page's viewer.
    """
    is_table = bool(who and who.is_table)
    pkg = games.package(session.game)
    if not is_table and ctx.get("can_undo"):  # a phone undoes only what it sent itself (its author), not its player's
        ctx["can_undo"] = bool(who and extras.may_undo(session, who.seat))
    viewer = who.viewer() if who else None
    redoable = extras.to_redo(session)
    ctx["can_redo"] = is_table and redoable is not None
    ctx["redo_what"] = pkg.describe(pkg.redact(redoable, viewer), language, viewer) if ctx["can_redo"] else ""
    ctx["undo_back"] = []
    if ctx.get("can_undo"):
        preview = amend.undo_preview(session, viewer, language, by_table=is_table)
        ctx["undo_what"] = preview["what"] or ctx.get("undo_what", "")
        ctx["undo_back"] = preview["back"]
    ctx["can_fix"] = is_table and bool(session.entries or ctx.get("can_redo"))
    if view == "seat" and who is not None and not is_table and who.seat:  # a correction, told to every phone
        told = fresh_correction(session)
        if told is not None:  # its own sentence says « you »
            said = next(("\n".join(c["lines"]) for c in story.corrections(session, language, who.seat)
                         if c["id"] == told["id"]), "")  # a line each: the correction, my seat, the others
            ctx["notice"] = f"{ctx['notice']} {said}" if ctx.get("notice") else said
    if view == "seat" and who is not None and not is_table and who.seat:  # its own moves an edit set aside
        mine = amend.mine_aside(session, who.seat, language)
        if mine:
            again = " ".join(texts.render(MINE_ASIDE, {"what": m["text"]}, language) for m in mine)
            ctx["notice"] = f"{ctx['notice']} {again}" if ctx.get("notice") else again
    ctx["aside_count"] = len(session.set_aside()) if is_table else 0  # waiting to be entered again or dropped


def fresh_correction(session: Session) -> dict[str, Any] | None:
    """The last correction while nothing has been played since (a phone shows it once, until the next move)."""
    fixes = story.corrections(session)
    if not fixes:
        return None
    newest = session.entries[-1].at if session.entries else float("-inf")
    return fixes[-1] if fixes[-1]["at"] >= newest else None


def _page(language: str) -> dict[str, Any]:
    return {"t": translator(language), "fx": forms.helpers(), "lang": language}


def history_html(session: Session, rows: list[dict[str, Any]], aside: list[dict[str, Any]], language: str) -> str:
    """The tablet's « fix an earlier action » panel: every action (newest first) with Edit and Remove,
    and the actions an edit set aside, each with the rules' refusal, to re-enter or drop."""
    return render_template("_history.html", rows=list(reversed(rows)), aside=aside, session=session,
                           **_page(language))


def form_html(session: Session, seq: int, found: dict[str, Any], language: str) -> str:
    """The move form the game offered before action ``seq`` (``GamePackage.moves`` of that state),
    the one that was played first; amend.js fills it in with what was played."""
    offered = found["forms"]
    first = max(1, found.get("first", 0))
    return render_template("_history_form.html", seq=seq, text=found["text"], prefill=found["prefill"],
                           forms_same=offered[:first], forms_other=offered[first:], session=session,
                           **_page(language))
