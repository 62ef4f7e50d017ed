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
