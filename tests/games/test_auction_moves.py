"""galapagos-auction moves: the forms are exact against ``apply``.

Three checks at every state of seeded random playouts (some driven by
``rules.candidates``, some by random concrete moves from the forms themselves):
every concrete move offered is accepted; every candidate is offered; and random
mutations of legal moves are offered exactly when ``apply`` accepts them.
Every line of every ``tests/scenarios/auction*.jsonl`` is offered before it is
applied, and the refused line of a refusal scenario is not. The single-rule
tests below quote the rulebook (seed 000) for what a form must list.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from companion.engine import moves as M
from companion.engine.rules import RuleError
from companion.games.auction.moves import moves
from companion.games.auction.rules import ANIMALS, DIRECTIONS, AuctionState
from tests.support.auction import RULES, act, choose, new, play, with_player, with_track

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]
SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").glob("auction*.jsonl"))
VALUES: dict[str, list[Any]] = {
    "player": NAMES + ["Zed"], "direction": list(DIRECTIONS) + ["X"],
    "amount": [0, 100, 200, 300, 150, 1500, 1600, 2500, True], "steps": [0, 1, 2, 3, 4, 5, True],
    "animal": list(ANIMALS), "take": list(ANIMALS), "count": [0, 1, 2, 3, 6, 7, 8],
    "bonus": ["1", "2", "3", "4", "5", "6", 1, 2, 3, None, True, *ANIMALS], "wildcard": [True, False, None, 1],
}


def accepts(state: AuctionState, action: dict[str, Any]) -> bool:
    try:
        RULES.apply(state, action)
    except RuleError:
        return False
    return True


def mutate(action: dict[str, Any], rng: Random) -> dict[str, Any]:
    """A near-legal action: a field dropped, changed, a list shuffled, grown or shrunk, the type swapped."""
    a = copy.deepcopy(action)
    keys = [k for k in a if k != "type"]
    r = rng.random()
    if r < 0.15 and keys:
        del a[rng.choice(keys)]
    elif r < 0.3:
        key = rng.choice(list(VALUES))
        a[key] = rng.choice(VALUES[key])
    elif r < 0.45 and isinstance(a.get("animals"), list):
        rng.shuffle(a["animals"])
        if rng.random() < 0.5:
            a["animals"].append(rng.choice(ANIMALS))
        elif len(a["animals"]) > 1 and rng.random() < 0.5:
            a["animals"].pop()
    elif r < 0.6 and isinstance(a.get("give"), list):
        rng.shuffle(a["give"])
        if rng.random() < 0.5:
            a["give"][rng.randrange(len(a["give"]))] = rng.choice(ANIMALS)
        if rng.random() < 0.2:
            a["give"].append(rng.choice(ANIMALS))
    elif r < 0.7:
        a["type"] = rng.choice(sorted(RULES.actions))
    elif keys:
        key = rng.choice(keys)
        if key in VALUES:
            a[key] = rng.choice(VALUES[key])
    return a


def assert_dialable(fields: list[dict[str, Any]]) -> None:
    """What a screen shows (aliases left out) can always be dialled: a choice to make, a range to turn."""
    for f in fields:
        kind = M.kind_of(f)
        if kind == "choices":
            usable = M.enabled(f["choices"])
            assert usable, f
            for c in usable:
                assert c["label"]
                assert_dialable(c.get("fields") or [])
        elif kind == "range":
            assert f["min"] <= f["max"], f
        else:
            assert len(M.enabled(f["items"]["choices"])) >= 1, f


def check_state(state: AuctionState, rng: Random, mutations: int = 25) -> tuple[int, list[dict[str, Any]]]:
    """Assert the three properties at ``state``; return (actions checked, concrete moves offered)."""
    forms = moves(state)
    tried, refused = M.audit_step(forms, lambda a: accepts(state, a), limit=200, rng=rng)
    assert not refused, f"offered but refused in phase {state.phase}: {refused[:3]}"
    for shown in M.visible(forms):
        assert_dialable(shown["fields"])
    for cand in RULES.candidates(state):
        assert M.match(forms, cand) is None, (cand, M.match(forms, cand))
    offered = [a for f in forms for a in M.expand(f, 30, rng)]
    pool = offered + RULES.candidates(state)
    for _ in range(mutations if pool else 0):
        action = mutate(rng.choice(pool), rng)
        ok = accepts(state, action)
        assert (M.match(forms, action) is None) == ok, (state.phase, action, ok, M.match(forms, action))
    return tried + mutations, offered


@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_offer_exactly_what_apply_accepts(seed: int) -> None:
    rng = Random(seed)
    state = RULES.setup(NAMES[: 2 + seed % 4], {})
    checked = 0
    while state.phase != "over":
        n, offered = check_state(state, rng)
        checked += n
        # Half the steps follow the forms, so exhibitions, exchanges and wildcards happen often.
        pool = offered if offered and rng.random() < 0.6 else RULES.candidates(state)
        state, _ = RULES.apply(state, rng.choice(pool))
    assert moves(state) == []
    assert checked > 1000


@pytest.mark.parametrize("script", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_scenario_line_is_offered_before_it_is_applied(script: Path) -> None:
    lines = [json.loads(line) for line in script.read_text().splitlines() if line.strip()]
    state = RULES.setup(lines[0]["players"], lines[0].get("options", {}))
    for number, action in enumerate(lines[1:], start=2):
        why = M.match(moves(state), action)
        try:
            state, _ = RULES.apply(state, action)
        except RuleError:
            assert why is not None, f"line {number} is refused but was offered"
            expect = json.loads(script.with_suffix(".expect.json").read_text())
            assert expect["output"]["error"]["line"] == number  # the script stops at this line
            return
        assert why is None, f"line {number} {action} was not offered: {why}"


# -- what each form lists, from the rulebook's sentences -------------------------------------

def form_of(state: AuctionState, kind: str, player: str | None) -> dict[str, Any]:
    found = [f for f in moves(state) if f["type"] == kind and f["player"] == player and not f.get("alias")]
    assert len(found) == 1, [f["type"] for f in moves(state)]
    return found[0]


def field(f: dict[str, Any], name: str) -> dict[str, Any]:
    return next(x for x in f["fields"] if x["name"] == name)


def values(fld: dict[str, Any], aliases: bool = False) -> list[Any]:
    return [c["value"] for c in fld["choices"] if not c.get("disabled") and (aliases or not c.get("alias"))]


def test_a_bid_ranges_from_100_to_the_money_in_hand() -> None:
    """"each player may in turn place one bid, by placing any chosen amount of money"."""
    state = with_player(new(), "Ann", money=700)
    bid = form_of(state, "bid", "Ann")
    assert values(field(bid, "direction")) == ["N", "E", "S", "W"]
    amount = field(bid, "amount")
    assert (amount["min"], amount["max"], amount["step"]) == (100, 700, 100)
    assert "default" not in amount
    assert {f["type"] for f in moves(state) if f["player"] == "Ann"} == {"bid", "pass"}


def test_a_player_without_money_may_only_pass() -> None:
    state = with_player(new(), "Ann", money=0)
    assert [f["type"] for f in moves(state)] == ["pass"]


def test_the_bid_preview_says_what_takes_the_lead() -> None:
    """"If more directions are tied for the highest amount, early bids beat later bids"."""
    state = play(new(), act("bid", "Ann", direction="W", amount=300))
    squares = {c["value"]: c["preview"] for c in field(form_of(state, "bid", "Bob"), "direction")["choices"]}
    assert squares["W"]["total"] == 300 and squares["W"]["lead"] == 100
    assert squares["N"]["lead"] == 400  # N needs more than W's 300, which was reached first
    assert squares["N"]["text"] == "sea lion + iguana"
    assert squares["W"]["text"] == "penguin + crab · £300 bid, leads" and squares["W"]["leads"]
    assert not squares["N"]["leads"]


def test_the_direction_is_chosen_only_when_nobody_bid() -> None:
    """"If no bid is placed, the current starting player ... may freely choose the direction"."""
    state = new()
    assert not [f for f in moves(state) if f["type"] == "direction"]
    state = play(state, *[act("pass", p) for p in ("Ann", "Bob", "Cid", "Dee")])
    assert values(field(form_of(state, "direction", "Ann"), "direction")) == ["N", "E", "S", "W"]
    assert [f["type"] for f in moves(state)] == ["direction"]


def test_education_steps_show_their_price() -> None:
    """| Price | £100 | £300 | £600 | £1000 | for 1, 2, 3, 4 steps."""
    state = choose(new(), "N")
    steps = field(form_of(state, "education", "Ann"), "steps")["choices"]
    assert [(c["value"], c["preview"]["cost"], c["preview"]["text"]) for c in steps] == [
        (1, 100, "£100"), (2, 300, "£300"), (3, 600, "£600"), (4, 1000, "£1000")]


def test_unaffordable_steps_and_the_track_end_are_disabled_with_the_reason() -> None:
    state = with_player(choose(new(), "N"), "Ann", money=300, education=23)
    steps = {c["value"]: c["disabled"] for c in field(form_of(state, "education", "Ann"), "steps")["choices"]}
    assert steps[1] is None and steps[2] is None
    assert steps[3] == "the track ends at 25" and steps[4] == "the track ends at 25"
    state = with_player(choose(new(), "N"), "Ann", money=300)
    steps = {c["value"]: c["disabled"] for c in field(form_of(state, "education", "Ann"), "steps")["choices"]}
    assert steps[3] == "£600 is more than the £300 in hand"


def test_an_expedition_offers_the_rounds_two_animals_with_their_cost() -> None:
    """The rulebook's example: going south (crab, iguana), the yellow player's figure past the iguana
    pays nothing for it, and £600 for the crab, "the third animal more advanced than his figure"."""
    state = with_track(choose(new(), "S"), sea_lion=0, iguana=3, tortoise=6, booby=9, penguin=12, crab=15)
    state = with_player(state, "Ann", education=7)
    animals = field(form_of(state, "expedition", "Ann"), "animal")["choices"]
    assert [(c["value"], c["preview"]["cost"], c["preview"]["text"]) for c in animals] == [
        ("crab", 600, "£600"), ("iguana", 0, "free")]


def test_a_sale_lists_only_the_animals_held() -> None:
    state = with_player(choose(new(), "N"), "Ann", animals={"crab": 2, "booby": 1})
    sale = field(form_of(state, "sale", "Ann"), "animal")
    assert values(sale) == ["booby", "crab"]
    assert sale["choices"][0]["preview"] == {"text": "+£600", "gain": 600}
    assert not [f for f in moves(choose(new(), "N")) if f["type"] == "sale"]


def test_an_exhibition_lists_legal_sets_and_only_the_bonus_tiles_each_fulfils() -> None:
    """The rulebook's example: sea lion, tortoise and booby with the 3 and booby tiles face up:
    "he receives 9 exhibition points and must remove one of the fulfilled bonus tiles"."""
    state = with_player(choose(new(bonus_order=["3", "booby", "1", "2", "4", "5", "6", "sea_lion", "iguana",
                                                "tortoise", "penguin", "crab"]), "N"),
                        "Ann", animals={"sea_lion": 2, "tortoise": 1, "booby": 1})
    from dataclasses import replace

    state = replace(state, flipped=2)
    sets = {tuple(c["value"]): c for c in field(form_of(state, "exhibition", "Ann"), "animals")["choices"]}
    assert len(sets) == 7  # every non-empty set of different animals held
    three = sets[("sea_lion", "tortoise", "booby")]
    assert three["preview"]["text"] == "9 points (bonus 3)"
    bonus = three["fields"][0]
    assert values(bonus) == ["3", "booby"] and not bonus.get("optional")
    two = sets[("sea_lion", "booby")]  # fulfils only the booby tile: the bonus may be left out
    assert values(two["fields"][0]) == ["booby"] and two["fields"][0]["optional"]
    assert two["preview"]["text"] == "6 points (bonus 2)"
    assert sets[("sea_lion", "tortoise")]["preview"]["text"] == "4 points"


def test_an_exhibition_in_any_order_is_offered_once_on_screen() -> None:
    state = with_player(choose(new(), "N"), "Ann", animals={"iguana": 1, "crab": 1})
    forms = moves(state)
    shown = [f for f in forms if f["type"] == "exhibition" and not f.get("alias")]
    assert len(shown) == 1
    for order in (["iguana", "crab"], ["crab", "iguana"]):
        assert M.match(forms, act("exhibition", "Ann", animals=order)) is None
    assert M.match(forms, act("exhibition", "Ann", animals=["crab", "crab"])) is not None


def test_the_card_limit_of_seven_disables_the_wildcard_then_every_card() -> None:
    """A hand holds 7 cards; "he may discard any two cards of the same given colour" as a wildcard."""
    from dataclasses import replace

    state = replace(choose(new(), "N"), cards=6)
    wildcard = field(form_of(state, "education", "Ann"), "wildcard")
    assert wildcard["optional"] and values(wildcard) == [False]
    assert wildcard["choices"][1]["disabled"] == "only 1 card left this turn"
    assert field(form_of(state, "sell_cards", "Ann"), "count")["max"] == 1
    state = replace(state, cards=7)
    assert {f["type"] for f in moves(state) if f["player"] == "Ann"} == {"done"}


def test_an_exchange_is_offered_to_every_holder_at_any_time() -> None:
    """"At any time, a player may exchange any two of his animal tokens ... for one animal token"."""
    state = with_player(with_player(new(), "Cid", animals={"crab": 1, "iguana": 1}), "Dee", animals={"crab": 1})
    exchange = form_of(state, "exchange", "Cid")
    give = field(exchange, "give")["items"]
    assert [c["value"] for c in give["choices"]] == ["iguana", "crab"]
    assert give["limits"] == {"iguana": 1, "crab": 1}
    take = {c["value"]: c["preview"]["cost"] for c in field(exchange, "take")["choices"]}
    assert take["sea_lion"] == 0 and take["crab"] == 200 * 5
    assert not [f for f in moves(state) if f["type"] == "exchange" and f["player"] == "Dee"]


def test_an_exchange_counts_money_lying_as_a_bid() -> None:
    state = with_player(new(), "Ann", animals={"crab": 2}, money=500)
    state = play(state, act("bid", "Ann", direction="N", amount=400))
    take = {c["value"]: c["disabled"] for c in field(form_of(state, "exchange", "Ann"), "take")["choices"]}
    assert take["sea_lion"] is None and take["iguana"] is not None  # £100 free, the iguana costs £200


def test_the_last_token_of_a_kind_can_be_taken_back_in_the_same_exchange() -> None:
    from dataclasses import replace

    state = with_player(new(), "Ann", animals={"crab": 1, "iguana": 1})
    state = replace(state, supply=state.supply[:5] + (0,))
    forms = moves(state)
    assert M.match(forms, act("exchange", "Ann", give=["iguana", "crab"], take="crab")) is None
    assert M.match(forms, act("exchange", "Ann", give=["iguana", "iguana"], take="crab")) is not None


def test_the_tile_is_the_tables_move_on_an_empty_square_and_each_tile_comes_once() -> None:
    state = RULES.setup(NAMES[:3], {})
    state = play(state, act("tile", direction="N", animals=["sea_lion", "iguana"]))
    tile = form_of(state, "tile", None)
    assert values(field(tile, "direction")) == ["E", "S", "W"]
    pairs = values(field(tile, "animals"))
    assert len(pairs) == 14 and ["sea_lion", "iguana"] not in pairs
    assert M.match(moves(state), act("tile", direction="E", animals=["iguana", "sea_lion"])) is not None
