"""The devices of a configured table, opened, with one place to listen to them all.

Kept apart from the controller: the controller turns events into actions and
screens; this module opens what a config names (OLED, buzzer, LEDs, readers,
bridge, buttons) and fans their events out to listeners.

Device callbacks only enqueue. gpiozero calls a button's handler on the pin
factory's single notification thread (lgpio's on a Pi), each reader polls in
its own thread and the bridge delivers from its dispatcher: if any of them ran
the controller (and with it an OLED push over I2C) the encoder's edges would
wait behind the push, and one exception in a listener would stop that whole
class of input for good. So once :meth:`TableDevices.start` has run,
:meth:`TableDevices.emit` only puts the event on a bounded queue and one
guarded worker thread calls the listeners in order; a listener's exception is
logged and counted and the next event is delivered as usual.

Before ``start`` (tests stepping the readers and pressing mock buttons by hand,
``companion oled``) events are delivered at once, on the caller's thread, with
the same guard, so a test sees the effect of a press when ``drive_low`` returns.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpiozero import Device

from hw.events import ButtonEvent, DeviceEvent, EncoderEvent, StatusEvent, TagEvent
from hw.health import HealthLog
from hw.inputs import Panel
from hw.oled import Oled, open_oled
from hw.oled_device import DisplayError, open_device
from hw.outputs import Beeper, StatusLeds
from hw.pins import PinFactoryError, make_factory, pin_trouble, use_factory
from hw.rfid import DebounceSettings, ReaderGroup, load_backend
from hw.rfid.bridge import BridgeHub
from hw.tags import TagRegistry

log = logging.getLogger(__name__)
Clock = Callable[[], float]
Listener = Callable[[DeviceEvent], None]

#: events waiting for the worker; beyond this the oldest is dropped (and counted)
QUEUE_SIZE = 1024
_STOP = object()
#: seconds before a device that failed at start is tried again, doubling up to RETRY_MAX
RETRY_FIRST = 2.0
RETRY_MAX = 60.0


@dataclass
class TableDevices:
    """Every device a config names, opened, with one place to listen to them all."""

    oled: Oled
    beeper: Beeper
    leds: StatusLeds
    readers: Any  # hw.rfid.ReaderGroup
    registry: TagRegistry | None
    panel: Any = None  # hw.inputs.Panel
    bridge: Any = None  # hw.rfid.bridge.BridgeHub
    simulator: Any = None  # firmware_bridge.simulator.Simulator when [bridge] port = "sim"
    listeners: list[Listener] = field(default_factory=list)
    #: events delivered / dropped because the queue was full / listener calls that raised
    delivered: int = 0
    dropped: int = 0
    listener_errors: int = 0
    #: the last StatusEvent of each device that reported one (the dashboard shows the failing ones)
    status: dict[str, StatusEvent] = field(default_factory=dict)
    #: devices that failed at start, each with the attempt that brings it back (True: it is back)
    retries: dict[str, Callable[[TableDevices], bool]] = field(default_factory=dict)
    #: the buzzer pin, its polarity and the LED pins (to open them again on a new pin factory)
    outputs: tuple[Any, bool, dict[str, int]] = (None, True, {})
    panel_settings: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        self.health_log = HealthLog(log)  # each device named once when it goes down, once when it is back
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=QUEUE_SIZE)
        self._worker: threading.Thread | None = None
        self._retrier: threading.Thread | None = None
        self._stopping = threading.Event()
        self._count_lock = threading.Lock()

    # -- events ------------------------------------------------------------------
    def emit(self, event: DeviceEvent) -> None:
        """Hand ``event`` to the listeners: enqueue it once started, else deliver it now.

        Safe to call from any thread (gpiozero's, a reader's, the bridge's);
        never raises and never blocks.
        """
        if isinstance(event, (ButtonEvent, EncoderEvent, TagEvent)):
            self.oled.wake()  # someone is at the table: undim, end the screen saver
        if isinstance(event, StatusEvent):
            self.keep_status(event)
        if self._worker is None:
            self._deliver(event)
            return
        while True:
            try:
                self._queue.put_nowait(event)
                return
            except queue.Full:
                try:
                    lost = self._queue.get_nowait()
                    self._queue.task_done()
                except queue.Empty:
                    continue
                with self._count_lock:
                    self.dropped += 1
                log.warning("device events arrive faster than the table handles them; dropped %r", lost)

    def keep_status(self, event: StatusEvent) -> None:
        """Keep a device's last status (the dashboard shows it) and log it if it changed."""
        self.status[event.device] = event
        self.health_log.note(event)

    def _deliver(self, event: Any) -> None:
        for fn in list(self.listeners):
            try:
                fn(event)
            except Exception:  # a game bug or an I2C glitch must not stop any input
                with self._count_lock:
                    self.listener_errors += 1
                log.exception("device listener %r failed on %r", fn, event)
        with self._count_lock:
            self.delivered += 1

    def _work(self) -> None:
        while True:
            event = self._queue.get()
            try:
                if event is _STOP:
                    return
                # the frame this event causes goes to the glass from here: no pusher to wake
                with self.oled.on_this_thread(push=self._queue.empty):
                    self._deliver(event)
            except BaseException:  # _deliver guards each listener; this is the last line
                log.exception("device event worker")
            finally:
                self._queue.task_done()

    def drain(self, timeout: float = 2.0) -> bool:
        """Wait until every queued event has been delivered (True) or ``timeout`` passes."""
        cond = self._queue.all_tasks_done
        with cond:
            return cond.wait_for(lambda: self._queue.unfinished_tasks == 0, timeout)

    def attach(self, controller: Any) -> None:
        self.listeners.append(controller.handle)

    def health(self) -> dict[str, Any]:
        """What the dashboard shows about the hardware: failing devices and counters."""
        readers = self.readers.health() if self.readers is not None else {}
        return {
            "failing": [s.message for s in self.status.values() if not s.ok],
            "bridge": getattr(self.bridge, "link_state", None),
            "readers": readers,
            "display": self.oled.health(),
            "events": {"delivered": self.delivered, "dropped": self.dropped, "listener_errors": self.listener_errors},
        }

    # -- lifecycle -----------------------------------------------------------------
    def start(self) -> None:
        """Start the event worker, then poll the readers and bring the bridge link up (background)."""
        if self._worker is None:
            self._worker = threading.Thread(target=self._work, name="device-events", daemon=True)
            self._worker.start()
        for event in [e for e in self.status.values() if not e.ok]:
            self.emit(event)  # what failed at start: the controller puts it on the OLED too
        if self.retries and self._retrier is None:
            self._retrier = threading.Thread(target=self._retry_loop, name="device-retry", daemon=True)
            self._retrier.start()
        self.readers.start()
        if self.bridge is not None:
            self.bridge.start()

    # -- devices that failed at start: said on every screen, tried again -----------------
    def open_outputs(self) -> bool:
        """(Re)open the buzzer and the LEDs on the current pin factory; False if a pin refused."""
        pin, active_high, leds = self.outputs
        ok = True
        if pin is not None and self.beeper.buzzer is None:
            try:
                beeper = Beeper(pin, active_high=active_high)
            except Exception as exc:  # a busy pin: the table plays silent until it is free
                self.keep_status(StatusEvent("buzzer", False, pin_trouble(pin, "the buzzer", exc)))
                ok = False
            else:
                self.beeper.close()
                self.beeper.buzzer = beeper.buzzer
                self._back("buzzer")
        for name, led_pin in leds.items():
            if name in self.leds.leds:
                continue
            try:
                self.leds.add(name, led_pin)
            except Exception as exc:
                self.keep_status(StatusEvent(f"LED {name}", False, pin_trouble(led_pin, f"LED {name}", exc)))
                ok = False
            else:
                self._back(f"LED {name}")
        return ok

    def note_inputs(self) -> None:
        """Say which buttons (or the encoder) could not be claimed."""
        for name, (_pins, message) in (self.panel.missing if self.panel is not None else {}).items():
            device = "encoder" if name == "encoder" else f"button {name}"
            self.keep_status(StatusEvent(device, False, message))

    def retry_inputs(self) -> bool:
        before = set(self.panel.missing)
        done = self.panel.retry()
        for name in before - set(self.panel.missing):
            self._back("encoder" if name == "encoder" else f"button {name}")
        self.note_inputs()
        return done

    def reopen_display(self, d: Any) -> bool:
        """Try the configured display again; when it answers, it takes over from the stand-in."""
        try:
            device = open_device(d.type, port=d.i2c_port, address=d.address, rotate=d.rotate)
        except DisplayError as exc:
            self.keep_status(StatusEvent("display", False, str(exc)))
            return False
        self.oled.attach(device, contrast=d.contrast, refresh_every=d.refresh_every)
        self._back("display")
        return True

    def reopen_gpio(self, cfg: Any) -> bool:
        """Try the configured pin factory again; when it starts, the inputs and outputs move onto it."""
        try:
            factory = make_factory(cfg.pin_factory, getattr(cfg, "gpio_chip", None))
        except PinFactoryError:
            return False

        for part in (self.panel, self.beeper, self.leds):
            if part is not None:
                part.close()
        old, Device.pin_factory = Device.pin_factory, factory
        if old is not None:
            old.close()
        self.beeper.buzzer = None
        self.leds.leds = {}
        self.open_outputs()
        buttons, encoder, bounce, hold = self.panel_settings
        self.panel = Panel(buttons, encoder, self.emit, bounce_time=bounce, hold_time=hold)
        if self.panel.missing:
            self.retries["inputs"] = lambda devices: devices.retry_inputs()
            self.note_inputs()
        if self.readers is not None:
            self.readers.reopen_all()  # their chip selects and resets were on the closed mock factory
        self._back("GPIO")
        return True

    def _back(self, device: str) -> None:
        """A device that was failing works now: say so (the pages and the OLED drop its warning)."""
        if device in self.status and not self.status[device].ok:
            self.emit(StatusEvent(device, True, f"{device} works again"))

    def _retry_loop(self) -> None:
        """Each failing device tried again, 2 s after start then backing off to a minute."""
        pauses = {name: RETRY_FIRST for name in self.retries}
        due = {name: time.monotonic() + RETRY_FIRST for name in self.retries}
        while not self._stopping.wait(0.2):
            for name in list(self.retries):
                if name not in due:
                    pauses[name], due[name] = RETRY_FIRST, time.monotonic() + RETRY_FIRST
                if time.monotonic() < due[name]:
                    continue
                try:
                    back = self.retries[name](self)
                except Exception:  # a retry that breaks is tried again later, never the end of the table
                    log.exception("retrying %s", name)
                    back = False
                if back:
                    self.retries.pop(name, None)
                    due.pop(name, None)
                    continue
                pauses[name] = min(pauses[name] * 2, RETRY_MAX)
                due[name] = time.monotonic() + pauses[name]

    def close(self) -> None:
        self._stopping.set()
        if self._retrier is not None:
            self._retrier.join(timeout=1)
        self.readers.stop()
        if self.bridge is not None:
            self.bridge.stop()
        if self.simulator is not None:
            self.simulator.stop()
        worker, self._worker = self._worker, None
        if worker is not None:
            self._queue.put(_STOP)
            worker.join(timeout=2)
        for part in (self.panel, self.beeper, self.leds, self.oled, self.registry):
            if part is not None:
                try:
                    part.close()
                except Exception:
                    log.exception("closing %r", part)


def open_devices(cfg: Any, *, db_path: str | None = None, clock: Clock = time.monotonic) -> TableDevices:
    """Open the devices of ``cfg`` (a :class:`companion.board.config.Config`) on its pin factory.

    Readers are created but not started: call ``devices.start()`` to run the
    event worker, poll the readers and bring the bridge up in the background
    (tests call ``readers.step()`` instead, and get every event at once).
    """
    faults: dict[str, str] = {}
    retries: dict[str, Callable[[TableDevices], bool]] = {}
    chip = getattr(cfg, "gpio_chip", None)
    try:
        use_factory(cfg.pin_factory, chip)
    except PinFactoryError as exc:  # the table starts on mock pins: the dashboard works, inputs come later
        faults["GPIO"] = f"GPIO: {str(exc).rstrip('.')}; {exc.fix}."
        use_factory("mock")
        retries["GPIO"] = lambda devices: devices.reopen_gpio(cfg)
    d = cfg.display
    try:
        oled = open_oled(d.type, port=d.i2c_port, address=d.address, rotate=d.rotate, contrast=d.contrast,
                         dim_after=d.dim_after, dim_contrast=d.dim_contrast, saver_after=d.saver_after,
                         refresh_every=d.refresh_every)
    except DisplayError as exc:  # a dummy in its place: the frames still reach the dashboard's mirror
        faults["display"] = str(exc)
        oled = open_oled("dummy", dim_after=d.dim_after, dim_contrast=d.dim_contrast, saver_after=d.saver_after)
        if d.type != "dummy" and not str(exc).startswith(("Unknown display", "rotate")):
            retries["display"] = lambda devices: devices.reopen_display(d)
    devices = TableDevices(
        oled=oled,
        beeper=Beeper(None),
        leds=StatusLeds({}),
        readers=None,
        registry=TagRegistry(cfg.tags_db or db_path) if (cfg.tags_db or db_path) else None,
    )
    devices.oled.on_status = devices.emit
    devices.outputs = (cfg.buzzer, cfg.buzzer_active_high, dict(cfg.leds))
    if not devices.open_outputs():
        retries["outputs"] = lambda devices: devices.open_outputs()
    debounce = DebounceSettings(hold=cfg.tag_hold, misses=cfg.tag_misses)
    readers = [load_backend(r.backend)(r.point, r.options, debounce=debounce, clock=clock) for r in cfg.readers]
    devices.readers = ReaderGroup(readers, interval=cfg.poll_interval)
    devices.readers.subscribe(devices.emit)
    devices.readers.subscribe_status(devices.emit)
    bridged = [r for r in readers if r.backend == "bridge"]
    if bridged or cfg.bridge.buttons or cfg.bridge.dice:
        devices.bridge, devices.simulator = _open_bridge(cfg, bridged, devices.emit)
    devices.panel = Panel(cfg.buttons(), cfg.encoder, devices.emit,
                          bounce_time=cfg.bounce_ms / 1000 or None, hold_time=cfg.hold_ms / 1000)
    devices.panel_settings = (cfg.buttons(), cfg.encoder, cfg.bounce_ms / 1000 or None, cfg.hold_ms / 1000)
    if devices.panel.missing:
        retries["inputs"] = lambda devices: devices.retry_inputs()
        devices.note_inputs()
    for device, message in faults.items():
        devices.keep_status(StatusEvent(device, False, message))
    devices.retries = retries
    return devices


def _open_bridge(cfg: Any, readers: list[Any], emit: Listener) -> tuple[Any, Any]:
    """The firmware bridge hub on ``[bridge] port``.

    ``"sim"`` runs the firmware simulator on a pseudo-terminal; ``"auto"``
    hands the host link a :class:`~firmware_bridge.finder.PortFinder`, asked
    again on every reconnect, so the board is found when it comes back as
    another node (/dev/ttyACM1); a path is followed anew each time too.
    """
    simulator = None
    port = cfg.bridge.target() if hasattr(cfg.bridge, "target") else cfg.bridge.port
    if cfg.bridge.port == "sim":
        from firmware_bridge.simulator import Simulator  # late: the simulated bridge only (~35 ms)

        indexes = [r.index for r in readers] + [0]
        simulator = Simulator(readers=max(indexes) + 1, buttons=max([*cfg.bridge.buttons, 0]) + 1,
                              slots=max([*cfg.bridge.dice, 0]) + 1).start()
        port = simulator.path
    hub = BridgeHub(port, baudrate=cfg.bridge.baud, buttons=cfg.bridge.buttons, dice=cfg.bridge.dice, on_event=emit)
    for reader in readers:
        hub.add(reader)
    return hub, simulator
