"""The table's network, through NetworkManager's command line (``nmcli``): which network the
table is on, the address phones are given, and the hotspot it brings when no known Wi-Fi is
in range.

Everything NetworkManager says is read from ``nmcli``'s terse output (``-t``: fields
separated by ``:``, a ``:`` or ``\\`` inside a value escaped with ``\\``, nmcli(1) « -e »),
through a *runner*: :func:`run_nmcli` runs the real binary, a test gives recorded output.
The decisions (:func:`decide`, :func:`address_for`, :func:`wifi_qr`) are plain functions
of what was read, so the same code serves the appliance, ``companion doctor`` and the tests.

The rules, in the order they are applied (:func:`decide`):

* a wired link (an ``ethernet`` device ``connected``) is the table's network; the
  hotspot is never started beside it, and nothing here ever takes a link down;
* a Wi-Fi device connected to a saved network other than the hotspot is the table's network;
* the hotspot connection active: the table is on its own hotspot (phones join it first);
* nothing connected but a saved network in range (or a device still connecting):
  wait, NetworkManager is joining it;
* nothing connected, nothing known in range, the hotspot enabled and a Wi-Fi device
  free: bring the hotspot up (``nmcli connection up galapagos-hotspot``).
"""

from __future__ import annotations

import ipaddress
import logging
import os
import secrets
import socket
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from hw.errors import DeviceError

#: the NetworkManager connection profile the hotspot is (``deploy/hotspot.sh`` installs it)
HOTSPOT_CONNECTION = "galapagos-hotspot"
log = logging.getLogger(__name__)

#: NetworkManager's own address for a ``ipv4.method shared`` connection when none is set
SHARED_ADDRESS = "10.42.0.1"
#: a generated password's letters: no 0/O, 1/I/l, so it can be typed from the OLED too
PASSWORD_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
PASSWORD_LENGTH = 12
NMCLI_TIMEOUT = 10.0


class NetworkError(DeviceError):
    """nmcli is missing, NetworkManager is not running, or it refused: one sentence."""


@dataclass(frozen=True)
class Answer:
    """What one nmcli command printed, and its exit status."""

    returncode: int
    stdout: str = ""
    stderr: str = ""


Runner = Callable[[Sequence[str]], Answer]


def run_nmcli(args: Sequence[str], *, binary: str = "nmcli", timeout: float = NMCLI_TIMEOUT) -> Answer:
    """Run the real ``nmcli`` (in the C locale: its words are parsed) and return what it said."""
    env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
    try:
        done = subprocess.run([binary, *args], capture_output=True, text=True, timeout=timeout, env=env, check=False)
    except FileNotFoundError:
        raise NetworkError("nmcli is not installed (sudo apt-get install network-manager).") from None
    except subprocess.TimeoutExpired:
        raise NetworkError(f"nmcli did not answer within {timeout:g} s.") from None
    return Answer(done.returncode, done.stdout, done.stderr)


def split_terse(line: str) -> list[str]:
    """One line of ``nmcli -t`` output: fields split on ``:``, ``\\:`` and ``\\\\`` unescaped."""
    fields, current, chars = [], [], iter(line)
    for ch in chars:
        if ch == "\\":
            current.append(next(chars, "\\"))
        elif ch == ":":
            fields.append("".join(current))
            current = []
        else:
            current.append(ch)
    fields.append("".join(current))
    return fields


def terse_rows(text: str, width: int) -> list[list[str]]:
    """The rows of a terse table of ``width`` fields (blank lines skipped, short rows padded)."""
    rows = []
    for line in text.splitlines():
        if not line.strip():
            continue
        row = split_terse(line)
        rows.append((row + [""] * width)[:width])
    return rows


@dataclass(frozen=True)
class Device:
    """One line of ``nmcli -t -f DEVICE,TYPE,STATE,CONNECTION device``."""

    name: str
    type: str  # "ethernet", "wifi", "loopback", "wifi-p2p", ...
    state: str  # "connected", "disconnected", "unavailable", "connecting (getting IP configuration)", ...
    connection: str = ""

    @property
    def connected(self) -> bool:
        """Up, whoever brought it up (``connected (externally)`` too)."""
        return self.state == "connected" or self.state.startswith("connected (")

    @property
    def connecting(self) -> bool:
        return self.state.startswith("connecting")


@dataclass(frozen=True)
class Link:
    """The table's network as phones see it.

    ``kind``: ``"wired"``, ``"wifi"`` (a known Wi-Fi), ``"hotspot"`` (the table's own), or
    ``"none"``; ``name`` the network's name (the SSID, or the wired connection's name).
    """

    kind: str
    device: str = ""
    name: str = ""
    address: str | None = None  # the table's IPv4 address on that link

    def sentence(self) -> str:
        """One line for the doctor and the OLED."""
        at = f" at {self.address}" if self.address else ""
        if self.kind == "wired":
            return f"wired network {self.name or self.device}{at}"
        if self.kind == "wifi":
            return f"Wi-Fi {self.name}{at}"
        if self.kind == "hotspot":
            return f"its own Wi-Fi hotspot {self.name}{at}"
        return "no network"


@dataclass(frozen=True)
class Decision:
    """What to do about the hotspot now, and why (one sentence)."""

    link: Link
    action: str  # "keep" (a link is up), "wait" (NetworkManager is joining), "hotspot" (bring it up), "none"
    reason: str
    device: str = ""  # the Wi-Fi device the hotspot goes on


@dataclass
class NetworkManager:
    """nmcli's answers about this machine (``run`` is :func:`run_nmcli` or recorded output)."""

    run: Runner | None = None  # None: the real nmcli (:func:`run_nmcli`, looked up at each call)
    hotspot: str = HOTSPOT_CONNECTION
    _ssids: dict[str, str] = field(default_factory=dict)

    def _ask(self, *args: str) -> str:
        answer = (self.run or run_nmcli)(list(args))
        if answer.returncode != 0:
            said = (answer.stderr or answer.stdout).strip().splitlines()
            text = said[-1] if said else f"exit status {answer.returncode}"
            if "Could not create NMClient object" in text or "NetworkManager is not running" in text:
                raise NetworkError("NetworkManager is not running (sudo systemctl start NetworkManager).")
            raise NetworkError(f"nmcli {' '.join(args[:4])} failed: {text.removeprefix('Error: ')}")
        return answer.stdout

    def devices(self) -> list[Device]:
        out = self._ask("-t", "-f", "DEVICE,TYPE,STATE,CONNECTION", "device")
        return [Device(*row) for row in terse_rows(out, 4)]

    def address(self, device: str) -> str | None:
        """The first IPv4 address of ``device`` (``nmcli -g IP4.ADDRESS device show``), without its prefix."""
        out = self._ask("-g", "IP4.ADDRESS", "device", "show", device)
        for value in out.replace(" | ", "\n").splitlines():
            value = value.strip()
            if value:
                try:
                    return str(ipaddress.ip_interface(value).ip)
                except ValueError:
                    continue
        return None

    def ssid(self, connection: str) -> str:
        """The SSID a saved Wi-Fi connection joins (its name when nmcli will not say)."""
        if connection not in self._ssids:
            out = self._ask("-g", "802-11-wireless.ssid", "connection", "show", "id", connection)
            lines = out.splitlines()
            self._ssids[connection] = (split_terse(lines[0])[0] if lines else "") or connection
        return self._ssids[connection]

    def saved_wifi(self) -> list[str]:
        """The saved Wi-Fi connections NetworkManager joins by itself, the hotspot aside
        (``nmcli -t -f NAME,TYPE,AUTOCONNECT connection show``)."""
        out = self._ask("-t", "-f", "NAME,TYPE,AUTOCONNECT", "connection", "show")
        return [name for name, kind, auto in terse_rows(out, 3)
                if kind in ("802-11-wireless", "wifi") and name != self.hotspot and auto != "no"]

    def in_range(self) -> set[str]:
        """The SSIDs heard now (``nmcli -t -f SSID device wifi list``; a fresh scan is nmcli's call).
        A scan that fails or takes too long hears nothing (the radio may be busy): logged, not raised."""
        try:
            out = self._ask("-t", "-f", "SSID", "device", "wifi", "list")
        except NetworkError as exc:
            log.warning("no Wi-Fi scan: %s", exc)
            return set()
        return {row[0] for row in terse_rows(out, 1) if row[0] and row[0] != "--"}

    def link(self) -> Link:
        """Which network the table is on now, with its address there."""
        return self.decide(enabled=False, scan=False).link

    def decide(self, *, enabled: bool, scan: bool = True) -> Decision:
        """:func:`decide` on what nmcli says now (scanning only when nothing is connected)."""
        devices = self.devices()
        up = any(d.connected and d.type in ("ethernet", "wifi") for d in devices)
        known: dict[str, str] = {}
        visible: set[str] = set()
        if not up and scan and enabled:
            known = {name: self.ssid(name) for name in self.saved_wifi()}
            visible = self.in_range()
        decision = decide(devices, hotspot=self.hotspot, known=known, visible=visible, enabled=enabled)
        link = decision.link
        if link.kind == "wifi" or link.kind == "hotspot":
            link = Link(link.kind, link.device, self.ssid(link.name), self.address(link.device))
        elif link.kind == "wired":
            link = Link(link.kind, link.device, link.name, self.address(link.device))
        return Decision(link, decision.action, decision.reason, decision.device)

    def hotspot_up(self, device: str) -> None:
        """Activate the hotspot profile on ``device`` (never touches another connection)."""
        self._ask("connection", "up", "id", self.hotspot, "ifname", device)


def decide(devices: Iterable[Device], *, hotspot: str = HOTSPOT_CONNECTION, known: dict[str, str] | None = None,
           visible: Iterable[str] = (), enabled: bool = True) -> Decision:
    """Which network the table is on, and whether to bring the hotspot up (see the module's rules).

    ``known``: saved Wi-Fi connections by name, each with its SSID; ``visible``: the SSIDs heard.
    """
    devices = list(devices)
    known = known or {}
    for d in devices:
        if d.type == "ethernet" and d.connected:
            return Decision(Link("wired", d.name, d.connection), "keep", f"{d.name} is connected to {d.connection}")
    for d in devices:
        if d.type == "wifi" and d.connected and d.connection != hotspot:
            return Decision(Link("wifi", d.name, d.connection), "keep", f"{d.name} is connected to {d.connection}")
    for d in devices:
        if d.type == "wifi" and d.connected and d.connection == hotspot:
            return Decision(Link("hotspot", d.name, d.connection), "keep", f"the hotspot is up on {d.name}")
    busy = [d for d in devices if d.type in ("ethernet", "wifi") and d.connecting]
    if busy:
        return Decision(Link("none"), "wait", f"{busy[0].name} is connecting to {busy[0].connection or 'a network'}")
    heard = sorted(set(known.values()) & set(visible))
    if heard:
        return Decision(Link("none"), "wait", f"the known Wi-Fi {heard[0]} is in range")
    free = [d for d in devices if d.type == "wifi" and d.state == "disconnected"]
    if not enabled:
        return Decision(Link("none"), "none", "no network, and the hotspot is turned off")
    if not free:
        return Decision(Link("none"), "none", "no network, and no Wi-Fi device free for the hotspot")
    return Decision(Link("none"), "hotspot", "no network and no known Wi-Fi in range", free[0].name)


# -- addresses and QR codes ---------------------------------------------------------------------
def mdns_name(hostname: str | None = None) -> str:
    """The host's mDNS name (``<hostname>.local``, what avahi answers on Pi OS)."""
    host = (hostname if hostname is not None else socket.gethostname()).split(".")[0] or "raspberrypi"
    return f"{host}.local"


def lan_address() -> str | None:
    """The address this machine would send from on its LAN (nothing is sent), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET: nothing is sent
            found = s.getsockname()[0]
    except OSError:
        return None
    return None if found.startswith("127.") or found == "0.0.0.0" else found


def address_for(link: Link | None, hostname: str | None = None) -> str:
    """The host phones are given in the join URL: never a bare host name.

    On the hotspot, its address (phones on it have no mDNS answer they can count on, but the
    address is fixed); on a wired or known Wi-Fi network, the table's address there; else the
    host's mDNS name.
    """
    if link is not None and link.kind != "none" and link.address:
        return link.address
    if link is not None and link.kind == "hotspot":
        return SHARED_ADDRESS
    return mdns_name(hostname)


def wifi_escape(text: str) -> str:
    """A value in a ``WIFI:`` QR code: ``\\ ; , : "`` escaped with a backslash (ZXing's format)."""
    return "".join("\\" + ch if ch in '\\;,:"' else ch for ch in text)


def wifi_qr(ssid: str, password: str, *, hidden: bool = False) -> str:
    """The Wi-Fi QR payload phones' cameras read: ``WIFI:T:WPA;S:<ssid>;P:<password>;;``."""
    tail = "H:true;" if hidden else ""
    return f"WIFI:T:WPA;S:{wifi_escape(ssid)};P:{wifi_escape(password)};{tail};"


def new_password(length: int = PASSWORD_LENGTH) -> str:
    """A WPA2 passphrase from the system's random source (8 to 63 printable ASCII)."""
    return "".join(secrets.choice(PASSWORD_LETTERS) for _ in range(length))


def check_ssid(ssid: str) -> str | None:
    """Why ``ssid`` cannot name a network (None: it can)."""
    if not ssid or len(ssid.encode("utf-8")) > 32:
        return f"the Wi-Fi name must be 1 to 32 bytes, not {len(ssid.encode('utf-8'))}"
    if any(ord(ch) < 32 for ch in ssid):
        return "the Wi-Fi name cannot hold control characters"
    return None


def check_password(password: str) -> str | None:
    """Why ``password`` cannot be a WPA2 passphrase (None: it can)."""
    if not 8 <= len(password) <= 63:
        return f"a WPA2 password has 8 to 63 characters, not {len(password)}"
    if any(not 32 <= ord(ch) <= 126 for ch in password):
        return "a WPA2 password is printable ASCII only"
    return None


def hotspot_profile_args(ssid: str, password: str, *, ifname: str = "wlan0",
                         name: str = HOTSPOT_CONNECTION, uuid: str | None = None) -> list[str]:
    """``nmcli connection add`` arguments for the hotspot: WPA2 (RSN, CCMP), NetworkManager's shared
    IPv4 (10.42.0.1/24 with its DHCP and DNS), never started on its own (:func:`decide` starts it)."""
    for problem in (check_ssid(ssid), check_password(password)):
        if problem:
            raise NetworkError(problem[0].upper() + problem[1:] + ".")
    return ["connection", "add", "type", "wifi", "con-name", name, "ifname", ifname, "ssid", ssid,
            "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
            "ipv4.method", "shared", "ipv6.method", "disabled",
            "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn", "wifi-sec.pairwise", "ccmp",
            "wifi-sec.group", "ccmp", "wifi-sec.psk", password,
            "connection.autoconnect", "no", *(["connection.uuid", uuid] if uuid else [])]


def hotspot_keyfile(ssid: str, password: str, *, ifname: str = "wlan0", uuid: str | None = None,
                    run: Runner | None = None) -> str:
    """The hotspot's keyfile (``/etc/NetworkManager/system-connections/…``), written by nmcli itself
    with ``--offline`` (no NetworkManager needed: the install can run in a chroot). ``uuid``: the profile's
    own when it is written again, so NetworkManager sees the same connection changed."""
    answer = (run or run_nmcli)(["--offline", *hotspot_profile_args(ssid, password, ifname=ifname, uuid=uuid)])
    if answer.returncode != 0 or "[connection]" not in answer.stdout:
        said = (answer.stderr or answer.stdout).strip() or f"exit status {answer.returncode}"
        raise NetworkError(f"nmcli could not write the hotspot profile: {said}")
    return answer.stdout
