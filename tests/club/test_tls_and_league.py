"""TLS and passwords on a real Mosquitto (a wrong password refused in one sentence while the table
plays on), and the league's store: idempotent on the result id, in SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.club.league import Store, standings
from companion.club.publisher import Publisher
from companion.club.settings import parse
from tests.club.broker import Broker, Listener, free_port
from tests.club.helpers import play, rows, scenario, table


def _publisher(broker: Broker, journal: Any, outbox: Any, password: str) -> Publisher:
    settings = parse({"url": broker.url, "table": "t1", "username": "t1", "password": password,
                      "ca_file": str(broker.certs["ca"])}, "test")
    return Publisher(settings, str(journal.path), outbox.wake).start()


def test_mqtts_with_a_password_delivers(tls_broker: Broker, tmp_path: Path) -> None:
    journal, outbox = table(tmp_path / "j.db")
    listener = Listener(tls_broker, ("galapagos/t1/#",), ca=str(tls_broker.certs["ca"]), username="t1",
                        password="right-horse")
    pub = _publisher(tls_broker, journal, outbox, "right-horse")
    head, actions = scenario("galerapagos_full_game.jsonl")
    play(journal, head, actions[:5])
    try:
        assert listener.wait(lambda: len(listener.on("/story")) == 5)
    finally:
        pub.stop()
        listener.close()
    assert pub.problem is None and listener.on("/story")[0]["seq"] == 1


def test_a_wrong_password_is_one_sentence_and_the_table_plays_on(tls_broker: Broker, tmp_path: Path) -> None:
    journal, outbox = table(tmp_path / "j.db")
    pub = _publisher(tls_broker, journal, outbox, "wrong-horse")
    head, actions = scenario("galerapagos_full_game.jsonl")
    try:
        deadline = time.monotonic() + 10
        while pub.problem is None and time.monotonic() < deadline:
            time.sleep(0.05)
        started = time.monotonic()
        session = play(journal, head, actions)  # the whole game, while the broker refuses the table
        took = time.monotonic() - started
    finally:
        pub.stop()
    assert pub.problem == (f"The MQTT broker {tls_broker.url} refused table t1's username or password: check "
                           "username and password in the config's [mqtt] table (the table plays on and keeps its "
                           "messages until the broker accepts it).")
    assert session.over and took < 20
    assert len(rows(journal)) > len(actions) and pub.sent == 0  # kept, none sent


def test_a_certificate_the_table_cannot_check_is_said(tls_broker: Broker, tmp_path: Path) -> None:
    journal, outbox = table(tmp_path / "j.db")
    settings = parse({"url": tls_broker.url, "table": "t1", "username": "t1", "password": "right-horse"}, "test")
    pub = Publisher(settings, str(journal.path), outbox.wake).start()  # the system's CAs: not the club's
    try:
        deadline = time.monotonic() + 10
        while pub.problem is None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        pub.stop()
    assert pub.problem is not None and pub.problem.startswith(f"The MQTT broker {tls_broker.url} ")
    assert "the table plays on" in pub.problem


# -- the league's store ---------------------------------------------------------------------------------

def _result(rid: str, table: str, winners: list[str], rev: int = 10, **extra: Any) -> dict[str, Any]:
    return {"id": rid, "table": table, "game": "galerapagos", "rev": rev, "players": ["Ann", "Bob", "Cid"],
            "scores": {n: int(n in winners) for n in ("Ann", "Bob", "Cid")}, "winners": winners, **extra}


def _check_store(store: Store) -> None:
    assert store.add(_result("aa11", "t1", ["Ann", "Bob"]))
    assert not store.add(_result("aa11", "t1", ["Ann", "Bob"]))  # the same result again: counted once
    assert store.add(_result("bb22", "t2", ["Cid"]))
    assert store.add(_result("aa11", "t1", ["Ann"], rev=14))  # a newer revision (an undo, another end) replaces it
    assert not store.add(_result("aa11", "t1", ["Bob"], rev=12))  # an older copy arriving late changes nothing
    st = standings(store.records())
    assert st["games"] == 2
    assert {r["player"]: (r["played"], r["won"], r["points"]) for r in st["overall"]} == \
        {"Ann": (2, 1, 1), "Bob": (2, 0, 0), "Cid": (2, 1, 1)}
    assert store.add({"id": "bb22", "table": "t2", "game": "galerapagos", "rev": 15, "withdrawn": True})
    assert [r["id"] for r in store.records()] == ["aa11"]
    assert not store.add({"table": "t1"})  # no id: ignored, nothing changes
    assert len(store.records()) == 1
    # a game's course is kept beside its result, in its own column, and read back as it was sent
    drawn = {"en": {"x_label": "Round", "x": [0, 1], "x_labels": ["Start", "1"], "marks": [], "spark": None,
                    "charts": [{"id": "rations", "title": "Rations", "unit": "", "lines": [], "series": [
                        {"key": "water", "label": "Water", "values": [3, 1.5], "colour": "#2f6fbf",
                         "shape": "diamond", "dash": "8,4"}]}]}}
    assert store.add(_result("cc33", "t3", ["Ann"], course=drawn))
    assert store.course("cc33") == (_result("cc33", "t3", ["Ann"]), drawn)
    assert [g["has_course"] for g in store.games()] == [False, True]
    assert "course" not in store.records()[-1]  # the standings read the results only


def test_a_league_kept_before_the_course_travelled_gains_its_column(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE league_results (id TEXT PRIMARY KEY, tbl TEXT NOT NULL, game TEXT NOT NULL, "
                   "rev INTEGER NOT NULL, withdrawn INTEGER NOT NULL DEFAULT 0, finished DOUBLE PRECISION, "
                   "arrival BIGINT NOT NULL, payload TEXT NOT NULL)")
        db.execute("INSERT INTO league_results VALUES ('aa11', 't1', 'galerapagos', 10, 0, NULL, 1, ?)",
                   (json.dumps(_result("aa11", "t1", ["Ann"])),))
    store = Store(str(path))
    try:
        assert store.games() == [{**_result("aa11", "t1", ["Ann"]), "has_course": False}]
        assert store.add(_result("bb22", "t2", ["Bob"], course={"en": {"x": [0], "x_labels": ["Start"], "charts": []}}))
        assert store.course("bb22")[1]["en"]["x"] == [0]
    finally:
        store.close()


def test_the_league_counts_a_result_once_in_sqlite(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "league.db"))
    try:
        _check_store(store)
    finally:
        store.close()


#: Debian's newest PostgreSQL server binaries (/usr/lib/postgresql/<version>/bin)
PG_BIN = max(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
             default=Path("/usr/lib/postgresql/15/bin"))


@pytest.fixture
def postgres(tmp_path: Path) -> Iterator[str]:
    """A throw-away PostgreSQL cluster on a free port (initdb as user nobody when the tests run as root)."""
    if not (PG_BIN / "pg_ctl").exists():
        pytest.skip(f"PostgreSQL is not installed here ({PG_BIN}/pg_ctl missing: apt-get install postgresql); "
                    "the league's PostgreSQL store is untested on this machine")
    as_user: list[str] = []
    folder = tmp_path / "pg"
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        if runuser is None:
            pytest.skip("initdb refuses root and runuser is missing: the PostgreSQL store is untested here")
        as_user = [runuser, "-u", "nobody", "--"]
        folder = Path(f"/tmp/galapagos-pg-{os.getpid()}-{free_port()}")
    folder.mkdir(mode=0o700)
    if as_user:
        shutil.chown(folder, "nobody")
    data, port = folder / "data", free_port()
    run = lambda *a: subprocess.run([*as_user, *a], check=True, capture_output=True, text=True)  # noqa: E731
    run(str(PG_BIN / "initdb"), "-D", str(data), "-U", "league", "--auth=trust", "-E", "UTF8")
    run(str(PG_BIN / "pg_ctl"), "-D", str(data), "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1",
        "-l", str(folder / "log"), "-w", "start")
    try:
        yield f"postgresql://league@127.0.0.1:{port}/postgres"
    finally:
        run(str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def test_the_league_counts_a_result_once_in_postgresql(postgres: str) -> None:
    store = Store(postgres)
    try:
        _check_store(store)
    finally:
        store.close()


ACL = """pattern write galapagos/%u/#
pattern write homeassistant/sensor/%u/#
user watcher
topic read #
"""


@pytest.mark.broker  # a Mosquitto of its own, with the ACL
def test_the_clubs_acl_lets_a_table_publish_under_its_own_name_only(tmp_path: Path) -> None:
    """docs/club.md's ACL on a real Mosquitto: t1 publishes as t1; t1 claiming to be table t2 reaches nobody."""
    broker = Broker(tmp_path / "acl", users={"t1": "a", "watcher": "w"}, acl=ACL).start()
    try:
        listener = Listener(broker, ("galapagos/#", "homeassistant/#"), username="watcher", password="w")
    except BaseException:
        broker.stop()
        raise
    try:
        for name, db in (("t1", "own.db"), ("t2", "other.db")):
            journal, outbox = table(tmp_path / db, name)
            pub = Publisher(parse({"url": broker.url, "table": name, "username": "t1", "password": "a"}, "test"),
                            str(journal.path), outbox.wake).start()
            head, actions = scenario("galerapagos_full_game.jsonl")
            play(journal, head, actions[:3])
            deadline = time.monotonic() + 10
            while pub.reader.unsent() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert pub.reader.unsent() == 0  # the broker acknowledges even what it drops (MQTT 3.1.1)
            pub.stop()
        assert listener.wait(lambda: len([t for t, _, _ in listener.messages if t.endswith("/story")]) >= 3)
        time.sleep(0.3)
    finally:
        listener.close()
        broker.stop()
    topics = {t for t, _, _ in listener.messages}
    assert "galapagos/t1/story" in topics and "homeassistant/sensor/t1/galapagos_water/config" in topics
    assert not any("/t2/" in t for t in topics)


def test_the_league_refused_by_the_broker_says_it_in_one_sentence(tls_broker: Broker, tmp_path: Path) -> None:
    import sys

    from tests.club.test_club_night import ROOT

    out = subprocess.run([sys.executable, "-m", "companion", "league", "--broker", tls_broker.url, "--db",
                          str(tmp_path / "l.db"), "--json", "--ca-file", str(tls_broker.certs["ca"]),
                          "--username", "t1", "--password", "wrong", "--timeout", "10"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().splitlines() == [
        f"companion: The MQTT broker {tls_broker.url} refused the league's username or password: check "
        "--username and --password."] or "refused the league's username or password" in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
