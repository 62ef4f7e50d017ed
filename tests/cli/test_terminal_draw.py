"""`companion play` offers a digital draw inside the move it fills, with that move's step: « d » turns the
weather card digitally, and once everyone has acted it is a correction that asks first, as typing the card is."""

from __future__ import annotations

from pathlib import Path

from companion.cli import terminal
from companion.table.journal import Journal
from companion.table.session import Session


def answers(*typed: str):
    queue = list(typed)
    return lambda prompt: queue.pop(0)


def weather_number(session: Session) -> int:
    return 1 + next(i for i, f in enumerate(terminal._forms(session)) if f["type"] == "weather" and f.get("draw"))


def test_d_draws_the_weather_card_that_fills_the_move(tmp_path: Path) -> None:
    session = Session.new(Journal(tmp_path / "t.db"), "galerapagos", ["Ann", "Bob", "Cleo"], {})
    out: list[str] = []
    action = terminal.choose_move(session, weather_number(session), answers("d"), out.append)
    assert "  d: Draw a weather card" in out
    assert action is not None and action["type"] == "weather" and action["water"] in range(0, 10)
    session.act(action)  # the rules accept what was drawn
    assert session.public()["weather"] == action["water"] or action.get("hurricane")


def test_drawing_while_the_survival_step_is_due_asks_first(tmp_path: Path) -> None:
    session = Session.new(Journal(tmp_path / "t.db"), "galerapagos", ["Ann", "Bob", "Cleo"], {})
    session.act({"type": "weather", "water": 2})
    for p in ("Ann", "Bob", "Cleo"):
        session.act({"type": "water", "player": p})
    out: list[str] = []
    number = weather_number(session)
    assert terminal.choose_move(session, number, answers("d", "n"), out.append) is None  # the question, answered no
    assert "  Not sent." in out
    action = terminal.choose_move(session, number, answers("d", "y"), out.append)
    assert action is not None and action["type"] == "weather"
