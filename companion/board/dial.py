"""The dial's state machine: the move being entered with the encoder, Up/Down and OK.

The table controller (:mod:`companion.board.controller`) turns device events into
calls here and sends what OK completes; this module holds only the entry:
which form of the game's moves is under the dial, the values chosen so far,
the field under the cursor, and whether OK is waiting for a second press.

Why a second OK: at a table without phones, one press on the wrong item must
not spend money, end a turn or kill. A form that says ``confirm``, ends the
turn (``ends_turn``) or corrects the flow (step ``override``) is sent only
after a second OK, the screen showing first what it will do (its ``ask``, or
the move in words with its preview); Back, a turn or Up/Down cancels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.engine import moves

#: the candidate "end the list" of an items field on the dial
END = object()


def needs_second_ok(form: dict[str, Any]) -> bool:
    """A move the dial sends only on a second OK: it spends, ends the turn, or overrides the flow."""
    return bool(form.get("confirm") or form.get("ends_turn") or moves.step_of(form) == "override")


@dataclass
class Entry:
    """The move being dialled in: which form, the values chosen so far, and the highlighted item.

    ``cursor`` 0 is the form itself (the encoder picks the move); ``i`` is the
    i-th field of the form as walked so far (a choice's own fields follow it).
    ``confirming`` holds the action OK completed while it waits for the second OK.
    """

    forms: list[dict[str, Any]]
    index: int = 0
    values: dict[str, Any] = field(default_factory=dict)
    cursor: int = 0
    touched: bool = False
    pending: Any = None  # the candidate item of an items field under the cursor
    confirming: dict[str, Any] | None = None

    @property
    def form(self) -> dict[str, Any]:
        return self.forms[self.index]

    def fields(self) -> list[dict[str, Any]]:
        """The form's fields in order, each chosen choice's own fields right after it."""
        out: list[dict[str, Any]] = []
        pending = list(self.form["fields"])
        while pending:
            f = pending.pop(0)
            out.append(f)
            if moves.kind_of(f) == "choices" and f["name"] in self.values:
                hit = next((c for c in f["choices"] if moves.same(c["value"], self.values[f["name"]])), None)
                if hit is not None:
                    pending = list(hit.get("fields") or []) + pending
        return out

    def current(self) -> dict[str, Any] | None:
        fields = self.fields()
        return fields[self.cursor - 1] if 0 < self.cursor <= len(fields) else None

    def action(self) -> dict[str, Any]:
        act: dict[str, Any] = {"type": self.form["type"]}
        if self.form.get("player") is not None:
            act["player"] = self.form["player"]
        for f in self.fields():
            if f["name"] in self.values:
                act[f["name"]] = self.values[f["name"]]
        return act

    def missing(self) -> dict[str, Any] | None:
        """The first field still to choose (optional ones may stay empty)."""
        return next((f for f in self.fields() if f["name"] not in self.values and not f.get("optional")), None)

    # -- the encoder and Up/Down -------------------------------------------------------
    def turn(self, delta: int) -> None:
        """The encoder: at cursor 0 it walks the moves, on a field its legal values."""
        self.touched = True
        self.confirming = None  # a turn while OK waits: the question is dropped, the entry stays
        if self.cursor == 0:
            self.index = (self.index + delta) % len(self.forms)
            self.values, self.pending = {}, None
            return
        f = self.current()
        if f is None:
            return
        kind = moves.kind_of(f)
        current = self.values.get(f["name"])
        if kind == "choices":
            options = [c["value"] for c in moves.enabled(f["choices"])]
            if not options:
                return
            i = next((k for k, v in enumerate(options) if moves.same(v, current)), None)
            i = first_detent(delta, len(options)) if i is None else (i + delta) % len(options)
            self.values[f["name"]] = options[i]
            self._drop_stale()
        elif kind == "range":
            values = list(moves.range_values(f))
            if not values:
                return
            if f["name"] not in self.values:  # the first detent lands on the default (else an end)
                start = f.get("default")
                i = values.index(start) if start in values else (0 if delta > 0 else len(values) - 1)
                i += (delta - 1) if delta > 0 else (delta + 1)
                self.values[f["name"]] = values[max(0, min(len(values) - 1, i))]
            else:  # numbers stop at their ends
                i = values.index(current) if current in values else 0
                self.values[f["name"]] = values[max(0, min(len(values) - 1, i + delta))]
        else:
            options = self.item_candidates(f)
            if not options:
                return
            i = next((k for k, v in enumerate(options)
                      if v is self.pending or (v is not END and moves.same(v, self.pending))), None)
            i = first_detent(delta, len(options)) if i is None else (i + delta) % len(options)
            self.pending = options[i]

    def move(self, delta: int) -> None:
        """Up/Down: the cursor walks the move and its fields."""
        self.touched = True
        self.pending = None
        self.confirming = None
        self.cursor = (self.cursor + delta) % (1 + len(self.fields()))

    def item_candidates(self, f: dict[str, Any]) -> list[Any]:
        """The values the dial offers to add to an items field (then "end" once enough are in)."""
        spec = f["items"]
        chosen = list(self.values.get(f["name"], []))
        out: list[Any] = []
        if len(chosen) < spec["max"]:
            for c in moves.enabled(spec["choices"]):
                if moves.match_items({**spec, "min": 0}, chosen + [c["value"]]) is None:
                    out.append(c["value"])
        if len(chosen) >= spec["min"]:
            out.append(END)
        return out

    def _drop_stale(self) -> None:
        """A choice changed: the fields that followed the old choice no longer apply."""
        keep = {x["name"] for x in self.fields()}
        for name in list(self.values):
            if name not in keep:
                del self.values[name]

    # -- components filling the entry ------------------------------------------------------
    def fill(self, values: dict[str, Any]) -> None:
        """Fields filled by a component laid on a reader (an animal token, a ball drawn)."""
        self.confirming = None
        for name, value in values.items():
            f = next((x for x in self.fields() if x["name"] == name), None)
            if f is not None and moves.kind_of(f) == "items" and not isinstance(value, list):
                self.values[name] = list(self.values.get(name, [])) + [value]
            else:
                self.values[name] = value
        self.touched = True
        self.cursor = 1 + next((i for i, f in enumerate(self.fields()) if f["name"] in values), 0)

    @staticmethod
    def takes(form: dict[str, Any], values: dict[str, Any]) -> bool:
        """Whether ``form`` has fields for every name in ``values``."""
        names = {f["name"] for f in form["fields"]}
        for f in form["fields"]:
            if moves.kind_of(f) == "choices":
                for c in f["choices"]:
                    names.update(x["name"] for x in c.get("fields") or [])
        return set(values) <= names

    # -- OK ------------------------------------------------------------------------------
    def ok(self) -> tuple[str, Any]:
        """What OK does now: ("send", action), ("ask", action) for the second OK,
        ("missing", field) when a field is still to choose, or ("step", None) when it
        only moved on (an item added, the cursor on the next field)."""
        if self.confirming is not None:
            action, self.confirming = self.confirming, None
            return "send", action
        f = self.current()
        if f is not None and moves.kind_of(f) == "items" and self.pending is not None:
            self.touched = True
            if self.pending is not END:  # OK adds the item under the dial
                self.values[f["name"]] = list(self.values.get(f["name"], [])) + [self.pending]
                self.pending = None
                return "step", None
            self.pending = None  # "end": the list is complete, on to the next field
            self.values.setdefault(f["name"], [])
            if self.cursor < len(self.fields()):
                self.cursor += 1
                return "step", None
        missing = self.missing()
        while missing is not None and moves.kind_of(missing) == "choices" and len(moves.enabled(missing["choices"])) == 1:
            self.values[missing["name"]] = moves.enabled(missing["choices"])[0]["value"]  # the only legal one
            missing = self.missing()
        if missing is not None:
            at = self.fields().index(missing) + 1
            if self.cursor != at:
                self.cursor = at
                self.touched = True
                return "step", None
            return "missing", missing
        action = self.action()
        if needs_second_ok(self.form):
            self.confirming = action
            self.touched = True
            return "ask", action
        return "send", action


def first_detent(delta: int, n: int) -> int:
    """Where ``delta`` detents land on a list of ``n`` with nothing chosen yet: the first is one detent."""
    return (delta - 1) % n if delta > 0 else (n + delta) % n


def choice_label(f: dict[str, Any], value: Any) -> tuple[str, str]:
    """(label, preview text) of ``value`` in field ``f``."""
    kind = moves.kind_of(f)
    if kind == "choices":
        hit = next((c for c in f["choices"] if moves.same(c["value"], value)), None)
        if hit is not None:
            return str(hit["label"]), str((hit.get("preview") or {}).get("text") or "")
    if kind == "items":
        labels = {moves.canon(c["value"]): str(c["label"]) for c in f["items"]["choices"]}
        return ",".join(labels.get(moves.canon(v), str(v)) for v in value) or "-", ""
    return str(value), str((f.get("preview") or {}).get("text") or "")
