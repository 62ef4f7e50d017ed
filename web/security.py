"""Who is asking: the table token, seat tokens, join codes, CSRF tokens and rate limits.

* The **table token** (printed at start, like Jupyter's) allows everything:
  starting games, table-wide actions, undo/redo, and acting for a seat whose
  player has no phone. It is derived from a secret kept beside the journal, so
  the printed URL and every phone's cookie survive a restart of the server.
* A **join code** (six digits, shown on the OLED and as a QR code) lets a phone
  claim a seat; the phone then holds that seat's **seat token** in a cookie.
  A seat is claimed once; the table can free it again. Only a hash of the seat
  token is stored.
* A **CSRF token** is an HMAC of the credential a cookie carries: pages send it
  back in ``X-CSRF-Token`` (or a ``csrf`` form field). Requests authenticated by
  an ``Authorization`` header or ``?token=`` need none: a foreign site can send
  neither.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.table.rows import JournalUnavailable

SEAT_SCHEMA = """
CREATE TABLE IF NOT EXISTS web_seats (
    game_id  TEXT NOT NULL,
    seat     TEXT NOT NULL,
    digest   TEXT NOT NULL,
    claimed  REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS web_codes (
    game_id  TEXT PRIMARY KEY,
    nonce    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS web_open_seats (
    game_id  TEXT NOT NULL,
    seat     TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
"""


def load_secret(path: Path) -> bytes:
    """The server's secret: created once (mode 0600) beside the journal, then reused."""
    try:
        text = path.read_text().strip()
        if len(text) >= 32:
            return bytes.fromhex(text)
    except (FileNotFoundError, ValueError):
        pass
    value = secrets.token_bytes(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(value.hex() + "\n")
    except OSError:  # a full or read-only card: this run's tokens last until it stops
        pass
    return value


@dataclass(frozen=True)
class Principal:
    """An authenticated caller: the table, or one seat of one game."""

    kind: str  # "table" | "seat"
    via: str  # "header" | "query" | "cookie"
    credential: str
    game_id: str | None = None
    seat: str | None = None

    @property
    def is_table(self) -> bool:
        return self.kind == "table"

    def viewer(self) -> str | None:
        """Whose secrets this caller may see (None: the table sees only public state)."""
        return self.seat if self.kind == "seat" else None

    def may_act_for(self, game_id: str, player: str | None) -> bool:
        """Table: anything. Seat: only its own player's actions in its own game."""
        if self.is_table:
            return True
        return self.game_id == game_id and player is not None and player == self.seat


class Keys:
    """Tokens derived from the server secret."""

    def __init__(self, secret: bytes, table_token: str | None = None,
                 nonces: Callable[[str], str] | None = None):
        self._secret = secret
        self.table_token = table_token or self._mac("table")[:32]
        #: the current join-code nonce of a game ("" until the table asked for a new code)
        self.nonces = nonces

    def _mac(self, text: str) -> str:
        return hmac.new(self._secret, text.encode(), hashlib.sha256).hexdigest()

    def is_table(self, token: str) -> bool:
        return hmac.compare_digest(token.encode(), self.table_token.encode())

    def join_code(self, game_id: str) -> str:
        """Six digits a player types (or scans) to join ``game_id``; a new code makes the old one useless."""
        nonce = self.nonces(game_id) if self.nonces is not None else ""
        text = "join:" + game_id + (":" + nonce if nonce else "")
        return f"{int(self._mac(text)[:12], 16) % 1_000_000:06d}"

    def csrf(self, credential: str) -> str:
        return self._mac("csrf:" + credential)[:32]

    def check_csrf(self, credential: str, sent: str | None) -> bool:
        return bool(sent) and hmac.compare_digest(self.csrf(credential).encode(), str(sent).encode())


#: a join-code nonce that starts so means the tablet closed joining for that game
CLOSED = "closed:"


class SeatStore:
    """Which seats are claimed, and the hash of each seat token (a table in the journal file)."""

    def __init__(self, path: Path):
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=30)
            self._db.executescript(SEAT_SCHEMA)
        except sqlite3.OperationalError:  # a read-only card: seats can be read, not claimed
            uri = Path(path).resolve().as_uri() + "?mode=ro"
            self._db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=30)

    def _write(self, sql: str, params: tuple) -> sqlite3.Cursor:
        """One write; a full or read-only card is :class:`JournalUnavailable` (nothing changed)."""
        try:
            return self._db.execute(sql, params)
        except sqlite3.IntegrityError:
            raise
        except sqlite3.OperationalError as exc:
            raise JournalUnavailable(str(exc)) from None

    @staticmethod
    def _digest(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    def claim(self, game_id: str, seat: str) -> str | None:
        """A new token for ``seat``, or None when a phone already holds it."""
        token = f"s.{game_id}.{secrets.token_urlsafe(24)}"
        with self._lock:
            try:
                self._write(
                    "INSERT INTO web_seats (game_id, seat, digest, claimed) VALUES (?, ?, ?, ?)",
                    (game_id, seat, self._digest(token), time.time()),
                )
            except sqlite3.IntegrityError:
                return None
        return token

    def release(self, game_id: str, seat: str) -> bool:
        with self._lock:
            cur = self._write("DELETE FROM web_seats WHERE game_id = ? AND seat = ?", (game_id, seat))
            if cur.rowcount > 0:  # the table freed it for another phone: that is its consent
                self._write("INSERT OR IGNORE INTO web_open_seats (game_id, seat) VALUES (?, ?)", (game_id, seat))
        return cur.rowcount > 0

    def seat_of(self, token: str) -> tuple[str, str] | None:
        """``(game_id, seat)`` for a valid seat token, else None."""
        parts = token.split(".")
        if len(parts) != 3 or parts[0] != "s":
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT game_id, seat FROM web_seats WHERE game_id = ? AND digest = ?",
                (parts[1], self._digest(token)),
            ).fetchone()
        return (row[0], row[1]) if row else None

    def code_nonce(self, game_id: str) -> str:
        """The game's join-code nonce ("" for the first code)."""
        with self._lock:
            try:
                row = self._db.execute("SELECT nonce FROM web_codes WHERE game_id = ?", (game_id,)).fetchone()
            except sqlite3.OperationalError:  # a read-only journal from before join-code renewal
                return ""
        return row[0] if row else ""

    def new_code(self, game_id: str) -> None:
        """Give ``game_id`` a new join code (the old one stops opening the game)."""
        with self._lock:
            self._write("INSERT OR REPLACE INTO web_codes (game_id, nonce) VALUES (?, ?)",
                        (game_id, secrets.token_hex(8)))

    def close_joining(self, game_id: str) -> None:
        """The tablet closes joining: the game's code opens nothing (a new code opens it again)."""
        with self._lock:
            self._write("INSERT OR REPLACE INTO web_codes (game_id, nonce) VALUES (?, ?)",
                        (game_id, CLOSED + secrets.token_hex(8)))

    def joining_closed(self, game_id: str) -> bool:
        return self.code_nonce(game_id).startswith(CLOSED)

    def open_seat(self, game_id: str, seat: str) -> None:
        """The table lets a phone take ``seat`` although the tablet has played it."""
        with self._lock:
            self._write("INSERT OR IGNORE INTO web_open_seats (game_id, seat) VALUES (?, ?)", (game_id, seat))

    def is_open(self, game_id: str, seat: str) -> bool:
        with self._lock:
            try:
                row = self._db.execute("SELECT 1 FROM web_open_seats WHERE game_id = ? AND seat = ?",
                                       (game_id, seat)).fetchone()
            except sqlite3.OperationalError:  # a read-only journal from before consent existed
                return False
        return row is not None

    def claimed(self, game_id: str) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT seat FROM web_seats WHERE game_id = ?", (game_id,)).fetchall()
        return [r[0] for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


class RateLimiter:
    """At most ``limit`` attempts per ``window`` seconds per key (the client's address).

    Joins :meth:`forgive` a try that worked, so only wrong codes count: the limit is
    there against guessing, not against a table of phones behind one address.
    """

    def __init__(self, limit: int = 10, window: float = 60.0, clock=time.monotonic):
        self.limit, self.window, self._clock = limit, window, clock
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> float:
        """0 when allowed (and counted); otherwise the seconds to wait."""
        now = self._clock()
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return max(0.1, hits[0] + self.window - now)
            hits.append(now)
            if len(self._hits) > 10_000:  # forget idle clients; bounded memory
                for k in [k for k, v in self._hits.items() if not v]:
                    del self._hits[k]
            return 0.0

    def blocked(self, key: str) -> float:
        """The seconds ``key`` must wait (0: it may try), without counting a try."""
        now = self._clock()
        with self._lock:
            hits = self._hits.get(key)
            if not hits:
                return 0.0
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            return max(0.1, hits[0] + self.window - now) if len(hits) >= self.limit else 0.0

    def clear(self, key: str) -> None:
        """Forget every attempt of ``key`` (a fresh start after the codes were renewed)."""
        with self._lock:
            self._hits.pop(key, None)

    def forgive(self, key: str) -> None:
        """Take back the newest attempt of ``key`` (it succeeded)."""
        with self._lock:
            hits = self._hits.get(key)
            if hits:
                hits.pop()
