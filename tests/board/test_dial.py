"""The dial's order and its second OK, on a real session with luma.core's dummy OLED.

The dial's first item is the rulebook's next step, never an override; OK on a
move that spends money, ends the turn or overrides the flow asks a second OK with what it
will do (an override's own question); Back cancels and nothing is sent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.board.controller import TableController
from companion.engine import moves
from companion.table.journal import Journal
from companion.table.session import Session
from hw.events import ButtonEvent, EncoderEvent
from hw.oled import open_oled
from tests.board.test_dial_frames import dial_to
from tests.support.clock import FakeClock

GALERAPAGOS = [{"type": "weather", "water": 2, "hurricane": False}]
ASK = "Correct the flow: Ann searches the wreck out of turn?"


def table(tmp_path: Path, game: str, players: list[str], actions=(), lang: str = "en") -> TableController:
    clock = FakeClock(100.0)
    session = Session.new(Journal(tmp_path / "dial.db"), game, players, {}, clock=clock, wall=clock)
    for action in actions:
        session.act(action)
    return TableController(session, open_oled("dummy"), clock=clock, lang=lang)


def press(ctl: TableController, name: str) -> None:
    ctl.handle(ButtonEvent(name))


@pytest.fixture
def marked(monkeypatch):
    """The Galèrapagos package with some of its real forms marked as overrides (the package's
    own ``moves`` then orders them last), as the lead's step marking does."""
    from companion import games

    pkg = games.package("galerapagos")
    real = type(pkg).moves

    def mark(kinds):
        def fake(self, state, lang="en"):
            out = real(self, state, lang)
            for f in out:
                if f["type"] in kinds:
                    moves.override(f, ASK)
            return moves.ordered(out)

        monkeypatch.setattr(type(pkg), "moves", fake)

    return mark


def test_the_dial_starts_on_the_first_next_form_and_never_on_an_override(tmp_path, marked):
    marked({"fish"})  # the package's first form, made an override: it goes last
    ctl = table(tmp_path, "galerapagos", ["Ann", "Bob", "Cy"], GALERAPAGOS)
    listed = ctl.package.moves(ctl.session.state)
    assert listed[-1]["type"] == "fish" and listed[-1]["step"] == "override"
    first_next = next(f for f in listed if f["step"] == "next")
    assert (ctl.entry.form["type"], ctl.entry.form["player"]) == (first_next["type"], first_next["player"])
    steps = [moves.step_of(f) for f in ctl.entry.forms]
    assert steps == sorted(steps, key=moves.STEPS.index)


def test_with_only_overrides_the_dial_rests_on_none_and_a_turn_reaches_them(tmp_path, marked):
    marked({"fish", "water", "wood", "search", "resource", "shoot", "give", "place", "sick"})
    ctl = table(tmp_path, "galerapagos", ["Ann", "Bob", "Cy"], GALERAPAGOS)
    assert ctl.entry is None and ctl.overrides
    press(ctl, "ok")  # OK on nothing sends nothing
    assert ctl.session.version == 1
    ctl.handle(EncoderEvent(1))
    assert ctl.entry is not None and ctl.entry.form["step"] == "override"


def test_an_override_asks_its_own_question_before_it_is_sent(tmp_path, marked):
    marked({"search"})
    ctl = table(tmp_path, "galerapagos", ["Ann", "Bob", "Cy"], GALERAPAGOS)
    dial_to(ctl, "search")
    press(ctl, "ok")
    assert ctl.session.version == 1 and ctl.question() == ASK
    assert ctl.frame_name(ctl.session.public(), ctl.context()) == "confirm"
    press(ctl, "ok")
    assert ctl.session.version == 2 and ctl.session.history()[-1].action == {"type": "search", "player": "Ann"}


def test_ok_on_a_move_that_ends_the_turn_asks_and_back_cancels(tmp_path):
    ctl = table(tmp_path, "galerapagos", ["Ann", "Bob", "Cy"], GALERAPAGOS)
    dial_to(ctl, "search")
    assert ctl.entry.form.get("ends_turn")
    before = ctl.oled.frame.tobytes()
    press(ctl, "ok")
    assert ctl.session.version == 1, "one OK must not end Ann's turn"
    assert ctl.question().startswith("Ann") and ctl.question().endswith((".", "?"))
    assert ctl.oled.frame.tobytes() != before  # the question is on the screen
    press(ctl, "back")
    assert ctl.session.version == 1 and ctl.entry.confirming is None
    assert ctl.entry.form["type"] == "search"  # the entry stays as dialled
    assert ctl.frame_name(ctl.session.public(), ctl.context()) != "confirm"
    press(ctl, "ok")
    press(ctl, "ok")
    assert ctl.session.history()[-1].action == {"type": "search", "player": "Ann"}


def test_turning_the_dial_while_ok_waits_drops_the_question(tmp_path):
    ctl = table(tmp_path, "pocket-galapagos", ["Ann"])
    dial_to(ctl, "end_turn")
    press(ctl, "ok")
    assert ctl.question()
    ctl.handle(EncoderEvent(1))
    assert ctl.question() == "" and ctl.entry.form["type"] != "end_turn"
    press(ctl, "ok")  # OK on another move now, not the end of the turn
    assert all(c.action.get("type") != "end_turn" for c in ctl.session.history())


def test_a_move_that_neither_spends_nor_ends_the_turn_goes_on_one_ok(tmp_path):
    ctl = table(tmp_path, "pocket-galapagos", ["Ann"])
    dial_to(ctl, "ocean")
    form = ctl.entry.form
    assert not (form.get("confirm") or form.get("ends_turn"))
    press(ctl, "down")
    ctl.handle(EncoderEvent(1))
    press(ctl, "ok")
    while ctl.session.version == 0 and ctl.entry and ctl.entry.missing() is not None:
        ctl.handle(EncoderEvent(1))
        press(ctl, "ok")
    assert ctl.question() == ""


def test_a_long_story_stays_until_it_has_scrolled_through(tmp_path):
    ctl = table(tmp_path, "galerapagos", ["Ann", "Bob", "Cy"], GALERAPAGOS)
    from companion.board import screens

    long = "Gus draws a snake and falls sick: no extra wood. Dan dies of thirst. Deal Dan's 4 cards: 2 to Ann, 2 to Cleo."
    assert screens.reading_seconds(long) > ctl.message_seconds
    dial_to(ctl, "search")
    press(ctl, "ok")
    press(ctl, "ok")
    told = ctl.toast
    assert told and ctl._toast_until - ctl.clock() >= max(ctl.message_seconds, screens.reading_seconds(told))


def test_acting_for_a_seat_played_on_a_phone_is_an_override_that_asks(tmp_path):
    clock = FakeClock(100.0)
    session = Session.new(Journal(tmp_path / "phones.db"), "galerapagos", ["Ann", "Bob", "Cy"], {}, clock=clock, wall=clock)
    session.act(GALERAPAGOS[0])
    ctl = TableController(session, open_oled("dummy"), clock=clock, phone_seats=lambda: ["Ann"])
    assert ctl.entry.form["player"] != "Ann" and moves.step_of(ctl.entry.form) != "override"
    anns = [f for f in ctl.entry.forms if f.get("player") == "Ann"]
    assert anns and all(f["step"] == "override" for f in anns)
    dial_to(ctl, "search")
    assert ctl.entry.form["player"] == "Ann"
    press(ctl, "ok")
    assert ctl.question() == "Ann plays on a phone: act for Ann from the table?" and session.version == 1
    press(ctl, "ok")
    assert session.history()[-1].action == {"type": "search", "player": "Ann"}


def test_a_phones_secret_vote_is_never_on_the_dial(tmp_path):
    """A vote is offered to the table for a seat without a phone, never for a phone's seat."""
    import json

    lines = [json.loads(x) for x in (Path(__file__).parents[1] / "scenarios" / "galerapagos_review_5p.jsonl").read_text().splitlines() if x.strip()]
    header, actions = lines[0], lines[1:15]  # up to the first vote
    clock = FakeClock(100.0)
    session = Session.new(Journal(tmp_path / "vote.db"), header["game"], header["players"], header.get("options", {}),
                          clock=clock, wall=clock)
    for action in actions:
        session.act(action)
    ctl = TableController(session, open_oled("dummy"), clock=clock)
    voters = {f["player"] for f in ctl.entry.forms if f["type"] == "vote"}
    assert "Ann" in voters  # no phone: the table dials Ann's vote
    ctl.phone_seats = lambda: ["Ann"]
    ctl._rebuild_entry(reset=True)
    offered = ctl.entry.forms if ctl.entry else ctl.overrides
    assert not any(f["type"] == "vote" and f["player"] == "Ann" for f in offered)
    assert any(f["type"] == "vote" and f["player"] != "Ann" for f in offered)


def test_a_seat_whose_only_moves_are_overrides_keeps_them_on_its_button(tmp_path, marked):
    marked({"fish", "water", "wood", "search", "resource", "shoot", "give", "place", "sick"})
    ctl = table(tmp_path, "galerapagos", ["Ann", "Bob", "Cy"], GALERAPAGOS)
    press(ctl, "seat1")
    assert ctl.player == "Ann" and ctl.message is None and ctl.entry is None
    ctl.handle(EncoderEvent(1))
    assert ctl.entry.form["player"] == "Ann" and ctl.entry.form["step"] == "override"


def test_the_toast_tells_the_new_entry_from_the_sessions_own_states_without_replaying(tmp_path, monkeypatch):
    """The OLED's toast is the narration of the action just accepted, from the states the
    session computed for it; the journal is not replayed (story.told) after every action."""
    from companion import games
    from companion.table import story

    ctl = table(tmp_path, "galerapagos", ["Ann", "Bob", "Cy"], GALERAPAGOS)
    replays: list[str] = []
    monkeypatch.setattr(story, "told", lambda *a, **k: replays.append("told") or [])
    dial_to(ctl, "search")
    press(ctl, "ok")
    press(ctl, "ok")
    entries = ctl.session.history()
    assert replays == [] and ctl.toast
    pkg = games.package("galerapagos")
    rules = pkg.rules
    before = rules.setup(ctl.session.players, ctl.session.options)
    for entry in entries[:-1]:
        before, _ = rules.apply(before, entry.action)
    after, events = rules.apply(before, entries[-1].action)
    assert ctl.toast == " ".join(story.sentences_of(pkg, before, entries[-1].action, events, after))
