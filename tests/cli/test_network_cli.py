"""``companion network`` (status, check, setup) and the doctor's network rows, on nmcli's recorded
answers (:mod:`tests.hw.nmcli_recorded`, swapped in for the real binary's runner) and, for what it
can answer alone, the real nmcli.
"""

from __future__ import annotations

import json

import pytest

from companion.cli.main import main
from hw import network as nm
from tests.hw import nmcli_recorded as rec
from tests.hw.nmcli_recorded import Recorded

CONFIG = """\
[gpio]
factory = "mock"

[network]
hotspot = true
ssid = "Galapagos-7F3K"
password = "abcDEF234xyz"
"""
UP = ("connection", "up", "id", "galapagos-hotspot", "ifname", "wlan0")


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return path


def recorded(monkeypatch, answers, extra=None) -> Recorded:
    run = Recorded(answers, extra)
    monkeypatch.setattr(nm, "run_nmcli", run)
    return run


def test_status_on_the_hotspot_names_it_and_the_address_phones_get(monkeypatch, config, capsys):
    recorded(monkeypatch, rec.HOTSPOT)
    assert main(["network", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "The table is on its own Wi-Fi hotspot Galapagos-7F3K at 10.42.0.1; phones are given 10.42.0.1." in out


def test_status_as_json_on_a_wired_link(monkeypatch, config, capsys):
    recorded(monkeypatch, rec.WIRED)
    assert main(["network", "status", "--json", "--config", str(config)]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == {"network": "wired", "name": "Wired connection 1", "device": "eth0", "address": "192.168.1.12",
                   "phones": "192.168.1.12", "hotspot": True, "next": "keep", "reason": "eth0 is connected to Wired connection 1"}


def test_the_check_starts_the_hotspot_when_no_known_wifi_is_in_range(monkeypatch, config, capsys):
    run = recorded(monkeypatch, {**rec.NO_NETWORK, UP: "Connection successfully activated\n"})
    assert main(["network", "check", "--config", str(config)]) == 0
    assert run.calls[-1] == UP
    assert "hotspot Galapagos-7F3K started on wlan0" in capsys.readouterr().out


@pytest.mark.parametrize("answers", [rec.WIRED, rec.KNOWN_WIFI, rec.KNOWN_HEARD_IDLE, rec.HOTSPOT])
def test_the_check_never_touches_a_link_that_is_up_or_coming(monkeypatch, config, capsys, answers):
    run = recorded(monkeypatch, answers)  # a « connection up » would not be recorded: the test would fail
    assert main(["network", "check", "--config", str(config)]) == 0
    assert UP not in run.calls
    assert "nothing to do" in capsys.readouterr().out


def test_a_hotspot_that_will_not_start_is_one_sentence_and_exit_1(monkeypatch, config, capsys):
    failed = nm.Answer(4, "", "Error: Connection activation failed: No suitable device found for this connection.\n")
    recorded(monkeypatch, rec.NO_NETWORK, {UP: failed})
    assert main(["network", "check", "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the hotspot could not start" in err and "No suitable device" in err


def test_a_missing_network_manager_is_one_sentence_and_exit_2(monkeypatch, config, capsys):
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/system_bus_socket")
    assert main(["network", "--config", str(config)]) == 2  # the real nmcli, no daemon to ask
    assert capsys.readouterr().err == "companion: NetworkManager is not running (sudo systemctl start NetworkManager).\n"


def test_the_doctor_says_which_network_the_table_is_on(monkeypatch, config, capsys):
    recorded(monkeypatch, rec.HOTSPOT)
    main(["doctor", "--json", "--config", str(config)])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    network = [r for r in rows if r["device"] == "network"]
    assert [r["check"] for r in network] == ["which network", "hotspot"]
    assert network[0]["ok"] and "its own Wi-Fi hotspot Galapagos-7F3K at 10.42.0.1; phones are given 10.42.0.1" \
        in network[0]["detail"]


def test_the_doctor_fails_the_hotspot_without_network_manager(monkeypatch, config, capsys):
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/system_bus_socket")
    main(["doctor", "--json", "--config", str(config)])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    (row,) = [r for r in rows if r["device"] == "network"]
    assert not row["ok"] and "NetworkManager is not running" in row["detail"] and "hotspot needs" in row["fix"]


@pytest.mark.parametrize(("argv", "said"), [
    (["--password", "short"], "--password cannot be used: a WPA2 password has 8 to 63 characters, not 5"),
    (["--ssid", "x" * 40], "--ssid cannot be used: the Wi-Fi name must be 1 to 32 bytes, not 40"),
    (["--ifname", "wlan0/../x"], '--ifname must be a network device name such as "wlan0"'),
])
def test_setup_refuses_a_bad_value_and_writes_nothing(config, tmp_path, capsys, argv, said):
    before = config.read_text()
    assert main(["network", "setup", "--config", str(config), "--keyfile-dir", str(tmp_path / "nm"), *argv]) == 2
    assert said in capsys.readouterr().err
    assert config.read_text() == before and not (tmp_path / "nm").exists()


@pytest.mark.parametrize(("text", "said"), [
    ("[network]\nhotspot = true\n", "network.ssid is needed for the hotspot"),
    ('[network]\nhotspot = "yes"\n', "network.hotspot must be true or false"),
    ('[network]\nhotspot = true\nssid = "G"\npassword = "1234567"\n', "network.password cannot be used"),
    ('[network]\nchannel = 6\n', "network.channel is not a setting"),
])
def test_a_bad_network_table_is_one_sentence_naming_the_key(tmp_path, text, said):
    from companion.board import config as configuration

    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(configuration.ConfigError, match=said):
        configuration.load(path)
