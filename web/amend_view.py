"""What fixing mistakes adds to the context: what an undo moves back, redo only when there is something to redo, editing earlier actions."""

from __future__ import annotations

from typing import Any

from companion import extras, games
from companion.session import Session
from web.security import Principal


def extend(ctx: dict[str, Any], session: Session, who: Principal | None, view: str, language: str) -> None:
    """Add this area's keys to ``ctx`` (called last by ``web.views.context``).

    * ``can_redo``: only the table redoes, and only when the journal holds an undone action
      (a Redo that always answers « nothing to redo » teaches people to ignore it);
    * ``redo_what``: that action in the game's words, for the button's question.
    """
    is_table = bool(who and who.is_table)
    pkg = games.package(session.game)
    viewer = who.viewer() if who else None
    redoable = extras.to_redo(session)
    ctx["can_redo"] = is_table and redoable is not None
    ctx["redo_what"] = pkg.describe(pkg.redact(redoable, viewer), language, viewer) if ctx["can_redo"] else ""
