"""The table loop of ``companion run`` at rest: it draws the OLED again only when the screen can change.

A Pi Zero 2 W's core is about a tenth of this machine's: a frame rendered every second for nothing
was most of what a table at rest cost. These run a real simulated table (devices, controller, the
loop's thread) and count the frames the loop hands the OLED.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cli import app
from companion.cli.app import Companion
from companion.drawing.canvas import END_PAUSE_SECONDS, LINE_SECONDS
from hw.events import StatusEvent
from hw.supply import SupplyWatch, throttled
from tests.support.table_process import built_table


@pytest.fixture
def table(tmp_path: Path, monkeypatch) -> Iterator[Companion]:
    monkeypatch.setattr(app, "LIVELY", 0.3)  # the seconds the loop stays lively after a change, shortened
    with built_table(tmp_path / "journal.db", serve=True) as companion:
        yield companion


def counting_shows(companion: Companion) -> list[Any]:
    """Every frame handed to the OLED from now on (changed or not)."""
    oled = companion.devices.oled
    shown: list[Any] = []
    real = oled.show

    def show(image: Any) -> bool:
        shown.append(image.tobytes())
        return real(image)

    oled.show = show
    return shown


def test_an_unchanged_screen_is_not_drawn_again_and_a_press_still_is(table: Companion) -> None:
    game = table.games.new("pocket-galapagos", ["Ann"], {})
    table.games.set_current(game.id)
    time.sleep(1.0)  # the change's lively moment passes
    shown = counting_shows(table)
    passes = getattr(table, "redraws", 0)
    time.sleep(2.5)
    assert shown == [] and getattr(table, "redraws", 0) == passes  # was: a frame rendered every second
    frame = table.devices.oled.frame.tobytes()
    table.dashboard.sim.press("down")  # the next screen
    deadline = time.monotonic() + 5
    while table.devices.oled.frame.tobytes() == frame and time.monotonic() < deadline:
        time.sleep(0.02)
    assert table.devices.oled.frame.tobytes() != frame


def test_a_running_sand_timer_still_counts_down_on_the_oled(table: Companion) -> None:
    game = table.games.new("galapagos-dice", ["Ann", "Bob", "Cy"], {})
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        game.act({"type": "start", "player": name, "field": i + 1})
    game.act({"type": "place_turtles", "numbers": [10, 11, 12, 13, 14, 15]})
    table.games.set_current(game.id)
    game.act({"type": "plan", "player": "Bob", "dice": ["red", "green"]})  # the sand timer turns
    assert game.timer is not None and game.timer.running
    time.sleep(1.0)
    shown = counting_shows(table)
    time.sleep(2.6)
    assert len(set(shown)) >= 2  # the countdown moved on at least twice, with nobody touching the table


def test_a_device_down_is_said_at_once_and_stays_after_its_message_time(table: Companion) -> None:
    game = table.games.new("pocket-galapagos", ["Ann"], {})
    table.games.set_current(game.id)
    time.sleep(1.0)
    table.controller.message_seconds = 0.5
    quiet = table.devices.oled.frame.tobytes()
    table.devices.emit(StatusEvent("reader:scan", False, "reader scan stopped answering; retrying"))
    deadline = time.monotonic() + 5
    while table.devices.oled.frame.tobytes() == quiet and time.monotonic() < deadline:
        time.sleep(0.02)
    down = table.devices.oled.frame.tobytes()
    assert down != quiet
    time.sleep(4.0)  # past the sentence's reading time: the loop ages it, and it is said again
    assert "reader scan" in (table.controller.message or "")
    table.devices.emit(StatusEvent("reader:scan", True, "reader scan answers again"))
    deadline = time.monotonic() + 8
    while table.controller.message and time.monotonic() < deadline:
        time.sleep(0.05)
    assert table.controller.message is None  # once back, the screen goes back to the game by itself


def test_a_supply_that_sags_while_the_table_runs_is_said_on_the_oled_and_cleared(table: Companion, tmp_path: Path,
                                                                                  monkeypatch) -> None:
    monkeypatch.setattr(app, "LOOP_IDLE", 0.2)  # the loop's rest, shortened (30 s on a table)
    sysfs = tmp_path / "get_throttled"  # the kernel's file, as the firmware driver prints it
    sysfs.write_text("0\n")
    table.supply = SupplyWatch(table.devices.emit, lambda: throttled(sysfs, vcgencmd="no-such-vcgencmd"), every=0.2)
    game = table.games.new("pocket-galapagos", ["Ann"], {})
    table.games.set_current(game.id)
    time.sleep(1.0)
    sysfs.write_text("50005\n")  # under-voltage now, and since boot
    deadline = time.monotonic() + 5
    while "too weak" not in (table.controller.message or "") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "too weak" in (table.controller.message or "")
    assert not table.devices.status["power supply"].ok  # the dashboard's banner and the doctor's status file
    sysfs.write_text("50000\n")  # the sag is over (the since-boot bit stays until the next boot)
    deadline = time.monotonic() + 8
    while table.devices.status["power supply"].ok is False and time.monotonic() < deadline:
        time.sleep(0.05)
    assert table.devices.status["power supply"].ok


def test_text_that_scrolls_moves_a_step_each_pass(table: Companion, monkeypatch) -> None:
    """The empty table's hint is longer than the screen: it moves a step (0.25 s) at a time with nobody
    touching the table, and the loop draws once a step, not ten times a second."""
    monkeypatch.setattr(app, "LIVELY", LINE_SECONDS + END_PAUSE_SECONDS + 0.5)  # as on a table
    table.games.set_current(None)
    table.dashboard.sim.press("down")  # the next game: the screen's text starts again from its left end
    time.sleep(4.0)  # the press's lively seconds pass; the hint's marquee (11 s of steps) has left its pause
    shown = counting_shows(table)
    time.sleep(4.0)
    frames = [f for i, f in enumerate(shown) if i == 0 or f != shown[i - 1]]
    assert len(frames) >= 10, len(frames)  # it moved on by itself
    assert len(shown) <= 4.0 / app.LOOP_SCROLL + 2, len(shown)  # one pass a step


def test_at_rest_the_join_address_is_asked_seldom_and_a_new_one_is_drawn(table: Companion, monkeypatch) -> None:
    """On a Pi the address comes from NetworkManager (nmcli, a process): a table at rest asks every
    ADDRESS_EVERY seconds, not at every pass, and a move (the hotspot came up) is drawn at once."""
    monkeypatch.setattr(app, "LOOP_IDLE", 0.1)
    monkeypatch.setattr(app, "ADDRESS_EVERY", 1.0)
    game = table.games.new("pocket-galapagos", ["Ann"], {})
    table.games.set_current(game.id)
    time.sleep(1.0)
    asked: list[float] = []
    address = ["http://192.168.1.20:8080"]
    monkeypatch.setattr(table, "base_url", lambda: asked.append(time.monotonic()) or address[0])
    time.sleep(2.5)
    assert 1 <= len(asked) <= 4  # every second, not at each of the ~25 passes
    passes = table.redraws
    address[0] = "http://10.42.0.1:8080"  # the table's hotspot came up
    deadline = time.monotonic() + 5
    while table.dashboard.base_url != address[0] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert table.dashboard.base_url == address[0] and table.redraws > passes  # the join QR drawn again
