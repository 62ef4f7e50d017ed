"""pocket-galapagos moves: the forms offer exactly what the rules accept.

Seeded random playouts (advanced with ``rules.candidates`` and with random
concrete moves taken from the forms themselves) check at every state that every
concrete move offered is accepted, that every candidate is matched, and — over
the whole action grid, legal or not — that an action is matched exactly when
``apply`` accepts it. Every line of every pocket scenario is matched before it is
applied (and a refused line is not). The rule-by-rule tests below are written
from seed 003's sentences.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.engine import audit, moves
from companion.engine.rules import RuleError
from companion.games import package
from companion.games.pocket.rules import SPACES, SPECIES
from tests.support.pocket import END, RULES, change, move, new, ocean, play, put

GAME = package("pocket-galapagos")
SCENARIOS = sorted(Path(__file__).parents[1].glob("scenarios/pocket*.jsonl"))
PLACES = (*SPACES, "elsewhere")


def accepted(state: Any, action: dict[str, Any]) -> bool:
    try:
        RULES.apply(state, action)
    except RuleError:
        return False
    return True


def grid() -> list[dict[str, Any]]:
    """Every action of the vocabulary over canonical values and their near misses."""
    species = [*SPECIES, "eagle", 3]
    out: list[dict[str, Any]] = [END]
    for s, n, mode in itertools.product(species, [-1, 0, 1, 2, 5, 7, 8, True], ["inhabit", "migrate", "swim"]):
        out.append(ocean(s, n, mode))
    for space, s in itertools.product([*SPACES, "ocean", "elsewhere"], species):
        out.append(put(space, s))
    for s, n in itertools.product(species, [-8, -7, -3, -1, 0, 1, 4, 7, 8]):
        out.append(change(s, n))
    for s, a, b in itertools.product(species, PLACES, PLACES):
        out.append(move(s, a, b))
    with_player = []
    for action in out:
        with_player += [action, {**action, "player": "Ann"}, {**action, "player": "Bob"}]
    return with_player


GRID = grid()


def random_options(rng: random.Random) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if rng.random() < 0.5:
        options["start"] = {s: rng.randint(0, 7) for s in SPECIES if rng.random() < 0.7}
    if rng.random() < 0.5:
        options["turns"] = rng.randint(1, 8)
    if rng.random() < 0.6:
        options["spaces"] = {s: rng.choice([1, 2, 3, None]) for s in SPACES if rng.random() < 0.7}
    if rng.random() < 0.3:
        options["eagle_ray"] = {s: rng.choice(SPECIES) for s in SPACES}
    if rng.random() < 0.4:
        options["invasive_play"] = rng.choice(["forced", "free"])
    if rng.random() < 0.4:
        options["dominant_first"] = rng.choice(["empty", "played"])
    return options


def walk_disabled(fields: list[dict[str, Any]], acc: dict[str, Any]):
    """Every (action, reason) reachable through one disabled choice, at any depth of the form."""
    for i, f in enumerate(fields):
        if moves.kind_of(f) != "choices":
            continue
        rest = fields[i + 1:]
        for c in f["choices"]:
            here = {**acc, f["name"]: c["value"]}
            if c.get("disabled"):
                for tail in moves._walk(list(c.get("fields") or []) + rest, here):
                    yield tail, c["disabled"]
                    break
                else:
                    yield here, c["disabled"]
            else:
                yield from walk_disabled(list(c.get("fields") or []) + rest, here)
        return


def check_state(state: Any, rng: random.Random | None = None, sample: int = 0) -> int:
    """The three properties at one state; returns how many concrete moves were offered.

    The whole action grid is tried, or ``sample`` actions of it drawn with ``rng``.
    """
    forms = GAME.moves(state)
    offered = [a for f in forms for a in moves.expand(f, limit=10_000)]
    for action in offered:
        assert accepted(state, action), action
    for action in RULES.candidates(state):
        assert moves.match(forms, action) is None, action
    for action in (rng.sample(GRID, sample) if rng and sample else GRID):
        assert (moves.match(forms, action) is None) == accepted(state, action), action
    for f in forms:
        base = {"type": f["type"], "player": f["player"]}
        for action, reason in walk_disabled(f["fields"], base):
            with pytest.raises(RuleError) as err:
                RULES.apply(state, action)
            assert reason, action
            if f["type"] == "species" and "space" in action:
                assert reason in err.value.message
    assert {f["type"] for f in forms} <= set(RULES.expected(state).actions)
    return len(offered)


@pytest.mark.parametrize("games", [12, pytest.param(30, marks=pytest.mark.soak)])
def test_random_playouts_offer_exactly_what_the_rules_accept(games: int) -> None:
    """Twelve random games in ``make test``, thirty in ``make soak``."""
    rng = random.Random(2024)
    states = offered = 0
    for game in range(games):
        state = RULES.setup(["Ann"], random_options(rng))
        for step in range(30):
            offered += check_state(state, rng, 0 if (game + step) % 10 == 0 else 120)
            states += 1
            if state.result is not None:
                assert GAME.moves(state) == []
                break
            if rng.random() < 0.5:
                action = rng.choice(RULES.candidates(state))
            else:
                form = rng.choice(GAME.moves(state))
                action = rng.choice(list(moves.expand(form)))
            state, _ = RULES.apply(state, action)
    assert states > 16 * games and offered > 1_600 * games


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_line_is_offered_before_it_is_played(path: Path) -> None:
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    try:
        state = RULES.setup(header["players"], header.get("options", {}))
    except RuleError:
        return  # a set-up refusal: no move is ever offered
    for number, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        action = json.loads(text)
        forms = GAME.moves(state)
        try:
            after, _ = RULES.apply(state, action)
        except RuleError:
            assert moves.match(forms, action) is not None, f"line {number} is refused but was offered"
            return
        assert moves.match(forms, action) is None, f"line {number}: {moves.match(forms, action)}"
        state = after


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_the_audit_command_passes_every_scenario(path: Path) -> None:
    try:
        report = audit.audit(path.read_text().splitlines())
    except audit.ScriptError:
        return  # a set-up refusal
    assert report["ok"], report["gaps"]
    assert report["offered"] == report["actions"] and report["offered_refused"] == 0


# -- the forms, rule by rule (seed 003) ------------------------------------------------

def form(state: Any, kind: str, lang: str = "en") -> dict[str, Any] | None:
    return next((f for f in GAME.moves(state, lang) if f["type"] == kind), None)


def choices(fields: list[dict[str, Any]], name: str) -> dict[Any, dict[str, Any]]:
    f = next(f for f in fields if f["name"] == name)
    return {c["value"]: c for c in f["choices"]}


def test_every_form_names_the_player_who_may_leave_it_out() -> None:
    forms = GAME.moves(new())
    assert [f["type"] for f in forms] == ["ocean", "species", "end_turn", "population", "move"]  # next, then also
    assert all(f["player"] == "Ann" and f["player_optional"] for f in forms)
    assert moves.match(forms, {"type": "end_turn"}) is None
    assert moves.match(forms, {"type": "end_turn", "player": "Bob"}) is not None


def test_ocean_raises_the_population_by_the_icons_never_above_seven() -> None:
    """"you increase the corresponding POPULATION ... by the number of ICONS"; "never ... above 7"."""
    state = play(new(start={"rat": 5}))
    rat = choices(form(state, "ocean")["fields"], "species")["rat"]
    icons = choices(rat["fields"], "icons")
    assert list(icons) == [1, 2, 3, 4, 5, 6, 7]
    assert icons[1]["preview"]["text"] == "rat 5→6"
    assert icons[3]["preview"]["after"] == 7 and icons[3]["preview"]["text"] == "rat 5→7"
    modes = choices(rat["fields"], "mode")
    assert modes["inhabit"]["preview"]["ability"] is True and modes["migrate"]["preview"]["ability"] is False


def test_a_species_already_on_the_biome_is_shown_refused_with_the_reason() -> None:
    """"... as long as the played card's SPECIES is not currently on an ISLAND BIOME space."""
    state = play(new(), put("biome", "rat"))
    rat = choices(form(state, "species")["fields"], "species")["rat"]
    spaces = choices(rat["fields"], "space")
    assert spaces["biome"]["disabled"] == "a rat is already on the island biome"
    assert spaces["dominant"]["disabled"] is None
    ant = choices(choices(form(state, "species")["fields"], "species")["ant"]["fields"], "space")
    assert ant["biome"]["disabled"] is None


def test_the_dominant_takes_its_species_or_a_first_card() -> None:
    """"... the first card played to a DOMINANT SPECIES space or its SPECIES is currently played" there."""
    empty = choices(form(new(), "species")["fields"], "species")
    assert all(choices(empty[s]["fields"], "space")["dominant"]["disabled"] is None for s in SPECIES)
    state = play(new(), put("dominant", "ant"))
    offered = choices(form(state, "species")["fields"], "species")
    assert choices(offered["ant"]["fields"], "space")["dominant"]["disabled"] is None
    assert choices(offered["rat"]["fields"], "space")["dominant"]["disabled"] == "the dominant species is ant, not rat"


def test_the_invasive_species_is_offered_only_to_a_card_that_fits_nowhere_else() -> None:
    """"If you ... are not able to play it to an ISLAND BIOME or DOMINANT SPECIES space, it must be played
    to an INVASIVE SPECIES space."""
    state = play(new(), put("biome", "rat"), put("dominant", "ant"))
    offered = choices(form(state, "species")["fields"], "species")
    rat = choices(offered["rat"]["fields"], "space")
    assert rat["invasive"]["disabled"] is None
    assert rat["biome"]["disabled"] and rat["dominant"]["disabled"]
    finch = choices(offered["finch"]["fields"], "space")
    assert "it can still go to the island biome" in finch["invasive"]["disabled"]


def test_the_third_invasive_card_of_a_species_warns_of_the_loss() -> None:
    """"At the end of your turn, if there are three SPECIES of a single type on INVASIVE SPECIES spaces, ... you lose.\""""
    state = play(new(invasive_play="free"), put("invasive", "rat"), put("invasive", "rat"))
    rat = choices(choices(form(state, "species")["fields"], "species")["rat"]["fields"], "space")
    preview = rat["invasive"]["preview"]
    assert preview["count"] == 3 and preview["end_now"] == "invasive_takeover"
    assert preview["text"] == "3 rats on the invasive species (3 lose) · end now: loss"
    assert choices(choices(form(state, "species")["fields"], "species")["ant"]["fields"], "space")["invasive"][
        "preview"]["end_now"] is None


def test_a_species_that_fits_nowhere_is_shown_disabled() -> None:
    state = play(new(spaces={"dominant": 1, "biome": 1, "invasive": 1}),
                 put("dominant", "rat"), put("biome", "ant"), put("invasive", "rat"))
    offered = form(state, "species")
    assert offered is None  # every row is full: no face-down card can be played
    assert "species" not in RULES.expected(state).actions
    state = play(new(spaces={"dominant": 1, "biome": 1, "invasive": 1}), put("dominant", "rat"), put("biome", "ant"))
    species = choices(form(state, "species")["fields"], "species")
    assert species["rat"]["disabled"] is None  # forced to the invasive species
    assert species["ant"]["disabled"] is None
    assert species["finch"]["disabled"] is None


def test_a_population_change_is_any_whole_number_from_minus_seven_to_seven_but_zero() -> None:
    rat = choices(form(new(), "population")["fields"], "species")["rat"]
    values = list(choices(rat["fields"], "change"))
    assert values == [-7, -6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 7]
    assert choices(rat["fields"], "change")[-7]["preview"]["text"] == "rat 3→0"


def test_a_population_preview_warns_when_ending_the_turn_would_lose() -> None:
    """"After decreasing POPULATIONS, if two or more POPULATIONS are at 0, the game ends and you lose.\""""
    state = new(start={"rat": 1, "ant": 3, "finch": 3})
    ant = choices(choices(form(state, "population")["fields"], "species")["ant"]["fields"], "change")
    assert ant[-2]["preview"]["end_now"] == "populations_collapsed"
    assert ant[-2]["preview"]["text"] == "ant 3→1 · end now: loss"
    assert ant[-1]["preview"]["end_now"] is None and ant[-1]["preview"]["text"] == "ant 3→2"


def test_a_move_takes_a_card_from_where_it_is_to_a_place_with_room() -> None:
    """"Also remember that moving and playing are not the same thing.": a move ignores the playing rules."""
    state = play(new(spaces={"biome": 1}), put("biome", "rat"), put("dominant", "ant"))
    species = choices(form(state, "move")["fields"], "species")
    rat_from = choices(species["rat"]["fields"], "from")
    assert rat_from["dominant"]["disabled"] == "no rat is there"
    to = choices(rat_from["biome"]["fields"], "to")
    assert set(to) == {"dominant", "invasive", "elsewhere"}
    assert to["dominant"]["disabled"] is None  # the dominant is ant, but a move is not a play
    ant_from = choices(species["ant"]["fields"], "from")
    assert choices(ant_from["elsewhere"]["fields"], "to")["biome"]["disabled"] == "its only space is taken"


def test_the_end_of_the_turn_previews_every_tracker_and_asks_before_a_loss() -> None:
    state = new(start={"rat": 1, "ant": 1, "finch": 3})
    end = form(state, "end_turn")
    assert end["preview"]["populations"] == {"rat": 0, "ant": 0, "finch": 2}
    assert end["preview"]["result"] == "populations_collapsed" and end["confirm"] is True
    assert end["preview"]["text"] == "rat 1→0 · ant 1→0 · finch 3→2 · you lose: two populations at 0"
    calm = form(new(), "end_turn")
    assert calm["confirm"] is False and calm["preview"]["result"] is None
    last = form(new(turns=1), "end_turn")
    assert last["preview"]["result"] == "survived" and last["preview"]["text"].endswith("you win")


def test_nothing_is_offered_once_the_game_is_over() -> None:
    assert GAME.moves(play(new(turns=1), END)) == []


def test_no_field_preselects_a_value() -> None:
    def fields(fs):
        for f in fs:
            yield f
            for c in f.get("choices", []):
                yield from fields(c.get("fields") or [])

    for f in GAME.moves(play(new(), put("biome", "rat"))):
        assert all("default" not in field for field in fields(f["fields"]))
