"""Events the host link reports, and their JSON Lines vocabulary (docs/design.md "Bridge event scripts").

The same vocabulary is read by the simulator's ``--script`` and written by the dump tool, so a
recorded session can be replayed:

    {"at": 0.25, "tag": "04A1B2C3D4E5F6", "reader": 2, "present": true}
    {"at": 0.50, "button": 1, "pressed": true}
    {"at": 0.75, "dice": {"slot": 0, "face": 5}}

Link events are written with a ``"link"`` key instead (hello, resync, lost, incompatible,
overflow). UIDs are upper-case hex strings everywhere above the wire.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

UID_HEX_LENGTHS = (8, 14, 20)


@dataclass(frozen=True)
class TagEvent:
    """A tag was placed on (``present``) or taken off a reader point.

    ``resync`` marks an event the host derived from a GET_STATE snapshot (a change it missed
    while frames were lost or the link was down) rather than one the firmware reported."""

    reader: int
    uid: str
    present: bool
    seq: int | None = None
    at: float = 0.0
    resync: bool = False


@dataclass(frozen=True)
class ButtonEvent:
    button: int
    pressed: bool
    seq: int | None = None
    at: float = 0.0
    resync: bool = False


@dataclass(frozen=True)
class DiceEvent:
    """A die read in a dice slot; ``face`` 0 means the slot is empty again."""

    slot: int
    face: int
    seq: int | None = None
    at: float = 0.0
    resync: bool = False


@dataclass(frozen=True)
class LinkEvent:
    """The state of the link changed: ``kind`` is hello, resync, lost, incompatible or overflow."""

    kind: str
    detail: Mapping[str, Any] = field(default_factory=dict)
    at: float = 0.0


BridgeEvent = TagEvent | ButtonEvent | DiceEvent | LinkEvent


class ScriptError(ValueError):
    """A line of an event script that is not in the vocabulary."""


def normalise_uid(uid: str | bytes) -> str:
    """Upper-case hex of a 4, 7 or 10 byte UID; raise ValueError otherwise."""
    text = uid.hex() if isinstance(uid, bytes | bytearray) else str(uid)
    text = text.replace(":", "").replace(" ", "").upper()
    bytes.fromhex(text)  # rejects non-hex
    if len(text) not in UID_HEX_LENGTHS:
        raise ValueError(f"UID {uid!r} must have 4, 7 or 10 bytes")
    return text


def to_json(event: BridgeEvent, start: float = 0.0, **extra: Any) -> dict[str, Any]:
    """One dump line: ``at`` in seconds from ``start`` (a time.monotonic() value)."""
    out: dict[str, Any] = {"at": round(max(0.0, event.at - start), 3)}
    if isinstance(event, TagEvent):
        out.update(tag=event.uid, reader=event.reader, present=event.present)
    elif isinstance(event, ButtonEvent):
        out.update(button=event.button, pressed=event.pressed)
    elif isinstance(event, DiceEvent):
        out["dice"] = {"slot": event.slot, "face": event.face}
    else:
        out["link"] = event.kind
        out.update(event.detail)
        return out
    if event.seq is not None:
        out["seq"] = event.seq
    if event.resync:
        out["resync"] = True
    out.update(extra)
    return out


def _int(obj: Mapping[str, Any], key: str, line: int, high: int = 255) -> int:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise ScriptError(f"line {line}: {key!r} must be an integer 0..{high}")
    return value


def _bool(obj: Mapping[str, Any], key: str, line: int) -> bool:
    value = obj.get(key)
    if not isinstance(value, bool):
        raise ScriptError(f"line {line}: {key!r} must be true or false")
    return value


def from_json(obj: Any, line: int = 0) -> tuple[float, TagEvent | ButtonEvent | DiceEvent]:
    """Parse one script object into ``(at, event)``; extra keys (seq, boot_id) are ignored."""
    if not isinstance(obj, dict):
        raise ScriptError(f"line {line}: expected a JSON object")
    at = obj.get("at", 0.0)
    if isinstance(at, bool) or not isinstance(at, int | float) or at < 0:
        raise ScriptError(f"line {line}: 'at' must be a number of seconds >= 0")
    if "tag" in obj:
        try:
            uid = normalise_uid(obj["tag"])
        except (ValueError, TypeError) as err:
            raise ScriptError(f"line {line}: {err}") from None
        event: TagEvent | ButtonEvent | DiceEvent = TagEvent(
            _int(obj, "reader", line), uid, _bool(obj, "present", line)
        )
    elif "button" in obj:
        event = ButtonEvent(_int(obj, "button", line), _bool(obj, "pressed", line))
    elif "dice" in obj and isinstance(obj["dice"], dict):
        event = DiceEvent(_int(obj["dice"], "slot", line), _int(obj["dice"], "face", line))
    else:
        raise ScriptError(f"line {line}: expected a 'tag', 'button' or 'dice' event")
    return float(at), event


def read_script(lines: Iterable[str]) -> list[tuple[float, TagEvent | ButtonEvent | DiceEvent]]:
    """Parse a JSON Lines event script; blank lines and link lines (a dump's) are skipped.

    Events are returned sorted by ``at``, keeping file order among equal times."""
    events = []
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as err:
            raise ScriptError(f"line {number}: not JSON ({err.msg})") from None
        if isinstance(obj, dict) and "link" in obj:
            continue
        events.append(from_json(obj, number))
    return sorted(events, key=lambda item: item[0])


def iter_dump(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The objects of a dump, for tools and tests that read one back."""
    for text in lines:
        if text.strip():
            yield json.loads(text)
