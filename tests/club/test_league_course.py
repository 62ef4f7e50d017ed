"""The league shows each game's course charts where its table sent them, and it takes nothing else.

A finished game's ``results`` message carries its public course (the package's own description, in English
and French); the league keeps it (SQLite here, PostgreSQL in ``test_tls_and_league``), and its page of the
game draws it with the dashboard's chart code. Every malformed, forged or oversized message is one sentence
and changes nothing.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.club import intake
from companion.club.league import Store, Subscriber, standings
from companion.engine import charts
from companion.engine import course as shape
from companion.table import course
from tests.club.broker import Broker, Listener
from tests.club.helpers import play, rows, scenario, table
from tests.club.test_publish import publisher
from web.league import create_app

#: the words of a course's description: nothing else may travel in it (no vote, target, hand, card)
VOCABULARY = {"x_label", "x", "x_labels", "charts", "marks", "spark", "id", "title", "unit", "series", "lines",
              "key", "label", "values", "colour", "shape", "dash", "value", "kind", "text", "player"}


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def _result(journal: Any) -> dict[str, Any]:
    return [p for _, t, p, _ in rows(journal) if t.endswith("/results")][-1]


@pytest.mark.parametrize("name", ["galerapagos_full_game.jsonl", "auction_full_game.jsonl", "dice_full_game.jsonl"])
def test_the_results_message_carries_the_public_course_in_both_languages(tmp_path: Path, name: str) -> None:
    journal, _ = table(tmp_path / "j.db")
    head, actions = scenario(name)
    session = play(journal, head, actions)
    got = _result(journal)["course"]
    assert set(got) == {"en", "fr"}
    for lang in ("en", "fr"):  # the package's own description, the one the results screen draws
        assert got[lang] == json.loads(json.dumps(shape.neutral(course.of_session(session, lang))))
        assert all("table" not in ch and "svg" not in ch for ch in got[lang]["charts"])
    assert _keys(got) - {"en", "fr"} <= VOCABULARY  # only figures, labels and marks
    assert intake.course(got) == got  # the league's check takes what a table sends as it is
    assert got["en"]["x_labels"][0] == "Start" and got["fr"]["x_labels"][0] == "Départ"


def test_a_galerapagos_course_says_no_vote_before_the_game_ends(tmp_path: Path) -> None:
    """The course travels with the result only, once every ballot is revealed; it names no target."""
    journal, _ = table(tmp_path / "j.db")
    head, actions = scenario("galerapagos_review_5p.jsonl")
    play(journal, head, actions)
    every = rows(journal)
    carrying = [p for _, t, p, _ in every if "course" in p and p["course"]]
    assert carrying and all(p.get("ranking") is not None for p in carrying)  # results only
    text = json.dumps(carrying[-1]["course"])
    assert '"target"' not in text and '"vote":' not in text and '"cards"' not in text and '"hand"' not in text
    votes = [m for m in carrying[-1]["course"]["en"]["marks"] if m["kind"] == "vote"]
    assert votes and all(m["text"].startswith("Vote: ") for m in votes)  # the revealed counts only


def test_the_league_shows_each_games_course_from_the_broker(broker: Broker, tmp_path: Path) -> None:
    journal, outbox = table(tmp_path / "j.db")
    pub = publisher(broker, journal, outbox)
    store = Store(str(tmp_path / "league.db"))
    league = Subscriber(broker.url, store).start()
    try:
        assert league.wait_synced(10)
        ids = {}
        for name in ("galerapagos_full_game.jsonl", "auction_full_game.jsonl"):
            head, actions = scenario(name)
            ids[head["game"]] = play(journal, head, actions).id
        deadline = time.monotonic() + 20
        while len([g for g in store.games() if g["has_course"]]) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        league.stop()
        pub.stop()
    assert [g["has_course"] for g in store.games()] == [True, True]
    client = create_app(store).test_client()
    home = client.get("/?lang=en").get_data(as_text=True)
    for game, rid in ids.items():
        assert f'href="games/{rid}?lang=en"' in home
        res, drawn = store.course(rid)
        assert drawn == _result_of(journal, rid)["course"]  # kept as the table sent it
        page = client.get(f"/games/{rid}?lang=en")
        html = page.get_data(as_text=True)
        assert page.status_code == 200 and games.package(game).title("en") in html
        desc = shape.complete(json.loads(json.dumps(drawn["en"])), "en")
        for i, ch in enumerate(desc["charts"]):  # the dashboard's drawing, the one piece of code
            assert charts.svg(desc, ch, ident=f"league-{ch['id']}-{i}") in html
            assert f"<caption class=\"sr\">{ch['title']}</caption>" in html  # and its table for screen readers
        fr = client.get(f"/games/{rid}?lang=fr").get_data(as_text=True)
        assert drawn["fr"]["charts"][0]["title"] in fr and "Le déroulement de la partie" in fr
        assert client.get(f"/games/{rid}.json").get_json()["course"] == drawn
    missing = client.get("/games/nope?lang=fr")
    assert missing.status_code == 404 and "La ligue n&#39;a pas de partie nope." in missing.get_data(as_text=True)
    assert client.get("/games/nope.json").get_json() == {"error": "The league has no game nope."}
    store.close()


def _result_of(journal: Any, rid: str) -> dict[str, Any]:
    return [p for _, t, p, _ in rows(journal) if t.endswith("/results") and p["id"] == rid][-1]


# -- what the league refuses -----------------------------------------------------------------------------

def _valid(rid: str = "aa11", table: str = "t1", **extra: Any) -> dict[str, Any]:
    return {"id": rid, "table": table, "game": "galerapagos", "rev": 4, "players": ["Ann", "Bob"],
            "scores": {"Ann": 1, "Bob": 0}, "winners": ["Ann"], **extra}


def _course(**chart: Any) -> dict[str, Any]:
    line = {"key": "Ann", "label": "Ann", "values": [0, 1], "colour": "#e4572e", "shape": "circle", "dash": "", **chart}
    return {"en": {"x_label": "Round", "x": [0, 1], "x_labels": ["Start", "1"], "marks": [], "spark": None,
                   "charts": [{"id": "points", "title": "Points", "unit": "", "series": [line], "lines": []}]}}


BAD = [  # (topic's table, body, the sentence's words)
    ("t1", b"{not json", "Not valid JSON in the message"),
    ("t1", b"[1, 2]", "is not a JSON object"),
    ("t1", json.dumps(_valid("bb22", scores="lots")).encode(), "its scores are not numbers by player"),
    ("t1", json.dumps(_valid("bb22", winners=["Zed"])).encode(), "its winners are not among its players"),
    ("t1", json.dumps(_valid("bb22", rev="4")).encode(), "its rev is not a whole number"),
    ("t1", b'{"id": "bb22", "table": "t1", "rev": 1, "players": ["Ann"], "finished": NaN}',
     "NaN is not a number JSON allows"),
    ("t1", json.dumps(_valid("bb22", players=["Ann", "Ann"], winners=[])).encode(), "its players name Ann more than once"),
    ("t2", json.dumps(_valid("cc33", table="t1")).encode(), "it names table t1 but came on table t2's topic"),
    ("t1", json.dumps(_valid("aa11", winners=["Bob"])).encode(), "a different result for game aa11 under the same"),
    ("t1", json.dumps(_valid("dd44", pad="x" * (300 * 1024))).encode(), "over the league's 256 KiB"),
    ("t1", json.dumps(_valid("ee55", course=_course(colour="red;}*{display:none"))).encode(),
     "has a colour that is not #rrggbb"),
    ("t1", json.dumps(_valid("ee55", course=_course(values=[0, "9"]))).encode(), "has a value that is not a number"),
    ("t1", json.dumps(_valid("ee55", course=_course(values=list(range(600))))).encode(), "has a line of more than"),
]


def test_bad_results_messages_are_one_sentence_each_and_change_nothing(broker: Broker, tmp_path: Path) -> None:
    store = Store(str(tmp_path / "league.db"))
    league = Subscriber(broker.url, store).start()
    sender = Listener(broker, ())
    try:
        assert league.wait_synced(10)
        sender.client.publish("galapagos/t1/results", json.dumps(_valid()), qos=1).wait_for_publish(5)
        deadline = time.monotonic() + 10
        while not store.records() and time.monotonic() < deadline:
            time.sleep(0.02)
        before = (store.records(), standings(store.records()))
        for tbl, body, _ in BAD:
            sender.client.publish(f"galapagos/{tbl}/results", body, qos=1).wait_for_publish(5)
        sender.client.publish("galapagos/t1/results", json.dumps(_valid()), qos=1).wait_for_publish(5)  # again: once
        deadline = time.monotonic() + 10
        while len(store.refusals) < len(BAD) and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)  # the second copy of the valid result has arrived too
    finally:
        sender.close()
        league.stop()
    assert list(store.refusals) and len(store.refusals) == len(BAD), list(store.refusals)
    for sentence, (_, _, words) in zip(store.refusals, BAD, strict=True):
        assert words in sentence and sentence.endswith(".") and "\n" not in sentence, sentence
    assert (store.records(), standings(store.records())) == before
    assert store.course("ee55") is None and store.course("bb22") is None
    store.close()


def test_a_courses_text_reaches_the_page_escaped(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "league.db"))
    forged = _course(label="<script>alert(1)</script>", key="<b>")
    forged["en"]["marks"] = [{"x": 1, "kind": "vote", "text": "<img src=x onerror=alert(1)>"}]
    assert store.add(_valid("ff66", course=forged))
    html = create_app(store).test_client().get("/games/ff66").get_data(as_text=True)
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    store.close()


def test_companion_league_says_a_bad_message_in_one_line_without_a_traceback(broker: Broker, tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.club.test_club_night import ROOT

    sender = Listener(broker, ())
    sender.client.publish("galapagos/t1/results/zz", b'{"id": "zz", "table": "t1", "rev": Infinity}', qos=1,
                          retain=True).wait_for_publish(5)
    sender.client.publish("galapagos/t1/results/aa11", json.dumps(_valid()), qos=1, retain=True).wait_for_publish(5)
    sender.close()
    done = subprocess.run([sys.executable, "-m", "companion", "league", "--broker", broker.url, "--db",
                           str(tmp_path / "l.db"), "--json", "--timeout", "10"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 1
    assert "Traceback" not in done.stderr
    assert "A results message on galapagos/t1/results/zz was ignored: In the message, Infinity is not a number " \
           "JSON allows; give a finite number." in done.stderr.splitlines()


@pytest.mark.parametrize("argv, sentence", [
    (["--timeout", "nan", "--json"], "companion: --timeout must be a number of seconds above 0, not nan."),
    (["--timeout", "-5", "--json"], "companion: --timeout must be a number of seconds above 0, not -5."),
    (["--port", "99999"], "companion: --port must be a number from 1 to 65535, not 99999."),
    (["--port", "-1"], "companion: --port must be a number from 1 to 65535, not -1."),
    (["--db", "postgresql://league@127.0.0.1:1/x", "--json"],
     "companion: Cannot open the league's PostgreSQL database: connection failed: connection to server at "
     "\"127.0.0.1\", port 1 failed: Connection refused Is the server running on that host and accepting TCP/IP "
     "connections."),
])
def test_companion_leagues_bad_arguments_are_one_sentence(broker: Broker, tmp_path: Path, capsys: Any,
                                                         argv: list[str], sentence: str) -> None:
    """``--timeout nan`` waited « within nan s », ``--port 99999`` said it served there and hung, ``--port -1``
    was an internal error, and PostgreSQL's refusal came on three lines."""
    from companion.cli.main import main

    if argv[0] == "--db":
        pytest.importorskip("psycopg")
    code = main(["league", "--broker", broker.url, "--db", str(tmp_path / "l.db"), *argv])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err == sentence and "Traceback" not in err


def test_companion_league_on_a_port_in_use_says_so_before_serving(broker: Broker, tmp_path: Path, capsys: Any) -> None:
    from companion.cli.main import main

    code = main(["league", "--broker", broker.url, "--db", str(tmp_path / "l.db"), "--port", str(broker.port)])
    out, err = capsys.readouterr()
    assert code == 2 and "League standings at" not in out
    assert err.strip() == (f"companion: The league's page cannot listen on 127.0.0.1:{broker.port} (Address already "
                           "in use); give another --host or --port.")


def test_the_league_page_without_its_database_is_one_sentence(tmp_path: Path) -> None:
    """A closed or vanished store answered Flask's bare « Internal Server Error »."""
    store = Store(str(tmp_path / "league.db"))
    assert store.add(_valid())
    client = create_app(store).test_client()
    store.close()
    for path, lang in (("/?lang=fr", "fr"), ("/standings.json", "en"), ("/games/aa11?lang=en", "en")):
        r = client.get(path)
        body = r.get_data(as_text=True)
        assert r.status_code == 503 and "Traceback" not in body and "Internal Server Error" not in body
        assert ("Le classement de la ligue ne peut pas être lu" if lang == "fr" else
                "The league's standings cannot be read just now") in body.replace("&#39;", "'")


def test_a_database_error_costs_one_message_not_the_leagues_connection(broker: Broker, tmp_path: Path) -> None:
    """A failing write inside paho's callback used to end paho's loop: the league heard nothing more."""
    import sqlite3

    store = Store(str(tmp_path / "league.db"))
    league = Subscriber(broker.url, store).start()
    sender = Listener(broker, ())
    real, calls = store._add, []

    def failing_once(payload: dict[str, Any]) -> bool:
        calls.append(payload["id"])
        if len(calls) == 1:
            raise sqlite3.OperationalError("disk I/O error")
        return real(payload)

    store._add = failing_once  # type: ignore[method-assign]
    try:
        assert league.wait_synced(10)
        sender.client.publish("galapagos/t1/results", json.dumps(_valid("aa11")), qos=1).wait_for_publish(5)
        sender.client.publish("galapagos/t1/results", json.dumps(_valid("bb22")), qos=1).wait_for_publish(5)
        deadline = time.monotonic() + 10
        while not store.records() and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        sender.close()
        league.stop()
    assert calls == ["aa11", "bb22"] and [r["id"] for r in store.records()] == ["bb22"]
    store.close()
