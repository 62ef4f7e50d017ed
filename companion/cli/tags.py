"""Tag enrolment from the dashboard: scan a tag, then say what it is (docs/design.md, « Hardware and simulation »).

:class:`Tags` is what the dashboard's enrolment page is given over the table's tag
registry; :func:`parse_tag_value` reads a value the way players type it, and
:func:`demo_tags` enrols a set of tags for the simulated table.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from hw.tags import Component, TagError, make_component


class Tags:
    """The tag registry as the dashboard's enrollment page uses it (``web.context.TagBackend``)."""

    EXAMPLES = {
        "tile": ["sea_lion+iguana", "tortoise+crab"],
        "animal": ["sea_lion", "iguana", "tortoise", "booby", "penguin", "crab"],
        "turtle": [str(n) for n in range(1, 37)],
        "ball": ["fish 0", "fish 1", "fish 2", "fish 3", "snake"],
        "weather": ["0", "1", "2", "3", "hurricane"],
        "die": ["red 1", "blue 6"],
    }

    def __init__(self, registry: Any, hub: Any):
        self.registry = registry
        self.hub = hub
        self.last: str | None = None

    def seen(self, event: Any) -> None:
        """Device listener: remember the last tag placed on the scan pad."""
        if getattr(event, "point", None) == "scan" and getattr(event, "present", False):
            self.last = event.uid

    def kinds(self) -> dict[str, list[str]]:
        return dict(self.EXAMPLES)

    def enrolled(self) -> list[dict[str, Any]]:
        rows = self.registry.entries()
        for row in rows:
            row["label"] = Component(row["kind"], row["value"], row.get("label", "")).describe()
        return rows

    def enroll(self, uid: str, kind: str, value: str) -> dict[str, Any]:
        try:
            comp = make_component(kind, parse_tag_value(kind, value))
        except TagError as exc:
            raise ValueError(str(exc)) from None
        self.registry.enrol(uid, "*", comp)
        return {"uid": uid, "kind": comp.kind, "value": comp.value, "label": comp.describe()}

    def forget(self, uid: str) -> bool:
        games = {row["game"] for row in self.registry.entries() if row["uid"] == uid}
        return any([self.registry.forget(uid, g) for g in games])

    def last_scanned(self) -> str | None:
        return self.last

    def export(self) -> Any:
        return self.registry.export_json()


def parse_tag_value(kind: str, text: str) -> dict[str, Any]:
    """What a player types for a tag ("sea_lion+iguana", "17", "fish 2", "hurricane", "red 1")."""
    words = text.replace("+", " ").replace(",", " ").split()
    if not words:
        raise ValueError("Say what the tag is.")
    try:
        if kind == "tile":
            return {"animals": words[:2] if len(words) >= 2 else words}
        if kind == "animal":
            return {"animal": words[0]}
        if kind == "turtle":
            return {"number": int(words[-1])}
        if kind == "ball":
            return {"snake": True} if "snake" in words else {"fish": int(words[-1])}
        if kind == "weather":
            water = next((int(w) for w in words if w.isdigit()), 0)
            return {"water": water, "hurricane": "hurricane" in words}
        if kind == "die":
            return {"die": words[0], "bottom": int(words[-1])}
    except ValueError:
        raise ValueError(f"Cannot read {text!r} as a {kind}; for example {Tags.EXAMPLES[kind][0]}.") from None
    raise ValueError(f"A tag can be a {', '.join(Tags.EXAMPLES)}, not {kind!r}.")


def demo_tags() -> list[tuple[str, Any]]:
    """A tag for every component of the four games, so a newcomer's simulated table works at once.

    UIDs are 7 bytes: ``04`` (NXP), a kind byte, then a running number.
    """
    animals = ["sea_lion", "iguana", "tortoise", "booby", "penguin", "crab"]
    colours = ["black", "white", "red", "green", "yellow", "blue"]
    made: list[tuple[str, Any]] = []

    def add(kind_byte: int, n: int, kind: str, value: dict[str, Any]) -> None:
        made.append((f"04{kind_byte:02X}{n:010X}", make_component(kind, value)))

    for n, pair in enumerate(combinations(animals, 2), start=1):
        add(0x71, n, "tile", {"animals": list(pair)})
    for n, animal in enumerate(animals, start=1):
        add(0x72, n, "animal", {"animal": animal})
    for n in range(1, 37):
        add(0x73, n, "turtle", {"number": n})
    for n, fish in enumerate((1, 1, 1, 2, 2, 3), start=1):
        add(0x74, n, "ball", {"fish": fish})
    add(0x74, 7, "ball", {"snake": True})
    for n, water in enumerate((0, 1, 2, 3), start=1):
        add(0x75, n, "weather", {"water": water})
    add(0x75, 5, "weather", {"water": 2, "hurricane": True})
    for n, colour in enumerate(colours, start=1):  # a colour die's tag sits under the opposite face
        add(0x76, n, "die", {"die": "colour", "bottom": colours[-n], "up": colour})
    return made
