"""The undo dialog says what moves back: the figures of the public view before and after the undo.

Each preview is checked against the undo itself: every « X: a → b » it announces must be
what the public view shows once the undo is done, for every game.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from companion import games
from companion.table import amend, extras
from companion.table.authorship import TIMER
from companion.table.journal import Journal
from companion.table.session import Session
from tests.support.dashboard import TO_THE_VOTE

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def played(db_path: Path, name: str, upto: int) -> Session:
    lines = [json.loads(line) for line in (SCENARIOS / f"{name}.jsonl").read_text().splitlines() if line.strip()]
    head, actions = lines[0], lines[1:]
    session = Session.new(Journal(db_path), head["game"], head["players"], head.get("options", {}))
    for action in actions[:upto]:  # the sand's end as the companion journals it (automatic, by its author)
        session.act(action, source=TIMER if action.get("type") in games.package(head["game"]).automatic else "cli")
    return session


def figure(pub: dict, player: str | None, key: str):
    if player is None:
        return pub[key]
    found = next(p for p in pub["players"] if p["name"] == player)
    return found[key] if key in found else pub[key][player]


def test_the_auction_says_bob_gets_his_money_back(db_path: Path) -> None:
    """Bob advanced two education steps (he paid for them): the undo gives the money back to him, from the bank."""
    session = played(db_path, "auction_full_game", 8)
    assert session.history()[-1].action == {"type": "education", "player": "Bob", "steps": 2}
    now = session.public()
    preview = amend.undo_preview(session, None)
    assert preview["what"] == "Bob advances 2 education steps"
    extras.undo(session)
    then = session.public()
    money = f"Bob's money: £{figure(now, 'Bob', 'money')} → £{figure(then, 'Bob', 'money')}"
    assert figure(then, "Bob", "money") > figure(now, "Bob", "money")
    assert money in preview["back"]
    assert f"Bob's education: {figure(now, 'Bob', 'education')} → {figure(then, 'Bob', 'education')}" in preview["back"]
    assert f"bank: £{now['bank']} → £{then['bank']}" in preview["back"]


@pytest.mark.parametrize(("name", "upto"), [
    ("auction_full_game", 15), ("auction_full_game", 40), ("dice_full_game", 8), ("dice_full_game", 24),
    ("galerapagos_full_game", 2), ("galerapagos_full_game", 24), ("pocket_win_ten_turns", 16),
])
def test_every_announced_figure_is_what_the_undo_gives(db_path: Path, name: str, upto: int) -> None:
    session = played(db_path, name, upto)
    players = session.players
    preview = amend.undo_preview(session, None)
    assert preview["what"] and preview["back"], preview
    extras.undo(session)
    then = session.rules.public_state(session.state, None)
    checked = 0
    for line in preview["back"]:
        m = re.fullmatch(r"(?:(\w+)'s )?([\w ]+): (.*)", line)
        if not m or (m.group(1) and m.group(1) not in players):
            continue
        who, label = m.group(1), {"score": "scores"}.get(m.group(2), m.group(2).replace(" ", "_"))
        try:
            value = figure(then, who, label)
        except (KeyError, StopIteration):
            continue
        for part in m.group(3).split("; "):
            n = re.fullmatch(r"(?:([\w ]+) )?(-?\d+) → (-?\d+)", part)
            if n:
                got = value[n.group(1).replace(" ", "_")] if n.group(1) else value
                assert got == int(n.group(3)), line
                checked += 1
    assert checked, preview["back"]


def test_a_secret_vote_is_never_in_the_tables_preview(tmp_path: Path) -> None:
    """Whoever Ann voted for, the table's undo dialog reads the same: the target stays hers."""
    previews = []
    for target in ("Cleo", "Bob"):
        session = Session.new(Journal(tmp_path / f"{target}.db"), "galerapagos", ["Ann", "Bob", "Cleo"])
        for action in TO_THE_VOTE:
            session.act(action)
        session.act({"type": "vote", "player": "Ann", "target": target})
        previews.append(amend.undo_preview(session, None))
        assert target in amend.undo_preview(session, "Ann", by_table=False)["what"]  # on her own phone
    assert previews[0] == previews[1] and previews[0]["what"] == "Ann votes"


def test_the_preview_speaks_the_readers_language(db_path: Path) -> None:
    session = played(db_path, "auction_full_game", 8)
    back = amend.undo_preview(session, None, "fr")["back"]
    assert any(line.startswith("argent de Bob : ") for line in back), back


def test_nothing_to_undo_previews_nothing(db_path: Path) -> None:
    session = Session.new(Journal(db_path), "pocket-galapagos", ["Ann"])
    assert amend.undo_preview(session, None) == {"what": "", "back": []}


def test_a_package_may_write_its_figures_its_way(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's part ``figure(key, value, lang)`` (listed in its package) writes money with its sign: « £900 »."""
    pkg = games.package("galapagos-auction")

    def figure(key: str, value: float, lang: str) -> str | None:
        return f"£{value}" if key in ("money", "bank") else None

    monkeypatch.setattr(pkg, "parts", dataclasses.replace(pkg.parts, figure=figure))
    monkeypatch.setattr(amend, "_cache", {})
    back = amend.undo_preview(played(db_path, "auction_full_game", 8), None)["back"]
    assert "Bob's money: £900 → £1200" in back and "Bob's education: 2 → 0" in back
