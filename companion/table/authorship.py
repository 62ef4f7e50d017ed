"""Who sent an action: a record on every journal entry, never a string read back.

Before this, the journal kept a text (``web:Ann``, ``web:table:act-for:Ann``) and
the interfaces split it apart again, so a player named « table » was taken for the
tablet, and an edited tablet move (``web:table:edit``) no longer counted as the
tablet's. An :class:`Author` is data: the way it came (``via``), the phone's seat
as a field of its own, what the tablet did (an edit, a re-entry, acting for a
phone-held seat) and whether the companion journalled it by itself. Any player
name fits in ``seat`` or ``for``; nothing here is parsed from a name.

JSON form (journal column ``actions.author``, ``docs/api.md``)::

    {"via": "table"|"phone"|"buttons"|"cli"|"script"|"terminal"|"companion",
     "seat": name|null, "as": "edit"|"reenter"|null, "for": name|null, "auto": bool, "seed": int|null}

Only the keys that differ from their default are written.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

#: the ways an action reaches the journal
VIAS = ("table", "phone", "buttons", "cli", "script", "terminal", "companion")
#: what the tablet did when it was not a new move
AS = ("edit", "reenter")
#: the word older readers of the ``source`` column expect for each way (``last_actions``' ``source``)
_TRANSPORT = {"table": "web", "phone": "web", "buttons": "table", "cli": "cli", "script": "script",
              "terminal": "terminal", "companion": "timer"}


@dataclass(frozen=True)
class Author:
    """Who sent one journalled action (see the module's docstring for each field)."""

    via: str
    seat: str | None = None  # the phone's seat (``via == "phone"``)
    as_: str | None = None  # "edit" | "reenter": the tablet (or a phone) corrected or entered it again
    for_: str | None = None  # the phone-held seat the tablet acted for (or whose phone's move it corrected)
    auto: bool = False  # journalled by the companion itself: the sand's expiry, the dice lying in the lanes
    seed: int | None = None  # a digital draw's seed (the same draw can be made again from the same state)

    def __post_init__(self) -> None:
        if self.via not in VIAS:
            raise ValueError(f"unknown way {self.via!r}; one of {', '.join(VIAS)}")
        if self.as_ not in (None, *AS):
            raise ValueError(f"unknown correction {self.as_!r}")

    # -- what the rules of the dashboard read ---------------------------------------------
    @property
    def is_phone(self) -> bool:
        return self.via == "phone"

    def phone_of(self, seat: str | None) -> bool:
        """Sent by ``seat``'s own phone (its secret fields were never seen by the table)."""
        return self.via == "phone" and seat is not None and self.seat == seat

    @property
    def tablet_played(self) -> bool:
        """The tablet entered this as its own seat's move (a new move, an edit or a re-entry), not
        for a seat a phone held: the seat is the tablet's until it lets a phone take it (consent)."""
        return self.via == "table" and self.for_ is None

    @property
    def transport(self) -> str:
        """The one word the journal's ``source`` column keeps for older readers (never read back)."""
        if self.auto and self.via == "buttons":
            return "lanes"
        return _TRANSPORT[self.via]

    def again(self, as_: str, by: Author) -> Author:
        """The author of a correction (``as_``) of an action that ``self`` sent, made by ``by``.

        A tablet correcting a phone's move acts for that seat (it is not the tablet's own seat).
        """
        held = self.seat if self.via == "phone" else self.for_
        if by.via == "table":
            return replace(by, as_=as_, for_=by.for_ or held, auto=False, seed=None)
        return replace(by, as_=as_, auto=False, seed=None)

    # -- encoding ----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"via": self.via}
        for key, value in (("seat", self.seat), ("as", self.as_), ("for", self.for_), ("seed", self.seed)):
            if value is not None:
                out[key] = value
        if self.auto:
            out["auto"] = True
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, data: Any) -> Author:
        """The record back from its JSON; anything unreadable is an author nobody can claim (the CLI's)."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                return cls("cli")
        if not isinstance(data, dict) or data.get("via") not in VIAS:
            return cls("cli")
        seed = data.get("seed")
        try:
            return cls(via=data["via"], seat=_name(data.get("seat")), as_=data.get("as") if data.get("as") in AS else None,
                       for_=_name(data.get("for")), auto=data.get("auto") is True,
                       seed=seed if isinstance(seed, int) and not isinstance(seed, bool) else None)
        except ValueError:
            return cls("cli")


def _name(value: Any) -> str | None:
    return value if isinstance(value, str) else None


#: the way named by a one-word ``source`` of the callers that predate authors (the controller's
#: ``"table"`` is the board's buttons and readers); any other word is the command line's
_WORDS = {"table": Author("buttons"), "buttons": Author("buttons"), "lanes": Author("buttons", auto=True),
          "timer": Author("companion", auto=True), "cli": Author("cli"), "script": Author("script"),
          "terminal": Author("terminal")}


def of(source: Author | str | None) -> Author:
    """The author of an action sent with ``source``: an :class:`Author`, or one way's word.

    A word is looked up whole (``"table"``, ``"timer"``, ``"lanes"``, ``"cli"``, ``"terminal"``);
    it is never split, so no seat is ever read out of it.
    """
    if isinstance(source, Author):
        return source
    return _WORDS.get(source or "cli", Author("cli"))


#: the sand's expiry, journalled by the session's timer
TIMER = _WORDS["timer"]
#: the dice lying in a seat's lanes at the sand's end, journalled by the table
LANES = _WORDS["lanes"]


def tablet(for_: str | None = None, seed: int | None = None) -> Author:
    return Author("table", for_=for_, seed=seed)


def phone(seat: str, seed: int | None = None) -> Author:
    return Author("phone", seat=seat, seed=seed)


# -- the journals written before authors (their ``source`` converted once, when opened) ------------

_TABLE_TAIL = re.compile(r"(?:act-for:(?P<for>.*)|(?P<as>edit|reenter|drop)|digital:(?P<seed>-?\d+))")


def from_legacy(source: str | None) -> Author:
    """The author an older journal's ``source`` text stood for, read the way that version read it.

    ``web:table...`` was the tablet then (a player named « table » could not be told apart:
    the old version took him for the tablet too); ``web:<seat>`` a phone; ``table`` the board;
    ``timer`` and ``lanes`` the companion by itself. Used only by the journal's migration.
    """
    text = source or ""
    if text.startswith("web:"):
        rest = text[4:]
        if rest == "table":
            return Author("table")
        if rest.startswith("table:"):
            m = _TABLE_TAIL.fullmatch(rest[6:])
            if m:
                if m.group("for") is not None:
                    return Author("table", for_=m.group("for"))
                if m.group("seed") is not None:
                    return Author("table", seed=int(m.group("seed")))
                kind = m.group("as")
                return Author("table", as_=kind if kind in AS else None)
        seat, mark, seed = rest.rpartition(":digital:")
        if mark and re.fullmatch(r"-?\d+", seed):
            return Author("phone", seat=seat, seed=int(seed))
        return Author("phone", seat=rest)
    return of(text)
