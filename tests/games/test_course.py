"""The course of a game: every package's figures at each round equal the rules' own state
after that round's last action.

Each complete scenario is played into a real journal through a Session; its course comes the way
the pages get it (:func:`companion.table.course.of_session`, from the story's replay). The test walks the
scenario's lines through the rules by itself and reads the states where the rulebook ends a round:
after the last action played in it (auction, dice: the round counter before the action; Pocket: the
turn), and, in Galèrapagos, just before the next weather card is turned (a card opens its round).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.table import course
from companion.table.journal import Journal
from companion.table.session import Session

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
COMPLETE = {
    "galapagos-auction": ["auction_full_game", "auction_review_five_players", "auction_table_tie_on_money"],
    "galapagos-dice": ["dice_full_game", "dice_review_four_players_tie", "dice_review_two_players_short_bag"],
    "pocket-galapagos": ["pocket_win_ten_turns", "pocket_complete_loss_collapse", "pocket_loss_invasive"],
    "galerapagos": ["galerapagos_full_game", "galerapagos_review_5p", "galerapagos_hecatomb",
                    "galerapagos_tournament_manche2"],
}


def _lines(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    rows = [json.loads(x) for x in (SCENARIOS / f"{name}.jsonl").read_text().splitlines() if x.strip()]
    return rows[0], rows[1:]


def _round_ends(head: dict[str, Any], actions: list[dict[str, Any]]) -> dict[int, Any]:
    """Round → the rules' state at its end, by the test's own walk (round 0: the set-up)."""
    rules = games.get(head["game"])
    state = rules.setup(head["players"], head.get("options", {}))
    ends = {0: state}
    for action in actions:
        view = rules.view(state)
        before_round = view.get("turn") if head["game"] == "pocket-galapagos" else view.get("round")
        state, _ = rules.apply(state, action)
        if head["game"] == "galerapagos":
            # a weather card opens the round it turns; everything else goes to the round in play
            rnd = rules.view(state)["round"] if action["type"] == "weather" else before_round
        else:
            rnd = before_round
        if rnd:
            ends[rnd] = state
        elif not ends.get(1):
            ends[0] = state  # lines before the first round belong to the set-up
    assert rules.outcome(state) is not None, "a complete scenario"
    return ends


def _course(tmp_path: Path, head: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    journal = Journal(tmp_path / "j.db")
    session = Session.new(journal, head["game"], head["players"], head.get("options", {}))
    try:
        for action in actions:
            session.act(action, "cli")
        return course.of_session(session, "en")
    finally:
        session.close()
        journal.close()


def _series(c: dict[str, Any], chart: str) -> dict[str, list[Any]]:
    ch = next(x for x in c["charts"] if x["id"] == chart)
    return {s["key"]: s["values"] for s in ch["series"]}


def _check_table(c: dict[str, Any]) -> None:
    """The text alternative holds the same figures as the lines, row by row."""
    for ch in c["charts"]:
        rows = ch["table"]["rows"]
        assert len(rows) == len(ch.get("x", c["x"]))  # a tournament's chart counts manches
        for k, s in enumerate(ch["series"]):
            col = [r[1 + k] for r in rows]
            assert col == [("–" if v is None else f"{ch['unit']}{v}") for v in s["values"]], (ch["id"], s["key"])


@pytest.mark.parametrize("name", [n for ns in COMPLETE.values() for n in ns])
def test_figures_equal_the_rules_states_round_by_round(tmp_path: Path, name: str) -> None:
    head, actions = _lines(name)
    rules = games.get(head["game"])
    ends = _round_ends(head, actions)
    c = _course(tmp_path, head, actions)
    assert c["x"] == sorted(ends)
    views = [rules.public_state(ends[r]) for r in c["x"]]
    names = head["players"]
    game = head["game"]
    if game == "galapagos-auction":
        for field, chart in (("money", "money"), ("education", "education")):
            got = _series(c, chart)
            for i, n in enumerate(names):
                assert got[n] == [v["players"][i][field] for v in views], (chart, n)
        assert _series(c, "points") == {n: [v["scores"][n] for v in views] for n in names}
        track = _series(c, "track")
        assert track == {a: [v["education_track"][a] for v in views] for a in views[0]["education_track"]}
    elif game == "galapagos-dice":
        for i, n in enumerate(names):
            by_colour = _series(c, f"turtles-{i + 1}")
            assert by_colour == {col: [v["players"][i]["turtles"][col] for v in views] for col in views[0]["players"][i]["turtles"]}
            assert _series(c, "sets")[n] == [min(v["players"][i]["turtles"].values()) for v in views]
    elif game == "pocket-galapagos":
        assert _series(c, "populations") == {s: [v["populations"][s] for v in views] for s in ("rat", "ant", "finch")}
        assert _series(c, "spaces") == {p: [len(v["spaces"][p]) for v in views] for p in ("dominant", "biome", "invasive")}
        lines = next(x for x in c["charts"] if x["id"] == "populations")["lines"]
        assert [r["value"] for r in lines] == [0]
    else:
        got = _series(c, "rations")
        assert got["water"] == [v["water"] for v in views] and got["food"] == [v["food"] for v in views]
        assert got["survivors"] == [sum(p["alive"] for p in v["players"]) for v in views]
        raft = _series(c, "raft")
        assert raft["wood"] == [v["wood"] for v in views] and raft["rafts"] == [v["rafts"] for v in views]
        weather = [a for a in actions if a["type"] == "weather"]
        marks = [m for m in c["marks"] if m["kind"] == "weather"]
        assert [m["text"] for m in marks] == [
            (f"Hurricane ({a['water']} water)" if a.get("hurricane") else f"Weather: {a['water']} water") for a in weather]
        dead = [p["name"] for p in views[-1]["players"] if not p["alive"]]
        assert sorted(m["player"] for m in c["marks"] if m["kind"] == "death") == sorted(dead)
    _check_table(c)


def test_the_auction_marks_each_bonus_tile_taken(tmp_path: Path) -> None:
    head, actions = _lines("auction_full_game")
    c = _course(tmp_path, head, actions)
    taken = [(a["player"]) for a in actions if a["type"] == "exhibition"]
    marks = [m for m in c["marks"] if m["kind"] == "bonus"]
    assert marks and len(marks) <= len(taken)
    assert marks[0] == {"x": 2, "kind": "bonus", "player": "Bob", "text": "Bob takes bonus tile 2"}


def test_french_course(tmp_path: Path) -> None:
    head, actions = _lines("galerapagos_full_game")
    journal = Journal(tmp_path / "j.db")
    session = Session.new(journal, head["game"], head["players"], head.get("options", {}))
    try:
        for action in actions:
            session.act(action, "cli")
        c = course.of_session(session, "fr")
    finally:
        session.close()
        journal.close()
    assert c["x_labels"][0] == "Départ" and c["x_label"] == "Manche"
    assert next(x for x in c["charts"] if x["id"] == "rations")["title"] == "Rations et survivants"
    assert any(m["text"] == "Dan meurt" for m in c["marks"])


def test_a_tournament_s_totals_manche_by_manche(tmp_path: Path) -> None:
    """Three manches in one journal: the third's course adds the points after each manche (by hand:
    all three leave in manche 1, nobody in manche 2, Ann and Bob in manche 3; solidaire: 1 point each)."""
    journal = Journal(tmp_path / "j.db")
    try:
        for n in (1, 2, 3):
            head, actions = _lines(f"galerapagos_tournament_manche{n}")
            session = Session.new(journal, head["game"], head["players"], head.get("options", {}))
            for action in actions:
                session.act(action, "cli")
            c = course.of_session(session, "en")
            if n < 3:
                session.close()
        match = next(x for x in c["charts"] if x["id"] == "match")
        session.close()
    finally:
        journal.close()
    assert match["x"] == [1, 2, 3]
    assert {s["key"]: s["values"] for s in match["series"]} == {"Ann": [1, 1, 2], "Bob": [1, 1, 2], "Cid": [1, 1, 1]}
    assert [r[0] for r in match["table"]["rows"]] == ["1", "2", "3"] and match["table"]["head"][0] == "Manche"
