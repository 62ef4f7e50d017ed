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

from companion.screens import common, tables
from companion.screens.canvas import Canvas
from companion.screens.context import ScreenContext

Screen = Callable[[Canvas, dict[str, Any], ScreenContext], None]

SCREENS: dict[str, Screen] = {
    "prompt": common.prompt,
    "costs": tables.costs,
    "timer": tables.timer,
    "rations": tables.rations,
    "populations": tables.populations,
    "scores": common.scores,
    "qr": common.qr,
    "error": common.error,
}

#: the screens Up/Down cycle through, per game (the first is the usual one)
CYCLE: dict[str, tuple[str, ...]] = {
    "galapagos-auction": ("prompt", "costs", "scores", "qr"),
    "galapagos-dice": ("prompt", "timer", "scores", "qr"),
    "pocket-galapagos": ("populations", "prompt", "qr"),
    "galerapagos": ("rations", "prompt", "scores", "qr"),
}


class UnknownScreen(ValueError):
    pass


def render(name: str, state: dict[str, Any], ctx: ScreenContext | None = None) -> Image.Image:
    """Draw screen ``name`` for ``state``."""
    try:
        screen = SCREENS[name]
    except KeyError:
        raise UnknownScreen(f"There is no screen {name!r}; the screens are {', '.join(SCREENS)}.") from None
    canvas = Canvas()
    screen(canvas, state, ctx or ScreenContext())
    return canvas.image


def choose(state: dict[str, Any], ctx: ScreenContext | None = None) -> str:
    """The screen the table wants now: a refusal first, the entry while dialling, else by game and phase."""
    ctx = ctx or ScreenContext()
    game, phase = state.get("game"), state.get("phase")
    if ctx.message:
        return "error"
    if state.get("over"):  # a solo game is won or lost: the prompt says which and why
        return "prompt" if game == "pocket-galapagos" else "scores"
    if ctx.editing:
        return "prompt"
    if game == "galapagos-dice" and (state.get("timer") == "running" or phase == "plan"):
        return "timer" if state.get("timer") == "running" else "prompt"
    if game == "galapagos-auction" and phase == "actions" and ctx.costs:
        return "costs"
    if game == "galerapagos":  # a vote shows who has still to vote
        expected = set((state.get("expected") or {}).get("actions") or ())
        return "prompt" if expected & {"vote", "tiebreak"} else "rations"
    if game == "pocket-galapagos":
        return "populations"
    return "prompt"


def context_for(rules: Any, state: Any, **kwargs: Any) -> ScreenContext:
    """A context with the game-specific extras computed from the internal ``state``.

    Used by the controller and ``companion oled``, which both hold the rules'
    own state; screens themselves only ever see the public dict.
    """
    costs = None
    if getattr(rules, "id", None) == "galapagos-auction" and state is not None:
        from companion.games import auction

        public = rules.view(state)
        player = public.get("turn") or public.get("start_player")
        if player:
            costs = auction.costs(state, player)
    return ScreenContext(costs=costs, **kwargs)


__all__ = ["CYCLE", "SCREENS", "ScreenContext", "UnknownScreen", "choose", "context_for", "render"]
