"""The table controller on simulated devices: mock pins, simulated readers, the dummy OLED.

Each test drives real gpiozero devices on gpiozero's MockFactory (``drive_low``
on a button's pin), real simulated readers through the debouncer, and a real
session with its SQLite journal; the OLED is luma.core's dummy device.
"""

from __future__ import annotations

import pytest

from companion import screens
from companion.config import Config
from companion.controller import TableController, open_devices
from companion.journal import Journal
from companion.session import Session
from hw.events import ButtonEvent, DieEvent
from hw.tags import Component
from tests.hw.conftest import (
    FakeClock,
    mock_factory,  # noqa: F401  (fixture)
    wait_until,
)

PINS = Config().buttons()  # seat1..seat5, ok, back, up, down on the default sim config
TILES = {"N": ["crab", "iguana"], "E": ["sea_lion", "booby"], "S": ["tortoise", "penguin"], "W": ["crab", "booby"]}
TILE_UIDS = {"N": "04000001", "E": "04000002", "S": "04000003", "W": "04000004"}


class Table:
    """A whole simulated table around one game."""

    def __init__(self, factory, tmp_path, game, players, options=None):
        self.factory = factory
        self.mono, self.wall = FakeClock(50.0), FakeClock(10_000.0)
        db = tmp_path / "companion.db"
        self.session = Session.new(Journal(db, clock=self.wall), game, players, options or {}, clock=self.mono, wall=self.wall)
        self.devices = open_devices(Config(), db_path=str(db), clock=self.mono)
        self.registry = self.devices.registry
        self.ctl = TableController(self.session, self.devices.oled, beeper=self.devices.beeper, leds=self.devices.leds,
                                   registry=self.registry, clock=self.mono)
        self.devices.attach(self.ctl)

    def press(self, name):
        pin = self.factory.pin(PINS[name])
        pin.drive_low()
        pin.drive_high()

    def turn(self, detents):
        a, b = (self.factory.pin(p) for p in Config().encoder)
        first, second = (a, b) if detents > 0 else (b, a)
        for _ in range(abs(detents)):
            first.drive_low()
            second.drive_low()
            first.drive_high()
            second.drive_high()

    def place(self, point, uid):
        self.devices.readers.readers[point].place(uid)
        self.devices.readers.step()

    def lift(self, point):
        reader = self.devices.readers.readers[point]
        reader.remove()
        for _ in range(4):
            self.mono.advance(0.3)
            self.devices.readers.step()

    def enrol(self, uid, kind, value):
        self.registry.enrol(uid, self.session.game, Component(kind, value))

    def frame(self):
        return self.devices.oled.frame.tobytes()

    def close(self):
        self.ctl.close()
        self.devices.close()


@pytest.fixture
def table_for(mock_factory, tmp_path):  # noqa: F811
    made = []

    def make(game, players, options=None):
        t = Table(mock_factory, tmp_path, game, players, options)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def auction_bidding(table_for):
    t = table_for("galapagos-auction", ["Ann", "Bob", "Cy"])
    for d, animals in TILES.items():
        t.session.act({"type": "tile", "direction": d, "animals": animals})
    return t


def test_a_button_press_on_a_mock_pin_applies_an_action_and_changes_the_oled_frame(table_for):
    t = auction_bidding(table_for)
    before, sent = t.frame(), t.devices.oled.sent
    t.press("ok")  # the entry starts as "bid £100 N" for Ann, whose turn it is
    assert t.session.public()["bids"] == [{"player": "Ann", "direction": "N", "amount": 100}]
    assert t.session.history()[-1].source == "table"
    assert t.frame() != before and t.devices.oled.sent > sent
    assert t.devices.beeper.played[-1] == "ok"


def test_a_species_tile_placed_on_reader_N_becomes_the_tile_action(table_for):
    t = table_for("galapagos-auction", ["Ann", "Bob"])
    for d, uid in TILE_UIDS.items():
        t.enrol(uid, "tile", {"animals": TILES[d]})
    t.place("N", TILE_UIDS["N"])
    assert t.session.history()[-1].action == {"type": "tile", "direction": "N", "animals": ["crab", "iguana"]}
    t.devices.readers.step()  # the tile still lies there: no second action
    assert t.session.version == 1


def test_the_encoder_and_ok_enter_a_bid(table_for):
    t = auction_bidding(table_for)
    t.press("down")  # highlight the amount
    t.turn(+3)  # £100 -> £400
    t.turn(-1)  # -> £300
    t.press("down")  # highlight the direction
    t.turn(+2)  # N -> S
    assert t.ctl.entry_segments() == (("bid", False), ("£300", False), ("S", True))
    t.press("ok")
    assert t.session.public()["bids"] == [{"player": "Ann", "direction": "S", "amount": 300}]


def test_a_refused_action_shows_its_message_with_an_error_beep_and_changes_nothing(table_for):
    t = auction_bidding(table_for)
    t.press("down")
    t.turn(+15)  # £1600, and Ann has £1500
    fingerprint, version = t.session.rules.fingerprint(t.session.state), t.session.version
    t.press("ok")
    assert t.session.rules.fingerprint(t.session.state) == fingerprint and t.session.version == version
    assert t.ctl.message and "Ann" in t.ctl.message
    state = t.session.public()
    expected = screens.render("error", state, screens.ScreenContext(message=t.ctl.message))
    assert t.frame() == expected.tobytes()
    assert t.devices.beeper.played[-1] == "error"
    buzzer = t.factory.pin(Config().buzzer)
    assert wait_until(lambda: any(s.state for s in buzzer.states[1:]))
    t.mono.advance(10)  # the message times out and the prompt comes back
    t.ctl.tick()
    assert t.ctl.message is None and t.frame() != expected.tobytes()


def test_a_seat_button_out_of_turn_is_refused(table_for):
    t = auction_bidding(table_for)
    t.press("seat2")  # Bob, while Ann must bid
    assert "Ann" in t.ctl.message and t.session.version == 4


def test_holding_back_undoes_the_last_action(table_for):
    t = auction_bidding(table_for)
    t.press("ok")
    assert t.session.version == 5
    t.ctl.handle(ButtonEvent("back", "hold"))  # the hold itself is timed by gpiozero (tests/hw)
    assert t.session.version == 4 and t.session.public()["bids"] == []


def test_an_unknown_tag_is_reported_and_not_acted_on(table_for):
    t = table_for("galapagos-auction", ["Ann", "Bob"])
    t.place("N", "0BADCAFE")
    assert "0BADCAFE" in t.ctl.message and t.session.version == 0
    assert t.devices.beeper.played[-1] == "error"


def dice_planning(table_for):
    t = table_for("galapagos-dice", ["Ann", "Bob", "Cy"])
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        t.session.act({"type": "start", "player": name, "field": i + 1})
    t.session.act({"type": "place_turtles", "numbers": [10, 11, 12, 13, 14, 15]})
    return t


def test_in_planning_the_first_seat_button_starts_the_sand_timer_for_that_seat(table_for):
    """Seed 002: "Once the first player has completed his planning, he grabs the sand timer"."""
    t = dice_planning(table_for)
    t.enrol("D1", "die", {"die": "b1", "bottom": "blue", "up": "red"})  # read from below
    t.enrol("D2", "die", {"die": "b2", "bottom": "black", "up": "green"})
    t.place("seat2.slot2", "D2")
    t.place("seat2.slot1", "D1")
    t.press("seat2")
    assert t.session.history()[-1].action == {"type": "plan", "player": "Bob", "dice": ["red", "green"]}
    assert t.session.timer is not None and t.session.timer.running
    assert t.ctl.frame_name(t.session.public(), t.ctl.context()) == "timer"


def test_the_sand_timer_beeps_when_it_runs_out(table_for):
    t = dice_planning(table_for)
    t.press("seat1")  # Ann plans first: the timer turns
    frame_at_start = t.frame()
    for seconds in (26.0, 3.5):
        t.mono.advance(seconds)
        t.wall.advance(seconds)
        t.ctl.tick()
    assert t.frame() != frame_at_start  # the countdown moved on
    assert "warn" in t.devices.beeper.played and "timer" not in t.devices.beeper.played
    t.mono.advance(1.0)
    t.wall.advance(1.0)
    t.ctl.tick()
    assert t.session.history()[-1].action == {"type": "timer_expired"}
    assert t.devices.beeper.played[-1] == "timer"


def test_dice_from_a_face_reading_slot_fill_the_plan(table_for):
    t = dice_planning(table_for)
    t.ctl.handle(DieEvent("seat3.slot1", 3))  # face 3 = red
    t.ctl.handle(DieEvent("seat3.slot2", 6))
    t.ctl.handle(DieEvent("seat3.slot2", 0))  # taken off again
    t.press("seat3")
    assert t.session.history()[-1].action == {"type": "plan", "player": "Cy", "dice": ["red"]}


def test_turtles_scanned_at_the_bag_are_placed_with_ok(table_for):
    t = table_for("galapagos-dice", ["Ann", "Bob"])
    for n in (7, 8, 9, 20, 21):
        t.enrol(f"T{n}", "turtle", {"number": n})
        t.place("bag", f"T{n}")
        t.lift("bag")
    t.press("ok")
    assert t.session.history()[-1].action == {"type": "place_turtles", "numbers": [7, 8, 9, 20, 21]}


def test_a_ball_placed_on_the_scan_pad_becomes_the_fish_count(table_for):
    """Seed 004: "Piochez une boule ... Le nombre de poissons que vous avez attrapé y est indiqué"."""
    t = table_for("galerapagos", ["Ann", "Bob", "Cy"])
    t.enrol("W1", "weather", {"water": 2, "hurricane": False})
    t.enrol("B3", "ball", {"fish": 3})
    t.place("scan", "W1")
    t.lift("scan")
    food = t.session.public()["food"]
    t.place("scan", "B3")
    assert t.session.history()[-1].action == {"type": "fish", "player": "Ann", "fish": 3}
    assert t.session.public()["food"] == food + 3


def test_balls_drawn_during_a_wood_entry_count_extra_wood_and_snakes(table_for):
    t = table_for("galerapagos", ["Ann", "Bob", "Cy"])
    t.session.act({"type": "weather", "water": 1, "hurricane": False})
    t.enrol("B1", "ball", {"fish": 1})
    t.enrol("BK", "ball", {"snake": True})
    while t.ctl.entry.kind != "wood":
        t.turn(+1)  # the first item is the action itself
    t.place("scan", "B1")
    t.lift("scan")
    t.place("scan", "BK")
    t.press("ok")
    assert t.session.history()[-1].action == {"type": "wood", "player": "Ann", "extra": 1, "snake": True}
    assert t.session.public()["players"][0]["sick"]


def test_back_cycles_the_screens_when_nothing_is_being_entered(table_for):
    t = table_for("pocket-galapagos", ["Ann"])
    seen = []
    for _ in range(len(screens.cycle("pocket-galapagos")) + 1):
        seen.append(t.ctl.frame_name(t.session.public(), t.ctl.context()))
        t.press("back")
    assert seen == ["populations", "populations", "prompt", "qr"]


def test_the_sand_timer_running_out_on_another_thread_while_the_table_is_busy_does_not_freeze_the_game(table_for):
    """The session journals the expiry from its own alarm thread and tells the controller
    while it holds its own lock; meanwhile the table's loop holds the controller and reads
    the session. Both must go on (the walkthrough met a frozen game exactly like this)."""
    import threading
    import time

    t = dice_planning(table_for)
    t.press("seat1")  # Ann plans first: the timer turns
    t.mono.advance(31.0)
    t.wall.advance(31.0)
    alarm = threading.Thread(target=t.session.tick, daemon=True)

    def table_loop():
        with t.ctl._lock:  # mid-tick...
            alarm.start()  # ...when the sand runs out
            time.sleep(0.3)
            t.session.public()

    loop = threading.Thread(target=table_loop, daemon=True)
    loop.start()
    loop.join(3.0)
    alarm.join(3.0)
    assert not loop.is_alive() and not alarm.is_alive(), "the session and the controller wait for each other"
    assert t.session.history()[-1].action == {"type": "timer_expired"}
    assert t.devices.beeper.played[-1] == "timer"
