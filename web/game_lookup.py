"""The game a request names: its session (or one sentence why not), and the seats its phones hold.

Shared by every blueprint that serves a game (the API, the pages, joining, drafts, the course);
none of them imports another for it.
"""

from __future__ import annotations

import sqlite3

from companion.engine.jsoncheck import clean
from companion.table.rows import UnknownGame
from companion.table.session import Session
from web.context import dashboard
from web.validate import ApiError


def open_game(game_id: str) -> Session:
    try:
        return dashboard().hub.session(game_id)
    except UnknownGame:
        raise ApiError(404, "There is no game {game}.", params={"game": repr(clean(game_id))}) from None
    # a game the journal cannot read or replay is a storage failure: the app's one answer (409, this game only)


def claimed_seats(game_id: str) -> list[str]:
    """The seats held by a phone; none readable (a read-only card) means none: the write is refused anyway."""
    try:
        return dashboard().seats.claimed(game_id)
    except sqlite3.DatabaseError:
        return []
