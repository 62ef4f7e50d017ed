"""The journal file's schema, and the upgrades of a file written by an earlier version.

Each upgrade runs in one transaction at open: a power cut during it leaves the old tables
whole, and the next start upgrades again. (Upgrades of a *game's* lines to newer rules are
:mod:`companion.table.migrations`.)
"""

from __future__ import annotations

import logging
import sqlite3

from companion.table.authorship import from_legacy

log = logging.getLogger(__name__)


SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id        TEXT PRIMARY KEY,
    game      TEXT NOT NULL,
    players   TEXT NOT NULL,
    options   TEXT NOT NULL,
    created   REAL NOT NULL,
    finished  REAL,
    result    TEXT,
    rev       INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    game_id   TEXT NOT NULL REFERENCES games(id),
    seq       INTEGER NOT NULL,
    action    TEXT NOT NULL,
    source    TEXT NOT NULL DEFAULT '',
    at        REAL NOT NULL,
    status    TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'undone', 'discarded', 'replaced',
                                                              'removed', 'aside', 'reentered', 'dropped')),
    edit      INTEGER,
    origin    INTEGER,
    note      TEXT,
    author    TEXT,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS actions_status ON actions (game_id, status, seq);
CREATE TABLE IF NOT EXISTS edits (
    game_id   TEXT NOT NULL REFERENCES games(id),
    id        INTEGER NOT NULL,
    kind      TEXT NOT NULL CHECK (kind IN ('edit', 'remove', 'reenter', 'drop')),
    seq       INTEGER NOT NULL,
    source    TEXT NOT NULL DEFAULT '',
    at        REAL NOT NULL,
    author    TEXT,
    note      TEXT,
    PRIMARY KEY (game_id, id)
);
"""


#: the statuses of a journal from before edits (its ``actions`` table is rebuilt when opened)
_OLD_STATUSES = "CHECK (status IN ('active', 'undone', 'discarded'))"


def migrate_actions(db: sqlite3.Connection) -> None:
    """Rebuild a journal's ``actions`` table from before edits (SQLite cannot widen a CHECK in place).

    One transaction: a power cut during it leaves the old table whole, and the next
    start migrates again. Every row keeps its seq, time, source and status.
    """
    row = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'actions'").fetchone()
    if row is None or _OLD_STATUSES not in " ".join(str(row[0]).split()):
        return
    new_table = SCHEMA[SCHEMA.index("CREATE TABLE IF NOT EXISTS actions"):SCHEMA.index("CREATE INDEX")]
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("DROP TABLE IF EXISTS actions_migrating")
        db.execute(new_table.replace("IF NOT EXISTS actions", "actions_migrating", 1).strip().rstrip(";"))
        db.execute("INSERT INTO actions_migrating (game_id, seq, action, source, at, status) "
                   "SELECT game_id, seq, action, source, at, status FROM actions")
        db.execute("DROP TABLE actions")
        db.execute("ALTER TABLE actions_migrating RENAME TO actions")
        db.execute("CREATE INDEX IF NOT EXISTS actions_status ON actions (game_id, status, seq)")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    log.info("journal migrated: actions can now be edited and removed from the tablet")


def migrate_authors(db: sqlite3.Connection) -> None:
    """Give a journal from before authors its ``author`` column, filled once from each row's source text.

    The old texts are read as the old version read them (:func:`companion.table.authorship.from_legacy`);
    from then on nothing reads the source. One transaction: a power cut leaves the old rows whole.
    """
    if not any(r[1] == "note" for r in db.execute("PRAGMA table_info(edits)")):  # the story's corrections
        db.execute("ALTER TABLE edits ADD COLUMN note TEXT")
    missing = [table for table in ("actions", "edits")
               if not any(r[1] == "author" for r in db.execute(f"PRAGMA table_info({table})"))]
    todo = db.execute("SELECT 1 FROM actions WHERE author IS NULL LIMIT 1").fetchone() if not missing else True
    if not todo:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        for table in missing:
            db.execute(f"ALTER TABLE {table} ADD COLUMN author TEXT")
        for table in ("actions", "edits"):
            for (source,) in db.execute(f"SELECT DISTINCT source FROM {table} WHERE author IS NULL").fetchall():
                db.execute(f"UPDATE {table} SET author = ? WHERE author IS NULL AND source = ?",
                           (from_legacy(source).dumps(), source))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    log.info("journal migrated: every action records who sent it")
