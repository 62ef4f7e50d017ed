"""Shared pieces of the club tests: scenario games played through a real session with the outbox on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.club.outbox import Outbox
from companion.table.journal import Journal
from companion.table.session import Session

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def scenario(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in (SCENARIOS / name).read_text().splitlines() if line.strip()]
    return lines[0], lines[1:]


def table(path: Path, name: str = "t1", clock: Any = None) -> tuple[Journal, Outbox]:
    journal = Journal(path, clock=clock) if clock else Journal(path)
    return journal, Outbox(journal, name).install()


def play(journal: Journal, head: dict[str, Any], actions: list[dict[str, Any]]) -> Session:
    session = Session.new(journal, head["game"], head["players"], head.get("options") or {})
    for action in actions:
        session.act(action)
    return session


def rows(journal: Journal) -> list[tuple[int, str, dict[str, Any], bool]]:
    with journal.reading() as db:
        found = db.execute("SELECT id, topic, payload, retain FROM club_outbox ORDER BY id").fetchall()
    return [(i, t, json.loads(p), bool(r)) for i, t, p, r in found]
