"""galapagos-dice: what the package gives the dashboard - the island picture, the plan hint, the digital
dice, a new island to build, the set-up readings."""

from __future__ import annotations

import random

from companion.games.dice import GAME
from companion.games.dice.paths import best_path as hint
from tests.support.dice import RULES, act, new, play, ready


def public(state):
    return RULES.public_state(state)


def test_the_island_picture_shows_every_field_its_turtle_and_the_pawns():
    state = ready(pawns=(1, 30), island=(8,))
    page = GAME.page(state, public(state), None, "fr")
    cells = {c["number"]: c for c in page["island"]["cells"]}
    assert len(cells) == 36
    assert cells[8]["turtle"] == "white" and cells[8]["turtle_word"] == "blanc"
    assert [p["name"] for p in cells[1]["pawns"]] == ["Ann"] and [p["name"] for p in cells[30]["pawns"]] == ["Bob"]
    assert cells[1]["fill"] == GAME.palette()["fill"]["black"]
    assert "hint" not in page  # the table sees no one's hint


def test_a_seat_that_rolled_gets_the_best_plan_for_its_dice_until_its_plan_is_final():
    """The hint: the order of the rolled dice that takes the most points (paths.best_path) - until the
    seat's plan is final (the first finisher's) or the sand has run out; the others may still re-plan."""
    state = play(ready(pawns=(1, 30), island=(8,)), act("roll", "Ann", dice=["white", "red", "red", "blue", "black"]))
    page = GAME.page(state, public(state), "Ann", "en")
    assert page["hint"]["order"] == hint(state, "Ann", ["white", "red", "red", "blue", "black"])["order"]
    assert page["hint"]["points"] == 1 and '"plan"' in page["hint"]["json"]
    assert "white" in page["hint"]["text"]
    assert "hint" not in GAME.page(state, public(state), "Bob", "en")  # Bob has not rolled
    planned = play(state, act("plan", "Ann", dice=["white"]))
    assert "hint" not in GAME.page(planned, public(planned), "Ann", "en")  # she finished first
    bob = play(planned, act("roll", "Bob", dice=["blue"] * 5), act("plan", "Bob", dice=["blue"]))
    assert "hint" in GAME.page(bob, public(bob), "Bob", "en")  # planned, but he may still change it
    over = play(bob, act("timer_expired"))
    assert "hint" not in GAME.page(over, public(over), "Bob", "en")


def test_the_players_table_marks_who_has_said_done_while_planning():
    """« I am done »: the tablet shows who has finished (the first finisher included), in French too."""
    from pathlib import Path

    import jinja2

    web = Path(__file__).parents[2] / "web" / "templates"
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(web), GAME.templates()]))
    state = play(ready(("Ann", "Bob", "Cy"), pawns=(1, 2, 3)), act("plan", "Ann", dice=["white"]), act("done", "Cy"))
    pub = public(state)

    def row(name, lang="en"):
        p = next(x for x in pub["players"] if x["name"] == name)
        return env.get_template("player.html").render(p=p, pub=pub, palette=GAME.palette(),
                                                      gt=lambda msgid, **kw: GAME.t(msgid, lang, **kw))

    assert "✓" in row("Ann") and "✓" in row("Cy") and "✓" not in row("Bob")
    assert 'title="I am done"' in row("Cy") and 'title="J\'ai fini"' in row("Cy", "fr")
    moving = play(state, act("done", "Bob"))
    pub = public(moving)
    assert "✓" not in row("Ann")  # planning is over: nothing to mark


def test_the_digital_dice_roll_five_for_a_player_once_a_round():
    spec = GAME.draws()["dice"]
    state = ready()
    action = spec["fn"](state, random.Random(4), "Bob")
    assert action["type"] == "roll" and action["player"] == "Bob" and len(action["dice"]) == 5
    after, _ = RULES.apply(state, action)
    assert spec["player"] and spec["action"] == "roll"
    # the draw fills Bob's « roll » move: offered with it, gone once Bob's dice are in
    rolls = [f for f in GAME.moves(state) if f["type"] == "roll" and f["player"] == "Bob"]
    assert rolls and rolls[0]["draw"] == {"what": "dice", "label": "Roll the dice"}
    assert not [f for f in GAME.moves(after) if f.get("draw") and f["player"] == "Bob"]


def test_a_new_island_to_build_is_the_same_for_the_same_seed():
    """"The island is built randomly from the 37 island fields set into the frames".\""""
    one, two = GAME.setup_helpers(7), GAME.setup_helpers(7)
    assert one["layout"] == two["layout"] and one["seed"] == 7
    assert len(one["island"]["cells"]) == 36
    assert RULES.view(RULES.setup(["Ann", "Bob"], {"layout": one["layout"]}))["layout"] == one["layout"]


def test_a_new_game_without_an_island_gets_a_random_one_and_the_readings_are_valid_options():
    options = GAME.default_options({})
    assert isinstance(options["layout_seed"], int)
    assert GAME.default_options({"layout_seed": 3}) == {"layout_seed": 3}
    for spec in GAME.option_specs("fr"):
        assert spec["default"] in [c["value"] for c in spec["choices"]]
        for c in spec["choices"]:
            RULES.setup(["Ann", "Bob"], {spec["name"]: c["value"]})
    assert {s["name"] for s in GAME.option_specs()} == {"two_player_variant", "timer_seconds"}


def test_the_set_up_island_starts_a_game_with_its_seed():
    seed = GAME.setup_helpers(11)["seed"]
    assert RULES.view(new(layout_seed=seed))["layout"] == GAME.setup_helpers(11)["layout"]
