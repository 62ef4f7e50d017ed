"""What fixing mistakes adds to the context: what an undo moves back, redo only when there is something to redo, editing earlier actions."""

from __future__ import annotations

from typing import Any

from companion.session import Session
from web.security import Principal


def extend(ctx: dict[str, Any], session: Session, who: Principal | None, view: str, language: str) -> None:
    """Add this area's keys to ``ctx`` (called last by ``web.views.context``)."""
