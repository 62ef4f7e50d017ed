"""The table's network as the table shows it: the ``[network]`` config table (the hotspot's name and
generated password), which network the table is on, the address its join QR code carries, the
Wi-Fi QR code phones scan first, and the doctor's line about it.

NetworkManager itself is read through :mod:`hw.network`; this module holds the table's choices.

``[network]`` keys (all optional)::

    hotspot = true              # bring the table's own Wi-Fi up when no known Wi-Fi is in range
    ssid = "Galapagos-7F3K"     # the hotspot's name (1 to 32 bytes)
    password = "…"              # its WPA2 password (8 to 63 printable ASCII), generated at install
    ifname = "wlan0"            # the Wi-Fi device the hotspot goes on
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hw import network as nm

log = logging.getLogger(__name__)

KEYS = {"hotspot", "ssid", "password", "ifname"}
#: how long a reading of NetworkManager is trusted (the join address is asked for at every new game)
FRESH_SECONDS = 10.0


class NetworkSettingError(ValueError):
    """One sentence naming the key."""


@dataclass(frozen=True)
class NetworkSettings:
    hotspot: bool = False
    ssid: str = ""
    password: str = ""
    ifname: str = "wlan0"

    @property
    def wifi_qr(self) -> str | None:
        """The hotspot's Wi-Fi QR payload, or None when there is no hotspot."""
        if not (self.hotspot and self.ssid and self.password):
            return None
        return nm.wifi_qr(self.ssid, self.password)


def parse(table: dict[str, Any], source: str = "config") -> NetworkSettings:
    """The ``[network]`` table, each bad value refused with one sentence naming the key."""

    def fail(key: str, why: str) -> NetworkSettingError:
        return NetworkSettingError(f"{source}: network.{key} {why}.")

    extra = sorted(set(table) - KEYS)
    if extra:
        raise fail(extra[0], f"is not a setting (the settings are {', '.join(sorted(KEYS))})")
    hotspot = table.get("hotspot", False)
    if not isinstance(hotspot, bool):
        raise fail("hotspot", f"must be true or false, not {hotspot!r}")
    values = {}
    for key in ("ssid", "password", "ifname"):
        value = table.get(key, "" if key != "ifname" else "wlan0")
        if not isinstance(value, str):
            raise fail(key, f"must be text, not {value!r}")
        values[key] = value
    if hotspot or values["ssid"]:
        problem = nm.check_ssid(values["ssid"])
        if problem:
            raise fail("ssid", f'is needed for the hotspot: {problem} (`companion network setup` writes one)'
                       if not values["ssid"] else f"cannot be used: {problem}")
    if hotspot or values["password"]:
        problem = nm.check_password(values["password"])
        if problem:
            raise fail("password", f"cannot be used: {problem} (`companion network setup` generates one)")
    if not values["ifname"] or any(ch in values["ifname"] for ch in "/ :") or len(values["ifname"]) > 15:
        raise fail("ifname", f'must be a network device name such as "wlan0", not {values["ifname"]!r}')
    return NetworkSettings(hotspot, values["ssid"], values["password"], values["ifname"])


def settings_of(cfg: Any) -> NetworkSettings:
    """The config's network settings (the defaults for a config without a ``[network]`` table)."""
    found = getattr(cfg, "network", None)
    return found if isinstance(found, NetworkSettings) else NetworkSettings()


class TableNetwork:
    """Which network the table is on, read from NetworkManager at most every :data:`FRESH_SECONDS`.

    Never raises: with no NetworkManager (a laptop, the simulation), the table is on
    « the machine's network » and phones are given its mDNS name.
    """

    def __init__(self, settings: NetworkSettings, manager: nm.NetworkManager | None = None, *,
                 clock: Callable[[], float] = time.monotonic, hostname: str | None = None) -> None:
        self.settings = settings
        self.manager = manager or nm.NetworkManager()
        self.clock = clock
        self.hostname = hostname
        self._link: nm.Link | None = None
        self._error: str | None = None
        self._read_at = -FRESH_SECONDS
        self._lock = threading.Lock()

    def link(self) -> nm.Link | None:
        """The link now (None: NetworkManager could not be asked; :attr:`error` says why)."""
        with self._lock:
            if self.clock() - self._read_at >= FRESH_SECONDS:
                self._read_at = self.clock()
                try:
                    self._link, self._error = self.manager.link(), None
                except nm.NetworkError as exc:
                    if self._error != str(exc):
                        log.info("network: %s", exc)
                    self._link, self._error = None, str(exc)
            return self._link

    @property
    def error(self) -> str | None:
        return self._error

    def host(self) -> str:
        """The host phones are given: the hotspot's or the link's address; with no NetworkManager to
        ask, the LAN address; else ``<hostname>.local`` — never a bare host name."""
        link = self.link()
        if link is None:
            return nm.lan_address() or nm.mdns_name(self.hostname)
        return nm.address_for(link, self.hostname)

    def on_hotspot(self) -> bool:
        link = self.link()
        return link is not None and link.kind == "hotspot"

    def wifi(self) -> dict[str, str] | None:
        """The Wi-Fi QR code to show before the join QR (``{"qr", "ssid"}``): only while the table is on
        its own hotspot, whose name and password the config holds."""
        payload = self.settings.wifi_qr
        if payload is None or not self.on_hotspot():
            return None
        return {"qr": payload, "ssid": self.settings.ssid}

    def sentence(self) -> str:
        """Which network the table is on, for the OLED and the doctor."""
        link = self.link()
        if link is None:
            return f"the machine's network ({self._error or 'NetworkManager not asked'}); phones use {self.host()}"
        return f"on {link.sentence()}" if link.kind != "none" else "on no network"


def doctor_checks(cfg: Any, manager: nm.NetworkManager | None = None) -> list[Any]:
    """``companion doctor``'s rows about the network: which one, the address phones get, the hotspot."""
    from hw.doctor import Check  # late: only `companion doctor` needs it, ~20 ms at start-up

    settings = settings_of(cfg)
    manager = manager or nm.NetworkManager()
    try:
        decision = manager.decide(enabled=settings.hotspot)
    except nm.NetworkError as exc:
        if settings.hotspot:
            return [Check("network", "NetworkManager", False, str(exc),
                          "the hotspot needs NetworkManager (Raspberry Pi OS uses it since Bookworm)")]
        return [Check("network", "which network", True,
                      f"{exc} — phones are given {nm.mdns_name()} (the hotspot is off)")]
    link = decision.link
    host = nm.address_for(link)
    rows = [Check("network", "which network", link.kind != "none" or decision.action in ("wait", "hotspot"),
                  f"{link.sentence()}; phones are given {host}" if link.kind != "none" else decision.reason,
                  "" if link.kind != "none" else
                  "join a Wi-Fi (sudo nmcli device wifi connect SSID password …), plug a cable, "
                  "or turn the hotspot on (sudo companion network setup)")]
    if settings.hotspot:
        rows.append(Check("network", "hotspot", True,
                          f"{settings.ssid} ({decision.reason}; next: {decision.action})"))
    return rows
