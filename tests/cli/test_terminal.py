"""The terminal table (`companion play`): the moves by number, each field among its legal choices."""

from __future__ import annotations

from pathlib import Path

from companion.cli import terminal
from companion.table.journal import Journal
from companion.table.session import Session


def answers(*typed: str):
    queue = list(typed)
    return lambda prompt: queue.pop(0)


def test_a_number_typed_for_a_numeric_choice_is_the_value_not_its_place(tmp_path: Path) -> None:
    """The tester typed 3 for "3 drops" and the journal said 2: a numeric choice is answered by its value."""
    session = Session.new(Journal(tmp_path / "t.db"), "galerapagos", ["Ann", "Bob", "Cleo"], {})
    forms = terminal._forms(session)
    number = 1 + next(i for i, f in enumerate(forms) if f["type"] == "weather" and not f.get("alias"))
    out: list[str] = []
    action = terminal.choose_move(session, number, answers("3", ""), out.append)
    assert action is not None and action["type"] == "weather" and action["water"] == 3


def test_after_a_move_the_terminal_tells_it_and_lists_what_comes_next(tmp_path: Path) -> None:
    session = Session.new(Journal(tmp_path / "t.db"), "pocket-galapagos", ["Ann"], {})
    session.act({"type": "end_turn"})
    text = terminal.after_move(session)
    assert "Next:" in text and "Moves:" in text and "phase" not in text and "{" not in text


def test_the_moves_are_numbered_next_then_also_then_corrections_and_a_correction_asks(tmp_path: Path) -> None:
    """`companion play` follows the step: after everyone has acted the first move is « go to
    survival », and the next weather card, which would skip the pause, is a correction that asks first."""
    session = Session.new(Journal(tmp_path / "t.db"), "galerapagos", ["Ann", "Bob", "Cleo"], {})
    session.act({"type": "weather", "water": 0})
    for p in ("Ann", "Bob", "Cleo"):
        session.act({"type": "search", "player": p})
    text = terminal.list_moves(session)
    lines = text.splitlines()
    assert lines[1].startswith("  1. Ann:") and "survival" in lines[1]
    assert lines.index("Also allowed now:") < lines.index("Corrections (each asks first):")
    forms = terminal._forms(session)
    weather = 1 + next(i for i, f in enumerate(forms) if f["type"] == "weather")
    out: list[str] = []
    assert terminal.choose_move(session, weather, answers("2", "", "n"), out.append) is None
    assert "  Not sent." in out
    action = terminal.choose_move(session, weather, answers("2", "", "y"), out.append)
    assert action is not None and action["type"] == "weather" and action["water"] == 2
