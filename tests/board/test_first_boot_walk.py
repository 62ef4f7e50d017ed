"""The first-boot walk on the simulated table: gpiozero's MockFactory pins (a press is the pin driven
low, as a button wired to it does), the encoder's two pins in quadrature, the simulated readers
polled, luma.core's dummy display. A swapped wire, a reversed encoder and a silent button are
found, shown on the OLED and written into the config.
"""

from __future__ import annotations

import errno
import threading
import time
from pathlib import Path

import pytest

from companion.board import config as configuration
from companion.board import screens, walk
from companion.board.devices import open_devices
from tests.hw.conftest import mock_factory  # noqa: F401  (fixture)
from tests.support.clock import FakeClock
from tests.support.panel_pins import turn  # the encoder's two pins in quadrature

CONFIG = """\
# the builder's own comment, kept
readers = [{ point = "scan" }, { point = "bag" }]

[gpio]
factory = "mock"

[buttons]
seats = [5, 6]

[first_boot]
pending = true
"""


def press(factory, pin: int) -> None:
    """A press, and the pause a hand leaves before the next (more than the 20 ms debounce)."""
    p = factory.pin(pin)
    p.drive_low()
    p.drive_high()
    time.sleep(0.05)


@pytest.fixture
def table(tmp_path, mock_factory):  # noqa: F811
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    cfg = configuration.load(path)
    devices = open_devices(cfg)
    yield mock_factory, cfg, devices, path
    devices.close()


def start(cfg, devices, state: Path, clock, then=lambda: None):
    w = walk.first_boot_walk(cfg, devices, state, then, clock=clock, summary_seconds=0.0)
    assert w is not None
    devices.listeners.append(w.handle)  # as the composition root routes events while walking
    return w


def test_the_walk_asks_each_part_in_turn_and_writes_what_answered_into_the_config(table, tmp_path):
    factory, cfg, devices, path = table
    clock = FakeClock()
    back = threading.Event()
    w = start(cfg, devices, tmp_path, clock, then=back.set)
    assert [(s.kind, s.name) for s in w.steps] == [
        ("button", "seat1"), ("button", "seat2"), ("button", "ok"), ("button", "back"), ("button", "up"),
        ("button", "down"), ("dial", "dial"), ("reader", "scan"), ("reader", "bag")]
    asked = w.data()
    assert (asked["name"], asked["where"], asked["seconds"]) == ("seat1", "GPIO 5", 30)
    assert devices.oled.frame.tobytes() == screens.render(
        "walk", {}, screens.ScreenContext(data={"walk": asked})).tobytes()

    press(factory, 6)  # seat 1's button, wired to GPIO 6 by mistake: it answers as seat 2
    assert w.data()["name"] == "seat2"
    assert w.outcomes[-1].sentence() == "button seat1 answered as button seat2 (GPIO 6)"
    assert "answered as button seat2" in w.data()["last"]
    press(factory, 6)  # seat 2 asked: it answers
    for name in ("ok", "back", "up"):
        press(factory, cfg.nav[name])
    assert w.data()["name"] == "down"
    clock.advance(29.0)
    w.tick()
    assert w.data()["seconds"] == 1
    clock.advance(1.0)
    w.tick()  # Down never answered (a loose wire): noted, and the walk goes on
    assert w.current.kind == "dial"
    devices.readers.readers["bag"].place("04EE")  # a tag left on a reader while the dial is asked: ignored
    devices.readers.step()
    assert w.current.kind == "dial"
    turn(factory, -1)  # asked for clockwise, read counter-clockwise: A and B are swapped
    assert "swap the encoder's A and B pins" in w.outcomes[-1].sentence()
    devices.readers.readers["bag"].place("04CD")  # asked for scan, read by bag: the readers are mixed up
    devices.readers.step()
    assert w.outcomes[-1].sentence() == "reader scan answered as reader bag (sim)"
    devices.readers.readers["bag"].place("04CE")  # another tag on the bag, asked for now
    devices.readers.step()
    assert w.done and back.wait(2.0)
    summary = w.data()
    assert (summary["ok"], summary["total"]) == (5, 9)
    assert summary["problems"] == ["button seat1 answered as button seat2 (GPIO 6)", "button down (GPIO 12): no answer",
                                   "the dial answered as a counter-clockwise turn (swap the encoder's A and B pins)",
                                   "reader scan answered as reader bag (sim)"]

    text = path.read_text(encoding="utf-8")
    assert text.startswith("# the builder's own comment, kept\n") and "pending" not in text
    again = configuration.load(path)
    assert again.first_boot["answered"] == ["button seat2", "button ok", "button back", "button up", "reader bag"]
    assert again.first_boot["silent"] == ["button down (GPIO 12)"]
    assert again.first_boot["mixed"][0] == "button seat1 answered as button seat2 (GPIO 6)"
    assert again.seats == (5, 6) and [r.point for r in again.readers] == ["scan", "bag"]  # the rest untouched
    assert not walk.needed(again, tmp_path)  # walked once


def test_a_read_only_config_gets_the_walk_beside_the_journal_and_is_not_walked_again(table, tmp_path, monkeypatch):
    factory, cfg, devices, path = table

    def read_only(*args, **kwargs):  # the service's /etc under ProtectSystem=strict
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(walk, "replace_table", read_only)
    state = tmp_path / "state"
    state.mkdir()
    clock = FakeClock()
    w = start(cfg, devices, state, clock)
    for _ in w.steps:
        clock.advance(30.0)
        w.tick()
    assert w.done
    written = (state / walk.FALLBACK_NAME).read_text(encoding="utf-8")
    assert "could not be written (Read-only file system)" in written and "[first_boot]" in written
    assert "pending = true" in path.read_text(encoding="utf-8")  # the config as it was
    assert not walk.needed(configuration.load(path), state)


def test_no_walk_without_pending_or_for_the_built_in_simulation(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG.replace("pending = true", "pending = false"), encoding="utf-8")
    assert not walk.needed(configuration.load(path), tmp_path)
    assert not walk.needed(configuration.Config(), tmp_path)
    assert walk.first_boot_walk(configuration.Config(), object(), tmp_path, lambda: None) is None


def test_the_fresh_install_s_config_asks_for_the_walk(tmp_path):
    pi = configuration.load(Path(__file__).resolve().parents[2] / "deploy" / "pi.toml")
    assert pi.first_boot == {"pending": True}
    assert walk.needed(pi, tmp_path)


def test_a_bad_first_boot_value_is_one_sentence(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('first_boot = "yes"\n', encoding="utf-8")
    with pytest.raises(configuration.ConfigError, match=r"\[first_boot\] must be a table"):
        configuration.load(path)


def test_the_running_table_gives_the_walk_every_press_until_it_is_done(table, tmp_path):
    """``companion run`` on a fresh config: the walk has the OLED and the buttons, then the lobby comes back."""
    from companion.cli.app import build

    factory, cfg, devices, path = table
    devices.close()
    companion = build(cfg, tmp_path / "j.db", sim=False, host="127.0.0.1", port=0)
    try:
        companion.start()
        assert companion.walking()
        first = companion.walk.data()
        assert first["name"] == "seat1"
        companion.devices.drain()
        assert companion.devices.oled.frame.tobytes() == screens.render(
            "walk", {}, screens.ScreenContext(data={"walk": companion.walk.data()})).tobytes()
        press(factory, cfg.seats[0])
        press(factory, cfg.nav["down"])  # asked for seat 2: noted as a mixed wire, not a lobby move
        companion.devices.drain()
        assert [o.sentence() for o in companion.walk.outcomes] == [
            "button seat1: ok", "button seat2 answered as button down (GPIO 12)"]
        assert getattr(companion, "_lobby", None) is None or companion.lobby().index == 0
    finally:
        companion.close()


def test_the_walk_and_the_wifi_step_speak_french():
    from companion.board.screens.walk import ask
    from companion.engine import texts

    assert ask({"kind": "button", "name": "seat1"}, "fr") == "Appuyez sur seat1"
    assert ask({"kind": "dial", "name": "dial"}, "fr") == "Tournez la molette vers la droite"
    assert ask({"kind": "reader", "name": "bag"}, "fr") == "Un badge sur le lecteur bag"
    assert texts.render("Join the Wi-Fi", {}, "fr") == "Rejoignez le Wi-Fi"  # the tablet's join panel
    step = {"done": False, "index": 1, "total": 3, "kind": "dial", "name": "dial", "where": "GPIO 17/27", "seconds": 9}
    english, french = (screens.render("walk", {}, screens.ScreenContext(lang=lang, data={"walk": step}))
                       for lang in ("en", "fr"))
    assert english.tobytes() != french.tobytes()
