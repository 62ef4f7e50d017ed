"""Buttons and the rotary encoder, as gpiozero devices on the configured pin factory.

One :class:`Panel` owns every input on the Pi's header and reports them to a
single callback as :mod:`hw.events`. Buttons are wired to ground (gpiozero's
default pull-up), the encoder's A/B to two pins and C to ground.

gpiozero calls ``when_pressed`` and friends from the pin factory's own thread
(lgpio's single notification thread on a Pi; the panel's :class:`HoldTimer` sends
``hold``) with no guard: an exception there stops every button and the
encoder for good. So the callback here only hands the event on and never
lets an exception out, and the table's devices
(:class:`companion.board.devices.TableDevices`) only enqueue it for their worker:
no I2C push or game logic ever runs on gpiozero's thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping

from gpiozero import DigitalInputDevice, InputDevice, RotaryEncoder

from hw.events import ButtonEvent, DeviceEvent, EncoderEvent
from hw.pins import pin_trouble

log = logging.getLogger(__name__)
Listener = Callable[[DeviceEvent], None]
#: how long a press edge's line must stay low to count (a spike is over in microseconds)
GLITCH_TIME = 0.0002


def _claimed(pin: int) -> bool:
    """Whether ``pin`` can be claimed now (so the other pin of a pair is the busy one)."""
    try:
        InputDevice(pin).close()
    except Exception:  # noqa: BLE001
        return False
    return True


class PanelButton(DigitalInputDevice):
    """gpiozero's ``Button`` without its hold thread: the panel's one :class:`HoldTimer` times holds.

    gpiozero 2.0's ``Button`` (``HoldMixin``) starts a ``HoldThread`` per button that wakes every
    0.1 s for as long as the button exists, pressed or not: nine buttons cost a quarter of a core
    percent at rest here, several percent on a Pi Zero. The names are ``Button``'s own
    (``is_pressed``, ``when_pressed``, ``hold_time``...), so code written for it reads the same.
    """

    def __init__(self, pin: int, *, hold_time: float, **kwargs: object) -> None:
        super().__init__(pin, **kwargs)
        self.hold_time = hold_time


PanelButton.is_pressed = PanelButton.is_active  # type: ignore[attr-defined]
PanelButton.pressed_time = PanelButton.active_time  # type: ignore[attr-defined]
PanelButton.when_pressed = PanelButton.when_activated  # type: ignore[attr-defined]
PanelButton.when_released = PanelButton.when_deactivated  # type: ignore[attr-defined]


class HoldTimer:
    """Every button's hold, timed by one thread that runs only while a button is down.

    ``arm(name, at)`` on a press edge, ``disarm(name)`` on its release; at ``at`` (monotonic)
    ``fire(name)`` is called once (no repeat, as gpiozero's default ``hold_repeat``). The thread
    starts with the first armed hold and ends when none is left, so a table at rest has no
    thread and no wake-up for its holds. ``fire`` runs on the timer's thread, outside its lock.
    """

    def __init__(self, fire: Callable[[str], None]) -> None:
        self._fire = fire
        self._due: dict[str, float] = {}
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def running(self) -> bool:
        with self._changed:
            return self._thread is not None

    def arm(self, name: str, at: float) -> None:
        with self._changed:
            if self._closed:
                return
            self._due[name] = at
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="button-holds", daemon=True)
                self._thread.start()
            self._changed.notify()

    def disarm(self, name: str) -> None:
        with self._changed:
            if self._due.pop(name, None) is not None:
                self._changed.notify()

    def close(self) -> None:
        """Forget every pending hold and wait for the thread, which ends at once."""
        with self._changed:
            self._closed = True
            self._due.clear()
            thread = self._thread
            self._changed.notify()
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _run(self) -> None:
        while True:
            with self._changed:
                if not self._due:  # nothing held: end (decided under the lock ``arm`` takes)
                    self._thread = None
                    return
                name, at = min(self._due.items(), key=lambda item: item[1])
                wait = at - time.monotonic()
                if wait > 0:
                    self._changed.wait(wait)
                    continue  # a press, a release or close may have changed what is due
                del self._due[name]
            self._fire(name)


class Panel:
    """Seat buttons, OK/Back/Up/Down and the encoder.

    ``buttons`` maps a button name to its BCM pin; ``encoder`` is ``(a, b)`` or
    None. ``hold_time`` is how long a press must last to also send a ``hold``.
    """

    def __init__(
        self,
        buttons: Mapping[str, int],
        encoder: tuple[int, int] | None,
        on_event: Listener,
        *,
        bounce_time: float | None = 0.02,
        hold_time: float = 1.5,
        glitch_time: float = GLITCH_TIME,
    ) -> None:
        self._emit = on_event
        self.errors = 0  # events whose listener raised (logged, never raised into gpiozero)
        self.bounce_time, self.hold_time, self.glitch_time = bounce_time, hold_time, glitch_time
        self.bounces = 0  # press edges dropped as contact bounce
        self.glitches = 0  # press edges dropped because the line was not held low (a µs spike)
        self.holds = 0  # holds sent (a button kept down past its hold time)
        self._accepted: dict[str, float] = {}
        self._released_at: dict[str, float] = {}
        self._glitched: set[str] = set()
        self._holds = HoldTimer(self._hold)
        self.buttons: dict[str, PanelButton] = {}
        self.encoder: RotaryEncoder | None = None
        #: inputs that could not be claimed (a busy pin): name -> (pins, the sentence with the fix)
        self.missing: dict[str, tuple[tuple[int, ...], str]] = {}
        self._wanted_buttons = dict(buttons)
        self._wanted_encoder = encoder
        self.retry()

    def retry(self) -> bool:
        """Claim every input not claimed yet; True when none is missing any more.

        One busy pin (another program holds it) costs that one button, never the
        table: the others work and this one is tried again later.
        """
        for name, pin in self._wanted_buttons.items():
            if name in self.buttons:
                continue
            try:  # no debounce in gpiozero/lgpio: ours acts on the leading edge (see _press)
                button = PanelButton(pin, pull_up=True, bounce_time=None, hold_time=self.hold_time)
            except Exception as exc:  # lgpio.error('GPIO busy'), GPIOPinInUse, ...
                self.missing[name] = ((pin,), pin_trouble(pin, f"button {name}", exc))
                continue
            button.when_pressed = self._press(name)
            button.when_released = self._released(name)
            self.buttons[name] = button
            self.missing.pop(name, None)
        if self._wanted_encoder is not None and self.encoder is None:
            a, b = self._wanted_encoder
            try:
                # max_steps=0: an unbounded counter; the controller only uses the deltas.
                self.encoder = RotaryEncoder(a, b, max_steps=0)
            except Exception as exc:
                bad = b if "busy" in str(exc).lower() and _claimed(a) else a
                self.missing["encoder"] = ((a, b), pin_trouble(bad, "the encoder", exc))
            else:
                self.encoder.when_rotated_clockwise = self._sender(EncoderEvent(+1))
                self.encoder.when_rotated_counter_clockwise = self._sender(EncoderEvent(-1))
                self.missing.pop("encoder", None)
        return not self.missing

    def _press(self, name: str) -> Callable[[], None]:
        """A leading-edge debounce: the first edge of a press acts at once, bounces are ignored.

        lgpio's own debounce (``bounce_time`` handed to gpiozero) reports a level only once
        it has been stable for the whole window, so every press reached the glass 20 ms late
        at the least. Here the press acts on its first edge; a press edge within
        ``bounce_time`` of the last accepted press, or of a release edge (the contacts
        chattering as they open), is contact bounce and is dropped.
        """
        send = self._sender(ButtonEvent(name, "press"))
        window = self.bounce_time or 0.0

        def pressed() -> None:
            now = time.monotonic()
            self._holds.arm(name, now + self.hold_time)  # as gpiozero's: from the last press edge
            last = max(self._accepted.get(name, -1e9), self._released_at.get(name, -1e9))
            if window and now - last < window:
                self.bounces += 1
                return
            if not self._held(name):
                self.glitches += 1
                self._glitched.add(name)
                return
            self._glitched.discard(name)
            self._accepted[name] = now
            send()

        return pressed

    def _held(self, name: str) -> bool:
        """Whether the line is still low ``glitch_time`` after its press edge was handled.

        lgpio with ``bounce_time=None`` filters nothing: a spike of a few µs on a pulled-up line
        (the buzzer's transistor switching, long wires) is a falling and a rising edge, and
        acting on the first edge alone made it a seat press. A finger holds the contacts for
        tens of milliseconds. The line is read now (a µs spike is over before lgpio's thread
        runs the callback) and, if the edge is younger than ``glitch_time`` (gpiozero's
        ``active_time``, from the kernel's timestamp of the edge), once more when it is that old:
        on a Pi the callback is usually later than that already, and nothing waits.
        """
        button = self.buttons.get(name)
        if button is None:
            return True
        try:
            if not button.is_pressed:  # the line, read now: high again
                return False
            age = button.active_time or 0.0  # since the edge (gpiozero's state from the events)
            if age < self.glitch_time:  # spin, not sleep: a sleeping thread may wake milliseconds late
                until = time.monotonic() + self.glitch_time - age
                while time.monotonic() < until:
                    pass
                return bool(button.is_pressed)
            return True
        except Exception:  # noqa: BLE001 - a pin closed under us: no press
            return False

    def _released(self, name: str) -> Callable[[], None]:
        def released() -> None:
            self._holds.disarm(name)
            if name in self._glitched:  # the end of a spike, not contacts opening after a press
                self._glitched.discard(name)
                return
            self._released_at[name] = time.monotonic()

        return released

    def _hold(self, name: str) -> None:
        """The hold timer's call: a ``hold`` if the button is still down (a closed pin: none)."""
        button = self.buttons.get(name)
        try:
            down = button is not None and bool(button.is_pressed)
        except Exception:  # noqa: BLE001 - closed under us
            down = False
        if down:
            self.holds += 1
            self._sender(ButtonEvent(name, "hold"))()

    def _sender(self, event: DeviceEvent) -> Callable[[], None]:
        def send() -> None:
            try:
                self._emit(event)
            except Exception:
                self.errors += 1
                log.exception("input listener failed on %r", event)

        return send

    def close(self) -> None:
        """Stop timing holds, then close every input."""
        self._holds.close()
        for button in self.buttons.values():
            button.close()
        if self.encoder is not None:
            self.encoder.close()
