"""What a screen may know besides the public state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ScreenContext:
    """Extras for drawing.

    ``entry``: the action being dialled in with the encoder, as text pieces,
    the one the encoder changes marked True. ``editing``: the entry was just
    touched, so the prompt screen comes forward. ``message``: why the last
    action was refused (or a tag is unknown). ``costs``: the auction's
    ``costs(state, player)`` table. ``url``: the dashboard address for the QR.
    """

    message: str | None = None
    entry: tuple[tuple[str, bool], ...] = ()
    editing: bool = False
    costs: dict[str, Any] | None = None
    url: str | None = None
