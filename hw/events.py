"""The device events ``hw`` emits. Plain frozen dataclasses: no game knowledge.

The table controller (``companion/board/controller.py``) turns them into game
actions; ``hw`` never learns what a button means in a game.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ButtonEvent:
    """A named button (``seat1``..``seatN``, ``ok``, ``back``, ``up``, ``down``).

    ``kind`` is ``"press"`` on the press edge or ``"hold"`` once the button
    has been held for the configured hold time.
    """

    name: str
    kind: str = "press"


@dataclass(frozen=True)
class EncoderEvent:
    """The rotary encoder moved ``delta`` detents (+1 clockwise, -1 counter-clockwise)."""

    delta: int


@dataclass(frozen=True)
class TagEvent:
    """A tag was placed on (``present``) or removed from the reader point ``point``.

    ``uid`` is upper-case hex without separators, as on the firmware bridge.
    ``at`` is the reading clock's time of the (debounced) change.
    """

    point: str
    uid: str
    present: bool
    at: float = 0.0


@dataclass(frozen=True)
class DieEvent:
    """A die read in a dice slot by a reader that knows faces itself (the firmware's face table).

    ``face`` is the face up as the source reports it; 0 means the slot is empty again.
    Slots whose readers report plain tags give :class:`TagEvent` instead, and the tag
    registry says which face is up.
    """

    point: str
    face: int


@dataclass(frozen=True)
class StatusEvent:
    """A device stopped answering (``ok`` False) or answers again (``ok`` True).

    ``device`` names it as doctor does (``"reader bag"``, ``"bridge"``, ``"display"``);
    ``message`` is one sentence for the OLED and the dashboard
    (« reader bag stopped answering; retrying », « bridge lost »). It reports a
    change of health, never a game input, so a controller that does not know it
    can ignore it.
    """

    device: str
    ok: bool
    message: str = ""


DeviceEvent = ButtonEvent | EncoderEvent | TagEvent | DieEvent | StatusEvent
