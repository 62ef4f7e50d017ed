"""The table controller: device events → game actions, game state → OLED screens and beeps.

It sits above the session (docs/design.md: device event → session → rules → new
state → screens) and names no game: what the table may do is the game
package's *moves* (:mod:`companion.engine.moves`), what a component laid on a reader
means is the package's ``tag_action``, and the screens come from the package.
A refused action changes nothing and its sentence goes to the OLED with an
error beep.

How the table is operated (also in docs/hardware.md and docs/moves.md):

* **The dial** walks the moves (:mod:`companion.board.dial`): cursor 0 is the move
  (the encoder picks it; the first is the rulebook's next step, the package's
  order next, also, override, and an override is never the one it starts on),
  Up/Down walk its fields, the encoder walks a field's legal choices with their
  preview on the OLED, OK goes to the next field still to choose and sends once
  none is missing. Nothing is preselected but a field's only legal choice. A
  move that spends, ends the turn or overrides the flow asks a second OK,
  showing what it will do (the override's question); Back cancels.
* **Seat buttons**: a seat's moves only (pressed again: everyone's); where the
  game says so (``lane_action``), the dice lying in that seat's lanes are sent
  (a plan, « I am done »). At the sand's end the lanes count by themselves
  (``at_timer_end``).
* **Tags** act where the component says it all (a species tile on a square, a
  weather card), or fill the move being dialled (an animal token, a ball drawn
  for a wood gamble).
* **Back**: at the second OK's question, drops it (the move stays dialled);
  else clears an edited entry, else shows the next screen; held, undoes the
  last action (with the automatic ones after it).
* **No game on the table**: the composition root hands the buttons to
  :mod:`companion.board.lobby`, which starts one.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.board import screens
from companion.board.dial import Entry, first_detent
from companion.board.presenter import OledPresenter
from companion.engine import moves
from companion.engine.rules import RuleError
from companion.table import extras
from companion.table.rows import StorageError
from companion.table.session import Change, Session
from hw.events import ButtonEvent, DeviceEvent, DieEvent, EncoderEvent, StatusEvent, TagEvent
from hw.oled import Oled
from hw.outputs import Beeper, StatusLeds
from hw.tags import TagRegistry

log = logging.getLogger(__name__)
Clock = Callable[[], float]

LANE = re.compile(r"^seat(\d+)\.slot(\d+)$")
WARN_SECONDS = 5.0  # the sand timer's warning beep


# -- the controller -------------------------------------------------------------

class TableController(OledPresenter):
    """Turns table devices into actions on one :class:`Session` and keeps the OLED current.

    The input side is here (buttons, the dial, tags, die faces, device health); what the OLED shows
    is :class:`~companion.board.presenter.OledPresenter`.
    """

    def __init__(
        self,
        session: Session,
        oled: Oled,
        *,
        beeper: Beeper | None = None,
        leds: StatusLeds | None = None,
        registry: TagRegistry | None = None,
        url: str | Callable[[], str] | None = None,
        clock: Clock = time.monotonic,
        message_seconds: float = 4.0,
        lang: str = "en",
        phone_seats: Callable[[], Any] | None = None,
        wifi: Callable[[], dict[str, str] | None] | None = None,
    ) -> None:
        self.session = session
        self.oled = oled
        self.beeper = beeper or Beeper(None)
        self.leds = leds
        self.registry = registry
        self.url = url
        #: the hotspot's Wi-Fi QR (``{"qr", "ssid"}``) while the table is on it: Up/Down show it before the join QR
        self.wifi = wifi or (lambda: None)
        self.clock = clock
        self.message_seconds = message_seconds
        #: the OLED's language, and the seats played from a phone (the dial offers their moves as overrides)
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
        #: what the screen shows and since when (text that does not fit scrolls from then)
        self._shown_key: Any = None
        self._shown_since = clock()
        #: the overrides offered when nothing else is (the dial reaches them by turning)
        self.overrides: list[dict[str, Any]] = []
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
        if self.entry is None and not self.overrides:  # only corrections: a turn reaches them
            self.refuse(self._t("{p} has no move to make now.", p=name))
            self.player = None
            self._rebuild_entry(reset=True)

    def _turn(self, delta: int) -> None:
        entry = self.entry
        if entry is None:
            if not self.overrides:
                return
            # only corrections of the flow are offered: the dial never rests on one, a turn reaches them
            self.entry = Entry(self.overrides, index=first_detent(delta, len(self.overrides)), touched=True)
            return
        self.message = None
        entry.turn(delta)

    def _move(self, delta: int) -> None:
        entry = self.entry
        if entry is None:
            self._cycle_screen(delta)
            return
        entry.move(delta)

    def _back(self) -> None:
        entry = self.entry
        if entry is not None and entry.confirming is not None:
            entry.confirming = None  # Back at the question: nothing is sent, the move stays as dialled
        elif entry is not None and entry.touched:
            self.player = None
            self._rebuild_entry(reset=True)
        else:
            self._cycle_screen(1)

    def _undo(self) -> None:
        try:  # with the timer's expiry that followed it; the table may take back a whole ballot
            undone = extras.undo(self.session, by_table=True, lang=self.lang)
        except RuleError as err:
            return self.refuse(self.package.error_text(err, self.lang))
        except StorageError as err:  # the card refused the write: its sentence, nothing changed
            return self.refuse(err.text(self.lang))
        if undone is None:
            self.refuse(self._t("There is nothing to undo."))
        else:
            self.beeper.play("ok")

    def _cycle_screen(self, delta: int) -> None:
        cycle = ("auto",) + screens.cycle(self.session.game)
        if "qr" in cycle and self.wifi():  # on the table's hotspot: the Wi-Fi QR, then the join QR
            at = cycle.index("qr")
            cycle = cycle[:at] + ("wifi",) + cycle[at:]
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
        if self.entry is None or not Entry.takes(self.entry.form, values):
            self._rebuild_entry(reset=True)
            forms = self.entry.forms if self.entry else self.overrides
            hit = next((i for i, f in enumerate(forms) if Entry.takes(f, values)), None)
            if hit is None:
                return self.refuse(self._t("No move takes {what} now.", what=comp.describe()))
            if self.entry is None:
                self.entry = Entry(forms)
            self.entry.index, self.entry.values = hit, {}
        self.entry.fill(values)

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
        what, value = entry.ok()
        if what == "missing":
            self.refuse(self._t("Turn the dial to choose: {what}.", what=value["label"]))
        elif what == "ask":
            self.beeper.play("tag")  # a short blip: the question is on the screen, OK again sends
        elif what == "send":
            self.act(value)

    def act(self, action: dict[str, Any]) -> bool:
        """Send ``action`` to the session; a refusal goes to the OLED with an error beep."""
        try:
            self.session.act(action, source="table")
        except RuleError as err:
            self.refuse(self.package.error_text(err, self.lang))
            return False
        except StorageError as err:  # the card refused the write: its sentence, nothing changed
            self.refuse(err.text(self.lang))
            return False
        self.beeper.play("ok")
        return True

    # -- after a change, the moves the dial offers ------------------------------------------------------------
    def _on_change(self, change: Change) -> None:
        with self._lock:
            if change.action and change.action.get("type") in extras.automatic(self.session):
                self.beeper.play("timer")
            self.show_change(change)
            self.player = None
            self._rebuild_entry(reset=True)
            self.refresh()

    def table_forms(self) -> list[dict[str, Any]]:
        """The moves the dial offers: the table's and those of seats without a phone (one seat's once chosen),
        in the package's order (next, also, override), so that the dial starts on the rulebook's next step."""
        pkg, state = self.package, self.session.state
        try:
            phones = set(self.phone_seats() or ())
        except Exception:  # the seats cannot be read (a read-only card): every seat is the table's
            log.exception("the seats held by phones could not be read")
            phones = set()
        forms = []
        for f in moves.visible(pkg.moves(state, self.lang)):
            if f.get("player") in phones:  # acting for a seat played on a phone corrects the flow: it asks
                if not pkg.table_may_act({"type": f["type"], "player": f["player"]}, phone_held=True):
                    continue  # never a secret move (a vote) for a phone's seat
                f = moves.override(dict(f), self._t("{p} plays on a phone: act for {p} from the table?", p=f["player"]))
            forms.append(f)
        if self.player is not None:
            forms = [f for f in forms if f.get("player") in (self.player, None)]
        return sorted(forms, key=lambda f: moves.STEPS.index(moves.step_of(f)))

    def _rebuild_entry(self, reset: bool = False) -> None:
        """The entry offers the table's moves now; keep the move being dialled when it is still offered.

        When only overrides are offered, there is no entry: the dial never rests on a
        correction of the flow; turning it reaches them (:meth:`_turn`).
        """
        forms = self.table_forms()
        old = self.entry
        self.overrides = [f for f in forms if moves.step_of(f) == "override"]
        if not reset and old is not None and forms:
            key = (old.form["type"], old.form.get("player"))
            hit = next((i for i, f in enumerate(forms) if (f["type"], f.get("player")) == key), None)
            if hit is not None:
                old.forms, old.index = forms, hit
                return
        if not forms or len(self.overrides) == len(forms):
            self.entry = None
            return
        self.entry = Entry(forms)


def _slot_order(point: str) -> int:
    m = LANE.match(point)
    return int(m.group(2)) if m else 0


def _seat_of(point: str) -> int:
    m = LANE.match(point)
    return int(m.group(1)) if m else 0


