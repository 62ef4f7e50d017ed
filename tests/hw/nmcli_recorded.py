"""nmcli's answers, recorded from NetworkManager's own documentation, for the network tests.

Sources (NetworkManager 1.42, the version Debian 12 and Raspberry Pi OS Bookworm ship, the one
installed here: ``man 1 nmcli``, ``man 7 nmcli-examples``):

* nmcli-examples(7) Example 1 « Listing available Wi-Fi APs »: the SSIDs of ``nmcli device wifi
  list`` (netdatacomm_local, F1, LoremCorp, …), here in terse form (``-t -f SSID``: one value a
  line, nmcli(1) « -t », « -f »).
* Example 3 « Showing general information … for a Wi-Fi interface »: ``wlan0`` of type ``wifi``,
  ``GENERAL.STATE: 100 (connected)``, ``GENERAL.CONNECTION: My Alfa WiFi`` — the ``device`` line of
  a known Wi-Fi; the AP « alfa » of Example 1 is the network it joins.
* Example 12 « Convenient field values retrieval »: ``nmcli -g ip4.address`` prints
  ``192.168.1.12/24``.
* Example 14 « Escaping colon characters in tabular mode »: a terse line with ``\\:`` inside values
  (the MAC address, the sysfs path).
* nmcli(1) « -e »: ``:`` and ``\\`` escaped with ``\\`` in terse mode, the default.
* nmcli(1) EXAMPLES « nmcli -f name,autoconnect c s »: the saved profiles with their auto-connect
  flag (``yes``/``no``), here with TYPE (``802-11-wireless``, ``802-3-ethernet``, ``loopback``).
* The device states are nmcli's ``nmc_device_state_to_string`` words (« connected »,
  « disconnected », « unavailable », « connecting (getting IP configuration) », and
  « connected (externally) » for the loopback NetworkManager 1.42 reports).
* ``Wired connection 1`` is the name NetworkManager gives an Ethernet profile it creates itself;
  ``preconfigured`` the name Raspberry Pi Imager gives the Wi-Fi it writes.

:class:`Recorded` answers only the commands it holds and fails the test on any other, so a
test also proves which commands the code runs (no ``down``, no ``delete``).
"""

from __future__ import annotations

from collections.abc import Sequence

from hw.network import Answer

DEVICES = ("-t", "-f", "DEVICE,TYPE,STATE,CONNECTION", "device")
SAVED = ("-t", "-f", "NAME,TYPE,AUTOCONNECT", "connection", "show")
IN_RANGE = ("-t", "-f", "SSID", "device", "wifi", "list")


def address(device: str) -> tuple[str, ...]:
    return ("-g", "IP4.ADDRESS", "device", "show", device)


def ssid_of(connection: str) -> tuple[str, ...]:
    return ("-g", "802-11-wireless.ssid", "connection", "show", "id", connection)


#: Example 1's access points, one SSID a line (terse); an AP hiding its name prints an empty line
EXAMPLE_1_SSIDS = "\n".join([
    "netdatacomm_local", "F1", "LoremCorp", "Internet", "HPB110a.F2672A", "Jozinet", "VOIP", "MARTINA",
    "N24PU1", "alfa", "bertnet", "",
]) + "\n"

#: Example 14's terse line (one line in nmcli's output; the manual wraps it)
EXAMPLE_14_LINE = (
    "GENERAL:eth0:ethernet:Intel Corporation:82567LM Gigabit Network Connection:"
    "e1000e:2.1.4-k:1.8-3:00\\:22\\:68\\:15\\:29\\:21:1500:100 (connected):0 (No reason given):"
    "/sys/devices/pci0000\\:00/0000\\:00\\:19.0/net/eth0:eth0:yes:yes:no:"
    "ethernet-13:89cbcbc6-dc85-456c-9c8b-bd828fee3917:/org/freedesktop/NetworkManager/ActiveConnection/9"
)

LOOPBACK = "lo:loopback:connected (externally):lo\n"
P2P = "p2p-dev-wlan0:wifi-p2p:disconnected:\n"

#: a fresh Pi away from home: Wi-Fi free, no cable, none of the APs around is known
NO_NETWORK = {
    DEVICES: "wlan0:wifi:disconnected:\neth0:ethernet:unavailable:\n" + LOOPBACK + P2P,
    SAVED: "lo:loopback:no\n",
    IN_RANGE: EXAMPLE_1_SSIDS,
}

#: the same Pi with « My Alfa WiFi » saved (Example 3): « alfa » is in range, NM is still joining it
KNOWN_IN_RANGE = {
    DEVICES: "wlan0:wifi:connecting (getting IP configuration):My Alfa WiFi\neth0:ethernet:unavailable:\n"
             + LOOPBACK + P2P,
    SAVED: "My Alfa WiFi:802-11-wireless:yes\nlo:loopback:no\n",
    IN_RANGE: EXAMPLE_1_SSIDS,
    ssid_of("My Alfa WiFi"): "alfa\n",
}

#: saved but between attempts (disconnected) with its AP heard: still NetworkManager's to join
KNOWN_HEARD_IDLE = {
    DEVICES: "wlan0:wifi:disconnected:\neth0:ethernet:unavailable:\n" + LOOPBACK + P2P,
    SAVED: "My Alfa WiFi:802-11-wireless:yes\nlo:loopback:no\n",
    IN_RANGE: EXAMPLE_1_SSIDS,
    ssid_of("My Alfa WiFi"): "alfa\n",
}

#: Example 3's device: wlan0 connected to « My Alfa WiFi »; Example 12's address
KNOWN_WIFI = {
    DEVICES: "wlan0:wifi:connected:My Alfa WiFi\neth0:ethernet:unavailable:\n" + LOOPBACK + P2P,
    ssid_of("My Alfa WiFi"): "alfa\n",
    address("wlan0"): "192.168.1.12/24\n",
}

#: a cable in (and the Wi-Fi free, nothing known around): the wired network is the table's
WIRED = {
    DEVICES: "eth0:ethernet:connected:Wired connection 1\nwlan0:wifi:disconnected:\n" + LOOPBACK + P2P,
    SAVED: "Wired connection 1:802-3-ethernet:yes\nlo:loopback:no\n",
    IN_RANGE: EXAMPLE_1_SSIDS,
    address("eth0"): "192.168.1.12/24\n",
}

#: the table's own hotspot up on wlan0 (NetworkManager's shared method: 10.42.0.1/24)
HOTSPOT = {
    DEVICES: "wlan0:wifi:connected:galapagos-hotspot\neth0:ethernet:unavailable:\n" + LOOPBACK + P2P,
    ssid_of("galapagos-hotspot"): "Galapagos-7F3K\n",
    address("wlan0"): "10.42.0.1/24\n",
}

#: Raspberry Pi Imager's Wi-Fi, whose SSID holds a colon (escaped in terse output)
IMAGER_WIFI = {
    DEVICES: "wlan0:wifi:connected:preconfigured\n" + LOOPBACK + P2P,
    ssid_of("preconfigured"): "Caf\u00e9\\: table 4\n",
    address("wlan0"): "192.168.4.23/24\n",
}

#: a saved Wi-Fi NetworkManager never joins by itself (autoconnect no), its AP heard: not waited for
KNOWN_MANUAL_ONLY = {
    DEVICES: "wlan0:wifi:disconnected:\neth0:ethernet:unavailable:\n" + LOOPBACK + P2P,
    SAVED: "My Alfa WiFi:802-11-wireless:no\nlo:loopback:no\n",
    IN_RANGE: EXAMPLE_1_SSIDS,
}

#: no Wi-Fi chip at all (a Pi 3 A+ with its radio off in config.txt), no cable
NO_WIFI_DEVICE = {
    DEVICES: "eth0:ethernet:unavailable:\n" + LOOPBACK,
    SAVED: "lo:loopback:no\n",
    IN_RANGE: "",
}


class Recorded:
    """A runner answering from ``answers`` (args → stdout, exit 0), ``extra`` (args → Answer)."""

    def __init__(self, answers: dict[tuple[str, ...], str], extra: dict[tuple[str, ...], Answer] | None = None):
        self.answers = dict(answers)
        self.extra = dict(extra or {})
        self.calls: list[tuple[str, ...]] = []

    def __call__(self, args: Sequence[str]) -> Answer:
        key = tuple(args)
        self.calls.append(key)
        if key in self.extra:
            return self.extra[key]
        if key in self.answers:
            return Answer(0, self.answers[key], "")
        raise AssertionError(f"nmcli {' '.join(key)} was not recorded for this test")
