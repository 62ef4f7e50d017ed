"""Starting a game from the buttons alone: no game on the table, no phone.

The lobby runs on luma.core's dummy OLED and starts games through a real session on a
real SQLite journal; the last test drives the composition root with simulated devices.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import games
from companion.board.lobby import TableLobby
from companion.table.journal import Journal
from companion.table.session import Session
from hw.events import ButtonEvent, EncoderEvent
from hw.oled import open_oled
from tests.support.clock import FakeClock


class Lobby:
    def __init__(self, tmp_path: Path, lang: str = "en"):
        self.journal = Journal(tmp_path / "lobby.db")
        self.started: list[Session] = []
        self.clock = FakeClock(10.0)
        self.lobby = TableLobby(open_oled("dummy"), self.start, lang=lang, clock=self.clock)

    def start(self, game, players, options):
        session = Session.new(self.journal, game, players, options)
        self.started.append(session)
        return session

    def press(self, name):
        self.lobby.handle(ButtonEvent(name))

    def turn(self, delta):
        self.lobby.handle(EncoderEvent(delta))

    def to_game(self, game_id):
        for _ in range(len(games.ids())):
            if self.lobby.game == game_id:
                return
            self.turn(1)
        raise AssertionError(game_id)


@pytest.fixture
def lob(tmp_path):
    t = Lobby(tmp_path)
    yield t
    t.journal.close()


def test_every_installed_game_can_be_chosen_with_its_player_count(lob):
    seen = []
    for _ in games.ids():
        data = lob.lobby.data()
        seen.append(lob.lobby.game)
        rules = games.get(lob.lobby.game)
        assert data["players_range"] == (rules.min_players, rules.max_players)
        lob.turn(1)
    assert sorted(seen) == sorted(games.ids())


def test_the_dial_picks_the_game_and_the_count_and_ok_starts_it(lob):
    lob.to_game("galerapagos")
    lob.press("ok")
    assert lob.lobby.stage == "players" and lob.lobby.count == 4  # the example table
    lob.turn(+1)
    lob.turn(+1)
    assert lob.lobby.count == 6
    lob.press("ok")
    (session,) = lob.started
    assert session.game == "galerapagos"
    assert session.players == [f"Seat {k}" for k in range(1, 7)]
    assert lob.journal.game(session.id).players == session.players
    assert not lob.lobby.active  # the game's screens take the OLED over


def test_the_count_stays_within_the_games_minimum_and_maximum(lob):
    lob.to_game("galapagos-dice")
    lob.press("ok")
    lob.turn(-10)
    assert lob.lobby.count == 2
    lob.turn(+10)
    assert lob.lobby.count == 4


def test_the_seat_buttons_count_who_joins(lob):
    lob.to_game("galapagos-auction")
    lob.press("ok")
    for seat in (1, 2, 3, 4):
        lob.press(f"seat{seat}")
    lob.press("seat4")  # pressed again: he leaves
    assert lob.lobby.count == 3
    lob.press("ok")
    assert lob.started[0].players == ["Seat 1", "Seat 2", "Seat 3"]


def test_joined_seats_with_a_gap_are_refused_in_one_sentence_and_nothing_starts(lob):
    lob.to_game("galapagos-auction")
    lob.press("ok")
    lob.press("seat1")
    lob.press("seat3")
    lob.press("ok")
    assert lob.started == []
    assert lob.lobby.message == "Seat 2 has nobody: the players sit at seats 1 to 2, in order."
    assert lob.lobby.frame()[0] == "error"


def test_more_seats_than_the_game_takes_are_refused(lob):
    lob.to_game("galapagos-dice")
    lob.press("ok")
    for seat in range(1, 6):
        lob.press(f"seat{seat}")
    assert lob.lobby.count == 4 and lob.lobby.message == "Galapagos (dice) takes at most 4 players."


def test_back_shows_the_phones_qr_code_and_comes_back(lob):
    lob.press("back")
    assert lob.lobby.frame()[0] == "qr"
    lob.press("back")
    assert lob.lobby.frame()[0] == "lobby"


def test_a_refused_start_says_why_and_keeps_the_lobby(tmp_path):
    t = Lobby(tmp_path)

    def refuse(game, players, options):
        from companion.engine.rules import RuleError

        raise RuleError("The journal is full.")

    t.lobby.start = refuse
    t.press("ok")
    t.press("ok")
    assert t.lobby.message == "The journal is full." and t.lobby.active and t.lobby.stage == "players"
    t.journal.close()


def test_the_buttons_alone_put_a_game_on_the_table(tmp_path):
    """Through the composition root: no game, two OKs, and the table's controller plays it."""
    from companion.board.config import Config
    from companion.cli.app import build

    companion = build(Config(), tmp_path / "journal.db", sim=True, port=0)
    try:
        companion.open_devices()
        companion.resume()
        assert companion.controller is None
        for _ in range(len(games.ids())):
            if companion.lobby().game == "pocket-galapagos":
                break
            companion._device_event(EncoderEvent(1))
        companion._device_event(ButtonEvent("ok"))
        companion._device_event(ButtonEvent("ok"))
        assert companion.controller is not None and companion.hub.current is not None
        session = companion.controller.session
        assert session.game == "pocket-galapagos" and session.players == ["Seat 1"]
    finally:
        companion.close()


def test_what_start_up_found_stays_on_the_screen_until_read(lob):
    lob.lobby.say("The journal was damaged; 3 games were recovered.", 60.0)
    lob.lobby.show()
    assert lob.lobby.frame()[0] == "error"
    lob.clock.advance(30)
    lob.lobby.tick()
    assert lob.lobby.frame()[0] == "error"
    lob.clock.advance(31)
    lob.lobby.tick()
    assert lob.lobby.frame()[0] == "lobby"
