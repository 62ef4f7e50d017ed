"""The devices of a configured table, opened, with one place to listen to them all.

Kept apart from the controller: the controller turns events into actions and
screens; this module opens what a config names (OLED, buzzer, LEDs, readers,
bridge, buttons) and fans their events out to listeners.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hw.events import DeviceEvent
from hw.oled import Oled
from hw.outputs import Beeper, StatusLeds
from hw.tags import TagRegistry

Clock = Callable[[], float]


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
    listeners: list[Callable[[DeviceEvent], None]] = field(default_factory=list)

    def emit(self, event: DeviceEvent) -> None:
        for fn in list(self.listeners):
            fn(event)

    def attach(self, controller: Any) -> None:
        self.listeners.append(controller.handle)

    def start(self) -> None:
        """Poll the readers and bring the bridge link up (both in the background)."""
        self.readers.start()
        if self.bridge is not None:
            self.bridge.start()

    def close(self) -> None:
        self.readers.stop()
        if self.bridge is not None:
            self.bridge.stop()
        if self.simulator is not None:
            self.simulator.stop()
        for part in (self.panel, self.beeper, self.leds, self.oled, self.registry):
            if part is not None:
                part.close()


def open_devices(cfg: Any, *, db_path: str | None = None, clock: Clock = time.monotonic) -> TableDevices:
    """Open the devices of ``cfg`` (a :class:`companion.config.Config`) on its pin factory.

    Readers are created but not started: call ``devices.readers.start()`` to
    poll them in the background (tests call ``readers.step()`` instead).
    """
    from hw.inputs import Panel
    from hw.oled import open_oled
    from hw.pins import use_factory
    from hw.rfid import DebounceSettings, ReaderGroup, load_backend

    use_factory(cfg.pin_factory)
    d = cfg.display
    devices = TableDevices(
        oled=open_oled(d.type, port=d.i2c_port, address=d.address, rotate=d.rotate),
        beeper=Beeper(cfg.buzzer, active_high=cfg.buzzer_active_high),
        leds=StatusLeds(cfg.leds),
        readers=None,
        registry=TagRegistry(cfg.tags_db or db_path) if (cfg.tags_db or db_path) else None,
    )
    debounce = DebounceSettings(hold=cfg.tag_hold, misses=cfg.tag_misses)
    readers = [load_backend(r.backend)(r.point, r.options, debounce=debounce, clock=clock) for r in cfg.readers]
    devices.readers = ReaderGroup(readers, interval=cfg.poll_interval)
    devices.readers.subscribe(devices.emit)
    bridged = [r for r in readers if r.backend == "bridge"]
    if bridged or cfg.bridge.buttons or cfg.bridge.dice:
        devices.bridge, devices.simulator = _open_bridge(cfg, bridged, devices.emit)
    devices.panel = Panel(cfg.buttons(), cfg.encoder, devices.emit,
                          bounce_time=cfg.bounce_ms / 1000 or None, hold_time=cfg.hold_ms / 1000)
    return devices


def _open_bridge(cfg: Any, readers: list[Any], emit: Callable[[DeviceEvent], None]) -> tuple[Any, Any]:
    """The firmware bridge hub; ``port = "sim"`` runs the firmware simulator on a pseudo-terminal."""
    from hw.rfid.bridge import BridgeHub

    simulator = None
    port = cfg.bridge.port
    if port == "sim":
        from firmware_bridge.simulator import Simulator

        indexes = [r.index for r in readers] + [0]
        simulator = Simulator(readers=max(indexes) + 1, buttons=max([*cfg.bridge.buttons, 0]) + 1,
                              slots=max([*cfg.bridge.dice, 0]) + 1).start()
        port = simulator.path
    hub = BridgeHub(port, baudrate=cfg.bridge.baud, buttons=cfg.bridge.buttons, dice=cfg.bridge.dice, on_event=emit)
    for reader in readers:
        hub.add(reader)
    return hub, simulator
