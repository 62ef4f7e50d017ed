"""The tag registry: which physical component each RFID tag is, per game.

Stored in its own table (``hw_tags``) of the companion's SQLite database,
opened by path: ``hw`` imports nothing from ``companion``. A tag may be
enrolled for one game or for every game (``game = "*"``); the game-specific
entry wins. Components are small JSON objects by kind:

=========  ==========================================  ======================
kind       value                                       example
=========  ==========================================  ======================
tile       ``{"animals": [A, B]}``                     a species tile
animal     ``{"animal": A}``                           an animal token
turtle     ``{"number": N}``                           numbered turtle 17
ball       ``{"fish": N}`` or ``{"snake": true}``      a wooden ball
weather    ``{"water": N, "hurricane": bool}``         a weather card
die        ``{"die": D, "bottom": F, "up": F}``        the tag under face F
=========  ==========================================  ======================

A die's tag is read through the face it sits on, so what players see is the
*opposite* face: enrol the face the tag is under and the registry works out
the face up (7 - n for a numbered d6; for other dice say which face is up).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hw.rfid.debounce import normalise_uid

ANY_GAME = "*"
KINDS = ("tile", "animal", "turtle", "ball", "weather", "die")

SCHEMA = """
CREATE TABLE IF NOT EXISTS hw_tags (
    uid      TEXT NOT NULL,
    game     TEXT NOT NULL,
    kind     TEXT NOT NULL,
    value    TEXT NOT NULL,
    label    TEXT NOT NULL DEFAULT '',
    enrolled REAL NOT NULL,
    PRIMARY KEY (uid, game)
);
"""


class TagError(Exception):
    """A registry request that cannot be honoured (one sentence)."""


@dataclass(frozen=True)
class Component:
    """What a tag is: ``kind`` plus its ``value`` object."""

    kind: str
    value: dict[str, Any] = field(default_factory=dict)
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "value": dict(self.value), "label": self.label}

    def describe(self) -> str:
        """A short label for screens ("turtle 17", "ball: 2 fish")."""
        return self.label or _describe(self.kind, self.value)


def _describe(kind: str, v: dict[str, Any]) -> str:
    if kind == "tile":
        return "tile " + "+".join(v["animals"])
    if kind == "animal":
        return v["animal"]
    if kind == "turtle":
        return f"turtle {v['number']}"
    if kind == "ball":
        return "snake ball" if v.get("snake") else f"ball: {v['fish']} fish"
    if kind == "weather":
        return f"weather: {v['water']} water" + (", hurricane" if v.get("hurricane") else "")
    if kind == "die":
        return f"die {v['die']}: {v['up']} up"
    return kind


def opposite_face(face: Any) -> Any:
    """The face opposite ``face`` on a standard d6 (opposite faces sum to 7)."""
    if isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= 6:
        return 7 - face
    raise TagError(f"Face {face!r} is not a d6 number; say which face is up when the tag is under {face!r}.")


def make_component(kind: str, value: dict[str, Any], label: str = "") -> Component:
    """Validate a component description and fill derived fields (a die's face up)."""
    if kind not in KINDS:
        raise TagError(f"A tag can be a {', '.join(KINDS)}, not {kind!r}.")
    if not isinstance(value, dict):
        raise TagError("A component's value must be an object.")
    v = dict(value)
    need = {"tile": ("animals",), "animal": ("animal",), "turtle": ("number",), "weather": ("water",), "die": ("die", "bottom")}
    for key in need.get(kind, ()):
        if key not in v:
            raise TagError(f"A {kind} needs {key!r}.")
    if kind == "tile" and (not isinstance(v["animals"], list) or len(v["animals"]) != 2):
        raise TagError("A species tile shows exactly two animals.")
    if kind == "turtle" and (isinstance(v["number"], bool) or not isinstance(v["number"], int)):
        raise TagError("A turtle's number must be a whole number.")
    if kind == "ball":
        v.setdefault("snake", False)
        v.setdefault("fish", 0)
    if kind == "weather":
        v.setdefault("hurricane", False)
    if kind == "die" and "up" not in v:
        v["up"] = opposite_face(v["bottom"])
    return Component(kind, v, label)


class TagRegistry:
    """UID → component per game, in the ``hw_tags`` table of the database at ``path``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(SCHEMA)
        self._lock = threading.Lock()

    def close(self) -> None:
        self._db.close()

    def lookup(self, uid: str, game: str) -> Component | None:
        """The component ``uid`` is in ``game`` (a game-specific entry beats a ``*`` one)."""
        with self._lock:
            row = self._db.execute(
                "SELECT kind, value, label FROM hw_tags WHERE uid = ? AND game IN (?, ?) ORDER BY game = ? LIMIT 1",
                (normalise_uid(uid), game, ANY_GAME, ANY_GAME),
            ).fetchone()
        return Component(row[0], json.loads(row[1]), row[2]) if row else None

    def enrol(self, uid: str, game: str, component: Component) -> None:
        """Record (or replace) what ``uid`` is in ``game``."""
        component = make_component(component.kind, component.value, component.label)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO hw_tags (uid, game, kind, value, label, enrolled) VALUES (?, ?, ?, ?, ?, ?)",
                (normalise_uid(uid), game, component.kind, json.dumps(component.value, sort_keys=True), component.label, time.time()),
            )

    def forget(self, uid: str, game: str) -> bool:
        with self._lock:
            cur = self._db.execute("DELETE FROM hw_tags WHERE uid = ? AND game = ?", (normalise_uid(uid), game))
        return cur.rowcount > 0

    def entries(self, game: str | None = None) -> list[dict[str, Any]]:
        """Every enrolment (of one game, ``*`` entries included), as export rows."""
        sql = "SELECT uid, game, kind, value, label FROM hw_tags"
        args: tuple[Any, ...] = ()
        if game is not None:
            sql += " WHERE game IN (?, ?)"
            args = (game, ANY_GAME)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY game, kind, uid", args).fetchall()
        return [{"uid": u, "game": g, "kind": k, "value": json.loads(v), "label": lab} for u, g, k, v, lab in rows]

    def export_json(self, game: str | None = None) -> dict[str, Any]:
        return {"format": "galapagos-tags", "version": 1, "tags": self.entries(game)}

    def import_json(self, data: dict[str, Any], *, replace: bool = False) -> int:
        """Load an export; validates every row before writing any. Returns the count."""
        if not isinstance(data, dict) or data.get("format") != "galapagos-tags":
            raise TagError("This is not a tag export (its \"format\" is not \"galapagos-tags\").")
        rows = data.get("tags")
        if not isinstance(rows, list):
            raise TagError("A tag export needs a \"tags\" list.")
        checked = []
        for n, row in enumerate(rows, start=1):
            try:
                comp = make_component(row["kind"], row["value"], row.get("label", ""))
                checked.append((normalise_uid(row["uid"]), str(row["game"]), comp))
            except (KeyError, TypeError) as exc:
                raise TagError(f"Tag {n} of the export lacks {exc}.") from None
            except TagError as exc:
                raise TagError(f"Tag {n} of the export: {exc}") from None
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if replace:
                    self._db.execute("DELETE FROM hw_tags")
                for uid, game, comp in checked:
                    self._db.execute(
                        "INSERT OR REPLACE INTO hw_tags (uid, game, kind, value, label, enrolled) VALUES (?, ?, ?, ?, ?, ?)",
                        (uid, game, comp.kind, json.dumps(comp.value, sort_keys=True), comp.label, time.time()),
                    )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return len(checked)


class Enrolment:
    """The enrolment flow: scan a tag, then say what it is.

    ``scanned(uid)`` (wired to the enrolment reader's *placed* events) holds
    the tag; ``name(kind, value)`` records it. For a run of similar pieces
    (turtles 1..36), ``queue(...)`` lists descriptions in advance and each
    following scan takes the next one.
    """

    def __init__(self, registry: TagRegistry, game: str) -> None:
        self.registry = registry
        self.game = game
        self.pending: str | None = None
        self._queue: deque[Component] = deque()
        self.done: list[tuple[str, Component]] = []

    def scanned(self, uid: str) -> Component | None:
        """A tag was placed; returns the component when a queued description took it."""
        uid = normalise_uid(uid)
        if self._queue:
            comp = self._queue.popleft()
            self._record(uid, comp)
            return comp
        self.pending = uid
        return None

    def name(self, kind: str, value: dict[str, Any], label: str = "") -> Component:
        if self.pending is None:
            raise TagError("Scan the tag first, then say what it is.")
        comp = make_component(kind, value, label)
        self._record(self.pending, comp)
        self.pending = None
        return comp

    def queue(self, components: Iterable[Component]) -> None:
        self._queue.extend(make_component(c.kind, c.value, c.label) for c in components)

    @property
    def waiting(self) -> int:
        return len(self._queue)

    def _record(self, uid: str, comp: Component) -> None:
        self.registry.enrol(uid, self.game, comp)
        self.done.append((uid, comp))
