"""The table controller: device events → game actions, game state → OLED screens and beeps.

It sits above the session (DESIGN.md: device event → session → rules → new
state → screens). It never touches a rules module's internals: it reads the
session's public state and expected actions and sends action dicts through
:meth:`Session.act`, so a refused action changes nothing and its sentence
goes to the OLED with an error beep.

How the table is operated (also in docs/hardware.md):

* **Tags** act directly where the component says it all: a species tile laid
  on square N becomes ``tile``; a ball on the scan pad becomes ``fish`` (or
  counts towards a ``wood`` gamble being entered); a weather card becomes
  ``weather``; turtles scanned at the bag gather into ``place_turtles``; dice
  in a seat's lane slots are remembered for that seat's plan.
* **The entry**: for actions that need numbers or choices the OLED shows a
  small form, e.g. ``bid £300 N``. The encoder changes the highlighted item,
  Up/Down move the highlight (the first item is the action itself), OK sends.
* **Seat buttons** say who: in dice planning a seat's button sends that
  seat's plan (the first plan turns the sand timer); elsewhere it picks the
  player the entry acts for.
* **Back**: clears an edited entry, else shows the next screen; held, undoes
  the last action.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion import extras, screens
from companion.rules import RuleError
from companion.session import Change, Session
from hw.events import ButtonEvent, DeviceEvent, DieEvent, EncoderEvent, TagEvent
from hw.oled import Oled
from hw.outputs import Beeper, StatusLeds
from hw.tags import Component, TagRegistry

log = logging.getLogger(__name__)
Clock = Callable[[], float]

DIRECTIONS = ("N", "E", "S", "W")
ANIMALS = ("sea_lion", "iguana", "tortoise", "booby", "penguin", "crab")
SPECIES = ("rat", "ant", "finch")
DICE_COLOURS = ("black", "white", "red", "green", "yellow", "blue")
LANE = re.compile(r"^seat(\d+)\.slot(\d+)$")
WARN_SECONDS = 5.0  # the sand timer's warning beep


# -- the entry forms -----------------------------------------------------------

@dataclass(frozen=True)
class Num:
    """A number the encoder turns (``step`` per detent, clamped to ``lo..hi``)."""

    key: str
    lo: int
    hi: int
    step: int = 1
    fmt: str = "{}"

    def choices(self, state: dict[str, Any]) -> list[Any]:
        return list(range(self.lo, self.hi + 1, self.step))


@dataclass(frozen=True)
class Pick:
    """A choice the encoder cycles through; ``options`` may depend on the public state."""

    key: str
    options: tuple[Any, ...] | Callable[[dict[str, Any]], tuple[Any, ...]]
    fmt: str = "{}"

    def choices(self, state: dict[str, Any]) -> list[Any]:
        opts = self.options(state) if callable(self.options) else self.options
        return list(opts)


def _round_tile(state: dict[str, Any]) -> tuple[str, ...]:
    """The two animals of the round's tile (expedition), else every animal."""
    tile = (state.get("tiles") or {}).get(state.get("direction") or "")
    return tuple(tile) if tile else ANIMALS


YES_NO = (False, True)

#: game -> action type -> the fields dialled in with the encoder (besides "player")
FORMS: dict[str, dict[str, tuple[Num | Pick, ...]]] = {
    "galapagos-auction": {
        "bid": (Num("amount", 100, 10000, 100, "£{}"), Pick("direction", DIRECTIONS)),
        "pass": (),
        "direction": (Pick("direction", DIRECTIONS),),
        "education": (Num("steps", 1, 4, fmt="+{}"),),
        "expedition": (Pick("animal", _round_tile),),
        "sale": (Pick("animal", ANIMALS),),
        "sell_cards": (Num("count", 1, 7),),
        "done": (),
    },
    "galapagos-dice": {
        "start": (Num("field", 1, 36, fmt="field {}"),),
    },
    "pocket-galapagos": {
        "ocean": (Pick("species", SPECIES), Num("icons", 1, 3), Pick("mode", ("inhabit", "migrate"))),
        "species": (Pick("space", ("dominant", "biome", "invasive")), Pick("species", SPECIES)),
        "population": (Pick("species", SPECIES), Num("change", -3, 3, fmt="{:+d}")),
        "end_turn": (),
    },
    "galerapagos": {
        "weather": (Num("water", 0, 3, fmt="{} water"), Pick("hurricane", YES_NO)),
        "fish": (Num("fish", 0, 3, fmt="{} fish"),),
        "water": (),
        "wood": (Num("extra", 0, 5, fmt="+{}"), Pick("snake", YES_NO)),
        "search": (),
        "embark": (),
    },
}


def _show(spec: Num | Pick, value: Any) -> str:
    if isinstance(value, bool):
        return f"{spec.key}!" if value else f"no {spec.key}"
    return spec.fmt.format(value).replace("_", " ")


@dataclass
class Entry:
    """The action being dialled in: its type, field values, and the highlighted item."""

    kinds: list[str]
    kind: str
    values: dict[str, Any]
    cursor: int = 0  # 0: the action type; i: field i-1
    touched: bool = False
    extra: dict[str, Any] = field(default_factory=dict)  # values gathered from tags (turtle numbers)


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
    ) -> None:
        self.session = session
        self.oled = oled
        self.beeper = beeper or Beeper(None)
        self.leds = leds
        self.registry = registry
        self.url = url
        self.clock = clock
        self.message_seconds = message_seconds
        self.message: str | None = None
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
        self._rebuild_entry()
        self.refresh()

    def close(self) -> None:
        self._unsubscribe()

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

    def _seat(self, seat: int) -> None:
        players = self.session.players
        if not 1 <= seat <= len(players):
            return self.refuse(f"Seat {seat} is empty at this table.")
        name = players[seat - 1]
        exp = self.session.expected()
        if "plan" in exp.actions and name in exp.players:
            dice = [self.lanes[p] for p in sorted(self.lanes, key=_slot_order) if LANE.match(p).group(1) == str(seat)]
            self.act({"type": "plan", "player": name, "dice": dice})
            return
        if exp.players and name not in exp.players:
            return self.refuse(f"It is not {name}'s turn: {', '.join(exp.players)} must act.")
        self.player = name
        if self.entry:
            self.entry.touched = True

    def _turn(self, delta: int) -> None:
        entry = self.entry
        if entry is None:
            return
        self.message = None
        entry.touched = True
        if entry.cursor == 0:
            i = (entry.kinds.index(entry.kind) + delta) % len(entry.kinds)
            self._set_kind(entry.kinds[i])
            return
        spec = self._specs(entry.kind)[entry.cursor - 1]
        choices = spec.choices(self.session.public())
        current = entry.values.get(spec.key)
        i = choices.index(current) if current in choices else 0
        if isinstance(spec, Num):  # numbers stop at their ends, choices wrap round
            entry.values[spec.key] = choices[max(0, min(len(choices) - 1, i + delta))]
        else:
            entry.values[spec.key] = choices[(i + delta) % len(choices)]

    def _move(self, delta: int) -> None:
        entry = self.entry
        if entry is None:
            self._cycle_screen(delta)
            return
        entry.touched = True
        entry.cursor = (entry.cursor + delta) % (1 + len(self._specs(entry.kind)))

    def _back(self) -> None:
        if self.entry is not None and self.entry.touched:
            self.player = None
            self._rebuild_entry(reset=True)
        else:
            self._cycle_screen(1)

    def _undo(self) -> None:
        undone = extras.undo(self.session)  # with the timer's expiry that followed it
        if undone is None:
            self.refuse("There is nothing to undo.")
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
            return self.refuse(f"Tag {event.uid} on {event.point} is not enrolled; enrol it on the dashboard.")
        self.beeper.play("tag")
        if lane:
            if comp.kind == "die":
                self.lanes[event.point] = comp.value["up"]
            return
        handler = getattr(self, f"_tag_{comp.kind}", None)
        if handler is None:
            return self.refuse(f"A {comp.describe()} on {event.point} means nothing now.")
        handler(event.point, comp)

    def _die(self, event: DieEvent) -> None:
        """A die face from a slot reader that knows faces (the firmware's table).

        Galapagos dice show colours: faces 1..6 are the colours in the order of
        DESIGN.md (black, white, red, green, yellow, blue).
        """
        if not event.face:
            self.lanes.pop(event.point, None)
            return
        face: Any = event.face
        if self.session.game == "galapagos-dice" and 1 <= face <= len(DICE_COLOURS):
            face = DICE_COLOURS[face - 1]
        self.lanes[event.point] = face

    def _tag_tile(self, point: str, comp: Component) -> None:
        if point not in DIRECTIONS:
            return self.refuse(f"Lay species tiles on the N, E, S or W square, not on {point}.")
        self.act({"type": "tile", "direction": point, "animals": list(comp.value["animals"])})

    def _tag_weather(self, point: str, comp: Component) -> None:
        self.act({"type": "weather", "water": comp.value["water"], "hurricane": bool(comp.value.get("hurricane"))})

    def _tag_ball(self, point: str, comp: Component) -> None:
        entry = self.entry
        if entry is not None and entry.kind == "wood":
            entry.touched = True
            if comp.value.get("snake"):
                entry.values["snake"] = True
            else:
                entry.values["extra"] = min(5, entry.values.get("extra", 0) + 1)
            return
        if "fish" not in self.session.expected().actions:
            return self.refuse("Nobody is fishing now.")
        player = self._acting_player("fish")
        if player:
            self.act({"type": "fish", "player": player, "fish": int(comp.value.get("fish", 0))})

    def _tag_animal(self, point: str, comp: Component) -> None:
        entry = self.entry
        if entry is None:
            return self.refuse(f"No action takes a {comp.describe()} now.")
        if not any(s.key == "animal" for s in self._specs(entry.kind)):
            kind = next((k for k in entry.kinds if any(s.key == "animal" for s in self._specs(k))), None)
            if kind is None:
                return self.refuse(f"No action takes a {comp.describe()} now.")
            self._set_kind(kind)
        entry = self.entry
        entry.values["animal"] = comp.value["animal"]
        entry.touched = True

    def _tag_turtle(self, point: str, comp: Component) -> None:
        if "place_turtles" not in self.session.expected().actions:
            return self.refuse(f"{comp.describe().capitalize()} is not being placed now.")
        entry = self.entry
        if entry is None or entry.kind != "place_turtles":
            self.entry = entry = Entry(["place_turtles"], "place_turtles", {})
        numbers = entry.extra.setdefault("numbers", [])
        if comp.value["number"] not in numbers:
            numbers.append(comp.value["number"])
        entry.touched = True

    # -- acting ------------------------------------------------------------------
    def _acting_player(self, kind: str) -> str | None:
        exp = self.session.expected()
        if self.player and (not exp.players or self.player in exp.players):
            return self.player
        if len(exp.players) == 1:
            return exp.players[0]
        if len(self.session.players) == 1:
            return self.session.players[0]
        self.refuse(f"Press your seat button first: {' or '.join(exp.players) or 'someone'} may {kind.replace('_', ' ')}.")
        return None

    def _submit(self) -> None:
        entry = self.entry
        if entry is None:
            return self.refuse("Nothing to confirm: " + (self.session.expected().prompt or "wait."))
        action: dict[str, Any] = {"type": entry.kind}
        if entry.kind == "place_turtles":
            action["numbers"] = list(entry.extra.get("numbers", []))
        else:
            action.update({s.key: entry.values[s.key] for s in self._specs(entry.kind)})
        if "player" in self.session.rules.actions.get(entry.kind, ()):
            player = self._acting_player(entry.kind)
            if player is None:
                return
            action["player"] = player
        self.act(action)

    def act(self, action: dict[str, Any]) -> bool:
        """Send ``action`` to the session; a refusal goes to the OLED with an error beep."""
        try:
            self.session.act(action, source="table")
        except RuleError as err:
            self.refuse(err.message)
            return False
        self.beeper.play("ok")
        return True

    def refuse(self, message: str) -> None:
        self.message = message
        self._message_until = self.clock() + self.message_seconds
        self.beeper.play("error")
        if self.leds is not None:
            self.leds.flash("error")

    # -- state → screen ------------------------------------------------------------
    def _on_change(self, change: Change) -> None:
        with self._lock:
            if change.action and change.action.get("type") == "timer_expired":
                self.beeper.play("timer")
            self.player = None
            self._rebuild_entry(reset=True)
            self.refresh()

    def _specs(self, kind: str) -> tuple[Num | Pick, ...]:
        return FORMS.get(self.session.game, {}).get(kind, ())

    def _rebuild_entry(self, reset: bool = False) -> None:
        """The entry offers the expected actions the table can dial in; keep the kind if still offered."""
        forms = FORMS.get(self.session.game, {})
        kinds = [k for k in self.session.expected().actions if k in forms]
        if not kinds:
            self.entry = None
            return
        keep = self.entry.kind if self.entry is not None and self.entry.kind in kinds else kinds[0]
        if reset or self.entry is None or self.entry.kinds != kinds:
            self.entry = Entry(kinds, keep, {})
            self._set_kind(keep)

    def _set_kind(self, kind: str) -> None:
        entry = self.entry
        assert entry is not None
        state = self.session.public()
        entry.kind = kind
        entry.values = {s.key: s.choices(state)[0] for s in self._specs(kind)}
        entry.cursor = min(entry.cursor, len(self._specs(kind)))

    def entry_segments(self) -> tuple[tuple[str, bool], ...]:
        entry = self.entry
        if entry is None:
            return ()
        if entry.kind == "place_turtles":
            numbers = entry.extra.get("numbers", [])
            return (("turtles", True), (",".join(map(str, numbers)) or "scan", False))
        parts = [(entry.kind.replace("_", " "), entry.cursor == 0)]
        for i, spec in enumerate(self._specs(entry.kind), start=1):
            parts.append((_show(spec, entry.values.get(spec.key)), entry.cursor == i))
        return tuple(parts)

    def context(self) -> screens.ScreenContext:
        entry = self.entry
        return screens.context_for(
            self.session.rules,
            self.session.state,
            message=self.message,
            entry=self.entry_segments(),
            editing=bool(entry and entry.touched),
            url=self.url,
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


from companion.devices import TableDevices, open_devices  # noqa: E402,F401  (older imports)
