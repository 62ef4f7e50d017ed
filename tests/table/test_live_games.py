"""The table's live games and « the current game » belong to the table (companion.table.live), not to web/."""

from __future__ import annotations

from pathlib import Path

from companion.table.journal import Journal
from companion.table.live import GAMES, LiveGames
from companion.table.session import Session


def test_the_current_game_is_told_to_its_followers_without_any_web_layer(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        games = LiveGames(journal)
        followed: list[str | None] = []
        told: list[str] = []
        games.on_current(lambda s: followed.append(s.id if s else None))
        games.on_change(told.append)
        session = games.new("pocket-galapagos", ["Ann"], {})
        assert told == [GAMES]
        assert games.set_current(session.id) is games.session(session.id)
        assert games.current == session.id and followed == [session.id]
        session.act({"type": "end_turn"})
        assert session.id in told  # a move wakes the game's channel
        games.set_current(None)
        assert followed == [session.id, None] and games.current_session() is None


def test_poll_picks_up_another_process_only_for_a_game_someone_follows(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    with Journal(db) as journal:
        games = LiveGames(journal)
        watched = games.new("pocket-galapagos", ["Ann"], {})
        unwatched = games.new("pocket-galapagos", ["Bob"], {})
        games.watch(lambda gid: gid == watched.id)
        with Journal(db) as other:  # a `companion act` from a shell
            for gid in (watched.id, unwatched.id):
                Session.open(other, gid).act({"type": "end_turn"})
        games.poll()
        assert len(watched.history()) == 1
        assert len(unwatched.history()) == 0  # nobody follows it: not replayed on every tick


def test_the_poller_sleeps_until_the_journal_is_written_then_picks_it_up(tmp_path: Path) -> None:
    """No wake-up while nobody writes (a Pi at rest); another process's action is on the table at once."""
    import threading
    import time

    db = tmp_path / "j.db"
    with Journal(db) as journal:
        games = LiveGames(journal)
        session = games.new("pocket-galapagos", ["Ann"], {})
        games.set_current(session.id)
        polls: list[float] = []
        real_poll = games.poll
        games.poll = lambda: (polls.append(time.monotonic()), real_poll())[1]  # type: ignore[method-assign]
        told = threading.Event()
        games.on_change(lambda channel: told.set() if channel == session.id else None)
        before = set(threading.enumerate())
        games.start(interval=0.05)
        (poller,) = [t for t in set(threading.enumerate()) - before if t.name == "hub-poll"]
        try:
            time.sleep(1.0)
            assert polls == []  # nothing written: the journal was not asked twenty times
            (tmp_path / "unrelated.txt").write_text("x")  # another file of the folder (a backup, the secret)
            time.sleep(0.3)
            assert polls == []
            with Journal(db) as other:  # a `companion act` from a shell
                Session.open(other, session.id).act({"type": "end_turn"})
            assert told.wait(5.0), "the other process's action was not picked up"
            assert len(session.history()) == 1 and polls
        finally:
            games.stop()
            games.join(2.0)
        assert not poller.is_alive()  # stop ends the wait at once


def test_without_inotify_the_poller_asks_the_journal_at_its_interval(tmp_path: Path, monkeypatch) -> None:
    import time

    from companion.table import journal_watch

    monkeypatch.setattr(journal_watch, "watch", lambda path: None)  # another system, or no inotify instance left
    db = tmp_path / "j.db"
    with Journal(db) as journal:
        games = LiveGames(journal)
        session = games.new("pocket-galapagos", ["Ann"], {})
        games.set_current(session.id)
        games.start(interval=0.05)
        try:
            with Journal(db) as other:
                Session.open(other, session.id).act({"type": "end_turn"})
            deadline = time.monotonic() + 5
            while not session.history() and time.monotonic() < deadline:
                time.sleep(0.02)
            assert len(session.history()) == 1
        finally:
            games.stop()
            games.join(2.0)
