"""A finished game for BG Stats (https://www.bgstatsapp.com), the scorekeeping app: its link and its file.

- **The link** (``https://app.bgstatsapp.com/createPlay.html?data=…``), BG Stats' documented way for
  another app to hand it one play: the game by name (no BoardGameGeek id: BG Stats asks once and
  remembers the match), each player's score, who won, the start player, the rank, the date and the
  duration in minutes (from the game's creation to its end, as the journal's clock has them).
- **The file** (``.bgsplay``): BG Stats opens a JSON file of players, games and plays that it also
  writes itself when a play is shared. No published specification of it was found (the search of
  public docs gave only a file BG Stats wrote, with its ``about``, ``players``, ``locations`` and
  ``games`` parts); :func:`play_file` follows that file's shape and names, with each play's
  ``playerScores`` referring to its players by id. It is offered beside the link, never instead.

Ranks: the winners first (a shared win ranks every winner 1), then by score, equal scores sharing a rank.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any
from urllib.parse import quote

SOURCE = "Galapagos Table Companion"
#: the namespace of the stable uuids a file gives its players, games and plays (the same game, the same uuids)
NAMESPACE = uuid.UUID("6f1c2b7e-5a8d-4c1e-9b3a-25c0de9a1f25")


def _when(ts: float | None) -> str:
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M:%S") if ts else ""


def ranks(rec: Any) -> dict[str, int]:
    """Each player's rank in ``rec``: the winners 1, the others after them by score."""
    result = rec.result or {}
    scores = result.get("scores") or {}
    winners = set(result.get("winners") or [])

    def key(n: str) -> tuple[int, float]:
        s = scores.get(n)
        return (0 if n in winners else 1, -(s if isinstance(s, int | float) else 0))

    ordered = sorted(rec.players, key=key)
    return {n: 1 + sum(1 for m in ordered if key(m) < key(n)) for n in rec.players}


def duration(rec: Any) -> int:
    """Minutes from the game's start to its end (at least 1)."""
    return max(1, round(((rec.finished or rec.created) - rec.created) / 60))


def link(rec: Any, title: str) -> str:
    """The createPlay link for one finished game (``title``: the game's name)."""
    return "https://app.bgstatsapp.com/createPlay.html?data=" + quote(json.dumps(play_data(rec, title),
                                                                                separators=(",", ":")))


def play_data(rec: Any, title: str) -> dict[str, Any]:
    """The createPlay data of one finished game: the link's, and the club's results."""
    result = rec.result or {}
    scores = result.get("scores") or {}
    winners = set(result.get("winners") or [])
    rank = ranks(rec)
    players = [{"name": n, "score": scores.get(n, 0), "winner": n in winners, "startPlayer": i == 0,
                "rank": rank[n], "sourcePlayerId": n} for i, n in enumerate(rec.players)]
    data = {
        "sourceName": SOURCE,
        "game": {"name": title, "highestWins": True, "noPoints": False, "sourceGameId": rec.game},
        "players": players,
        "playDate": _when(rec.created),
        "durationMin": duration(rec),
        "comments": result.get("text") or "",
    }
    return data


def play_file(records: list[Any], title_of: Any, cooperative: Any = lambda game: False) -> dict[str, Any]:
    """Finished games as one BG Stats play file: ``{"about", "players", "locations", "games", "plays"}``."""
    def uid(*parts: str) -> str:
        return str(uuid.uuid5(NAMESPACE, "/".join(parts)))

    names: list[str] = []
    kinds: list[str] = []
    for rec in records:
        names += [n for n in rec.players if n not in names]
        kinds += [rec.game] if rec.game not in kinds else []
    player_id = {n: i + 1 for i, n in enumerate(names)}
    game_id = {g: i + 1 for i, g in enumerate(kinds)}
    stamp = _when(max((r.finished or r.created) for r in records)) if records else ""
    plays = []
    for rec in records:
        result = rec.result or {}
        scores = result.get("scores") or {}
        winners = set(result.get("winners") or [])
        rank = ranks(rec)
        plays.append({
            "uuid": uid("play", rec.id), "modificationDate": _when(rec.finished), "entryDate": _when(rec.finished),
            "playDate": _when(rec.created), "durationMin": duration(rec), "usesTeams": False, "ignored": False,
            "manualWinner": False, "rounds": 0, "gameRefId": game_id[rec.game], "board": "",
            "comments": result.get("text") or "",
            "playerScores": [{"playerRefId": player_id[n], "score": str(scores.get(n, "")), "winner": n in winners,
                              "startPlayer": i == 0, "seatOrder": i, "rank": rank[n], "newPlayer": False,
                              "role": "", "team": ""} for i, n in enumerate(rec.players)],
        })
    return {
        "about": "A play file for Board Game Stats, written by the Galapagos Table Companion: open it with "
                 "BG Stats (share, export or open-in) to import its plays.",
        "players": [{"uuid": uid("player", n), "id": player_id[n], "name": n, "isAnonymous": False,
                     "modificationDate": stamp, "bggUsername": ""} for n in names],
        "locations": [],
        "games": [{"uuid": uid("game", g), "id": game_id[g], "name": title_of(g), "modificationDate": stamp,
                   "cooperative": bool(cooperative(g)), "highestWins": True, "noPoints": False, "usesTeams": False,
                   "sourceGameId": g} for g in kinds],
        "plays": plays,
    }
