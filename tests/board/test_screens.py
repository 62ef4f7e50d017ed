"""OLED screens: golden frames for each screen, and which screen a state calls for.

Regenerate the golden PNGs after an intended change with
``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/board/test_screens.py`` and look at them.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
import qrcode
from PIL import Image, ImageChops

from companion.board import screens
from companion.board.screens import ScreenContext, choose, context_for, render
from companion.cli.main import main
from companion.drawing.canvas import latin1
from companion.games.galerapagos.oled import snake_odds
from tests.hw.screen_states import (
    AUCTION,
    AUCTION_ACTIONS,
    DICE_PLANNING,
    GALERAPAGOS,
    POCKET,
    replay,
)

GOLDEN = Path(__file__).parent / "golden" / "screens"
URL = "http://raspberrypi.local:8080/"


def auction_bidding():
    r = replay(AUCTION)
    return r.output, context_for(r.rules, r.state, entry=(("bid", False), ("£300", True), ("N", False)), editing=True)


def auction_actions():
    r = replay(AUCTION_ACTIONS)
    return r.output, context_for(r.rules, r.state)


def dice(remaining):
    state = dict(replay(DICE_PLANNING).output)
    state["timer_remaining"] = remaining
    return state


def galerapagos():
    return replay(GALERAPAGOS).output


def twelve_over():
    names = [f"P{i:02d}" for i in range(12)]
    return dict(galerapagos(), over=True, players=[{"name": n, "alive": True} for n in names],
                scores={n: 40 - 3 * i for i, n in enumerate(names)}, winners=["P00"])


CASES = {
    "prompt_bid_entry": ("prompt", auction_bidding),
    "costs_bidding": ("costs", lambda: (replay(AUCTION).output, context_for(replay(AUCTION).rules, replay(AUCTION).state))),
    "costs_actions": ("costs", auction_actions),
    "timer_running": ("timer", lambda: (dice(12.4), ScreenContext())),
    "timer_expired": ("timer", lambda: (dict(dice(0.0), timer="expired"), ScreenContext())),
    "rations": ("rations", lambda: (galerapagos(), ScreenContext())),
    "populations": ("populations", lambda: (replay(POCKET).output, ScreenContext())),
    "scores_three": ("scores", lambda: (replay(AUCTION_ACTIONS).output, ScreenContext())),
    "scores_twelve_over": ("scores", lambda: (twelve_over(), ScreenContext())),
    "qr": ("qr", lambda: (replay(POCKET).output, ScreenContext(url=URL))),
    "error": ("error", lambda: (replay(AUCTION).output, ScreenContext(message="Cy has £1500 and cannot bid £1600."))),
    "error_long": ("error", lambda: (galerapagos(), ScreenContext(message="Cy is sick this turn and cannot fish, fetch water, gather wood or search the wreck until the next turn."))),
    "error_long_scrolled": ("error", lambda: (galerapagos(), ScreenContext(elapsed=4.0, message="Cy is sick this turn and cannot fish, fetch water, gather wood or search the wreck until the next turn."))),
    "confirm": ("confirm", lambda: (replay(AUCTION).output, ScreenContext(question="Ann bids £300 on South? £1200 left."))),
    "course_margin": ("course", lambda: ({"game": None}, ScreenContext(
        data={"course": {"label": "Leader's margin", "values": [0, 0, 6, 2, 2, 11, 5, 2, 11, 5, 5, 2, 0]}}))),
    "lobby_game": ("lobby", lambda: ({}, ScreenContext(data={"lobby": LOBBY_GAME}))),
    "lobby_players_fr": ("lobby", lambda: ({}, ScreenContext(lang="fr", data={"lobby": LOBBY_PLAYERS}))),
    "prompt_long_toast": ("prompt", lambda: (galerapagos(), ScreenContext(status=LONG_TOAST))),
    "prompt_long_toast_scrolled": ("prompt", lambda: (galerapagos(), ScreenContext(status=LONG_TOAST, elapsed=3.5))),
    "wifi": ("wifi", lambda: ({}, ScreenContext(data={"wifi": {"qr": "WIFI:T:WPA;S:Galapagos-7F3K;P:abcDEF234xyz;;",
                                                              "ssid": "Galapagos-7F3K"}}))),
    "walk_button": ("walk", lambda: ({}, ScreenContext(data={"walk": WALK_STEP}))),
    "walk_done": ("walk", lambda: ({}, ScreenContext(data={"walk": WALK_DONE}))),
}

#: the first-boot walk asking for a button, after a swapped wire; and its summary
WALK_STEP = {"done": False, "index": 2, "total": 16, "kind": "button", "name": "seat2", "where": "GPIO 6",
             "seconds": 27, "last": "button seat1 answered as button seat2 (GPIO 6)"}
WALK_DONE = {"done": True, "ok": 14, "total": 16,
             "problems": ["button seat1 answered as button seat2 (GPIO 6)", "reader bag (sim): no answer"]}


#: what the lobby (no game on the table) draws: the game being chosen, then its players
LOBBY_GAME = {"stage": "game", "title": "Galèrapagos", "index": 3, "games": 4, "players_range": (3, 12),
              "hint": "Turn to choose the game, OK to go on; Back: the phones' QR code"}
LOBBY_PLAYERS = {"stage": "players", "title": "Galèrapagos", "count": 5,
                 "names": ["Place 1", "Place 2", "Place 3", "Place 4", "Place 5"],
                 "hint": "Tournez ou appuyez sur le bouton de votre place, puis OK pour commencer"}
#: a story longer than the prompt's three lines: its end (who gets the cards) must be reached
LONG_TOAST = "Gus draws a snake and falls sick: no extra wood. Dan dies of thirst. Deal Dan's 4 cards: 2 to Ann, 2 to Cleo."


def lit_pixels(image: Image.Image) -> int:
    data = image.convert("L").tobytes()
    return len(data) - data.count(0)


@pytest.mark.parametrize("case", sorted(CASES))
def test_screen_matches_its_golden_frame(case, tmp_path):
    name, make = CASES[case]
    state, ctx = make()
    image = render(name, state, ctx)
    assert image.size == (128, 64) and image.mode == "1"
    path = GOLDEN / f"{case}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
    golden = Image.open(path).convert("1")
    changed = lit_pixels(ImageChops.difference(image.convert("L"), golden.convert("L")))
    if changed:
        image.save(tmp_path / f"{case}.actual.png")
    assert changed == 0, f"{case}: {changed} pixels differ from {path} (actual frame in {tmp_path})"


def test_every_screen_has_a_golden_case():
    from companion import games

    every = set(screens.SCREENS).union(*(pkg.screens() for pkg in games.packages()))
    assert {name for name, _ in CASES.values()} == every


def test_frames_differ_between_states():
    frames = [render("timer", dice(r)).tobytes() for r in (29.0, 12.4, 3.0)]
    assert len(set(frames)) == 3
    before = replay(POCKET[:2]).output
    after = replay(POCKET).output
    assert render("populations", before).tobytes() != render("populations", after).tobytes()


def test_the_timer_bar_drains_with_the_sand():
    def lit(remaining):
        bar = render("timer", dice(remaining)).crop((2, 52, 126, 62))
        return lit_pixels(bar)

    assert lit(30.0) > lit(15.0) > lit(1.0) > lit(0.0) == 0


def test_the_qr_code_carries_the_dashboard_address():
    """Sample the drawn code at module centres and compare with the encoder's matrix."""
    image = render("qr", replay(POCKET).output, ScreenContext(url=URL))
    code = qrcode.QRCode(border=1, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(URL)
    code.make(fit=True)
    matrix = code.get_matrix()
    n = len(matrix)
    scale = 64 // n
    top = (64 - n * scale) // 2
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            lit = image.getpixel((x * scale + scale // 2, top + y * scale + scale // 2))
            assert bool(lit) != dark, (x, y)


def test_snake_odds_follow_the_bag_of_six_balls():
    """Seed 004: "Piochez le nombre de boules correspondant ... Si une des boules est noire, le joueur est mordu"."""
    assert snake_odds({}) == [round(100 * k / 6) for k in range(1, 6)]
    two_black = snake_odds({"balls": {"black": 2, "white": 4}})
    assert two_black == [round(100 * (1 - math.comb(4, k) / math.comb(6, k))) for k in range(1, 6)]
    assert snake_odds({"snake_odds": [0.1, 0.2, 0.3, 0.4, 0.5]}) == [10, 20, 30, 40, 50]
    assert snake_odds(galerapagos()) == [17, 33, 50, 67, 83]  # the game's own odds


class TestChoose:
    def test_a_refusal_comes_first(self):
        assert choose(replay(POCKET).output, ScreenContext(message="No.")) == "error"

    def test_a_finished_game_shows_scores(self):
        assert choose(twelve_over()) == "scores"

    def test_a_running_sand_timer_shows_the_countdown(self):
        assert choose(dice(10.0)) == "timer"

    def test_dialling_an_entry_brings_the_prompt_forward(self):
        assert choose(dice(10.0), ScreenContext(editing=True)) == "prompt"

    def test_auction_card_play_shows_costs(self):
        state, ctx = auction_actions()
        assert choose(state, ctx) == "costs"
        assert choose(replay(AUCTION).output) == "prompt"

    def test_galerapagos_shows_rations_and_pocket_populations(self):
        assert choose(galerapagos()) == "rations"
        assert choose(replay(POCKET).output) == "populations"


    def test_a_galerapagos_vote_shows_who_has_still_to_vote(self):
        """The rations do not change while votes come in; the table must see the vote move on."""
        from companion.engine.script import run_lines

        start = ['{"game": "galerapagos", "players": ["Ann", "Bob", "Cy"], "options": {}}']
        dry = ['{"type": "weather", "water": 0, "hurricane": false}']
        rounds = [*dry, *(f'{{"type": "search", "player": "{p}"}}' for p in ("Ann", "Bob", "Cy")),
                  *dry, *(f'{{"type": "search", "player": "{p}"}}' for p in ("Cy", "Ann", "Bob"))]
        voting = run_lines(start + rounds).output
        one_vote = run_lines(start + rounds + ['{"type": "vote", "player": "Ann", "target": "Cy"}']).output
        assert choose(voting) == choose(one_vote) == "prompt"
        assert render("prompt", voting).tobytes() != render("prompt", one_vote).tobytes()

    def test_a_lost_solo_game_says_why_rather_than_a_score(self):
        from companion.engine.script import run_lines

        lost = run_lines(['{"game": "pocket-galapagos", "players": ["Ann"], "options": {}}',
                          '{"type": "population", "species": "rat", "change": -3}',
                          '{"type": "population", "species": "ant", "change": -3}', '{"type": "end_turn"}']).output
        assert lost["over"] and choose(lost) == "prompt"


def test_unknown_screen_names_the_screens():
    with pytest.raises(screens.UnknownScreen, match="prompt, scores"):
        render("clock", galerapagos())


def test_text_outside_latin1_is_spelled_out():
    assert latin1("swap→crab …") == "swap->crab ..."
    assert latin1("Œ") == "?"
    assert latin1("Galèrapagos £3") == "Galèrapagos £3"


class TestOledCommand:
    """``companion oled SCRIPT --out FILE.png [--screen NAME]`` with the dummy display."""

    def write(self, tmp_path, lines, name="game.jsonl"):
        path = tmp_path / name
        path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
        return str(path)

    def run(self, capsys, *argv):
        code = main(["oled", *argv])
        out = capsys.readouterr().out
        return code, json.loads(out) if out.strip() else None

    def test_it_writes_the_frame_the_table_would_show(self, tmp_path, capsys):
        out = tmp_path / "f.png"
        code, report = self.run(capsys, self.write(tmp_path, POCKET), "--out", str(out))
        assert code == 0 and report["screen"] == "populations"
        frame = Image.open(out)
        assert frame.size == (128, 64)
        assert frame.convert("1").tobytes() == render("populations", replay(POCKET).output).tobytes()

    def test_frames_differ_between_states_of_a_game(self, tmp_path, capsys):
        frames = []
        for n in (4, 5, 6):
            out = tmp_path / f"f{n}.png"
            assert self.run(capsys, self.write(tmp_path, AUCTION[:n], f"a{n}.jsonl"), "--out", str(out))[0] == 0
            frames.append(Image.open(out).convert("1").tobytes())
        assert len(set(frames)) == 3

    def test_screen_option_picks_the_screen(self, tmp_path, capsys):
        out = tmp_path / "s.png"
        code, report = self.run(capsys, self.write(tmp_path, AUCTION_ACTIONS), "--out", str(out), "--screen", "scores", "--scale", "2")
        assert code == 0 and report["screen"] == "scores" and Image.open(out).size == (256, 128)

    def test_a_rejected_line_draws_the_refusal_and_exits_2(self, tmp_path, capsys):
        bad = AUCTION[:5] + [{"type": "bid", "player": "Bob", "direction": "N", "amount": 100}]
        out = tmp_path / "e.png"
        code, report = self.run(capsys, self.write(tmp_path, bad), "--out", str(out))
        assert code == 2 and report["error"]["line"] == 6
        ctx = ScreenContext(message=report["error"]["message"])
        assert Image.open(out).convert("1").tobytes() == render("error", report["state"], ctx).tobytes()

    @pytest.mark.parametrize("name", ["galerapagos_full_game.jsonl", "auction_full_game.jsonl"])
    def test_the_course_screen_draws_the_scripts_game_as_the_dial_does(self, tmp_path, capsys, name):
        """``--screen course`` said « The course starts after the first round. » after a whole game: the
        command fed the screen no series. It now draws the series the dial gets for the same game."""
        from companion.engine.script import run_file
        from companion.table import course
        from companion.table.journal import Journal
        from companion.table.session import Session

        script = Path(__file__).parents[1] / "scenarios" / name
        out = tmp_path / "c.png"
        code, report = self.run(capsys, str(script), "--out", str(out), "--screen", "course")
        assert code == 0 and report["screen"] == "course"
        lines = [json.loads(x) for x in script.read_text().splitlines() if x.strip()]
        with Journal(tmp_path / "j.db") as journal:  # the dial's way: the game in a journal, its story's course
            session = Session.new(journal, lines[0]["game"], lines[0]["players"], lines[0].get("options") or {})
            for action in lines[1:]:
                session.act(action)
            spark = course.spark(session, "en")
        assert spark and len(spark["values"]) > 2
        state = run_file(str(script)).output
        frame = Image.open(out).convert("1").tobytes()
        assert frame == render("course", state, ScreenContext(data={"course": spark})).tobytes()
        assert frame != render("course", state, ScreenContext()).tobytes()  # not the empty screen any more

    def test_an_unreadable_script_exits_2_without_a_frame(self, tmp_path, capsys):
        out = tmp_path / "none.png"
        code, report = self.run(capsys, str(tmp_path / "missing.jsonl"), "--out", str(out))
        assert code == 2 and "Cannot read" in report["error"]["message"] and not out.exists()


@pytest.mark.parametrize("screen, make, rows", [
    ("rations", lambda: galerapagos(), (41, 52)),
    ("timer", lambda: dict(dice(12.4), timer="running"), (37, 49)),
])
def test_each_games_status_screen_says_whose_turn_it_is(screen, make, rows):
    """The Galèrapagos status screen never said whose turn it was."""
    state = make()
    names = list(state["expected"]["players"])
    other = dict(state, expected={**state["expected"], "players": ["Zed"]})
    a, b = render(screen, state), render(screen, other)
    diff = ImageChops.difference(a.convert("L"), b.convert("L")).getbbox()
    assert names != ["Zed"] and diff is not None
    assert rows[0] <= diff[1] and diff[3] <= rows[1] + 1, f"only the line saying who acts changes: {diff}"


def test_a_line_too_long_scrolls_to_its_end_and_is_never_cut():
    """« Ann bids £300 on ... »: the window shows the whole line, a part at a time, up to its last pixel."""
    from companion.drawing.canvas import Canvas, font_height, marquee_offset

    text = "Ann bids £300 on North for the crab and the iguana"
    room = 124
    full = Canvas(Canvas.width(text) + 8, 16)
    full.text(0, 0, text)
    over = Canvas.width(text) - room
    assert over > 0
    offsets = set()
    for tenth in range(0, 400):
        c = Canvas()
        c.marquee(2, 33, text, "small", room, tenth / 10)
        off = marquee_offset(over, tenth / 10)
        offsets.add(off)
        window = c.image.crop((2, 33, 2 + room, 33 + font_height("small")))
        expected = full.image.crop((off, 0, off + room, font_height("small")))
        assert ImageChops.difference(window.convert("L"), expected.convert("L")).getbbox() is None
    assert 0 in offsets and over in offsets  # it starts at the left and reaches the end


def test_a_text_longer_than_its_rows_scrolls_up_to_its_last_line():
    from companion.drawing.canvas import Canvas, scroll_index, scroll_seconds

    text = LONG_TOAST
    lines = Canvas().wrap_all(text, "small", 121)
    assert len(lines) > 3
    seen = {scroll_index(len(lines), 3, t / 10) for t in range(int(scroll_seconds(len(lines), 3) * 10))}
    assert seen == set(range(len(lines) - 2))  # every line is shown, the last one included
    assert " ".join(lines) == latin1(text)  # wrapping loses no word


def test_a_line_too_long_scrolls_three_times_then_rests_at_its_beginning():
    """Read three times is read: then the line shows its beginning, still, until the screen changes (the
    panel is not worn by a hint nobody reads, and a table at rest draws nothing)."""
    from companion.drawing.canvas import SCROLL_PASSES, Canvas, marquee_offset

    text = "Turn to choose the game, OK to go on; Back: the phones' QR code"
    over = Canvas.width(text) - 124
    moving = [marquee_offset(over, t / 10) for t in range(0, 2000)]
    last_move = max(i for i in range(1, len(moving)) if moving[i] != moving[i - 1]) / 10
    assert moving.count(over) >= SCROLL_PASSES  # it reached its end each pass
    assert all(off == 0 for off in moving[int(last_move * 10):])
    assert 3 * 4 < last_move < 200  # three passes of at least their two pauses, then still
    pictures = []
    for t in (0.0, last_move + 1, last_move + 60, 10_000):
        c = Canvas()
        c.marquee(2, 52, text, "small", 124, t)
        pictures.append(c.image.tobytes())
    assert len(set(pictures)) == 1  # at rest it is the very picture it started with


def test_lines_that_scroll_up_go_through_three_times_then_show_the_first_again():
    from companion.drawing.canvas import SCROLL_PASSES, scroll_index, scroll_seconds

    once = scroll_seconds(6, 3)
    shown = [scroll_index(6, 3, t / 10) for t in range(int(once * SCROLL_PASSES * 10) + 200)]
    assert shown[: int(once * 10)].count(3) > 0  # the last lines are reached
    at_rest = shown[int(once * SCROLL_PASSES * 10):]
    assert at_rest and set(at_rest) == {0}
    assert 3 in shown[int(once * (SCROLL_PASSES - 1) * 10): int(once * SCROLL_PASSES * 10)]  # the third pass too
