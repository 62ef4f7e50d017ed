"""OLED screens, drawn from a game's PUBLIC state (the dict ``companion script`` prints).

Nothing here reads a rules module's internals: each screen is a function of
the public state plus a small :class:`ScreenContext` (the entry being dialled
in, a refusal message, the auction's cost table, the dashboard address).
:func:`choose` picks the screen a table wants to see for a state;
:func:`render` draws any screen by name into a 128×64 one-bit image.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from companion import games
from companion.board.screens import common, course, lobby, network, walk
from companion.board.screens.common import reading_seconds
from companion.drawing.canvas import Canvas
from companion.drawing.common import scores
from companion.drawing.context import ScreenContext

Screen = Callable[[Canvas, dict[str, Any], ScreenContext], None]

#: the screens every game shares; a game package adds its own (``GamePackage.screens``)
SCREENS: dict[str, Screen] = {
    "prompt": common.prompt,
    "scores": scores,
    "qr": common.qr,
    "error": common.error,
    "confirm": common.confirm,
    "lobby": lobby.lobby,
    "course": course.course,
    network.WIFI_SCREEN: network.wifi,
    walk.WALK_SCREEN: walk.walk,
}


class UnknownScreen(ValueError):
    pass


def _package(state: dict[str, Any]) -> Any | None:
    try:
        return games.package(state.get("game"))
    except Exception:
        return None


def screens_for(state: dict[str, Any]) -> dict[str, Screen]:
    """The shared screens plus those of the state's game."""
    pkg = _package(state)
    return {**SCREENS, **(pkg.screens() if pkg is not None else {})}


def cycle(game: str | None) -> tuple[str, ...]:
    """The screens Up/Down cycle through for ``game`` (the first is the usual one)."""
    pkg = _package({"game": game})
    out = tuple(pkg.cycle) if pkg is not None else ("prompt", "scores", "qr")
    return out if "course" in out else out + ("course",)  # every game's course sparkline, last


def render(name: str, state: dict[str, Any], ctx: ScreenContext | None = None) -> Image.Image:
    """Draw screen ``name`` for ``state``."""
    available = screens_for(state)
    try:
        screen = available[name]
    except KeyError:
        raise UnknownScreen(f"There is no screen {name!r}; the screens are {', '.join(available)}.") from None
    canvas = Canvas()
    screen(canvas, state, ctx or ScreenContext())
    return canvas.image


def choose(state: dict[str, Any], ctx: ScreenContext | None = None) -> str:
    """The screen the table wants now: a refusal first, then the game's choice, the entry while dialling."""
    ctx = ctx or ScreenContext()
    if ctx.message:
        return "error"
    if ctx.question:
        return "confirm"
    pkg = _package(state)
    picked = pkg.choose_screen(state, ctx) if pkg is not None else None
    if state.get("over"):
        return picked or "scores"
    if ctx.editing or ctx.toasting:  # the move being dialled, or what just happened (a snake bite, a death)
        return "prompt"
    return picked or "prompt"


def context_for(rules: Any, state: Any, lang: str = "en", **kwargs: Any) -> ScreenContext:
    """A context with the game package's screen data computed from the internal ``state``.

    Used by the controller and ``companion oled``, which both hold the rules'
    own state; screens themselves only ever see the public dict.
    """
    data: dict[str, Any] = {}
    title = ""
    try:
        pkg = games.package(getattr(rules, "id", None))
    except Exception:
        pkg = None
    if pkg is not None:
        title = pkg.title(lang)
        if state is not None:
            data = pkg.screen_data(state, lang)
    kwargs.setdefault("title", title)
    return ScreenContext(data=data, lang=lang, **kwargs)


__all__ = ["SCREENS", "ScreenContext", "UnknownScreen", "choose", "context_for", "cycle", "reading_seconds", "render",
           "screens_for"]
