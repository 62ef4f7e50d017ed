"""``companion league``: every table's results, kept once each, and the standings across tables.

It subscribes to ``galapagos/+/results`` with a persistent session (QoS 1, ``clean_session`` off), so the
broker keeps what the tables send while the league is away, and it stores each result by its table and
its id (the game's id, random per table; the table is the topic's, which the broker's ACL lets only that
table publish under): a table's messages reach only its own results. The same result received twice counts once, a newer revision of it (an
undo and a different end) replaces it, a withdrawn one stops counting. SQLite by default, PostgreSQL
(psycopg 3) for a ``postgresql://`` URL.

Standings: per game and overall, per player: played, won, points (the game's own scores added up); and
the tournaments (a game's ``match_totals`` over its manches, per table and match), in each scoring mode
the game offers.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion import games
from companion.club import intake
from companion.club.settings import parse_url

log = logging.getLogger(__name__)

TOPIC = "galapagos/+/results"
#: each game's result, retained for good (a league started after the games still reads them all)
ARCHIVE = "galapagos/+/results/+"
#: each result is keyed by its table and its game's id: a table's messages reach only its own results
SQL = """CREATE TABLE IF NOT EXISTS league_games (
    tbl      TEXT NOT NULL,
    id       TEXT NOT NULL,
    game     TEXT NOT NULL,
    rev      INTEGER NOT NULL,
    withdrawn INTEGER NOT NULL DEFAULT 0,
    finished DOUBLE PRECISION,
    arrival  BIGINT NOT NULL,
    payload  TEXT NOT NULL,
    course   TEXT,
    PRIMARY KEY (tbl, id)
)"""
#: a league kept before results were keyed by their table (``league_results``, keyed by the game's id alone,
#: with or without its course): its rows are copied once into ``league_games``; the old table is left as it was
OLD = "league_results"
COPY_OLD = ("INSERT INTO league_games (tbl, id, game, rev, withdrawn, finished, arrival, payload, course) "
            "SELECT tbl, id, game, rev, withdrawn, finished, arrival, payload, {course} FROM league_results "
            "WHERE NOT EXISTS (SELECT 1 FROM league_games g WHERE g.tbl = league_results.tbl "
            "AND g.id = league_results.id)")


class LeagueError(Exception):
    """One sentence for the person running the league."""


class Store:
    """The league's results table, in SQLite (a path) or PostgreSQL (a ``postgresql://`` URL)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.pg = where.startswith(("postgresql://", "postgres://"))
        self._lock = threading.Lock()
        #: the sentences of the messages refused since the start (newest last; they are logged too)
        self.refusals: deque[str] = deque(maxlen=100)
        #: called with (table, game id) after a result changed the standings (the page draws its charts then)
        self.listeners: list[Callable[[str, str], None]] = []
        if self.pg:
            try:
                import psycopg  # late: psycopg is optional (the [league] extra), for a PostgreSQL league only
            except ImportError:
                raise LeagueError("A PostgreSQL league needs psycopg: pip install 'psycopg[binary]'.") from None
            try:
                self.db: Any = psycopg.connect(where, autocommit=True)
            except psycopg.Error as exc:
                why = " ".join(str(exc).split()).rstrip(".?")  # psycopg's text spans lines
                raise LeagueError(f"Cannot open the league's PostgreSQL database: {why}.") from None
            self.mark = "%s"
        else:
            try:
                self.db = sqlite3.connect(where, isolation_level=None, check_same_thread=False, timeout=30)
                self.db.execute("PRAGMA journal_mode=WAL")
            except sqlite3.Error as exc:
                raise LeagueError(f"Cannot open the league's database {where}: {exc}.") from None
            self.mark = "?"
        self._exec(SQL)
        self._copy_old()

    def _copy_old(self) -> None:
        """The results of a league kept before they were keyed by their table, copied once."""
        try:
            columns = self._exec(f"SELECT * FROM {OLD} WHERE 1 = 0", described=True)
        except Exception:  # noqa: BLE001 - no such table (sqlite3 or psycopg's error): nothing to copy
            return
        if self._exec("SELECT COUNT(*) FROM league_games")[0][0] == 0:
            self._exec(COPY_OLD.format(course="course" if "course" in columns else "NULL"))

    def _exec(self, sql: str, params: tuple[Any, ...] = (), described: bool = False) -> list[Any]:
        sql = sql.replace("?", self.mark)
        with self._lock:
            cur = self.db.execute(sql, params)
            if described:
                return [d[0] for d in cur.description or ()]
            return list(cur.fetchall()) if cur.description else []

    def add(self, payload: dict[str, Any], table: str | None = None) -> bool:
        """Keep ``payload`` (a ``results`` message received on ``table``'s topic; by default the table it
        names); True when it changed the standings. A message the league does not take (:mod:`intake`), a
        result claiming another table's game, or a different result under the same id and revision is
        said in one logged sentence and changes nothing; the same result again changes nothing either."""
        try:
            checked = intake.record(payload, payload.get("table") if table is None else table)
            changed = self._add(checked)
        except intake.Refused as refusal:
            log.warning("%s", refusal)
            self.refusals.append(str(refusal))
            return False
        for listener in self.listeners if changed and not checked.get("withdrawn") else ():
            try:
                listener(checked["table"], checked["id"])
            except Exception:  # noqa: BLE001 - the result is stored; its charts are drawn at the first request
                log.exception("the charts of game %s of table %s could not be drawn ahead", checked["id"],
                              checked["table"])
        return changed

    def _add(self, payload: dict[str, Any]) -> bool:
        rid, rev = payload["id"], payload.get("rev", 0)
        drawn = payload.get("course")
        kept = {k: v for k, v in payload.items() if k != "course"}
        body = json.dumps(kept, sort_keys=True)
        course = None if drawn is None else json.dumps(drawn, sort_keys=True, ensure_ascii=False)
        with self._lock:
            tx = self.db.transaction() if self.pg else None
            if tx is not None:
                tx.__enter__()
            else:
                self.db.execute("BEGIN IMMEDIATE")
            try:
                m = self.mark
                row = self.db.execute(f"SELECT rev, tbl, payload, course FROM league_games WHERE tbl = {m} AND id = {m}",
                                      (payload["table"], rid)).fetchone()
                if row is not None and row[0] == rev and (not _same(row[2], kept) or row[3] != course):
                    raise intake.Refused(f"Table {payload['table']} sent a different result for game {rid} under "
                                         f"the same revision {rev}; the first one received stands.")
                if row is not None and row[0] >= rev:
                    changed = False
                else:
                    (top,) = self.db.execute("SELECT COALESCE(MAX(arrival), 0) FROM league_games").fetchone()
                    values = (rid, payload["table"], str(payload.get("game", "")), rev, int(bool(payload.get("withdrawn"))),
                              payload.get("finished"), int(top) + 1, body, course)
                    self.db.execute(f"DELETE FROM league_games WHERE tbl = {m} AND id = {m}", (payload["table"], rid))
                    self.db.execute("INSERT INTO league_games (id, tbl, game, rev, withdrawn, finished, arrival, "
                                    f"payload, course) VALUES ({', '.join([m] * 9)})", values)
                    changed = True
            except BaseException:
                if tx is not None:
                    tx.__exit__(*__import__("sys").exc_info())
                else:
                    self.db.execute("ROLLBACK")
                raise
            if tx is not None:
                tx.__exit__(None, None, None)
            else:
                self.db.execute("COMMIT")
        return changed

    def records(self) -> list[dict[str, Any]]:
        """The results that count, in the order they arrived."""
        rows = self._exec("SELECT payload FROM league_games WHERE withdrawn = 0 ORDER BY arrival")
        return [json.loads(r[0]) for r in rows]

    def games(self) -> list[dict[str, Any]]:
        """The results that count, in the order they arrived, each saying whether its course came with it."""
        rows = self._exec("SELECT payload, course IS NOT NULL FROM league_games WHERE withdrawn = 0 ORDER BY arrival")
        return [{**json.loads(r[0]), "has_course": bool(r[1])} for r in rows]

    def revision(self) -> tuple[int, int]:
        """What changes whenever the results do (the newest arrival, and how many count): a page caches by it."""
        (top, count), = self._exec("SELECT COALESCE(MAX(arrival), 0), COUNT(*) FROM league_games")
        return int(top), int(count)

    def tables_of(self, rid: str) -> list[str]:
        """The tables with a counted result under game id ``rid`` (ids are random per table: one, or a forgery)."""
        rows = self._exec("SELECT tbl FROM league_games WHERE id = ? AND withdrawn = 0 ORDER BY arrival", (rid,))
        return [r[0] for r in rows]

    def course(self, rid: str, table: str | None = None) -> tuple[dict[str, Any], dict[str, Any] | None] | None:
        """(the result, its course by language or None) of ``table``'s game ``rid`` (``table`` None: the only
        table with such a game); None when the league has no such game, or several tables have one."""
        if table is None:
            tables = self.tables_of(rid)
            if len(tables) != 1:
                return None
            table = tables[0]
        rows = self._exec("SELECT payload, course FROM league_games WHERE tbl = ? AND id = ? AND withdrawn = 0",
                          (table, rid))
        if not rows:
            return None
        return json.loads(rows[0][0]), (json.loads(rows[0][1]) if rows[0][1] else None)

    def close(self) -> None:
        with self._lock:
            self.db.close()


def _same(stored: str, payload: dict[str, Any]) -> bool:
    """Whether ``payload`` is the result stored (its message id aside: each copy has its own)."""
    old = json.loads(stored)
    return {k: v for k, v in old.items() if k != "msg"} == {k: v for k, v in payload.items() if k != "msg"}


def _title(game: str) -> str:
    try:
        return games.package(game).title("en")
    except Exception:  # noqa: BLE001 - a game this league does not know: its id
        return game


def standings(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Per game and overall: each player's played, won and points, best first; and the tournaments."""
    def table_of(rows: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
        out = [{"player": p, **v} for p, v in rows.items()]
        out.sort(key=lambda r: (-r["won"], -r["points"], r["played"], r["player"]))
        return out

    overall: dict[str, dict[str, Any]] = {}
    per_game: dict[str, dict[str, dict[str, Any]]] = {}
    for r in records:
        winners = set(r.get("winners") or [])
        scores = r.get("scores") or {}
        for name in r.get("players") or []:
            for rows in (overall, per_game.setdefault(r.get("game", ""), {})):
                row = rows.setdefault(name, {"played": 0, "won": 0, "points": 0})
                row["played"] += 1
                row["won"] += name in winners
                score = scores.get(name)
                row["points"] += score if isinstance(score, int) and not isinstance(score, bool) else 0
    return {"games": len(records), "tables": sorted({r.get("table", "") for r in records}),
            "overall": table_of(overall),
            "per_game": [{"game": g, "title": _title(g), "players": table_of(rows)} for g, rows in sorted(per_game.items())],
            "tournaments": tournaments(records)}


def tournaments(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each match (table, game, match name) with its totals in every scoring mode its game offers."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r in records:
        opts = r.get("options") or {}
        if opts.get("manches"):
            groups.setdefault((r.get("table", ""), r.get("game", ""), str(opts.get("match", ""))), []).append(r)
    out = []
    for (tbl, game, match), rs in sorted(groups.items()):
        try:
            pkg = games.package(game)
        except Exception:  # noqa: BLE001 - a game this league does not know
            continue
        modes = next((tuple(c["value"] for c in spec.get("choices") or []) for spec in pkg.option_specs("en")
                      if spec.get("name") == "scoring"), ())
        chosen = str((rs[-1].get("options") or {}).get("scoring", modes[0] if modes else ""))
        by_mode = {}
        for mode in modes or (chosen,):
            recs = [{"options": {**(x.get("options") or {}), "scoring": mode}, "over": True,
                     "winners": x.get("winners") or [], "players": [{"name": n} for n in x.get("players") or []],
                     "outcome": {"reason": x.get("reason")}} for x in rs]
            try:
                totals = pkg.match_totals(recs)
            except Exception:  # noqa: BLE001 - a forged or foreign match: left out of the tournaments, said
                log.warning("The tournament %s of table %s could not be counted; it is left out.", match, tbl)
                totals = None
            if totals is not None:
                by_mode[mode] = {"totals": totals["totals"], "leaders": totals["leaders"], "played": totals["played"],
                                 "manches": totals["manches"], "over": totals["over"]}
        if by_mode:
            out.append({"table": tbl, "game": game, "match": match, "mode": chosen, "modes": by_mode})
    return out


def csv_rows(st: dict[str, Any]) -> list[list[Any]]:
    """The standings as CSV rows: scope (overall or a game id), player, played, won, points."""
    rows: list[list[Any]] = [["scope", "player", "played", "won", "points"]]
    rows += [["overall", r["player"], r["played"], r["won"], r["points"]] for r in st["overall"]]
    for g in st["per_game"]:
        rows += [[g["game"], r["player"], r["played"], r["won"], r["points"]] for r in g["players"]]
    return rows


class Subscriber:
    """The league's MQTT client: a persistent session on ``galapagos/+/results`` feeding a :class:`Store`."""

    def __init__(self, broker: str, store: Store, *, username: str | None = None, password: str | None = None,
                 ca_file: str | None = None, client_id: str | None = None) -> None:
        try:
            self.host, self.port, tls = parse_url(broker, "--broker")
        except ValueError as exc:
            raise LeagueError(f"{exc}.") from None
        self.store = store
        self.synced = threading.Event()
        self.problem: str | None = None
        self.received = 0
        cid = client_id or "galapagos-league-" + hashlib.sha256(store.where.encode()).hexdigest()[:10]
        self._sync_topic = f"galapagos-league/{cid}/sync"
        self._nonce = uuid.uuid4().hex
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=cid, clean_session=False)
        if username:
            c.username_pw_set(username, password)
        if tls:
            c.tls_set(ca_certs=ca_file)
        c.on_connect = self._on_connect
        c.on_subscribe = self._on_subscribe
        c.on_message = self._on_message
        c.reconnect_delay_set(1, 10)
        self.client = c
        self.broker = broker

    def start(self) -> Subscriber:
        try:
            self.client.connect(self.host, self.port, keepalive=20)
        except OSError as exc:
            raise LeagueError(f"The MQTT broker {self.broker} cannot be reached ({exc.strerror or exc}).") from None
        self.client.loop_start()
        return self

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            what = "username or password" if "password" in str(reason).lower() or "authori" in str(reason).lower() \
                else str(reason)
            self.problem = (f"The MQTT broker {self.broker} refused the league's {what}: check --username and "
                            f"--password." if what != str(reason) else
                            f"The MQTT broker {self.broker} refused the league ({reason}).")
            return
        client.subscribe([(TOPIC, 1), (ARCHIVE, 1), (self._sync_topic, 1)])

    def _on_subscribe(self, client: Any, userdata: Any, mid: int, codes: Any, properties: Any) -> None:
        # the queued and retained results come before this marker, which goes round the broker after them
        client.publish(self._sync_topic, self._nonce, qos=1)

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        if msg.topic == self._sync_topic:
            if msg.payload.decode(errors="replace") == self._nonce:
                self.synced.set()
            return
        self.received += 1
        try:
            payload = intake.parse(msg.topic, bytes(msg.payload))
        except intake.Refused as refusal:
            log.warning("%s", refusal)
            self.store.refusals.append(str(refusal))
            return
        try:
            self.store.add(payload, msg.topic.split("/")[1])
        except Exception as exc:  # noqa: BLE001 - the database away: said; paho's loop (and the league) go on
            log.error("The league could not store game %s of table %s (%s); the broker keeps it retained, so a "
                      "restart of the league reads it again.", payload.get("id"), payload.get("table"), exc)

    def wait_synced(self, timeout: float = 30.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.synced.wait(0.1):
                return True
            if self.problem:
                raise LeagueError(self.problem)
        return False

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
