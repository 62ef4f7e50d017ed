"""The league's page in English and French, its JSON and CSV; a device down in the club's status."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from companion.club.league import Store
from tests.club.helpers import play, rows, scenario, table
from web.league import create_app


def _store(tmp_path: Path) -> Store:
    store = Store(str(tmp_path / "league.db"))
    store.add({"id": "g1", "table": "t1", "game": "galerapagos", "rev": 3, "players": ["Ann", "Bob"],
               "scores": {"Ann": 1, "Bob": 0}, "winners": ["Ann"]})
    store.add({"id": "g2", "table": "t2", "game": "pocket-galapagos", "rev": 9, "players": ["Bob"],
               "scores": {"Bob": 7}, "winners": ["Bob"]})
    return store


def test_the_league_page_speaks_english_and_french(tmp_path: Path) -> None:
    store = _store(tmp_path)
    client = create_app(store).test_client()
    en = client.get("/?lang=en").get_data(as_text=True)
    fr = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).get_data(as_text=True)
    assert "League standings" in en and "2 games from 2 tables." in en
    assert "Classement de la ligue" in fr and "2 parties de 2 tables." in fr and "Général" in fr
    assert "Galèrapagos" in en and "Pocket Galapagos" in en
    dice = Store(str(tmp_path / "dice.db"))  # a game's title in the page's language, not always in English
    dice.add({"id": "g3", "table": "t1", "game": "galapagos-dice", "rev": 1, "players": ["Ann"],
              "scores": {"Ann": 3}, "winners": ["Ann"]})
    page = create_app(dice).test_client().get("/?lang=fr").get_data(as_text=True)
    assert "<h2>Galapagos (dés)</h2>" in page and "Galapagos (dice)" not in page
    assert "1 partie d&#39;une table." in page  # one game from one table, not « 1 parties de 1 tables »
    assert "1 game from one table." in create_app(dice).test_client().get("/?lang=en").get_data(as_text=True)
    dice.close()
    data = client.get("/standings.json").get_json()
    assert [(r["player"], r["played"], r["won"], r["points"]) for r in data["overall"]] == \
        [("Bob", 2, 1, 7), ("Ann", 1, 1, 1)]
    sheet = list(csv.reader(io.StringIO(client.get("/standings.csv").get_data(as_text=True))))
    assert sheet[0] == ["scope", "player", "played", "won", "points"] and ["overall", "Bob", "2", "1", "7"] in sheet
    store.close()


def test_a_device_down_is_in_the_status(tmp_path: Path) -> None:
    journal, outbox = table(tmp_path / "j.db")
    head, actions = scenario("galerapagos_full_game.jsonl")
    session = play(journal, head, actions[:2])
    down = ["The bridge is lost: check its USB cable."]
    outbox.devices_down = lambda: down
    outbox.refresh(session.id)
    status = [p for _, t, p, _ in rows(journal) if t.endswith("/status")]
    assert status[-2]["devices_down"] == [] and status[-1]["devices_down"] == down
    outbox.refresh(session.id)  # unchanged: no new status
    assert len([1 for _, t, _, _ in rows(journal) if t.endswith("/status")]) == len(status)


def test_the_status_says_when_the_sand_runs_out(tmp_path: Path) -> None:
    """The dice game's first plan turns the sand: the status carries its end from the journalled moment."""
    journal, _ = table(tmp_path / "j.db", clock=lambda: 1_800_000_000.0)
    head, actions = scenario("dice_full_game.jsonl")
    first_plan = next(i for i, a in enumerate(actions) if a["type"] == "plan")
    play(journal, head, actions[:first_plan + 1])
    status = [p for _, t, p, _ in rows(journal) if t.endswith("/status")]
    assert status[-2]["sand_ends"] is None
    assert status[-1]["sand_ends"] == 1_800_000_030.0  # a 30-second sand, turned at the plan's journalled time
    assert status[-1]["sand_ends_iso"] == "2027-01-15T08:00:30+00:00"


def test_companion_league_serves_its_standings(broker, tmp_path: Path) -> None:  # noqa: ANN001 - the fixture
    import json
    import subprocess
    import sys
    import time
    import urllib.request

    from tests.club.broker import free_port
    from tests.club.test_club_night import ROOT

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "companion", "league", "--broker", broker.url, "--db",
                             str(tmp_path / "l.db"), "--port", str(port)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and "League standings at http://127.0.0.1:" in proc.stdout.readline()
        deadline, body = time.monotonic() + 15, None
        while body is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/standings.json", timeout=2) as resp:
                    body = json.loads(resp.read())
            except OSError:
                time.sleep(0.1)
        assert body == {"games": 0, "tables": [], "overall": [], "per_game": [], "tournaments": []}
    finally:
        proc.terminate()
        proc.wait(10)
