"""The table's network decisions against nmcli's documented output, and the real nmcli binary where it
can answer without a running NetworkManager.

Which runner each test uses:

* recorded output (:mod:`tests.hw.nmcli_recorded`, from NetworkManager 1.42's manuals): every
  decision — no network, a known Wi-Fi (connecting, heard, connected), a wired link, the hotspot up;
* the real ``/usr/bin/nmcli`` (1.42.4 here): ``--version``; its answer when NetworkManager is not
  running (exit 1, « Could not create NMClient object »); ``--offline connection add``, which writes
  the hotspot's keyfile itself, without a daemon.
"""

from __future__ import annotations

import configparser
import shutil
import subprocess

import pytest

from hw import network as nm
from tests.hw import nmcli_recorded as rec
from tests.hw.nmcli_recorded import Recorded

NMCLI = shutil.which("nmcli")
needs_nmcli = pytest.mark.skipif(NMCLI is None, reason="nmcli is not installed (apt-get install network-manager)")
#: commands that would change or take down a link: the decisions never run them
CHANGING = ("down", "delete", "modify", "disconnect", "radio", "networking")


def manager(answers, extra=None) -> tuple[nm.NetworkManager, Recorded]:
    run = Recorded(answers, extra)
    return nm.NetworkManager(run=run), run


def never_changes_a_link(run: Recorded) -> None:
    for call in run.calls:
        assert not set(call) & set(CHANGING), call


# -- nmcli's terse format -------------------------------------------------------------------------
def test_terse_lines_split_on_colons_and_unescape_as_the_manual_s_example_14():
    fields = nm.split_terse(rec.EXAMPLE_14_LINE)
    assert fields[:3] == ["GENERAL", "eth0", "ethernet"]
    assert fields[8] == "00:22:68:15:29:21"
    assert fields[9:11] == ["1500", "100 (connected)"]
    assert fields[12] == "/sys/devices/pci0000:00/0000:00:19.0/net/eth0"
    assert fields[-1] == "/org/freedesktop/NetworkManager/ActiveConnection/9"


def test_an_escaped_backslash_and_an_empty_last_field():
    assert nm.split_terse("a\\\\b:c\\:d:") == ["a\\b", "c:d", ""]
    assert nm.terse_rows("wlan0:wifi:disconnected:\n\n", 4) == [["wlan0", "wifi", "disconnected", ""]]


# -- which network ----------------------------------------------------------------------------
def test_no_network_and_no_known_wifi_in_range_brings_the_hotspot_up_on_the_free_wifi_device():
    m, run = manager(rec.NO_NETWORK)
    decision = m.decide(enabled=True)
    assert (decision.action, decision.device) == ("hotspot", "wlan0")
    assert decision.link.kind == "none"
    assert rec.IN_RANGE in run.calls  # it looked for a known network first
    never_changes_a_link(run)


def test_no_network_with_the_hotspot_off_does_nothing():
    m, run = manager(rec.NO_NETWORK)
    assert m.decide(enabled=False).action == "none"
    never_changes_a_link(run)


def test_a_known_wifi_being_joined_is_waited_for():
    m, run = manager(rec.KNOWN_IN_RANGE)
    decision = m.decide(enabled=True)
    assert decision.action == "wait" and "My Alfa WiFi" in decision.reason


def test_a_known_wifi_heard_between_attempts_is_waited_for_not_covered_by_the_hotspot():
    """« alfa » (Example 1) is the SSID of the saved « My Alfa WiFi » (Example 3)."""
    m, run = manager(rec.KNOWN_HEARD_IDLE)
    decision = m.decide(enabled=True)
    assert decision.action == "wait" and "alfa" in decision.reason
    assert rec.ssid_of("My Alfa WiFi") in run.calls


def test_a_connected_known_wifi_is_the_table_s_network_with_its_address():
    m, run = manager(rec.KNOWN_WIFI)
    decision = m.decide(enabled=True)
    assert decision.action == "keep"
    assert decision.link == nm.Link("wifi", "wlan0", "alfa", "192.168.1.12")
    assert rec.IN_RANGE not in run.calls  # connected: no scan asked for
    assert nm.address_for(decision.link, "galapagos") == "192.168.1.12"
    never_changes_a_link(run)


def test_a_wired_link_is_kept_and_no_hotspot_starts_beside_it():
    m, run = manager(rec.WIRED)
    decision = m.decide(enabled=True)
    assert decision.action == "keep"
    assert decision.link == nm.Link("wired", "eth0", "Wired connection 1", "192.168.1.12")
    assert "wired network Wired connection 1 at 192.168.1.12" == decision.link.sentence()
    never_changes_a_link(run)


def test_on_the_hotspot_phones_get_its_address():
    m, run = manager(rec.HOTSPOT)
    link = m.link()
    assert link == nm.Link("hotspot", "wlan0", "Galapagos-7F3K", "10.42.0.1")
    assert nm.address_for(link, "galapagos") == "10.42.0.1"
    assert link.sentence() == "its own Wi-Fi hotspot Galapagos-7F3K at 10.42.0.1"


def test_an_ssid_holding_a_colon_is_read_back_whole():
    m, _ = manager(rec.IMAGER_WIFI)
    assert m.link() == nm.Link("wifi", "wlan0", "Caf\u00e9: table 4", "192.168.4.23")


def test_no_wifi_device_means_no_hotspot():
    m, _ = manager(rec.NO_WIFI_DEVICE)
    decision = m.decide(enabled=True)
    assert decision.action == "none" and "no Wi-Fi device" in decision.reason


def test_the_loopback_connected_externally_is_not_a_network():
    devices = [nm.Device("lo", "loopback", "connected (externally)", "lo")]
    assert nm.decide(devices, enabled=False).link.kind == "none"


def test_bringing_the_hotspot_up_activates_only_its_profile():
    m, run = manager({**rec.NO_NETWORK, ("connection", "up", "id", "galapagos-hotspot", "ifname", "wlan0"): ""})
    decision = m.decide(enabled=True)
    m.hotspot_up(decision.device)
    assert run.calls[-1] == ("connection", "up", "id", "galapagos-hotspot", "ifname", "wlan0")
    never_changes_a_link(run)


# -- the address: never a bare host name ---------------------------------------------------------
@pytest.mark.parametrize("link", [None, nm.Link("none"), nm.Link("wifi", "wlan0", "alfa", None)])
def test_without_an_address_phones_get_the_mdns_name(link):
    assert nm.address_for(link, "galapagos") == "galapagos.local"
    assert nm.address_for(link, "galapagos.example.org") == "galapagos.local"


def test_the_hotspot_without_a_reported_address_is_network_manager_s_shared_address():
    assert nm.address_for(nm.Link("hotspot", "wlan0", "G", None), "galapagos") == "10.42.0.1"


# -- the real nmcli ----------------------------------------------------------------------------
@needs_nmcli
def test_the_real_nmcli_answers_its_version():
    out = subprocess.run([NMCLI, "--version"], capture_output=True, text=True, timeout=10, check=True).stdout
    assert out.startswith("nmcli tool, version 1.")


@needs_nmcli
def test_the_real_nmcli_without_network_manager_is_one_clear_sentence(monkeypatch):
    """No daemon on the bus (a bus address that leads nowhere): nmcli exits 1 and we say so."""
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/system_bus_socket")
    answer = nm.run_nmcli(list(rec.DEVICES))
    assert answer.returncode != 0 and "Could not create NMClient object" in answer.stderr
    with pytest.raises(nm.NetworkError, match="NetworkManager is not running"):
        nm.NetworkManager().devices()


def test_a_missing_nmcli_is_one_sentence():
    with pytest.raises(nm.NetworkError, match="nmcli is not installed"):
        nm.run_nmcli(["--version"], binary="/nonexistent/nmcli")


@needs_nmcli
def test_the_real_nmcli_writes_a_wpa2_access_point_profile_offline():
    keyfile = nm.hotspot_keyfile("Gala;pagos 7F3K", "abcDEF234xyz", ifname="wlan0")
    profile = configparser.ConfigParser(interpolation=None)
    profile.read_string(keyfile)
    assert profile["connection"]["id"] == "galapagos-hotspot"
    assert profile["connection"]["autoconnect"] == "false"  # started by the boot check, never on its own
    assert profile["connection"]["interface-name"] == "wlan0"
    assert profile["wifi"]["mode"] == "ap"
    assert profile["wifi"]["ssid"].replace("\\\\", "\\").replace("\\;", ";") == "Gala;pagos 7F3K"
    assert profile["wifi-security"]["key-mgmt"] == "wpa-psk"
    assert profile["wifi-security"]["proto"].rstrip(";") == "rsn"  # WPA2
    assert profile["wifi-security"]["psk"] == "abcDEF234xyz"
    assert profile["ipv4"]["method"] == "shared"  # NetworkManager's DHCP and DNS at 10.42.0.1


@pytest.mark.parametrize(("ssid", "password", "why"), [
    ("", "abcDEF234xyz", "1 to 32 bytes"),
    ("x" * 33, "abcDEF234xyz", "1 to 32 bytes"),
    ("G", "short", "8 to 63"),
    ("G", "x" * 64, "8 to 63"),
    ("G", "caf\u00e9caf\u00e9caf\u00e9", "printable ASCII"),
])
def test_a_bad_name_or_password_is_refused_before_nmcli_runs(ssid, password, why):
    def never(args):
        raise AssertionError("nmcli ran")

    with pytest.raises(nm.NetworkError, match=why):
        nm.hotspot_keyfile(ssid, password, run=never)


def test_generated_passwords_are_wpa2_passphrases_and_differ():
    passwords = {nm.new_password() for _ in range(50)}
    assert len(passwords) == 50
    assert all(nm.check_password(p) is None and len(p) == 12 for p in passwords)
    assert not set("".join(passwords)) & set("0O1Il")


def test_a_saved_wifi_network_manager_never_joins_by_itself_is_not_waited_for():
    m, run = manager(rec.KNOWN_MANUAL_ONLY)
    assert m.decide(enabled=True).action == "hotspot"
    assert rec.ssid_of("My Alfa WiFi") not in run.calls  # not even asked for its SSID


def test_a_scan_that_fails_hears_nothing_and_the_table_still_gets_its_hotspot():
    busy = nm.Answer(1, "", "Error: Scanning not allowed while already scanning.\n")
    m, _ = manager({k: v for k, v in rec.NO_NETWORK.items() if k != rec.IN_RANGE}, {rec.IN_RANGE: busy})
    assert m.decide(enabled=True).action == "hotspot"
