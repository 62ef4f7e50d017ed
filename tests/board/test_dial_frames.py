"""Golden OLED frames of the dial: a move being entered, its field under the dial, the preview.

Each case replays a short script into a real session, lets the table controller
(with luma.core's dummy display) dial a move with the encoder and Up/Down, and
compares the frame it draws with a golden PNG. Regenerate after an intended change
with ``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/board/test_dial_frames.py`` and look
at the files in ``tests/board/golden/dial/``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.board.controller import TableController
from companion.table.journal import Journal
from companion.table.session import Session
from hw.events import ButtonEvent, EncoderEvent
from hw.oled import open_oled
from tests.hw.screen_states import AUCTION_ACTIONS
from tests.support.clock import FakeClock

GOLDEN = Path(__file__).parent / "golden" / "dial"

GALERAPAGOS = [
    {"game": "galerapagos", "players": ["Ann", "Bob", "Cy", "Dee"], "options": {}},
    {"type": "weather", "water": 2, "hurricane": False},
]
POCKET = [{"game": "pocket-galapagos", "players": ["Ann"], "options": {}}]


def table(script: list[dict], tmp_path: Path, lang: str = "en") -> TableController:
    clock = FakeClock(100.0)
    header, actions = script[0], script[1:]
    session = Session.new(Journal(tmp_path / f"dial-{lang}.db"), header["game"], header["players"],
                          header.get("options", {}), clock=clock, wall=clock)
    for action in actions:
        session.act(action)
    return TableController(session, open_oled("dummy"), clock=clock, lang=lang)


def dial_to(ctl: TableController, kind: str) -> None:
    """Turn the encoder until the move under the dial is ``kind``."""
    for _ in range(len(ctl.entry.forms)):
        if ctl.entry.form["type"] == kind:
            return
        ctl.handle(EncoderEvent(1))
    raise AssertionError(f"the dial offers no {kind!r}: {[f['type'] for f in ctl.entry.forms]}")


def frame(ctl: TableController) -> Image.Image:
    ctl.refresh()
    return ctl.presenter.oled.frame.convert("1")


def education(tmp_path, lang="en"):
    ctl = table(AUCTION_ACTIONS, tmp_path, lang)
    dial_to(ctl, "education")
    ctl.handle(ButtonEvent("down"))
    ctl.handle(EncoderEvent(2))  # two steps
    return ctl


def wood(tmp_path, lang="en"):
    ctl = table(GALERAPAGOS, tmp_path, lang)
    dial_to(ctl, "wood")
    ctl.handle(ButtonEvent("down"))
    ctl.handle(EncoderEvent(3))  # the third choice of extra balls
    return ctl


def fish(tmp_path, lang="en"):
    ctl = table(GALERAPAGOS, tmp_path, lang)
    dial_to(ctl, "fish")
    ctl.handle(ButtonEvent("down"))
    ctl.handle(EncoderEvent(3))
    return ctl


def population(tmp_path, lang="en"):
    ctl = table(POCKET, tmp_path, lang)
    dial_to(ctl, "ocean")
    ctl.handle(ButtonEvent("down"))
    ctl.handle(EncoderEvent(1))  # the first species
    return ctl


def bid_confirm(tmp_path, lang="en"):
    """A bid spends money: OK shows what will be sent and waits for a second OK."""
    ctl = table(AUCTION_ACTIONS[:5], tmp_path, lang)
    dial_to(ctl, "bid")
    ctl.handle(ButtonEvent("down"))
    ctl.handle(EncoderEvent(3))  # N, E, S
    ctl.handle(ButtonEvent("down"))
    ctl.handle(EncoderEvent(3))  # £100, £200, £300
    ctl.handle(ButtonEvent("ok"))
    assert ctl.session.version == 4, "one OK must not spend the money"
    return ctl


def bid_direction(tmp_path, lang="en"):
    """The bid's first field before any detent: its name on the preview line, « ? » in the value's box."""
    ctl = table(AUCTION_ACTIONS[:5], tmp_path, lang)
    dial_to(ctl, "bid")
    ctl.handle(ButtonEvent("down"))
    return ctl


def snake_toast(tmp_path, lang="en", after=0.0):
    """A long story (a snake bite) on the prompt: wrapped, then scrolled to its end, never cut."""
    ctl = table(GALERAPAGOS, tmp_path, lang)
    ctl.session.act({"type": "wood", "player": "Ann", "extra": 2, "snake": True})
    ctl.refresh()
    ctl.clock.advance(after)
    return ctl


CASES = {"auction_education": education, "galerapagos_wood": wood, "galerapagos_fish": fish,
         "pocket_ocean": population, "auction_bid_confirm": bid_confirm, "auction_bid_direction": bid_direction, "galerapagos_snake_toast": snake_toast,
         "galerapagos_snake_toast_end": lambda tmp_path, lang="en": snake_toast(tmp_path, lang, after=6.0)}
#: the screen each case must be on (the others: the prompt)
SCREEN = {"auction_bid_confirm": "confirm"}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_dial_frame_matches_its_golden(case: str, lang: str, tmp_path: Path) -> None:
    ctl = CASES[case](tmp_path, lang)
    image = frame(ctl)
    assert ctl.frame_name(ctl.session.public(), ctl.context()) == SCREEN.get(case, "prompt")
    path = GOLDEN / f"{case}_{lang}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
    golden = Image.open(path).convert("1")
    diff = ImageChops.difference(image.convert("L"), golden.convert("L"))
    if diff.getbbox():
        image.save(tmp_path / f"{case}_{lang}.actual.png")
    assert diff.getbbox() is None, f"{case} ({lang}) differs from {path}; actual in {tmp_path}"


@pytest.mark.parametrize("case", ["auction_education", "galerapagos_wood", "galerapagos_fish", "pocket_ocean"])
def test_the_preview_of_the_choice_under_the_dial_is_on_the_screen(case: str, tmp_path: Path) -> None:
    ctl = CASES[case](tmp_path)
    f = ctl.entry.current()
    chosen = ctl.entry.values.get(f["name"])
    hit = next(c for c in f.get("choices", []) if json.dumps(c["value"]) == json.dumps(chosen))
    text = (hit.get("preview") or {}).get("text")
    assert ctl.context().preview == (text or f"{f['label']}: {hit['label']}")


def test_education_shows_its_price_before_ok(tmp_path: Path) -> None:
    """The issue: "education · steps 4" had the £1000 missing; the dial shows the price."""
    ctl = education(tmp_path)
    assert "£" in ctl.context().preview


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_long_toast_is_read_to_its_end_before_it_goes(lang: str, tmp_path: Path) -> None:
    """« Gus collects ... »: the snake bite sat past the third line; now the lines scroll up to it."""
    ctl = snake_toast(tmp_path, lang)
    start = frame(ctl).tobytes()
    told = ctl.toast
    assert ctl.frame_name(ctl.session.public(), ctl.context()) == "prompt" and told
    ctl.clock.advance(6.0)
    ctl.tick()
    assert ctl.toast == told, "a long story stays until it has scrolled through"
    assert frame(ctl).tobytes() != start  # its last lines are on the screen now
    ctl.clock.advance(30.0)
    ctl.tick()
    assert ctl.toast is None


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_back_at_the_second_ok_sends_nothing_and_the_bid_stays_dialled(lang: str, tmp_path: Path) -> None:
    ctl = bid_confirm(tmp_path, lang)
    asked = ctl.question()
    assert asked and ("300" in asked)
    ctl.handle(ButtonEvent("back"))
    assert ctl.session.version == 4 and ctl.question() == ""
    assert ctl.entry.values == {"direction": "S", "amount": 300}
    ctl.handle(ButtonEvent("ok"))
    ctl.handle(ButtonEvent("ok"))
    assert ctl.session.history()[-1].action == {"type": "bid", "player": "Ann", "direction": "S", "amount": 300}
