"""What a running ``companion run`` tells ``companion doctor`` and its own log about the table.

- **The status file**: ``status.json`` in the runtime folder (systemd's ``RuntimeDirectory=``,
  ``/run/galapagos-companion``; else ``$XDG_RUNTIME_DIR/galapagos-companion``): the pid, the
  config and journal, and each device's state, rewritten (in RAM, atomically) when a device goes
  down or comes back and removed at stop. The doctor reads it instead of claiming pins or
  resetting readers under a live table.
- **Start-up faults**: each device that did not open at start (the GPIO chip, a busy pin, the
  OLED, a reader) named in the log once, as the doctor would name it.
- **The supply**: under-voltage now or since boot (the firmware's throttled bits) is a device
  problem like any other: a StatusEvent, so the OLED, the dashboard and the log say it; checked at
  start and again while the table runs (:class:`hw.supply.SupplyWatch`).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from hw.events import StatusEvent
from hw.supply import DEVICE, SupplyWatch, supply_problem

log = logging.getLogger("companion.devices")

FOLDER = "galapagos-companion"


def status_path(env: dict[str, str] | None = None) -> Path | None:
    env = dict(os.environ) if env is None else env
    if env.get("RUNTIME_DIRECTORY"):  # systemd: the unit's RuntimeDirectory=
        return Path(env["RUNTIME_DIRECTORY"].split(":")[0]) / "status.json"
    if env.get("XDG_RUNTIME_DIR"):
        return Path(env["XDG_RUNTIME_DIR"]) / FOLDER / "status.json"
    return None


def status_paths(env: dict[str, str] | None = None) -> list[Path]:
    """Where the doctor looks: the service's runtime folder, then this user's."""
    from hw.doctor import SERVICE_STATUS  # late: ~5 ms, not for `companion run`

    own = status_path(env)
    return [SERVICE_STATUS] + ([own] if own is not None and own != SERVICE_STATUS else [])


class StatusFile:
    def __init__(self, path: Path, *, config: str, db: str) -> None:
        self.path = path
        self.base = {"pid": os.getpid(), "config": config, "db": db}

    def write(self, devices: dict[str, Any]) -> None:
        """``devices``: name -> StatusEvent (the table's ``devices.status``)."""
        data = {**self.base, "devices": {name: {"ok": bool(getattr(e, "ok", False)), "message": getattr(e, "message", "")}
                                         for name, e in sorted(devices.items())}}
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text(json.dumps(data), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:  # a status the doctor cannot read: the table goes on
            log.debug("status file %s not written: %s", self.path, exc)

    def remove(self) -> None:
        try:
            self.path.unlink()
        except OSError:
            pass


def log_start_faults(devices: Any) -> list[str]:
    """Name in the log, once, each device that failed at start; returns the sentences logged.

    Where the table keeps a health log of its own (``devices.health_log``: every device named
    once when it goes down, start-up included), that has said it already and nothing is repeated.
    """
    if getattr(devices, "health_log", None) is not None:
        return []
    said = [getattr(e, "message", "") or f"{name} is not working" for name, e in sorted(devices.status.items())
            if not getattr(e, "ok", True)]
    for sentence in said:
        log.warning("at start: %s", sentence)
    return said


def announce_supply(devices: Any, watch: SupplyWatch) -> StatusEvent | None:
    """The supply's first check at start: a sag (now, or since boot) is a device problem that the OLED,
    the dashboard and the log say (the log here unless the table's own health log does); the table
    loop checks again every :data:`hw.supply.CHECK_EVERY` seconds. Returns the event, or None."""
    event = watch.check()
    if event is not None and not event.ok and getattr(devices, "health_log", None) is None:
        log.warning("at start: %s", event.message)
    return event


def supply_event(bits: int | None) -> StatusEvent | None:
    """A StatusEvent for the supply when it sagged (now or since boot), else None."""
    problem = supply_problem(bits)
    return StatusEvent(DEVICE, False, problem) if problem else None
