"""galapagos-dice at the table: dice faces, lanes, turtles scanned at the bag, and whole games via the table.

The rulebook's table: "Each player receives 5 dice" and sorts them "from left to
right on their segment of the board" (the seat's lane slots); "All turtles are
placed in the cloth bag" and are drawn from it (the bag reader). Every dice
scenario is played through the simulated table only (``replay --via table``:
buttons, encoder and tags) as the replay calls the package today, plans
dialled, in tests/engine/test_interfaces_contract.py (once for every game); here the
full games are played again with the dice laid in the lanes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.board import replay
from companion.engine.rules import RuleError
from companion.games.dice import GAME, table_inputs
from tests.support.dice import RULES, act, new, plan_all, play, ready

SCENARIOS = sorted((Path(__file__).parent.parent / "scenarios").glob("dice_*.jsonl"))


@dataclass
class Tag:
    kind: str
    value: dict[str, Any]


def turtle(n: int) -> Tag:
    return Tag("turtle", {"number": n})


def die(colour: str) -> Tag:
    return Tag("die", {"die": 1, "bottom": table_inputs.opposite(colour), "up": colour})


def test_firmware_faces_are_the_colours_in_design_order():
    assert [GAME.die_face(f) for f in range(1, 7)] == ["black", "white", "red", "green", "yellow", "blue"]
    assert GAME.die_face(0) is None and GAME.die_face(7) is None and GAME.die_face(True) is None
    assert [table_inputs.opposite(c) for c in ("black", "white", "red")] == ["blue", "yellow", "green"]


def test_the_seat_button_says_done_with_the_dice_in_its_lanes_left_to_right():
    """"...placing the dice from left to right on their segment of the board." The first to finish
    planning flips the timer: his press is the round's first plan; a later press is « I am done » with
    the dice as they lie."""
    state = ready()
    assert GAME.lane_action("Ann", [3, "blue", None, 1], state) == act("plan", "Ann", dice=["red", "blue", "black"])
    assert GAME.lane_action("Ann", [], state) is None  # no dice laid: the button selects the seat
    turned = play(state, act("plan", "Ann", dice=["red"]))
    assert GAME.lane_action("Bob", ["white", 6], turned) == act("done", "Bob", dice=["white", "blue"])
    again = GAME.lane_action("Ann", ["red"], turned)  # the first finisher's button once more: his plan stands
    with pytest.raises(RuleError) as err:
        RULES.apply(turned, again)
    assert "first to finish" in err.value.message
    moving = plan_all(state, ("Ann", ["white"]), ("Bob", []))
    assert GAME.lane_action("Ann", ["white"], moving) is None  # outside planning it selects the seat
    odd = GAME.lane_action("Bob", [9], state)
    with pytest.raises(RuleError) as err:
        RULES.apply(state, odd)
    assert "Bob" in err.value.message


def test_at_the_sands_end_the_dice_lying_in_the_lanes_are_the_plans():
    """"When the timer expires, the planning phase ends for all players. Any dice not on a player's set up
    area cannot be used for the movement phase" - so the dice on it can, button pressed or not. Ann
    finished first (her plan is final); Bob laid two dice and never pressed; Cy planned on his phone and
    left his lanes empty; Dee's lanes hold what she planned already."""
    players = ("Ann", "Bob", "Cy", "Dee")
    state = play(ready(players, pawns=(1, 2, 3, 4)), act("plan", "Ann", dice=["white"]),
                 act("plan", "Cy", dice=["red"]), act("done", "Dee", dice=["blue"]))
    lanes = {"Ann": ["red", "red"], "Bob": [None, 2, "red", None], "Cy": [], "Dee": ["blue"]}
    plans = GAME.at_timer_end(state, lanes)
    assert plans == [act("plan", "Bob", dice=["white", "red"])]
    state = play(state, *plans, act("timer_expired"))
    assert RULES.view(state)["dice"] == {"Ann": ["white"], "Bob": ["white", "red"], "Cy": ["red"], "Dee": ["blue"]}
    assert RULES.view(state)["order"] == ["Ann", "Bob", "Cy", "Dee"]


def test_at_the_sands_end_lanes_the_rules_would_refuse_are_left_out():
    """A plan must use the dice rolled: lanes that do not fit the recorded roll are not journaled (the seat
    keeps what it planned); an unreadable die ends the plan there; before the timer turns, nothing."""
    state = play(ready(("Ann", "Bob", "Cy"), pawns=(1, 2, 3)), act("roll", "Bob", dice=["red"] * 5),
                 act("plan", "Ann", dice=[]))
    plans = GAME.at_timer_end(state, {"Bob": ["blue"], "Cy": ["green", 9, "red"]})
    assert plans == [act("plan", "Cy", dice=["green"])]
    assert GAME.at_timer_end(ready(), {"Ann": ["red"]}) == []  # the sand has not been turned
    assert GAME.at_timer_end(plan_all(ready(), ("Ann", []), ("Bob", [])), {"Ann": ["red"]}) == []  # planning is over


def test_turtles_scanned_at_the_bag_gather_into_the_draw_and_the_last_sends_it():
    """"...five turtles (with 2 players) ... are drawn from the bag and placed\""""
    state = new()
    assert GAME.tag_action(turtle(3), "bag", state) == {"fill": {"numbers": 3}, "send": False}
    dialled = {"type": "place_turtles", "player": None, "values": {"numbers": [3, 4, 5, 6]}}
    assert GAME.tag_action(turtle(7), "bag", state, entry=dialled) == {"fill": {"numbers": 7}, "send": True}
    assert GAME.tag_action(turtle(4), "bag", state, entry=dialled) == {"fill": {}}  # scanned twice: nothing
    assert GAME.tag_action(turtle(3), "scan", state) is None  # turtles are read at the bag


def test_a_turtle_not_in_the_bag_is_sent_so_the_rules_say_where_it_is():
    state = play(new(), act("place_turtles", numbers=[4, 5, 8, 9, 10]), act("start", "Ann", field=1),
                 act("start", "Bob", field=2))
    state = plan_all(state, ("Ann", ["white"]), ("Bob", []))
    state = play(state, act("move", "Ann", path=[8]), act("move", "Bob", path=[]))  # field 8 is white, beside 1
    assert state.phase == "place"
    action = GAME.tag_action(turtle(8), "bag", state)
    assert action == {"type": "place_turtles", "numbers": [8]}
    with pytest.raises(RuleError) as err:
        RULES.apply(state, action)
    assert "Turtle 8 is not in the bag (it is already collected)" in err.value.message


def test_once_the_first_turtles_are_out_a_drawn_turtle_places_a_pawn():
    """"Each player then draws a turtle from the bag and places his/her pawn on that island tile (number).\""""
    state = play(new(), act("place_turtles", numbers=[3, 4, 5, 6, 7]))
    assert GAME.tag_action(turtle(12), "bag", state) == {"fill": {"field": 12}, "send": True}
    before = new()  # turtles not yet placed: a scanned turtle is one of the first draw, unless a start is dialled
    assert GAME.tag_action(turtle(12), "bag", before) == {"fill": {"numbers": 12}, "send": False}
    starting = {"type": "start", "player": "Ann", "values": {}}
    assert GAME.tag_action(turtle(12), "bag", before, entry=starting) == {"fill": {"field": 12}, "send": True}


def test_dice_on_the_scan_pad_are_a_roll_and_the_fifth_sends_it():
    """"All players roll their 5 dice.\""""
    state = ready()
    assert GAME.tag_action(die("red"), "scan", state) == {"fill": {"dice": "red"}, "send": False}
    rolling = {"type": "roll", "player": "Bob", "values": {"dice": ["red", "red", "blue", "black"]}}
    assert GAME.tag_action(die("green"), "scan", state, entry=rolling) == {"fill": {"dice": "green"}, "send": True}
    assert GAME.tag_action(die("green"), "scan", new()) is None  # not while setting up


def test_table_tags_lay_turtles_at_the_bag_and_dice_in_the_players_lanes():
    assert GAME.table_tags(act("place_turtles", numbers=[3, 9])) == [("bag", "turtle", {"number": 3}),
                                                                      ("bag", "turtle", {"number": 9})]
    state = ready(("Ann", "Bob", "Cy"), pawns=(1, 2, 3))
    lanes = GAME.table_tags(act("plan", "Bob", dice=["red", "blue"]), state)
    assert [(p, k, v["up"]) for p, k, v in lanes] == [("seat2.slot1", "die", "red"), ("seat2.slot2", "die", "blue")]
    assert GAME.table_tags(act("plan", "Bob", dice=["red"])) is None  # without the seating: dialled
    assert GAME.table_tags(act("plan", "Bob", dice=[]), state) is None  # an empty plan is dialled
    turned = play(state, act("plan", "Ann", dice=[]))
    assert GAME.table_tags(act("plan", "Bob", dice=["red"]), turned) is None  # a later plan (not done) is dialled
    lanes = GAME.table_tags(act("done", "Cy", dice=["green"]), turned)
    assert [(p, v["up"]) for p, _k, v in lanes] == [("seat3.slot1", "green")]  # « done » with dice: the lanes
    assert GAME.table_tags(act("done", "Cy"), turned) is None  # « done » alone is dialled
    assert GAME.table_tags(act("move", "Bob", path=[8])) is None
    assert set(GAME.component_kinds()) == {"turtle", "die"}


def header_accepted(script: Path) -> bool:
    import json

    head = json.loads(script.read_text().splitlines()[0])
    try:
        RULES.setup(head["players"], head.get("options", {}))
    except RuleError:
        return False
    return True


PLAYABLE = [p for p in SCENARIOS if header_accepted(p)]


def test_a_scenario_whose_header_is_refused_is_reported_not_entered():
    from companion.engine.audit import ScriptError

    refused = [p for p in SCENARIOS if not header_accepted(p)]
    assert refused
    for script in refused:
        with pytest.raises(ScriptError):
            replay.replay_via_table(script.read_text().splitlines())


@pytest.mark.parametrize("script", [p for p in PLAYABLE if "full_game" in p.name or "four_players" in p.name
                                    or "corner" in p.name or "variant" in p.name],
                         ids=lambda p: p.stem)
def test_scenarios_play_with_the_dice_laid_in_the_lanes(script, monkeypatch):
    """As the replay would with the seating at hand: each plan is laid die by die, then the seat button."""
    current: dict[str, Any] = {}
    init = replay.TableReplay.__init__

    def remember(self, *args, **kwargs):
        init(self, *args, **kwargs)
        current["table"] = self

    laid = []

    def with_state(action, state=None):
        tags = table_inputs.table_tags(action, current["table"].session.state)
        if tags and action["type"] in ("plan", "done"):
            laid.append(action)
        return tags

    monkeypatch.setattr(replay.TableReplay, "__init__", remember)
    monkeypatch.setattr(GAME, "table_tags", with_state)
    report = replay.replay_via_table(script.read_text().splitlines())
    assert report["ok"], report
    assert laid
