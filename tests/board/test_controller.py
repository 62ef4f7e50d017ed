"""The table controller on simulated devices: mock pins, simulated readers, the dummy OLED.

Each test drives real gpiozero devices on gpiozero's MockFactory (``drive_low``
on a button's pin), real simulated readers through the debouncer, and a real
session with its SQLite journal; the OLED is luma.core's dummy device.
"""

from __future__ import annotations

import pytest

from companion.board import screens
from companion.board.config import Config
from companion.board.controller import TableController
from companion.board.devices import open_devices
from companion.board.presenter import OledPresenter
from companion.table.journal import Journal
from companion.table.rows import NOT_RECORDED
from companion.table.session import Session
from hw.events import ButtonEvent, DieEvent
from hw.oled import open_oled
from hw.outputs import Beeper
from hw.tags import Component
from tests.hw.conftest import (
    FakeClock,
    mock_factory,  # noqa: F401  (fixture)
    wait_until,
)
from tests.support.panel_pins import press, turn

TILES = {"N": ["crab", "iguana"], "E": ["sea_lion", "booby"], "S": ["tortoise", "penguin"], "W": ["crab", "booby"]}
TILE_UIDS = {"N": "04000001", "E": "04000002", "S": "04000003", "W": "04000004"}


class Table:
    """A whole simulated table around one game."""

    def __init__(self, factory, tmp_path, game, players, options=None):
        self.factory = factory
        self.mono, self.wall = FakeClock(50.0), FakeClock(10_000.0)
        db = tmp_path / "companion.db"
        self.session = Session.new(Journal(db, clock=self.wall), game, players, options or {}, clock=self.mono, wall=self.wall)
        self.devices = open_devices(Config(bounce_ms=0), db_path=str(db), clock=self.mono)
        self.registry = self.devices.registry
        self.ctl = TableController(self.session, self.devices.oled, beeper=self.devices.beeper, leds=self.devices.leds,
                                   registry=self.registry, clock=self.mono)
        self.devices.attach(self.ctl)

    def press(self, name):
        press(self.factory, name)

    def turn(self, detents):
        turn(self.factory, detents)

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
    t.press("ok")  # the first move offered is Ann's bid: OK goes to its first field, the direction
    assert t.session.version == 4 and t.ctl.entry.cursor == 1
    t.turn(+1)  # N
    t.press("ok")  # on to the amount
    t.turn(+1)  # £100, the least bid
    t.press("ok")  # a bid spends money: the screen asks first
    assert t.session.version == 4 and "Ann bids £100 on North?" in t.ctl.question()
    assert t.ctl.frame_name(t.session.public(), t.ctl.context()) == "confirm"
    t.press("ok")  # the second OK sends it
    assert t.session.public()["bids"] == [{"player": "Ann", "direction": "N", "amount": 100}]
    assert t.session.history()[-1].source == "table"
    assert t.frame() != before and t.devices.oled.sent > sent
    assert t.devices.beeper.played[-1] == "ok"


def test_nothing_is_preselected_so_ok_on_an_empty_field_asks_for_it(table_for):
    t = auction_bidding(table_for)
    t.press("down")  # the direction, not chosen yet
    t.press("ok")
    assert t.session.version == 4 and t.ctl.message and "Direction" in t.ctl.message


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
    t.press("down")  # highlight the direction
    t.turn(+3)  # N, E, S
    t.press("down")  # highlight the amount
    t.turn(+4)  # £100 -> £400
    t.turn(-1)  # -> £300
    assert t.ctl.entry_segments() == (("300", True),)  # the amount under the dial
    assert t.ctl.heading() == "Ann: Bid"
    t.press("up")  # back on the direction
    assert t.ctl.entry_segments() == (("South", True),)
    t.press("ok")
    t.press("ok")  # the second OK: a bid spends money
    assert t.session.public()["bids"] == [{"player": "Ann", "direction": "S", "amount": 300}]


def test_the_amount_stops_at_the_money_ann_has_so_the_dial_never_offers_a_refused_bid(table_for):
    t = auction_bidding(table_for)
    t.press("down")
    t.turn(+1)  # N
    t.press("down")
    t.turn(+40)  # far beyond £1500
    assert t.ctl.entry.values["amount"] == 1500
    t.press("ok")
    t.press("ok")
    assert t.session.public()["bids"] == [{"player": "Ann", "direction": "N", "amount": 1500}]


def test_a_refused_action_shows_its_message_with_an_error_beep_and_changes_nothing(table_for):
    t = auction_bidding(table_for)
    t.session.act({"type": "bid", "player": "Ann", "direction": "N", "amount": 500})
    fingerprint, version = t.session.rules.fingerprint(t.session.state), t.session.version
    t.ctl.act({"type": "bid", "player": "Bob", "direction": "E", "amount": 1600})  # Bob has £1500
    assert t.session.rules.fingerprint(t.session.state) == fingerprint and t.session.version == version
    assert t.ctl.message and "Bob" in t.ctl.message
    t.ctl.refresh()
    state, ctx = t.session.public(), t.ctl.context()
    assert t.ctl.frame_name(state, ctx) == "error"
    assert t.frame() == screens.render("error", state, ctx).tobytes()
    assert t.devices.beeper.played[-1] == "error"
    buzzer = t.factory.pin(Config().buzzer)
    assert wait_until(lambda: any(s.state for s in buzzer.states[1:]))
    t.mono.advance(10)  # the message times out and the prompt comes back
    t.ctl.tick()
    assert t.ctl.message is None and t.ctl.frame_name(t.session.public(), t.ctl.context()) != "error"


def test_a_seat_button_shows_that_seats_moves_only(table_for):
    t = auction_bidding(table_for)
    t.press("seat2")  # Bob, while Ann must bid, holds no animal to exchange: he has no move
    assert "Bob" in t.ctl.message and t.ctl.player is None
    t.press("seat1")  # Ann: only her moves
    assert t.ctl.player == "Ann" and {f["player"] for f in t.ctl.entry.forms} == {"Ann"}
    t.press("seat1")  # pressed again: every seat's moves, the expected player's first
    assert t.ctl.player is None and t.ctl.entry.form["player"] == "Ann"


def test_holding_back_undoes_the_last_action(table_for):
    t = auction_bidding(table_for)
    t.ctl.act({"type": "bid", "player": "Ann", "direction": "N", "amount": 100})
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
    t.ctl.handle(DieEvent("seat1.slot1", 3))  # a red die in Ann's first lane
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
    while t.ctl.entry.form["type"] != "wood":
        t.turn(+1)  # the first item is the move itself
    t.place("scan", "B1")
    t.lift("scan")
    t.place("scan", "BK")
    t.press("ok")
    t.press("ok")  # collecting wood ends Ann's turn: the second OK
    assert t.session.history()[-1].action == {"type": "wood", "player": "Ann", "extra": 1, "snake": True}
    assert t.session.public()["players"][0]["sick"]


def test_back_cycles_the_screens_when_nothing_is_being_entered(table_for):
    t = table_for("pocket-galapagos", ["Ann"])
    seen = []
    for _ in range(len(screens.cycle("pocket-galapagos")) + 1):
        seen.append(t.ctl.frame_name(t.session.public(), t.ctl.context()))
        t.press("back")
    assert seen == ["populations", "populations", "prompt", "qr", "course"]


def test_the_sand_timer_running_out_on_another_thread_while_the_table_is_busy_does_not_freeze_the_game(table_for):
    """The session journals the expiry from its own alarm thread and tells the controller
    while it holds its own lock; meanwhile the table's loop holds the controller and reads
    the session. Both must go on (the walkthrough met a frozen game exactly like this)."""
    import threading
    import time

    t = dice_planning(table_for)
    t.ctl.handle(DieEvent("seat1.slot1", 3))  # a red die in Ann's first lane
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


def test_a_device_that_stops_answering_is_on_the_oled_until_it_is_back(table_for):
    from hw.events import StatusEvent

    t = table_for("pocket-galapagos", ["Ann"])
    t.ctl.handle(StatusEvent("bridge", False, "bridge lost"))
    assert t.ctl.message == "bridge lost"
    assert t.ctl.frame_name(t.session.public(), t.ctl.context()) == "error"
    t.mono.advance(10)
    t.ctl.tick()
    assert t.ctl.message == "bridge lost"  # still down: still said
    t.ctl.handle(StatusEvent("bridge", True))
    t.mono.advance(10)
    t.ctl.tick()
    assert t.ctl.message is None and not t.ctl.failing


def test_a_sentence_held_for_a_minute_outlasts_its_reading_time_and_then_goes(table_for):
    """What start-up found (a game that could not be resumed) is held a minute on the OLED, not the few
    seconds a refusal gets."""
    t = table_for("pocket-galapagos", ["Ann"])
    t.ctl.refuse("Game 1 could not be resumed", seconds=60)
    assert t.devices.beeper.played[-1] == "error"
    t.mono.advance(59)
    t.ctl.tick()
    assert t.ctl.message == "Game 1 could not be resumed"
    assert t.ctl.frame_name(t.session.public(), t.ctl.context()) == "error"
    t.mono.advance(1.5)
    t.ctl.tick()
    assert t.ctl.message is None


def test_dice_left_in_the_lanes_count_at_the_sands_end_and_one_undo_takes_them_back_with_it(table_for):
    """Seed 002: "Any dice not on a player's set up area cannot be used": those on it can."""
    t = dice_planning(table_for)
    t.ctl.handle(DieEvent("seat1.slot1", 3))  # red in Ann's lane
    t.press("seat1")  # Ann is done first: the sand turns
    t.ctl.handle(DieEvent("seat2.slot1", 6))  # blue in Bob's lane; Bob never presses
    t.mono.advance(31.0)
    t.wall.advance(31.0)
    t.ctl.tick()
    history = t.session.history()
    assert [e.action for e in history[-2:]] == [{"type": "plan", "player": "Bob", "dice": ["blue"]}, {"type": "timer_expired"}]
    assert history[-2].source == "lanes"
    t.ctl.handle(ButtonEvent("back", "hold"))  # one undo: Ann's plan, Bob's lanes and the expiry
    assert [e.action["type"] for e in t.session.history()][-1] == "place_turtles"
    t.ctl.tick()
    assert [e.action["type"] for e in t.session.history()][-1] == "place_turtles"  # nothing journaled again


def test_the_dial_cycles_to_the_course(table_for) -> None:
    """Back with nothing being entered cycles the screens; the last is the course, fed by the game so far."""
    t = table_for("pocket-galapagos", ["Ann"])
    for action in [{"type": "ocean", "species": "rat", "icons": 2, "mode": "inhabit"}]:
        t.session.act(action, "cli")
    while t.ctl.screen != "course":
        t.press("back")
    ctx = t.ctl.context()
    assert ctx.data["course"]["label"] == "Lowest population"
    assert t.ctl.frame_name(t.session.public(), ctx) == "course"


def test_a_card_that_refuses_the_write_says_so_on_the_oled_not_as_a_refused_move(table_for):
    """A storage failure is no refusal of the rules: the board says the card's sentence where refusals go,
    with the error beep, and nothing changed; the same move goes through once the card takes writes."""
    t = auction_bidding(table_for)
    journal, version = t.session.journal, t.session.version
    journal.readonly = True  # what Journal does on a card that is full or read-only
    try:
        assert t.ctl.act({"type": "bid", "player": "Ann", "direction": "N", "amount": 500}) is False
    finally:
        journal.readonly = False
    assert t.ctl.message == NOT_RECORDED and t.devices.beeper.played[-1] == "error"
    assert t.session.version == version
    assert t.ctl.act({"type": "bid", "player": "Ann", "direction": "N", "amount": 500}) is True
    assert t.session.version == version + 1


def test_the_presenter_draws_on_its_own_with_the_move_it_is_handed(tmp_path):
    """The OLED's side owns what is on screen: a refusal is drawn as the error frame until its time is up,
    then the game's own screen, with no controller around it; the entry it draws is the one it is handed."""
    clock = FakeClock(10.0)
    session = Session.new(Journal(tmp_path / "p.db"), "pocket-galapagos", ["Ann"], clock=clock, wall=clock)
    oled = open_oled("dummy")
    presenter = OledPresenter(session, oled, beeper=Beeper(None), clock=clock)
    presenter.refuse("Not now")
    assert presenter.refresh(None) and presenter.frame_name(session.public(), presenter.context(None)) == "error"
    error_frame = oled.frame.tobytes()
    clock.advance(presenter.message_seconds + 60)
    assert presenter.expire() and presenter.message is None
    assert presenter.refresh(None) and oled.frame.tobytes() != error_frame
    assert presenter.frame_name(session.public(), presenter.context(None)) != "error"
    assert presenter.heading(None) == "" and presenter.question(None) == ""
