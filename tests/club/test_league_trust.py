"""The league trusts a table only for its own games, and what a table sends cannot crush its page.

- results are keyed by (table, game id): with the club's ACL (docs/club.md) a table publishes only under its
  own topic, so a result it sends under another table's game id is its own, and never displaces, replaces or
  withdraws the other table's (the genuine result used to be refused for good);
- a result whose players repeat a name, whose scores name a stranger, whose course has more rounds, charts
  or lines than its game can have (the package's ``limits``), or whose numbers are out of the game's range
  is refused in one sentence, storing nothing; every real game of tests/scenarios fits its package's limits;
- the page's work does not depend on what a message holds: standings worked out once per change, each
  course drawn once per revision and language, one drawing at a time (another answers 503 at once, and the
  standings page is served meanwhile).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from companion import games
from companion.club import intake, messages
from companion.club.league import Store, Subscriber, standings
from companion.engine import course as shape
from companion.engine.rules import RuleError
from companion.table import played
from tests.club.broker import Broker, Listener
from web import league as league_page
from web.league import create_app

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"

#: docs/club.md's ACL, as the club's broker runs it
ACL = """# every table: its own topics only
pattern write galapagos/%u/#
pattern write homeassistant/sensor/%u/#

user league
topic read galapagos/+/results
topic read galapagos/+/results/+
topic readwrite galapagos-league/#
"""
USERS = {"t1": "first-secret", "t2": "second-secret", "league": "league-secret"}


def result(rid: str, table: str, winners: list[str], rev: int = 5, **extra: Any) -> dict[str, Any]:
    players = ["Ann", "Bob", "Cid"]
    return {"id": rid, "table": table, "game": "galerapagos", "rev": rev, "players": players,
            "scores": {n: int(n in winners) for n in players}, "winners": winners, **extra}


def course(rounds: int, lines: int, charts: int = 1, value: float = 1) -> dict[str, Any]:
    x = list(range(rounds + 1))
    series = [{"key": f"k{i}", "label": f"L{i}", "values": [value] * len(x), "colour": "#e4572e", "shape": "circle",
               "dash": ""} for i in range(lines)]
    return {"en": {"x_label": "Round", "x": x, "x_labels": [str(n) for n in x], "marks": [], "spark": None,
                   "charts": [{"id": f"c{c}", "title": "T", "unit": "", "series": series, "lines": []}
                              for c in range(charts)]}}


@pytest.fixture
def acl_broker(tmp_path: Path):
    b = Broker(tmp_path / "acl-broker", users=USERS, acl=ACL).start()
    yield b
    b.stop()


def test_a_result_under_another_tables_game_id_never_touches_that_tables_result(acl_broker: Broker,
                                                                               tmp_path: Path) -> None:
    store = Store(str(tmp_path / "league.db"))
    league = Subscriber(acl_broker.url, store, username="league", password=USERS["league"]).start()
    t1 = Listener(acl_broker, (), username="t1", password=USERS["t1"])
    t2 = Listener(acl_broker, (), username="t2", password=USERS["t2"])
    try:
        assert league.wait_synced(10)
        # the forger (t1) saw t2's game id in a URL: it publishes first, under its own topic and under t2's
        forged = result("bb22", "t1", ["Ann"], rev=99)
        t1.client.publish("galapagos/t1/results", json.dumps(forged), qos=1).wait_for_publish(5)
        t1.client.publish("galapagos/t2/results", json.dumps({**forged, "table": "t2"}), qos=1).wait_for_publish(5)
        t1.client.publish("galapagos/t1/results/bb22", json.dumps(forged), qos=1, retain=True).wait_for_publish(5)
        genuine = result("bb22", "t2", ["Cid"])
        t2.client.publish("galapagos/t2/results", json.dumps(genuine), qos=1).wait_for_publish(5)
        assert t1.wait(lambda: len(store.records()) == 2)
        # and it withdraws « bb22 »: only its own
        withdraw = {"id": "bb22", "table": "t1", "game": "galerapagos", "rev": 100, "withdrawn": True}
        t1.client.publish("galapagos/t1/results", json.dumps(withdraw), qos=1).wait_for_publish(5)
        assert t1.wait(lambda: len(store.records()) == 1)
        time.sleep(0.3)  # whatever else the broker would deliver has arrived
    finally:
        t1.close()
        t2.close()
        league.stop()
    [kept] = store.records()
    assert kept["table"] == "t2" and kept["winners"] == ["Cid"]  # the genuine result stands, untouched
    assert not any("claims game" in r for r in store.refusals)
    st = standings(store.records())
    assert {r["player"]: r["won"] for r in st["overall"]} == {"Ann": 0, "Bob": 0, "Cid": 1}
    client = create_app(store).test_client()
    page = client.get("/tables/t2/games/bb22.json").get_json()
    assert page["result"]["winners"] == ["Cid"]
    assert client.get("/games/bb22.json").get_json()["result"]["table"] == "t2"
    store.close()


def test_two_tables_with_one_game_id_each_keep_their_own_page(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "league.db"))
    assert store.add(result("cc33", "t1", ["Ann"], course=course(3, 2)))
    assert store.add(result("cc33", "t2", ["Bob"], course=course(4, 2)))
    client = create_app(store).test_client()
    both = client.get("/games/cc33?lang=en")
    html = both.get_data(as_text=True)
    assert both.status_code == 404 and "Several tables sent a game cc33" in html
    assert 'href="../tables/t1/games/cc33?lang=en"' in html and 'href="../tables/t2/games/cc33?lang=en"' in html
    home = client.get("/?lang=en").get_data(as_text=True)
    assert 'href="tables/t1/games/cc33?lang=en"' in home and 'href="tables/t2/games/cc33?lang=en"' in home
    assert client.get("/tables/t2/games/cc33.json").get_json()["result"]["winners"] == ["Bob"]
    assert client.get("/tables/t1/games/cc33?lang=en").status_code == 200
    store.close()


REFUSED = [  # (the message, the sentence's words)
    (result("dd44", "t1", ["Eve"], players=["Eve"] * 5000, scores={"Eve": 1}), "its players name Eve more than once"),
    (result("dd44", "t1", ["Ann"], scores={"Ann": 1, "Zed": 40}), "its scores name Zed, who is not among its players"),
    (result("dd44", "t1", ["Zed"]), "its winners are not among its players"),
    (result("dd44", "t1", ["Ann", "Ann"]), "its winners are not among its players, each once"),
    (result("dd44", "t1", ["Ann"], scores={"Ann": 10**8}), "its scores are not between -1,000 and 1,000"),
    (result("dd44", "t1", ["Ann"], course=course(500, 16, 2)), "more than this game's 60"),
    (result("dd44", "t1", ["Ann"], course=course(10, 13)), "at most 12 lines, as many as this game draws"),
    (result("dd44", "t1", ["Ann"], course=course(10, 2, 4)), "at most 3 charts"),
    (result("dd44", "t1", ["Ann"], course=course(10, 2, value=5000)), "from -1,000 to 1,000, this game's range"),
    (result("dd44", "t1", ["Ann"], game="chess"), "its game chess is none of this league's games"),
    (result("dd44", "t1", ["Ann"], rev=10**30), "its rev is not a whole number from 0"),
    (result("dd44", "t1", ["Ann"], players=["A" * 5000, "Bob"], scores={}), "names of at most 100 characters"),
]


@pytest.mark.parametrize(("message", "words"), REFUSED, ids=[w for _, w in REFUSED])
def test_a_result_that_cannot_be_is_one_sentence_and_stores_nothing(tmp_path: Path, message: dict[str, Any],
                                                                     words: str) -> None:
    store = Store(str(tmp_path / "league.db"))
    assert store.add(result("aa11", "t1", ["Ann"]))
    before = (store.records(), store.revision())
    assert not store.add(message)
    [sentence] = store.refusals
    assert words in sentence and sentence.endswith(".") and sentence.count(". ") == 0, sentence
    assert (store.records(), store.revision()) == before
    store.close()


def test_a_topics_game_id_must_be_the_messages() -> None:
    body = json.dumps(result("aa11", "t1", ["Ann"])).encode()
    assert intake.parse("galapagos/t1/results/aa11", body)["id"] == "aa11"
    with pytest.raises(intake.Refused, match="names game aa11 under game bb22's topic"):
        intake.parse("galapagos/t1/results/bb22", body)


def _replayed(path: Path) -> tuple[Any, Any, list[Any]]:
    """The scenario as a table journals it (a line the rules refuse is never journalled), replayed as the
    table's outbox replays it."""
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    pkg = games.package(rows[0]["game"])
    record = SimpleNamespace(id=path.stem, players=rows[0]["players"], options=rows[0].get("options", {}))
    state, entries = pkg.rules.setup(list(record.players), dict(record.options)), []
    for seq, action in enumerate(rows[1:], 1):
        try:
            state, _ = pkg.rules.apply(state, action)
        except RuleError:
            continue
        entries.append(SimpleNamespace(seq=seq, action=action))
    first, steps = played.replay(pkg.rules, record, entries)
    return pkg, (steps[-1].after if steps else first), steps


def _set_up(path: Path) -> bool:
    """Whether the scenario's set-up is one the rules take (the others test a refused set-up: no game at all)."""
    head = json.loads(path.read_text().splitlines()[0])
    try:
        games.package(head["game"]).rules.setup(head["players"], head.get("options", {}))
    except Exception:  # noqa: BLE001 - RuleError, or a header that is not a game's
        return False
    return True


@pytest.mark.parametrize("path", [p for p in sorted(SCENARIOS.glob("*.jsonl")) if _set_up(p)], ids=lambda p: p.stem)
def test_every_real_game_fits_its_packages_limits(path: Path) -> None:
    """The limits refuse only what a game cannot produce: every scenario's course and scores pass them."""
    pkg, state, steps = _replayed(path)
    drawn = messages.course(pkg, steps)
    if drawn is not None:
        intake.course(drawn, pkg.limits)  # raises ValueError with the sentence when a limit is too tight
    low, high = pkg.limits["score"]
    scores = pkg.rules.public_state(state, None).get("scores") or {}
    assert all(low <= v <= high for v in scores.values() if isinstance(v, int | float)), scores


def test_each_course_is_drawn_once_per_revision_and_language(tmp_path: Path, monkeypatch) -> None:
    store = Store(str(tmp_path / "league.db"))
    app = create_app(store)
    store.listeners.append(app.extensions["league_drawer"].warm)
    drawn: list[tuple[str, str]] = []
    real = league_page._drawn
    monkeypatch.setattr(league_page, "_drawn", lambda by_lang, code, rid: drawn.append((rid, code)) or
                        real(by_lang, code, rid))
    assert store.add(result("ee55", "t1", ["Ann"], course=course(60, 12, 2)))  # the most this game can have
    assert app.extensions["league_drawer"].settle()
    assert sorted(drawn) == [("ee55", "en"), ("ee55", "fr")]  # drawn when stored, in each language
    client = app.test_client()
    for _ in range(5):
        for code in ("en", "fr"):
            assert client.get(f"/games/ee55?lang={code}").status_code == 200
    assert len(drawn) == 2  # never again for the same revision
    assert store.add(result("ee55", "t1", ["Bob"], rev=6, course=course(3, 2)))
    assert app.extensions["league_drawer"].settle()
    assert len(drawn) == 4  # a new revision: drawn once more
    store.close()


def test_while_one_request_draws_another_is_answered_at_once_and_the_standings_are_served(tmp_path: Path,
                                                                                          monkeypatch) -> None:
    store = Store(str(tmp_path / "league.db"))
    assert store.add(result("ff66", "t1", ["Ann"], course=course(60, 12, 2)))
    assert store.add(result("gg77", "t1", ["Bob"], course=course(60, 12, 2)))
    app = create_app(store)
    started, release = threading.Event(), threading.Event()
    real = league_page._drawn

    def slow(by_lang: Any, code: str, rid: str) -> Any:
        started.set()
        release.wait(10)
        return real(by_lang, code, rid)

    monkeypatch.setattr(league_page, "_drawn", slow)
    first: list[Any] = []
    worker = threading.Thread(target=lambda: first.append(app.test_client().get("/games/ff66?lang=en")))
    worker.start()
    try:
        assert started.wait(10)
        other = app.test_client().get("/games/gg77?lang=en")
        assert other.status_code == 503 and other.headers["Retry-After"] == "1"
        assert "drawing another game" in other.get_data(as_text=True)
        home = app.test_client().get("/?lang=en")
        assert home.status_code == 200 and "gg77" in home.get_data(as_text=True)
    finally:
        release.set()
        worker.join(10)
    assert first[0].status_code == 200
    store.close()


def test_a_league_kept_by_game_id_alone_is_copied_once(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE league_results (id TEXT PRIMARY KEY, tbl TEXT NOT NULL, game TEXT NOT NULL, "
                   "rev INTEGER NOT NULL, withdrawn INTEGER NOT NULL DEFAULT 0, finished DOUBLE PRECISION, "
                   "arrival BIGINT NOT NULL, payload TEXT NOT NULL, course TEXT)")
        db.execute("INSERT INTO league_results VALUES ('aa11', 't1', 'galerapagos', 5, 0, NULL, 1, ?, ?)",
                   (json.dumps(result("aa11", "t1", ["Ann"])), json.dumps(course(2, 1))))
    for _ in range(2):  # opened twice: copied once
        store = Store(str(path))
        assert store.records() == [result("aa11", "t1", ["Ann"])]
        assert store.course("aa11", "t1")[1] == course(2, 1)
        store.close()
    assert shape  # the course module the page completes charts with is the table's own


def test_a_name_a_table_sent_cannot_be_a_formula_in_the_standings_csv(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "league.db"))
    players = ["=HYPERLINK(\"http://x\")", "+1", "Cid"]
    assert store.add({**result("hh88", "t1", ["Cid"]), "players": players, "scores": {"Cid": 1}})
    text = create_app(store).test_client().get("/standings.csv").get_data(as_text=True)
    assert "'=HYPERLINK" in text and "\"'+1\"" in text and '"=HYPERLINK' not in text
    store.close()
