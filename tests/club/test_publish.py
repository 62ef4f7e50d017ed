"""A table publishes its status, story and results to a real Mosquitto, from the public view only."""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.board import config
from companion.club.publisher import Publisher
from companion.club.settings import parse
from companion.table import secrecy
from tests.club.broker import Broker, Listener
from tests.club.helpers import play, rows, scenario, table


def publisher(broker: Broker, journal: Any, outbox: Any, **extra: Any) -> Publisher:
    return Publisher(parse({"url": broker.url, "table": outbox.table, **extra}, "test"), str(journal.path),
                     outbox.wake).start()


@pytest.mark.parametrize("mqtt, sentence", [
    ({"url": "http://broker:1883", "table": "t1"}, "mqtt.url must start with mqtt:// or mqtts:// (TLS)"),
    ({"url": "mqtt://broker:70000", "table": "t1"}, "mqtt.url has a port that is not a number from 1 to 65535"),
    ({"url": "mqtt://broker", "table": "t1/x"}, "mqtt.table must be the table's name in letters, digits"),
    ({"url": "mqtt://broker", "table": "t1", "ca_file": "/no/such/ca.crt"}, "mqtt.ca_file names /no/such/ca.crt"),
    ({"url": "mqtt://broker", "table": "t1", "password": "p"}, "mqtt.username is missing"),
    ({"url": "mqtts://broker", "table": "t1", "colour": "red"}, "mqtt.colour is not a setting"),
    ({"table": "t1"}, "mqtt.url is missing"),
])
def test_a_bad_mqtt_value_is_one_sentence(mqtt: dict[str, Any], sentence: str) -> None:
    with pytest.raises(config.ConfigError) as err:
        config.parse({"mqtt": mqtt}, "club.toml")
    message = str(err.value)
    assert message.startswith("club.toml: ") and sentence in message and message.count(". ") == 0


def test_publishing_is_off_without_the_table_and_survives_sim() -> None:
    from companion.cli.sim import simulated

    assert config.parse({}).mqtt is None
    cfg = config.parse({"mqtt": {"url": "mqtts://club.local", "table": "t2"}})
    assert (cfg.mqtt.host, cfg.mqtt.port, cfg.mqtt.tls) == ("club.local", 8883, True)
    assert simulated(cfg).mqtt == cfg.mqtt  # --sim keeps the club


def test_a_whole_game_reaches_the_broker_in_order_once_with_ids(broker: Broker, tmp_path: Path) -> None:
    journal, outbox = table(tmp_path / "j.db")
    listener = Listener(broker)
    pub = publisher(broker, journal, outbox)
    head, actions = scenario("galerapagos_full_game.jsonl")
    session = play(journal, head, actions)
    written = rows(journal)
    try:
        assert listener.wait(lambda: len([m for m in listener.messages if m[0].startswith("galapagos/t1/")
                                          and not m[0].endswith("/online")]) >= len(written))
    finally:
        pub.stop()
        listener.close()
    got = [(t, b) for t, b, _ in listener.messages if t.startswith("galapagos/t1/") and not t.endswith("/online")]
    # exactly the outbox, in its order, each with its id
    assert [(t, b["msg"]) for t, b in got] == [(t, f"0-{i}") for i, t, _, _ in written]
    assert [{k: v for k, v in b.items() if k != "msg"} for _, b in got] == [p for _, _, p, _ in written]
    story = [b for t, b in got if t.endswith("/story")]
    assert [b["seq"] for b in story] == sorted(b["seq"] for b in story) and len(story) == len(actions)
    assert story[0]["text"] == "Round 1: the weather card shows 2 drops of water."
    results = [b for t, b in got if t.endswith("/results")]
    assert len(results) == 1 and results[0]["id"] == session.id
    archived = [b for t, b in got if t == f"galapagos/t1/results/{session.id}"]  # retained for a late league
    assert [{k: v for k, v in b.items() if k != "msg"} for b in archived] == \
        [{k: v for k, v in b.items() if k != "msg"} for b in results]
    assert results[0]["winners"] == ["Ann", "Bob", "Cid"] and results[0]["scores"]["Dan"] == 0
    assert results[0]["bgstats"]["players"][0] == {"name": "Ann", "score": 1, "winner": True, "startPlayer": True,
                                                   "rank": 1, "sourcePlayerId": "Ann"}
    status = [b for t, b in got if t.endswith("/status")][-1]
    assert status["over"] and status["gauges"] == {"water": 0, "food": 0, "wood": 0, "rafts": 3}
    # every row acknowledged by the broker is marked sent; nothing is left
    with journal.reading() as db:
        assert db.execute("SELECT COUNT(*) FROM club_outbox WHERE sent IS NULL").fetchone()[0] == 0
    # the status is retained: a subscriber arriving later gets the last one at once
    late = Listener(broker, ("galapagos/t1/status",))
    assert late.wait(lambda: late.messages)
    late.close()
    assert late.messages[0][2] is True and late.messages[0][1]["msg"] == status["msg"]


def test_a_league_started_after_the_games_still_reads_every_result(broker: Broker, tmp_path: Path) -> None:
    from companion.club.league import Store, Subscriber

    journal, outbox = table(tmp_path / "j.db")
    pub = publisher(broker, journal, outbox)
    ids = []
    for name in ("galerapagos_full_game.jsonl", "galerapagos_review_3p.jsonl"):
        head, actions = scenario(name)
        ids.append(play(journal, head, actions).id)
    deadline = time.monotonic() + 15
    while pub.reader.unsent() and time.monotonic() < deadline:
        time.sleep(0.05)
    pub.stop()
    store = Store(str(tmp_path / "late.db"))  # a league that never met this broker before
    league = Subscriber(broker.url, store).start()
    try:
        assert league.wait_synced(10)
    finally:
        league.stop()
    assert sorted(r["id"] for r in store.records()) == sorted(ids)
    store.close()


def test_home_assistant_discovers_each_table(broker: Broker, tmp_path: Path) -> None:
    journal, outbox = table(tmp_path / "j.db", "club-7")
    pub = publisher(broker, journal, outbox)
    pub.connected.wait(10)
    listener = Listener(broker, ("homeassistant/#",))
    wanted = {f"homeassistant/sensor/club-7/galapagos_{k}/config"
              for k in ("game", "round", "player", "sand", "devices_down", *games.package("galerapagos").gauges)}
    try:
        assert listener.wait(lambda: wanted <= {t for t, _, _ in listener.messages})
    finally:
        pub.stop()
        listener.close()
    later = Listener(broker, ("homeassistant/#",))  # retained: Home Assistant started after the table finds them
    assert later.wait(lambda: wanted <= {t for t, _, _ in later.messages})
    later.close()
    configs = {t: b for t, b, retained in later.messages if retained}
    water = configs["homeassistant/sensor/club-7/galapagos_water/config"]
    assert water["state_topic"] == "galapagos/club-7/status" and water["unique_id"] == "galapagos_club-7_water"
    assert "value_json.gauges['water']" in water["value_template"]
    assert configs["homeassistant/sensor/club-7/galapagos_sand/config"]["device_class"] == "timestamp"
    assert {c["device"]["identifiers"][0] for c in configs.values()} == {"galapagos_club-7"}
    # the gauges come from the game packages, not from a list of names here
    assert wanted <= set(configs)


# -- secrets -------------------------------------------------------------------------------------------

def _clock() -> Any:
    ticks = itertools.count()
    return lambda: 1_800_000_000.0 + next(ticks)


def _strip(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k not in ("game_id", "id", "msg")}


@pytest.mark.parametrize("name", ["galerapagos_full_game.jsonl", "galerapagos_review_5p.jsonl",
                                  "galerapagos_early_hurricane_warned.jsonl"])
def test_no_message_says_a_vote_before_its_reveal(tmp_path: Path, name: str) -> None:
    """Two tables whose games differ only in hidden votes write byte-identical messages until the reveal,
    and no message of a whole game carries a ballot or a hand."""
    head, actions = scenario(name)
    pkg = games.package(head["game"])
    rules = pkg.rules
    journal, _ = table(tmp_path / "a.db", clock=_clock())
    play(journal, head, actions)
    every = rows(journal)
    for _, _, payload, _ in every:
        text = json.dumps(payload)
        assert '"vote":' not in text.replace('"vote": null', "") and '"target"' not in text
        for p in payload.get("players") or [] if "phase" in payload else []:  # a status: the seats' figures
            assert "vote" not in p and isinstance(p.get("cards"), int)
    # the ballots still hidden at some point, and the same game with other targets
    state, hidden, checked = rules.setup(head["players"], head.get("options") or {}), [], 0
    for i, action in enumerate(actions):
        after, events = rules.apply(state, action)
        if secrecy.is_secret(pkg, action):
            hidden.append(i)
        if secrecy.reveals(events) and len(hidden) > 1:
            changed = _other_targets(rules, head, actions, hidden[:-1])
            if changed is not None:
                a, b = tmp_path / f"r{i}a.db", tmp_path / f"r{i}b.db"
                ja, _ = table(a, clock=_clock())
                jb, _ = table(b, clock=_clock())
                play(ja, head, actions[:i])
                play(jb, head, changed[:i])
                assert [_strip(p) for _, _, p, _ in rows(ja)] == [_strip(p) for _, _, p, _ in rows(jb)]
                checked += 1
        if secrecy.reveals(events):
            hidden = []
        state = after
    assert checked or name == "galerapagos_full_game.jsonl"


def _other_targets(rules: Any, head: dict[str, Any], actions: list[dict[str, Any]],
                   secret: list[int]) -> list[dict[str, Any]] | None:
    """``actions`` with each hidden vote of ``secret`` for someone else the rules accept (None: no such game)."""
    out = [dict(a) for a in actions]
    for i in secret:
        state = rules.setup(head["players"], head.get("options") or {})
        for a in out[:i]:
            state, _ = rules.apply(state, a)
        for other in head["players"]:
            if other in (out[i]["target"], out[i]["player"]):
                continue
            try:
                rules.apply(state, {**out[i], "target": other})
            except Exception:  # noqa: BLE001 - not a legal target
                continue
            out[i] = {**out[i], "target": other}
            break
        else:
            return None
    return out if out != actions else None


def test_an_undo_past_the_end_withdraws_the_result_and_a_new_end_replaces_it(tmp_path: Path) -> None:
    """The outbox follows undo and redo (its replay reused only where the history grew or shrank at the end)."""
    from companion.club.league import Store

    journal, _ = table(tmp_path / "j.db")
    head, actions = scenario("galerapagos_full_game.jsonl")
    session = play(journal, head, actions)
    assert session.undo() is not None
    status = [p for _, t, p, _ in rows(journal) if t.endswith("/status")][-1]
    assert status["actions"] == len(actions) - 1 and not status["over"]
    assert session.redo() is not None
    results = [p for _, t, p, _ in rows(journal) if t.endswith("/results")]
    assert [bool(r.get("withdrawn")) for r in results] == [False, True, False]
    assert results[0]["rev"] < results[1]["rev"] < results[2]["rev"]
    store = Store(str(tmp_path / "league.db"))
    for r in results:
        store.add(r)
    assert [r["id"] for r in store.records()] == [session.id]  # counted once, as it ended last
    store.close()
    # an edit of an early line (new rows: the hook replays from scratch), then the reused replay again
    session.edit(session.entries[2].seq, dict(actions[2]))
    assert session.undo() is not None and session.redo() is not None
    # and the replay reused by the hook gives the same status as a replay from scratch
    fresh, _ = table(tmp_path / "fresh.db")
    play(fresh, head, actions)
    strip = lambda p: {k: v for k, v in p.items() if k not in ("game_id",)}  # noqa: E731
    last = [p for _, t, p, _ in rows(journal) if t.endswith("/status")][-1]
    again = [p for _, t, p, _ in rows(fresh) if t.endswith("/status")][-1]
    assert strip(last) == strip(again)
