"""The OLED's « course » screen: a sparkline of the package's ``spark`` series."""

from __future__ import annotations

import json
from pathlib import Path

from companion.board import screens
from companion.drawing.canvas import HEADER_H, HEIGHT, WIDTH
from companion.drawing.context import ScreenContext
from companion.table import course
from companion.table.journal import Journal
from companion.table.session import Session

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "galerapagos_full_game.jsonl"


def _lit(img, x: int) -> list[int]:
    return [y for y in range(HEADER_H + 1, HEIGHT) if img.getpixel((x, y))]


def test_the_line_rises_and_falls_with_the_values() -> None:
    up = screens.render("course", {"game": None}, ScreenContext(data={"course": {"label": "Margin", "values": [0, 1, 2, 3, 9]}}))
    down = screens.render("course", {"game": None}, ScreenContext(data={"course": {"label": "Margin", "values": [9, 3, 2, 1, 0]}}))
    assert up.size == (WIDTH, HEIGHT)
    right = WIDTH - 2
    assert min(_lit(up, right)) < min(_lit(down, right))  # the newest value high on one, low on the other
    assert up.tobytes() != down.tobytes()


def test_before_a_round_it_says_so() -> None:
    one = screens.render("course", {"game": None}, ScreenContext(data={"course": {"label": "Rations", "values": [5]}}))
    two = screens.render("course", {"game": None}, ScreenContext(data={"course": {"label": "Rations", "values": [5, 3]}}))
    none = screens.render("course", {"game": None}, ScreenContext(data={"course": {"label": "Rations", "values": []}}))
    body = (0, HEADER_H + 1, WIDTH, HEIGHT)
    assert one.crop(body).tobytes() == none.crop(body).tobytes() != two.crop(body).tobytes()  # a sentence, no line yet
    assert one.crop(body).getbbox() is not None


def test_a_real_game_s_rations(tmp_path) -> None:
    rows = [json.loads(x) for x in SCENARIO.read_text().splitlines() if x.strip()]
    journal = Journal(tmp_path / "j.db")
    session = Session.new(journal, rows[0]["game"], rows[0]["players"], rows[0].get("options", {}))
    try:
        for action in rows[1:]:
            session.act(action, "cli")
        spark = course.of_session(session, "en")["spark"]
    finally:
        session.close()
        journal.close()
    assert spark == {"label": "Rations", "values": [7, 5, 2, 1, 0, 0]}  # min(water, food) each round
    img = screens.render("course", {"game": "galerapagos"}, ScreenContext(data={"course": spark}))
    assert _lit(img, WIDTH - 2)  # the line reaches the newest round

