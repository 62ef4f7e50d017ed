"""galapagos-dice: the moves offered are exactly the actions the rules accept.

Seeded random playouts (advanced both with ``rules.candidates`` and with random
concrete moves from the forms themselves): at every state every concrete move
offered is accepted, every candidate is offered, and wild or mutated actions are
offered exactly when the rules accept them. Every line of every dice scenario
is offered before it is applied; a refused line is not. The rule tests below
take their sentence from the rulebook (seeds/002).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.engine import moves as M
from companion.engine.rules import RuleError
from companion.games.dice import GAME
from companion.games.dice.island import layout_from_colours
from tests.support.dice import COLOURS, RULES, act, new, plan_all, play, ready

SCENARIOS = sorted((Path(__file__).parent.parent / "scenarios").glob("dice_*.jsonl"))
NAMES = ("Ann", "Bob", "Cy", "Dee")


def accepts(state: Any, action: dict[str, Any]) -> bool:
    try:
        RULES.apply(state, action)
    except RuleError:
        return False
    return True


def offered(state: Any, action: dict[str, Any]) -> bool:
    return M.match(GAME.moves(state), action) is None


def random_game(rng: random.Random) -> Any:
    """A new game of 2-4 players on a random island; sometimes the variant, few turtles or a one-colour coast."""
    count = rng.randint(2, 4)
    options: dict[str, Any] = {"layout_seed": rng.randrange(10**6)}
    if count == 2 and rng.random() < 0.3:
        options["two_player_variant"] = True
    if rng.random() < 0.3:
        numbers = rng.sample(range(1, 37), rng.randint(1, 14))
        options["turtles"] = {str(n): rng.choice(COLOURS) for n in numbers}
    if rng.random() < 0.15:  # a freely coloured island: many same-colour neighbours, many paths
        del options["layout_seed"]
        options["layout"] = layout_from_colours([rng.choice(COLOURS[:3]) for _ in range(36)])
    return RULES.setup(list(NAMES[:count]), options)


def wild(rng: random.Random, state: Any) -> dict[str, Any]:
    """An action that may or may not be legal, near the legal ones."""
    who = rng.choice(list(state.table.players) + ["Zed"])
    kind = rng.choice(["move", "move", "plan", "roll", "done", "timer_expired", "place_turtles", "start"])
    if kind == "move":
        i = state.table.players.index(who) if who in state.table.players else 0
        here = state.pawns[i] or 1
        path = [here] if rng.random() < 0.3 else []
        for _ in range(rng.randint(0, 6)):
            nxt = rng.choice(list(state.table.island.neighbours[here]) + [here, 0, 37])
            path.append(nxt)
            here = nxt if nxt in state.table.island.colour else here
        return act("move", who, path=path)
    if kind in ("plan", "roll", "done"):
        rolled = state.rolls[state.table.players.index(who)] if who in state.table.players else None
        pool = list(rolled) if rolled and rng.random() < 0.6 else COLOURS + ["purple"]
        dice = [rng.choice(pool) for _ in range(rng.randint(0, 6))]
        if kind == "done" and rng.random() < 0.5:
            return act(kind, who)
        return act(kind, who, dice=dice)
    if kind == "place_turtles":
        pool = sorted(state.bag) or [1]
        k = min(state.table.per_round, len(state.bag)) + rng.choice([-1, 0, 0, 0, 1])
        numbers = [rng.choice(pool + [0, 37] + sorted(state.island)) for _ in range(max(0, k))]
        return act(kind, numbers=numbers)
    if kind == "start":
        return act(kind, who, field=rng.randint(0, 37))
    return act(kind)


def mutations(rng: random.Random, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Small changes of an offered action: a die, a field, a number, a step more or less."""
    out = []
    for key, value in action.items():
        if isinstance(value, list):
            if value:
                j = rng.randrange(len(value))
                changed = list(value)
                changed[j] = rng.choice(COLOURS) if isinstance(value[j], str) else value[j] + rng.choice([-1, 1, 6])
                out += [{**action, key: changed}, {**action, key: value[:-1]}, {**action, key: value + value[-1:]}]
            out.append({**action, key: value + [rng.choice(COLOURS) if key == "dice" else rng.randint(0, 37)]})
        elif isinstance(value, int) and key != "player":
            out.append({**action, key: value + rng.choice([-1, 1])})
    out.append({k: v for k, v in action.items() if k != "player"})
    return out


def check_state(state: Any, rng: random.Random, wild_tries: int = 6) -> int:
    """All three directions at one state; returns how many actions were checked."""
    forms = GAME.moves(state)
    tried, refused = M.audit_step(forms, lambda a: accepts(state, a), limit=24, rng=rng)
    assert not refused, refused[:3]
    checked = tried
    for c in RULES.candidates(state):
        assert M.match(forms, c) is None, (c, M.match(forms, c))
        checked += 1
    samples = [a for f in forms for a in M.expand(f, 3, rng)]
    probes = [wild(rng, state) for _ in range(wild_tries)]
    probes += [x for a in rng.sample(samples, min(3, len(samples))) for x in mutations(rng, a)]
    for f in forms:
        probes += [a for a, _why in M.disabled_moves(f)]
    for a in probes:
        assert (M.match(forms, a) is None) == accepts(state, a), (a, M.match(forms, a), accepts(state, a))
        checked += 1
    return checked


@pytest.mark.parametrize("seed", [0, 1, *(pytest.param(s, marks=pytest.mark.soak) for s in range(2, 6))])
@pytest.mark.slow(reason="random dice playouts, every move offered tried against the rules at every state")
def test_random_playouts_offer_exactly_what_the_rules_accept(seed):
    """Two seeds in ``make test``; ``make soak`` plays all six (about 30 s each on two busy cores)."""
    rng = random.Random(seed)
    checked = states = 0
    for _game in range(3):
        state = random_game(rng)
        for _ in range(160):
            checked += check_state(state, rng)
            states += 1
            forms = GAME.moves(state)
            if not forms:
                assert RULES.view(state)["over"]
                break
            if rng.random() < 0.5:
                action = rng.choice(RULES.candidates(state))
            else:
                action = rng.choice(list(M.expand(rng.choice(forms), 40, rng)))
            state, _ = RULES.apply(state, action)
    assert states > 100 and checked > 1000


def test_a_game_over_offers_nothing_and_every_ongoing_state_offers_something():
    rng = random.Random(99)
    for _ in range(6):
        state = random_game(rng)
        for _ in range(3000):
            forms = GAME.moves(state)
            if RULES.view(state)["over"]:
                assert forms == []
                break
            assert forms, RULES.view(state)
            state, _ = RULES.apply(state, rng.choice(RULES.candidates(state)))


@pytest.mark.parametrize("script", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_scenario_line_is_offered_before_it_is_applied(script):
    lines = [json.loads(x) for x in script.read_text().splitlines() if x.strip()]
    head, actions = lines[0], lines[1:]
    try:
        state = RULES.setup(head["players"], head.get("options", {}))
    except RuleError:  # a scenario whose header is refused has no move to offer
        assert not actions
        return
    for number, action in enumerate(actions, start=2):
        forms = GAME.moves(state)
        try:
            after, _ = RULES.apply(state, action)
        except RuleError:
            assert M.match(forms, action) is not None, f"line {number} is refused but offered: {action}"
            assert number == len(lines), "a refusal scenario stops at its refused line"
            return
        assert M.match(forms, action) is None, f"line {number}: {M.match(forms, action)}"
        state = after


def test_moves_on_random_states_are_all_accepted_in_step_order():
    """Every screen calls moves() on every change (its speed is measured by ``bench/moves.py``):
    on random states, each form carries a step and the list comes next, also, override."""
    from companion.engine.moves import STEPS

    rng = random.Random(5)
    for _ in range(6):
        state = random_game(rng)
        for _ in range(300):
            forms = GAME.moves(state, "fr")
            steps = [STEPS.index(f["step"]) for f in forms]
            assert steps == sorted(steps)
            if not forms:
                break
            state, _ = RULES.apply(state, rng.choice(RULES.candidates(state)))


# -- the rulebook's sentences, as the forms show them ------------------------------

def form(state: Any, kind: str, player: str | None = None, alias: bool = False) -> dict[str, Any]:
    """The one form of ``kind`` for ``player``: as screens show it, or with its alias spellings."""
    forms = GAME.moves(state) if alias else M.visible(GAME.moves(state))
    found = [f for f in forms if f["type"] == kind and f["player"] == player]
    assert len(found) == 1, [(f["type"], f["player"]) for f in forms]
    return found[0]


def kinds(state: Any) -> set[tuple[str, str | None]]:
    return {(f["type"], f["player"]) for f in M.visible(GAME.moves(state))}


def test_set_up_offers_each_pawn_and_the_first_turtles():
    """"five turtles (with 2 players) or 6 turtles (for 3 and 4 players) are drawn from the bag"."""
    two, three = new(), new(("Ann", "Bob", "Cy"))
    assert kinds(two) == {("start", "Ann"), ("start", "Bob"), ("place_turtles", None)}
    spec = form(two, "place_turtles")["fields"][0]["items"]
    assert (spec["min"], spec["max"], spec["distinct"]) == (5, 5, True)
    assert [c["value"] for c in spec["choices"]] == list(range(1, 37))
    assert form(three, "place_turtles")["fields"][0]["items"]["min"] == 6


def test_a_pawn_cannot_start_on_a_turtle_lying_out_nor_where_another_pawn_drew():
    """"Each player then draws a turtle from the bag and places his/her pawn on that island tile (number)."
    A turtle on the island or drawn for another pawn is not in the bag: those fields are disabled, with why."""
    state = play(new(("Ann", "Bob", "Cy")), act("place_turtles", numbers=[3, 4, 5, 6, 7, 8]), act("start", "Ann", field=12))
    choices = {c["value"]: c for c in form(state, "start", "Bob")["fields"][0]["choices"]}
    assert choices[5]["disabled"] and "5" in choices[5]["disabled"]
    assert choices[12]["disabled"] and "Ann" in choices[12]["disabled"]
    assert not choices[13]["disabled"]
    assert [v for v, c in choices.items() if not c["disabled"]] == [n for n in range(1, 37) if n not in (3, 4, 5, 6, 7, 8, 12)]
    assert ("start", "Ann") not in kinds(state)  # Ann's pawn is out
    assert ("place_turtles", None) not in kinds(state)  # the first turtles are out


def test_planning_offers_an_optional_roll_and_a_plan_of_up_to_five_dice_but_no_timer():
    """"All players roll their 5 dice" ... "You do not need to use all of your dice." The sand timer
    is turned by the first player to finish planning, so it cannot run out before."""
    state = ready()
    assert kinds(state) == {("roll", "Ann"), ("plan", "Ann"), ("done", "Ann"), ("roll", "Bob"), ("plan", "Bob"),
                            ("done", "Bob")}
    roll = form(state, "roll", "Ann")["fields"][0]["items"]
    assert (roll["min"], roll["max"]) == (5, 5)
    plan = form(state, "plan", "Ann")
    spec = plan["fields"][0]["items"]
    assert (spec["min"], spec["max"]) == (0, 5) and [c["value"] for c in spec["choices"]] == COLOURS
    assert plan["confirm"] and plan["preview"]["turns_timer"]  # the first plan is final: "He may NOT re-order his dice."


def test_after_a_roll_only_those_dice_can_be_planned():
    """"...then sort them into the order they want to use them": the plan is drawn from the roll."""
    state = play(ready(island=(8,)), act("roll", "Ann", dice=["red", "red", "blue", "white", "red"]))
    assert ("roll", "Ann") not in kinds(state)
    plan = form(state, "plan", "Ann")
    spec = plan["fields"][0]["items"]
    assert [c["value"] for c in spec["choices"]] == ["white", "red", "blue"]
    assert spec["limits"] == {"red": 3, "blue": 1, "white": 1}
    assert offered(state, act("plan", "Ann", dice=["red", "blue", "red", "red"]))
    assert not offered(state, act("plan", "Ann", dice=["blue", "blue"]))
    assert not offered(state, act("plan", "Ann", dice=["green"]))
    assert plan["hint"]["order"] == ["white"] and plan["hint"]["points"] == 1  # 1 -> 8 (white), turtle 8
    assert "white" in plan["hint"]["text"]


def test_the_first_plan_turns_the_timer_and_the_table_may_then_end_planning():
    """"When the timer expires, the planning phase ends for all players"; the preview says who then
    moves with no dice ("Any dice not on a player's set up area cannot be used")."""
    state = plan_all(ready(("Ann", "Bob", "Cy"), pawns=(1, 2, 3)), ("Bob", ["red"]))
    timer = form(state, "timer_expired")
    assert timer["confirm"] and timer["preview"]["unplanned"] == ["Ann", "Cy"]
    assert "Ann and Cy" in timer["preview"]["text"]
    assert ("plan", "Bob") not in kinds(state) and ("plan", "Ann") in kinds(state)


def test_the_first_planner_moves_first_with_every_path_his_dice_allow():
    """"The player who turned over the sand timer moves his figure first. With each die in his line
    he can move to a neighboring island space." On the spiral island from field 1 (black) with
    white, red: 1 -> 2 (white) or 8 (white); then 2 -> 3 or 9 (red), 8 -> 9 or 21 (red)."""
    state = plan_all(ready(pawns=(1, 30)), ("Ann", ["white", "red"]), ("Bob", []))
    paths = sorted(c["value"] for c in form(state, "move", "Ann")["fields"][0]["choices"])
    assert paths == [[], [2], [2, 3], [2, 9], [8], [8, 9], [8, 21]]
    assert kinds(state) == {("move", "Ann")}  # everyone was done: the sand no longer counts
    spelt = [c for c in form(state, "move", "Ann", alias=True)["fields"][0]["choices"] if c.get("alias")]
    assert sorted(c["value"] for c in spelt) == [[1, *p] for p in paths]  # the same walks, from the pawn's field
    assert all(c["value"][1:] == c["canonical"] for c in spelt)


def test_a_path_preview_names_the_turtles_and_points_it_takes():
    """"If a player moves onto an island space with a turtle, he takes the turtle"; and "A player who
    starts movement with a turtle on his island spot can collect that turtle" (even standing still)."""
    state = plan_all(ready(pawns=(1, 30), island=(1, 8, 21)), ("Ann", ["white", "red"]), ("Bob", []))
    choices = {tuple(c["value"]): c for c in form(state, "move", "Ann")["fields"][0]["choices"]}
    assert choices[()]["preview"]["turtles"] == [1]
    assert choices[(8, 21)]["preview"]["turtles"] == [1, 8, 21]
    assert choices[(8, 21)]["preview"]["points"] == 3
    assert "8, 21" in choices[(8, 21)]["preview"]["text"] and "+3" in choices[(8, 21)]["preview"]["text"]
    first = form(state, "move", "Ann")["fields"][0]["choices"][0]
    assert first["value"] == [8, 21]  # the best walk is listed first
    for path, c in choices.items():
        after = play(state, act("move", "Ann", path=list(path)))
        assert RULES.scores(after)["Ann"] == c["preview"]["points"]


def test_no_path_enters_the_volcano_and_no_field_is_offered_as_a_default():
    """"Note: You cannot enter the volcano spot." And no choice is made for the player."""
    rng = random.Random(3)
    for _ in range(3):
        state = random_game(rng)
        for _ in range(300):
            forms = GAME.moves(state)
            for f in forms:
                assert all("default" not in fld for fld in f["fields"])
                if f["type"] == "move":
                    assert all(0 not in c["value"] for c in f["fields"][0]["choices"])
            if not forms:
                break
            state, _ = RULES.apply(state, rng.choice(RULES.candidates(state)))


def test_the_variant_win_and_the_last_turtle_show_in_the_preview():
    """Two-player variant: "if a player collects 5 turtles of the same color, he/she immediately wins";
    and the game ends when the bag is empty and every turtle is collected."""
    turtles = {n: "red" for n in (8, 21, 30, 31, 32, 33)}
    state = ready(pawns=(1, 30), turtles=turtles, island=(8, 21), two_player_variant=True)
    from dataclasses import replace

    state = replace(state, hauls=((31, 32, 33), ()), bag=frozenset({30}))
    state = plan_all(state, ("Ann", ["white", "red"]), ("Bob", []))
    choices = {tuple(c["value"]): c["preview"] for c in form(state, "move", "Ann")["fields"][0]["choices"]}
    assert choices[(8, 21)]["wins"] and not choices[(8,)]["wins"]
    last = replace(ready(pawns=(1, 30), turtles={8: "red"}, island=(8,)), bag=frozenset())
    last = plan_all(last, ("Ann", ["white"]), ("Bob", []))
    ends = {tuple(c["value"]): c["preview"]["ends"] for c in form(last, "move", "Ann")["fields"][0]["choices"]}
    assert ends == {(): False, (2,): False, (8,): True}



def test_until_the_sand_runs_out_everyone_but_the_first_finisher_may_plan_again_and_say_done():
    """"Once the first player has completed his planning, he grabs the sand timer, flips it over ...
    He may NOT re-order his dice. When the timer expires, the planning phase ends for all players."
    Ann finished first; Bob planned and may plan again; « done » is offered until he says it."""
    state = play(ready(("Ann", "Bob", "Cy"), pawns=(1, 2, 3)), act("plan", "Ann", dice=["white"]),
                 act("plan", "Bob", dice=["red"]))
    assert kinds(state) == {("plan", "Bob"), ("done", "Bob"), ("roll", "Cy"), ("plan", "Cy"), ("done", "Cy"),
                            ("timer_expired", None)}
    assert not form(state, "plan", "Bob")["confirm"]  # not final: he may change it until the sand runs out
    assert offered(state, act("plan", "Bob", dice=["blue", "red"]))
    assert not offered(state, act("plan", "Ann", dice=["red"]))
    done = form(state, "done", "Bob")
    assert done["fields"] == [] and done["preview"]["dice"] == ["red"] and "red" in done["preview"]["text"]
    assert offered(state, act("done", "Bob", dice=["green"]))  # the seat button's spelling: the lanes' dice
    state = play(state, act("done", "Bob"))
    assert ("done", "Bob") not in kinds(state) and ("plan", "Bob") in kinds(state)
    assert not offered(state, act("done", "Bob")) and offered(state, act("done", "Bob", dice=["green"]))
    last = form(state, "done", "Cy")["preview"]
    assert last["starts_moving"] and "moving starts" in last["text"]


def test_the_first_done_turns_the_timer_and_a_mover_without_a_plan_can_only_stay():
    """"The first to finish turns over the timer"; "A player who starts movement with a turtle on his
    island spot can collect that turtle" - also a player who made no plan, with no dice to move."""
    state = ready(pawns=(1, 30), island=(30,))
    assert form(state, "done", "Bob")["preview"]["turns_timer"]
    state = play(state, act("done", "Ann", dice=["white"]), act("timer_expired"))
    state = play(state, act("move", "Ann", path=[]))
    stay = form(state, "move", "Bob")["fields"][0]["choices"]
    assert [c["value"] for c in stay] == [[]] and stay[0]["preview"]["turtles"] == [30]
