"""`companion run` and the composition root: simulated devices, the controller and the dashboard wired."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device

from companion.board.config import Config
from companion.cli.app import Companion, build
from companion.cli.main import main
from companion.cli.tags import demo_tags, parse_tag_value
from tests.support.table_process import built_table


@pytest.fixture
def sim(tmp_path: Path) -> Iterator[Companion]:
    """A simulated table without the HTTP server: devices, controller, dashboard app."""
    with built_table(tmp_path / "journal.db", serve=False) as companion:
        yield companion


def table_client(companion: Companion):
    client = companion.app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {companion.keys.table_token}"
    return client


def test_sim_binds_to_localhost_and_the_default_port(tmp_path: Path) -> None:
    companion = build(Config(), tmp_path / "j.db", sim=True)
    assert (companion.host, companion.port, companion.sim) == ("127.0.0.1", 8080, True)
    companion.close()


def test_a_pi_config_binds_to_the_config_host(tmp_path: Path) -> None:
    import dataclasses

    cfg = dataclasses.replace(Config(), pin_factory="lgpio", web_host="0.0.0.0", web_port=9000)
    companion = build(cfg, tmp_path / "j.db", sim=False)
    assert (companion.host, companion.port, companion.sim) == ("0.0.0.0", 9000, False)
    companion.close()


def test_a_button_pressed_on_the_panel_changes_the_oled_mirror(sim: Companion) -> None:
    client = table_client(sim)
    gid = client.post("/api/games", json={"game": "pocket-galapagos", "players": ["Ann"]}).json["id"]
    assert sim.hub.current == gid and sim.controller is not None
    before = client.get("/sim/state").json
    r = client.post("/sim/press", json={"button": "down"})
    assert r.status_code == 200
    after = r.json
    assert after["serial"] > before["serial"] and after["oled"] != before["oled"]
    png = client.get("/sim/oled.png")
    assert png.mimetype == "image/png" and png.data.startswith(b"\x89PNG")


def test_back_held_on_the_panel_undoes_even_when_the_hold_timer_wakes_late(sim: Companion, monkeypatch) -> None:
    """The panel's hold timer runs on its own thread; on a loaded machine it may wake after the hold time.
    A held button stays down until the hold is felt, as a finger does until the screen answers."""
    client = table_client(sim)
    gid = client.post("/api/games", json={"game": "galapagos-auction", "players": ["Ann", "Bob"]}).json["id"]
    tile = {"type": "tile", "direction": "N", "animals": ["penguin", "crab"]}
    assert client.post(f"/api/games/{gid}/actions", json=tile).status_code == 200
    version = client.get(f"/api/games/{gid}").json["state"]["version"]
    panel = sim.devices.panel
    late = panel._hold  # the timer's call, made 0.6 s late (past the hold time and any fixed margin)

    def wakes_late(name: str) -> None:
        time.sleep(0.6)
        late(name)

    monkeypatch.setattr(panel._holds, "_fire", wakes_late)
    holds = panel.holds
    assert client.post("/sim/press", json={"button": "back", "hold": True}).status_code == 200
    assert panel.holds == holds + 1
    after = client.get(f"/api/games/{gid}").json["state"]
    assert after["version"] != version and not after["tiles"].get("N")  # the table's undo took the tile back


def test_a_tile_placed_on_square_n_becomes_the_tile_action(sim: Companion) -> None:
    """hw issue: "a species tile placed on reader N becomes the tile action"; here from the panel."""
    client = table_client(sim)
    gid = client.post("/api/games", json={"game": "galapagos-auction", "players": ["Ann", "Bob"]}).json["id"]
    uid = next(u for u, comp in demo_tags() if comp.kind == "tile" and comp.value["animals"] == ["sea_lion", "iguana"])
    r = client.post("/sim/tag", json={"point": "N", "uid": uid, "present": True})
    assert r.status_code == 200 and r.json["readers"]["N"] == [uid]
    state = client.get(f"/api/games/{gid}").json["state"]
    assert state["tiles"]["N"] == ["sea_lion", "iguana"]
    assert client.get(f"/api/games/{gid}").json["last_actions"][0]["source"] == "table"


def test_the_panel_refuses_unknown_buttons_points_and_uids(sim: Companion) -> None:
    client = table_client(sim)
    assert client.post("/sim/press", json={"button": "self_destruct"}).status_code == 400
    assert client.post("/sim/tag", json={"point": "Q", "uid": "04A1B2C3D4E5F6", "present": True}).status_code == 400
    assert client.post("/sim/tag", json={"point": "N", "uid": "zz", "present": True}).status_code == 400
    phone = sim.app.test_client()
    assert phone.post("/sim/press", json={"button": "ok"}).status_code == 401


def test_enrolling_a_tag_from_the_dashboard(sim: Companion) -> None:
    client = table_client(sim)
    r = client.post("/tags/enroll", json={"uid": "04aabbccddeeff", "kind": "turtle", "value": "17"})
    assert r.status_code == 201 and r.json["enrolled"]["label"] == "turtle 17"
    assert sim.devices.registry.lookup("04AABBCCDDEEFF", "galapagos-dice").value == {"number": 17}
    assert client.post("/tags/enroll", json={"uid": "04aabbccddeeff", "kind": "turtle", "value": "seventeen"}).status_code == 400
    assert client.post("/tags/forget", json={"uid": "04AABBCCDDEEFF"}).status_code == 200


def test_the_scan_pad_feeds_the_enrollment_form(sim: Companion) -> None:
    client = table_client(sim)
    client.post("/sim/tag", json={"point": "scan", "uid": "04010203040506", "present": True})
    assert client.get("/tags/last").json == {"uid": "04010203040506"}


def test_tag_values_are_read_the_way_players_type_them() -> None:
    assert parse_tag_value("tile", "sea_lion+crab") == {"animals": ["sea_lion", "crab"]}
    assert parse_tag_value("ball", "fish 2") == {"fish": 2}
    assert parse_tag_value("ball", "snake") == {"snake": True}
    assert parse_tag_value("weather", "2 hurricane") == {"water": 2, "hurricane": True}
    with pytest.raises(ValueError):
        parse_tag_value("turtle", "x")


def test_resuming_puts_the_last_unfinished_game_back_on_the_table(tmp_path: Path) -> None:
    from companion.table.journal import Journal
    from companion.table.session import Session

    db = tmp_path / "journal.db"
    with Journal(db) as journal:
        gid = Session.new(journal, "pocket-galapagos", ["Ann"]).id
    companion = build(Config(), db, sim=True, port=0)
    try:
        companion.start()
        assert companion.hub.current == gid
        assert companion.controller is not None and companion.controller.session.id == gid
        assert companion.table_url() == f"http://127.0.0.1:{companion.server.effective_port}/?token={companion.keys.table_token}"
    finally:
        companion.close()
        if Device.pin_factory is not None:
            Device.pin_factory.reset()


def test_run_refuses_a_port_out_of_range(tmp_path: Path, capsys) -> None:
    assert main(["run", "--sim", "--port", "70000", "--db", str(tmp_path / "j.db")]) == 2
    assert "between 0 and 65535" in capsys.readouterr().err


def test_run_says_so_in_one_sentence_when_the_port_is_taken(tmp_path: Path, capsys) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["run", "--sim", "--port", str(port), "--db", str(tmp_path / "j.db")]) == 75  # retried, not 2
    err = capsys.readouterr().err
    assert err.startswith(f"companion: Port {port} on 127.0.0.1 is already in use") and err.count("\n") == 1


def test_with_the_example_config_a_tile_reaches_the_game_through_the_simulated_firmware(tmp_path: Path) -> None:
    """docs/config.example.toml puts N/E/S/W behind the bridge: --sim runs the firmware simulator on a pty."""
    import time

    from companion.board import config

    cfg = config.load(Path(__file__).resolve().parents[2] / "docs" / "config.example.toml")
    companion = build(cfg, tmp_path / "journal.db", sim=True, port=0)
    try:
        companion.start()
        assert companion.devices.simulator is not None and companion.devices.readers.readers["N"].backend == "bridge"
        client = table_client(companion)
        gid = client.post("/api/games", json={"game": "galapagos-auction", "players": ["Ann", "Bob"]}).json["id"]
        uid = next(u for u, comp in demo_tags() if comp.kind == "tile" and comp.value["animals"] == ["booby", "crab"])
        assert client.post("/sim/tag", json={"point": "N", "uid": uid, "present": True}).status_code == 200
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and client.get(f"/api/games/{gid}").json["state"]["tiles"]["N"] is None:
            time.sleep(0.05)
        assert client.get(f"/api/games/{gid}").json["state"]["tiles"]["N"] == ["booby", "crab"]
        assert client.get("/sim/state").json["readers"]["N"] == [uid]
    finally:
        companion.close()
        if Device.pin_factory is not None:
            Device.pin_factory.reset()


def test_run_with_a_display_that_is_not_there_starts_the_table_and_says_so(tmp_path: Path) -> None:
    """A device missing at start no longer stops the table (exit 2 is a bad config only)."""
    from companion.board import config as config_module

    config = tmp_path / "table.toml"
    config.write_text('[gpio]\nfactory = "mock"\n\n[display]\ntype = "sh1106"\ni2c_port = 99\n')
    with built_table(tmp_path / "j.db", config_module.load(str(config)), serve=True, sim=False,
                     host="127.0.0.1") as companion:
        (failing,) = companion.devices.health()["failing"]
        assert failing.startswith("/dev/i2c-99 does not exist: enable I2C")
