"""What the dashboard is given by the composition root (``companion/cli/app.py``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from flask import current_app

from web.hub import Hub
from web.security import Keys, RateLimiter, SeatStore


class SimBackend(Protocol):
    """The simulated table the simulation panel drives (see ``companion/cli/app.py``)."""

    def buttons(self) -> list[str]: ...
    def press(self, name: str, hold: bool = False) -> None: ...
    def turn(self, delta: int) -> None: ...
    def points(self) -> list[str]: ...
    def place(self, point: str, uid: str) -> None: ...
    def remove(self, point: str, uid: str) -> None: ...
    def on_readers(self) -> dict[str, list[str]]: ...
    def oled_png(self) -> bytes: ...
    def oled_serial(self) -> int: ...


class TagBackend(Protocol):
    """The tag registry as enrollment needs it (scan, then say what it is)."""

    def kinds(self) -> dict[str, list[str]]: ...
    def enrolled(self) -> list[dict[str, Any]]: ...
    def enroll(self, uid: str, kind: str, value: str) -> dict[str, Any]: ...
    def forget(self, uid: str) -> bool: ...
    def last_scanned(self) -> str | None: ...
    def export(self) -> Any: ...


@dataclass
class Dashboard:
    hub: Hub
    keys: Keys
    seats: SeatStore
    joins: RateLimiter = field(default_factory=RateLimiter)
    sim: SimBackend | None = None
    tags: TagBackend | None = None
    base_url: str = ""
    keepalive: float = 15.0
    retry_ms: int = 1000
    extra: dict[str, Any] = field(default_factory=dict)
    #: the table's hardware health (``TableDevices.health``): failing devices are shown on every page
    health: Callable[[], dict[str, Any]] | None = None
    #: the table's own hotspot (``{"qr": "WIFI:…", "ssid"}``) while the table is on it, else None: the
    #: table's join panel shows its Wi-Fi QR code before the join QR (the table's pages only)
    wifi: Callable[[], dict[str, str] | None] = lambda: None


def dashboard() -> Dashboard:
    return current_app.extensions["companion"]
