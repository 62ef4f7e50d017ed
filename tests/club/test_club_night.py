"""A club night: three tables at once on a real Mosquitto, the broker stopped and restarted during
play, a table killed with SIGKILL between an action and its PUBACK; the league counts every result once,
in order per table, and no message carries a secret."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from companion.club.league import Store, Subscriber, standings
from companion.table.journal import Journal
from tests.club.broker import Broker, Listener

ROOT = Path(__file__).resolve().parents[2]
TABLES = {
    "t1": ["galerapagos_full_game.jsonl", "galerapagos_review_3p.jsonl"],
    "t2": ["galerapagos_review_5p.jsonl", "galerapagos_departure.jsonl"],
    "t3": ["galerapagos_tournament_manche1.jsonl", "galerapagos_tournament_manche2.jsonl",
           "galerapagos_tournament_manche3.jsonl"],
}


def spawn(db: Path, broker: Broker, table: str, delay: float = 0.02) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.club.table_proc", str(db), broker.url, table, str(delay),
                             *TABLES[table]], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_line(proc: subprocess.Popen[str], wanted: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"the table stopped before {wanted!r}: {proc.stderr.read() if proc.stderr else ''}")
        if line.strip() == wanted:
            return
    raise AssertionError(f"no {wanted!r} within {timeout} s")


def finish(proc: subprocess.Popen[str]) -> None:
    out, err = proc.communicate(timeout=90)
    assert proc.returncode == 0 and out.strip().endswith("done 0"), err[-2000:]


def test_a_club_night_loses_nothing_and_counts_each_result_once(broker: Broker, tmp_path: Path) -> None:
    league_db = tmp_path / "league.db"
    store = Store(str(league_db))
    league = Subscriber(broker.url, store).start()  # a persistent session: the broker queues for it
    assert league.wait_synced(10)
    listener = Listener(broker, ("galapagos/#",))
    dbs = {t: tmp_path / f"{t}.db" for t in TABLES}
    procs = {t: spawn(dbs[t], broker, t) for t in TABLES}

    # the broker killed and restarted mid-game (the tables play on meanwhile)
    wait_line(procs["t1"], "acted 10")
    league.stop()  # the league goes home early; its session keeps what comes meanwhile
    listener.close()
    broker.stop(kill=True)  # killed: no goodbye to anyone
    time.sleep(0.6)
    broker.start()
    listener = Listener(broker, ("galapagos/#",))

    # t2 killed between an action and its PUBACK: the broker frozen, one more action, SIGKILL
    wait_line(procs["t2"], "acted 20")
    os.kill(broker.proc.pid, signal.SIGSTOP)
    try:
        wait_line(procs["t2"], "acted 21")
        procs["t2"].kill()
        procs["t2"].wait(10)
    finally:
        os.kill(broker.proc.pid, signal.SIGCONT)
    with Journal(dbs["t2"]) as j, j.reading() as db:
        unsent = db.execute("SELECT COUNT(*) FROM club_outbox WHERE sent IS NULL").fetchone()[0]
    assert unsent >= 1  # what the kill left without a PUBACK
    procs["t2"] = spawn(dbs["t2"], broker, "t2")  # the companion comes back and resumes
    for proc in procs.values():
        finish(proc)

    # the league comes back: `companion league --json` with the same store reads what was queued
    store.close()
    out = subprocess.run([sys.executable, "-m", "companion", "league", "--broker", broker.url, "--db", str(league_db),
                          "--json", "--timeout", "20"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    st = json.loads(out.stdout)
    listener.close()

    store = Store(str(league_db))
    records = store.records()
    store.close()
    played: dict[str, list[str]] = {}
    for t, db in dbs.items():
        with Journal(db) as j:
            played[t] = [r.id for r in sorted(j.games(), key=lambda r: r.created)]
            assert all(r.finished for r in j.games())
    assert sorted(r["id"] for r in records) == sorted(i for ids in played.values() for i in ids)  # once each
    for t, ids in played.items():  # in order per table
        assert [r["id"] for r in records if r["table"] == t] == ids
    assert st["games"] == 7 and st == standings(records)
    (match,) = st["tournaments"]  # t3's three manches: one match, totals in both scoring modes
    assert match["table"] == "t3" and set(match["modes"]) == {"solidaire", "solitaire"}
    assert all(v["played"] == 3 and v["over"] for v in match["modes"].values())
    ann = next(r for r in st["overall"] if r["player"] == "Ann")
    assert ann["played"] == sum(1 for r in records if "Ann" in r["players"])

    # every message on the broker, duplicates dropped by id: exactly the outboxes, nothing secret
    seen: dict[tuple[str, str], Any] = {}
    for topic, body, _ in listener.messages:
        if isinstance(body, dict) and "msg" in body:
            seen[(topic.split("/")[1], body["msg"])] = body
    for body in seen.values():
        text = json.dumps(body)
        assert '"target"' not in text and all("vote" not in p for p in body.get("players") or [] if isinstance(p, dict))
