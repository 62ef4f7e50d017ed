"""The table controller: device events → game actions, game state → OLED screens and beeps.

It sits above the session (DESIGN.md: device event → session → rules → new
state → screens) and names no game: what the table may do is the game
package's *moves* (:mod:`companion.moves`), what a component laid on a reader
means is the package's ``tag_action``, and the screens come from the package.
A refused action changes nothing and its sentence goes to the OLED with an
error beep.

How the table is operated (also in docs/hardware.md and docs/moves.md):

* **The dial** walks the moves: cursor 0 is the move (the encoder picks it,
  the expected player's first), Up/Down walk its fields, the encoder walks a
  field's legal choices with their preview on the OLED, OK goes to the next
  field still to choose and sends once none is missing. Nothing is preselected
  but a field's only legal choice.
* **Seat buttons**: a seat's moves only (pressed again: everyone's); where the
  game says so (``lane_action``), the dice lying in that seat's lanes are sent
  (a plan, « I am done »). At the sand's end the lanes count by themselves
  (``at_timer_end``).
* **Tags** act where the component says it all (a species tile on a square, a
  weather card), or fill the move being dialled (an animal token, a ball drawn
  for a wood gamble).
* **Back**: clears an edited entry, else shows the next screen; held, undoes
  the last action (with the automatic ones after it).
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion import extras, games, moves, screens, texts
from companion.rules import RuleError
from companion.session import Change, Session
from hw.events import ButtonEvent, DeviceEvent, DieEvent, EncoderEvent, StatusEvent, TagEvent
from hw.oled import Oled
from hw.outputs import Beeper, StatusLeds
from hw.tags import TagRegistry

log = logging.getLogger(__name__)
Clock = Callable[[], float]

LANE = re.compile(r"^seat(\d+)\.slot(\d+)$")
WARN_SECONDS = 5.0  # the sand timer's warning beep
#: the candidate "end the list" of an items field on the dial
END = object()


# -- the move being dialled in -----------------------------------------------------

@dataclass
class Entry:
    """The move being dialled in: which form, the values chosen so far, and the highlighted item.

    ``cursor`` 0 is the form itself (the encoder picks the move); ``i`` is the
    i-th field of the form as walked so far (a choice's own fields follow it).
    """

    forms: list[dict[str, Any]]
    index: int = 0
    values: dict[str, Any] = field(default_factory=dict)
    cursor: int = 0
    touched: bool = False
    pending: Any = None  # the candidate item of an items field under the cursor

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


def _choice_label(f: dict[str, Any], value: Any) -> tuple[str, str]:
    """(label, preview text) of ``value`` in field ``f``."""
    kind = moves.kind_of(f)
    if kind == "choices":
        hit = next((c for c in f["choices"] if moves.same(c["value"], value)), None)
        if hit is not None:
            return str(hit["label"]), str((hit.get("preview") or {}).get("text") or "")
    if kind == "items":
        labels = {moves._canon(c["value"]): str(c["label"]) for c in f["items"]["choices"]}
        return ",".join(labels.get(moves._canon(v), str(v)) for v in value) or "-", ""
    return str(value), str((f.get("preview") or {}).get("text") or "")


# -- the controller -------------------------------------------------------------

class TableController:
    """Turns table devices into actions on one :class:`Session` and keeps the OLED current."""

    def __init__(
        self,
        session: Session,
        oled: Oled,
        *,
        beeper: Beeper | None = None,
        leds: StatusLeds | None = None,
        registry: TagRegistry | None = None,
        url: str | None = None,
        clock: Clock = time.monotonic,
        message_seconds: float = 4.0,
        lang: str = "en",
        phone_seats: Callable[[], Any] | None = None,
    ) -> None:
        self.session = session
        self.oled = oled
        self.beeper = beeper or Beeper(None)
        self.leds = leds
        self.registry = registry
        self.url = url
        self.clock = clock
        self.message_seconds = message_seconds
        #: the OLED's language, and the seats played from a phone (the dial leaves them alone)
        self.lang = lang
        self.phone_seats = phone_seats or (lambda: ())
        self.message: str | None = None
        #: devices that stopped answering (device → sentence), shown on the OLED until they are back
        self.failing: dict[str, str] = {}
        #: the story of the last action, shown a few seconds on the prompt (the OLED's toast)
        self.toast: str | None = None
        self._toast_until = 0.0
        self._message_until = 0.0
        self.screen: str | None = None  # None: the screen :func:`screens.choose` picks
        self.entry: Entry | None = None
        self.player: str | None = None  # chosen with a seat button
        self.lanes: dict[str, Any] = {}  # dice lane point -> face up
        self._warned: object | None = None  # the timer already warned about
        # One lock with the session: it tells its listeners (us) while holding its lock when
        # its sand-timer alarm journals the expiry, and we call it while holding ours, so two
        # locks taken in opposite orders would freeze the table (and every page with it).
        self._lock = getattr(session, "_lock", None) or threading.RLock()
        self._unsubscribe = session.subscribe(self._on_change)
        session.before_expiry = self._lanes_at_expiry  # what lies in the lanes counts at the sand's end
        self._rebuild_entry()
        self.refresh()

    def close(self) -> None:
        self._unsubscribe()
        if getattr(self.session, "before_expiry", None) == self._lanes_at_expiry:
            self.session.before_expiry = None

    def _lanes_at_expiry(self, state: Any) -> list[dict[str, Any]]:
        """Each seat's lanes as they lie, for the game to turn into actions at the sand's end."""
        lanes = {name: [v for p, v in sorted(self.lanes.items(), key=lambda kv: _slot_order(kv[0])) if _seat_of(p) == seat]
                 for seat, name in enumerate(self.session.players, 1)}
        return self.package.at_timer_end(state, lanes)

    def run(self, stop: threading.Event, interval: float = 0.1) -> None:
        """Tick until ``stop`` is set (the composition root runs this in a thread)."""
        while not stop.wait(interval):
            try:
                self.tick()
            except Exception:  # a failing tick must not stop the table
                log.exception("table tick failed")

    # -- input -----------------------------------------------------------------
    def handle(self, event: DeviceEvent) -> None:
        """The one entry point for every device event (thread-safe)."""
        with self._lock:
            if isinstance(event, ButtonEvent):
                self._button(event)
            elif isinstance(event, EncoderEvent):
                self._turn(event.delta)
            elif isinstance(event, TagEvent):
                self._tag(event)
            elif isinstance(event, DieEvent):
                self._die(event)
            elif isinstance(event, StatusEvent):
                self._health(event)
            self.refresh()

    def tick(self) -> None:
        """Call a few times a second: runs the sand timer, ages messages, redraws."""
        with self._lock:
            timer = self.session.timer
            if timer is not None and timer.running and timer.remaining() <= WARN_SECONDS and self._warned is not timer:
                self._warned = timer
                self.beeper.play("warn")
            self.session.tick()
            if self.message and self.clock() >= self._message_until:
                self.message = None
                if self.failing:  # a device still down stays on the screen
                    self.refuse(next(iter(self.failing.values())))
            if self.toast and self.clock() >= self._toast_until:
                self.toast = None
            self.refresh()

    def _button(self, event: ButtonEvent) -> None:
        name, held = event.name, event.kind == "hold"
        self.message = None
        if name.startswith("seat"):
            if not held:
                self._seat(int(name[4:]))
        elif name == "back":
            self._undo() if held else self._back()
        elif held:
            return
        elif name == "ok":
            self._submit()
        elif name in ("up", "down"):
            self._move(-1 if name == "up" else 1)

    @property
    def package(self) -> Any:
        return games.package(self.session.game)

    def _seat(self, seat: int) -> None:
        players = self.session.players
        if not 1 <= seat <= len(players):
            return self.refuse(self._t("Seat {n} is empty at this table.", n=seat))
        name = players[seat - 1]
        lanes = [v for p, v in sorted(self.lanes.items(), key=lambda kv: _slot_order(kv[0])) if _seat_of(p) == seat]
        action = self.package.lane_action(name, lanes, self.session.state)
        if action is not None:  # dice in this seat's lanes: the seat button sends them (a dice plan)
            self.act(action)
            return
        self.player = None if self.player == name else name  # pressed again: every seat's moves
        self._rebuild_entry(reset=True)
        if self.entry is None:
            self.refuse(self._t("{p} has no move to make now.", p=name))
            self.player = None
            self._rebuild_entry(reset=True)

    def _turn(self, delta: int) -> None:
        entry = self.entry
        if entry is None:
            return
        self.message = None
        entry.touched = True
        if entry.cursor == 0:
            entry.index = (entry.index + delta) % len(entry.forms)
            entry.values, entry.pending = {}, None
            return
        f = entry.current()
        if f is None:
            return
        kind = moves.kind_of(f)
        current = entry.values.get(f["name"])
        if kind == "choices":
            options = [c["value"] for c in moves.enabled(f["choices"])]
            if not options:
                return
            i = next((k for k, v in enumerate(options) if moves.same(v, current)), None)
            i = _first(delta, len(options)) if i is None else (i + delta) % len(options)
            entry.values[f["name"]] = options[i]
            self._drop_after(entry, f)
        elif kind == "range":
            values = list(moves.range_values(f))
            if not values:
                return
            if f["name"] not in entry.values:  # the first detent lands on the default (else an end)
                start = f.get("default")
                i = values.index(start) if start in values else (0 if delta > 0 else len(values) - 1)
                i += (delta - 1) if delta > 0 else (delta + 1)
                entry.values[f["name"]] = values[max(0, min(len(values) - 1, i))]
            else:  # numbers stop at their ends
                i = values.index(current) if current in values else 0
                entry.values[f["name"]] = values[max(0, min(len(values) - 1, i + delta))]
        else:
            options = self._item_candidates(entry, f)
            if not options:
                return
            i = next((k for k, v in enumerate(options) if v is entry.pending or (v is not END and moves.same(v, entry.pending))), None)
            i = _first(delta, len(options)) if i is None else (i + delta) % len(options)
            entry.pending = options[i]

    def _item_candidates(self, entry: Entry, f: dict[str, Any]) -> list[Any]:
        """The values the dial offers to add to an items field (then "end" once enough are in)."""
        spec = f["items"]
        chosen = list(entry.values.get(f["name"], []))
        out: list[Any] = []
        if len(chosen) < spec["max"]:
            for c in moves.enabled(spec["choices"]):
                if moves._match_items({**spec, "min": 0}, chosen + [c["value"]]) is None:
                    out.append(c["value"])
        if len(chosen) >= spec["min"]:
            out.append(END)
        return out

    @staticmethod
    def _drop_after(entry: Entry, f: dict[str, Any]) -> None:
        """A choice changed: the fields that followed the old choice no longer apply."""
        keep = {x["name"] for x in entry.fields()}
        for name in list(entry.values):
            if name not in keep:
                del entry.values[name]

    def _move(self, delta: int) -> None:
        entry = self.entry
        if entry is None:
            self._cycle_screen(delta)
            return
        entry.touched = True
        entry.pending = None
        entry.cursor = (entry.cursor + delta) % (1 + len(entry.fields()))

    def _back(self) -> None:
        if self.entry is not None and self.entry.touched:
            self.player = None
            self._rebuild_entry(reset=True)
        else:
            self._cycle_screen(1)

    def _undo(self) -> None:
        try:  # with the timer's expiry that followed it; the table may take back a whole ballot
            undone = extras.undo(self.session, by_table=True, lang=self.lang)
        except RuleError as err:
            return self.refuse(self.package.error_text(err, self.lang))
        if undone is None:
            self.refuse(self._t("There is nothing to undo."))
        else:
            self.beeper.play("ok")

    def _cycle_screen(self, delta: int) -> None:
        cycle = ("auto",) + screens.cycle(self.session.game)
        current = self.screen or "auto"
        i = cycle.index(current) if current in cycle else 0
        nxt = cycle[(i + delta) % len(cycle)]
        self.screen = None if nxt == "auto" else nxt

    # -- tags --------------------------------------------------------------------
    def _tag(self, event: TagEvent) -> None:
        lane = LANE.match(event.point)
        comp = self.registry.lookup(event.uid, self.session.game) if self.registry else None
        if not event.present:
            if lane:
                self.lanes.pop(event.point, None)
            return
        if comp is None:
            return self.refuse(self._t("Tag {uid} on {point} is not enrolled; enrol it on the dashboard.",
                                       uid=event.uid, point=event.point))
        self.beeper.play("tag")
        if lane:
            if comp.kind == "die":
                self.lanes[event.point] = comp.value.get("up")
            return
        entry = self.entry
        dialled = ({"type": entry.form["type"], "player": entry.form.get("player"), "values": dict(entry.values)}
                   if entry is not None and entry.touched else None)
        meaning = self.package.tag_action(comp, event.point, self.session.state, entry=dialled)
        if meaning is None:
            return self.refuse(self._t("{what} on {point} means nothing now.", what=comp.describe(), point=event.point))
        if "fill" in meaning:
            self._fill(dict(meaning["fill"]), comp)
            if meaning.get("send"):
                self._submit()
            return
        self.act(meaning)

    def _health(self, event: StatusEvent) -> None:
        """A device stopped answering (« bridge lost ») or is back: the table must know."""
        if event.ok:
            self.failing.pop(event.device, None)
        else:
            self.failing[event.device] = event.message or self._t("{device} stopped answering", device=event.device)
            self.refuse(self.failing[event.device])

    def _fill(self, values: dict[str, Any], comp: Any) -> None:
        """A component fills fields of the move being dialled in (switching to a move that takes them)."""
        if self.entry is None or not self._takes(self.entry.form, values):
            self._rebuild_entry(reset=True)
            entry = self.entry
            hit = next((i for i, f in enumerate(entry.forms) if self._takes(f, values)), None) if entry else None
            if hit is None:
                return self.refuse(self._t("No move takes {what} now.", what=comp.describe()))
            entry.index, entry.values = hit, {}
        entry = self.entry
        for name, value in values.items():
            f = next((x for x in entry.fields() if x["name"] == name), None)
            if f is not None and moves.kind_of(f) == "items" and not isinstance(value, list):
                entry.values[name] = list(entry.values.get(name, [])) + [value]
            else:
                entry.values[name] = value
        entry.touched = True
        entry.cursor = 1 + next((i for i, f in enumerate(entry.fields()) if f["name"] in values), 0)

    @staticmethod
    def _takes(form: dict[str, Any], values: dict[str, Any]) -> bool:
        names = {f["name"] for f in form["fields"]}
        for f in form["fields"]:
            if moves.kind_of(f) == "choices":
                for c in f["choices"]:
                    names.update(x["name"] for x in c.get("fields") or [])
        return set(values) <= names

    def _die(self, event: DieEvent) -> None:
        """A die face from a slot reader that knows faces (the firmware's table): the game names it."""
        if not event.face:
            self.lanes.pop(event.point, None)
            return
        self.lanes[event.point] = self.package.die_face(event.face)

    # -- acting ------------------------------------------------------------------
    def _submit(self) -> None:
        entry = self.entry
        if entry is None:
            return self.refuse(self._t("Nothing to confirm: {prompt}", prompt=self.package.prompt(self.session.state, self.lang)))
        f = entry.current()
        if f is not None and moves.kind_of(f) == "items" and entry.pending is not None:
            entry.touched = True
            if entry.pending is not END:  # OK adds the item under the dial
                entry.values[f["name"]] = list(entry.values.get(f["name"], [])) + [entry.pending]
                entry.pending = None
                return
            entry.pending = None  # "end": the list is complete, on to the next field
            entry.values.setdefault(f["name"], [])
            if entry.cursor < len(entry.fields()):
                entry.cursor += 1
                return
        missing = entry.missing()
        while missing is not None and moves.kind_of(missing) == "choices" and len(moves.enabled(missing["choices"])) == 1:
            entry.values[missing["name"]] = moves.enabled(missing["choices"])[0]["value"]  # the only legal one
            missing = entry.missing()
        if missing is not None:
            fields = entry.fields()
            at = fields.index(missing) + 1
            if entry.cursor != at:
                entry.cursor = at
                entry.touched = True
                return
            return self.refuse(self._t("Turn the dial to choose: {what}.", what=missing["label"]))
        self.act(entry.action())

    def act(self, action: dict[str, Any]) -> bool:
        """Send ``action`` to the session; a refusal goes to the OLED with an error beep."""
        try:
            self.session.act(action, source="table")
        except RuleError as err:
            self.refuse(self.package.error_text(err, self.lang))
            return False
        self.beeper.play("ok")
        return True

    def refuse(self, message: str) -> None:
        self.message = message
        self._message_until = self.clock() + self.message_seconds
        self.beeper.play("error")
        if self.leds is not None:
            self.leds.flash("error")

    def _story(self, change: Change) -> str | None:
        """What just happened, in the table's words (the narration of the action), for the toast."""
        if change.kind != "action" or not change.action:
            return None
        try:
            from companion import story

            told = story.told(self.session, self.lang)
            return " ".join(told[-1]["sentences"]) if told else None
        except Exception:  # a narration bug must not stop the table
            log.exception("narration failed")
            return None

    def _t(self, msgid: str, **params: Any) -> str:
        return texts.render(msgid, params, self.lang)

    # -- state → screen ------------------------------------------------------------
    def _on_change(self, change: Change) -> None:
        with self._lock:
            if change.action and change.action.get("type") in extras.automatic(self.session):
                self.beeper.play("timer")
            self.toast = self._story(change)
            self._toast_until = self.clock() + self.message_seconds
            self.player = None
            self._rebuild_entry(reset=True)
            self.refresh()

    def table_forms(self) -> list[dict[str, Any]]:
        """The moves the dial offers: the table's and those of seats without a phone (one seat's once chosen)."""
        pkg = self.package
        state = self.session.state
        forms = moves.visible(moves.for_seat(pkg.moves(state, self.lang), None, tuple(self.phone_seats() or ())))
        if self.player is not None:
            forms = [f for f in forms if f.get("player") in (self.player, None)]
        return moves.expected_first(forms, pkg.rules.expected(state).players)

    def _rebuild_entry(self, reset: bool = False) -> None:
        """The entry offers the table's moves now; keep the move being dialled when it is still offered."""
        forms = self.table_forms()
        if not forms:
            self.entry = None
            return
        old = self.entry
        if not reset and old is not None:
            key = (old.form["type"], old.form.get("player"))
            hit = next((i for i, f in enumerate(forms) if (f["type"], f.get("player")) == key), None)
            if hit is not None:
                old.forms, old.index = forms, hit
                return
        self.entry = Entry(forms)

    def heading(self) -> str:
        """The move being dialled, with its player: "Ann: Education"."""
        entry = self.entry
        if entry is None:
            return ""
        form = entry.form
        return f"{form['player']}: {form['label']}" if form.get("player") and len(self.session.players) > 1 else form["label"]

    def entry_segments(self) -> tuple[tuple[str, bool], ...]:
        """What the dial changes now, highlighted: the move itself, or the field under the cursor."""
        entry = self.entry
        if entry is None:
            return ()
        f = entry.current()
        if f is None:
            more = f" ({len(entry.fields())})" if entry.fields() else ""
            return ((entry.form["label"], True), (more, False)) if more else ((entry.form["label"], True),)
        if moves.kind_of(f) == "items":
            chosen = _choice_label(f, entry.values.get(f["name"], []))[0] if entry.values.get(f["name"]) else ""
            if entry.pending is None:
                cand = "?"
            else:
                cand = self._t("end") if entry.pending is END else _choice_label({"choices": f["items"]["choices"]}, entry.pending)[0]
            return ((f"{chosen}+" if chosen else "", False), (cand, True))
        if f["name"] in entry.values:
            return ((_choice_label(f, entry.values[f["name"]])[0], True),)
        return ((f"{f['label']}?", True),)

    def preview(self) -> str:
        """The preview of what is under the dial (a choice's, a range's), else the field to choose."""
        entry = self.entry
        if entry is None:
            return ""
        f = entry.current()
        if f is None:
            return str((entry.form.get("preview") or {}).get("text") or "")
        if f["name"] in entry.values:
            label, text = _choice_label(f, entry.values[f["name"]])
            return text or f"{f['label']}: {label}"
        return ""  # nothing chosen yet: the value line asks for the field ("Direction?")

    def context(self) -> screens.ScreenContext:
        entry = self.entry
        return screens.context_for(
            self.session.rules,
            self.session.state,
            lang=self.lang,
            message=self.message,
            entry=self.entry_segments(),
            editing=bool(entry and entry.touched),
            heading=self.heading() if entry and entry.touched else "",
            url=self.url,
            preview=self.preview() if entry and entry.touched else "",
            status=(self.toast if self.toast and not (entry and entry.touched)
                    else self.package.prompt(self.session.state, self.lang)),
        )

    def frame_name(self, state: dict[str, Any], ctx: screens.ScreenContext) -> str:
        if ctx.message:
            return "error"
        return self.screen or screens.choose(state, ctx)

    def refresh(self) -> bool:
        """Redraw; the OLED only receives the frame when it changed."""
        with self._lock:
            state = self.session.public()
            ctx = self.context()
            image = screens.render(self.frame_name(state, ctx), state, ctx)
            if self.leds is not None:
                self.leds.set("ready", not state.get("over"))
            return self.oled.show(image)


def _slot_order(point: str) -> int:
    m = LANE.match(point)
    return int(m.group(2)) if m else 0


def _first(delta: int, n: int) -> int:
    """Where ``delta`` detents land on a list of ``n`` with nothing chosen yet: the first is one detent."""
    return (delta - 1) % n if delta > 0 else (n + delta) % n


def _seat_of(point: str) -> int:
    m = LANE.match(point)
    return int(m.group(1)) if m else 0


from companion.devices import TableDevices, open_devices  # noqa: E402,F401  (older imports)
