"""What a screen may know besides the public state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ScreenContext:
    """Extras for drawing.

    ``entry``: the action being dialled in with the encoder, as text pieces,
    the one the encoder changes marked True. ``editing``: the entry was just
    touched, so the prompt screen comes forward. ``message``: why the last
    action was refused (or a tag is unknown). ``data``: what the game package's
    ``screen_data`` adds (the acting player's costs). ``url``: the dashboard
    address for the QR. ``lang``: the reader's language. ``preview``: the
    preview of the choice under the dial, as a few words. ``game``: the game
    package (for its title and words), or None.
    """

    message: str | None = None
    entry: tuple[tuple[str, bool], ...] = ()
    editing: bool = False
    data: dict[str, Any] = field(default_factory=dict)
    url: str | None = None
    lang: str = "en"
    preview: str = ""
    title: str = ""
    status: str = ""
    #: the move being dialled ("Ann: Education"), shown instead of who must act
    heading: str = ""
    #: seconds the text on screen has been shown: what does not fit scrolls with it
    elapsed: float = 0.0
    #: what a second OK will send, in words (the dial waits for it); "" otherwise
    question: str = ""
    #: ``status`` holds the story of the last action (the toast): the prompt comes forward to tell it
    toasting: bool = False

    @property
    def costs(self) -> dict[str, Any] | None:
        return self.data.get("costs")
