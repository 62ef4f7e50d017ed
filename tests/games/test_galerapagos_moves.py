"""Galèrapagos' moves are exactly what the rules accept: every move offered is accepted, every
action accepted is offered, and an action refused is never offered.

The check is exhaustive over a bounded universe of actions (every type, every player, every
target, out-of-range numbers, missing and extra optional fields) at states reached by seeded
random playouts that starve the castaways, so that votes, ties, deaths, counts on 0, the
hurricane and the moments to show cards after them all come up.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.engine import moves as M
from companion.engine.audit import audit
from companion.engine.rules import RuleError
from companion.games.galerapagos import chances as C
from companion.games.galerapagos import rules as R
from tests.support.galerapagos import (
    FIVE,
    food_vote_round_two,
    new,
    play,
    resource,
    searches,
    view,
    vote,
    weather,
    wood,
)

PKG = games.package("galerapagos")
RULES = PKG.rules
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]
SCENARIOS = sorted(Path(__file__).parent.parent.joinpath("scenarios").glob("galerapagos*.jsonl"))
MAIN = {"weather", "fish", "water", "wood", "search", "vote", "tiebreak", "embark", "survival", "no_card", "close",
        "debate"}


def accepted(state: R.State, action: dict[str, Any]) -> bool:
    try:
        RULES.apply(state, action)
        return True
    except RuleError:
        return False


def universe(s: R.State) -> list[dict[str, Any]]:
    """Every action worth trying now, legal or not (the known gaps of moves.py left out)."""
    names = list(s.names)
    out: list[dict[str, Any]] = [{"type": "embark"}, {"type": "close"}, {"type": "survival"}, {"type": "debate"}]
    for w in (None, *range(0, 10)):
        for h in (None, False, True):
            a: dict[str, Any] = {"type": "weather"}
            if w is not None:
                a["water"] = w
            if h is not None:
                a["hurricane"] = h
            out.append(a)
    most = max(s.cards) + 2
    for p in [*names, "Zed"]:
        out.extend({"type": "fish", "player": p, "fish": f} for f in range(-1, 6))
        out.extend({"type": t, "player": p} for t in ("water", "search", "sick", "heal", "revive", "survival",
                                                        "no_card", "close", "debate"))
        for e in range(-1, 7):
            out.append({"type": "wood", "player": p, "extra": e})
            out.extend({"type": "wood", "player": p, "extra": e, "snake": b} for b in (False, True))
        out.append({"type": "wood", "player": p})
        for kind in ("water", "food", "wood"):
            for amount in (None, 0, 1, 3, 9, 10):
                for basket in (None, False, True):
                    a = {"type": "resource", "player": p, "resource": kind}
                    if amount is not None:
                        a["amount"] = amount
                    if basket is not None:
                        a["basket"] = basket
                    out.append(a)
        out.extend({"type": "place", "player": p, "card": c} for c in (*R.PERMANENT, "slip"))
        out.extend({"type": "effect", "player": p, "card": c} for c in (*R.PERMANENT, "slip"))
        out.extend({"type": "effect", "player": p, "card": c, "amount": n} for c in R.EFFECTS for n in (0, 1, 9, 10))
        for q in [*names, "Zed"]:
            out.extend({"type": t, "player": p, "target": q} for t in ("vote", "tiebreak", "shoot", "give"))
            out.extend({"type": "give", "player": p, "target": q, "count": c} for c in range(0, most))
            out.extend({"type": t, "player": p, "by": q} for t in ("sick", "heal", "revive"))
    return out


def mismatches(state: R.State) -> list[tuple[str, dict[str, Any]]]:
    forms = PKG.moves(state)
    bad = []
    for f in forms:
        for action in M.expand(f, limit=100_000):
            if not accepted(state, action):
                bad.append(("offered but refused", action))
    for action in universe(state):
        if accepted(state, action) != (M.match(forms, action) is None):
            bad.append(("accepted, not offered" if accepted(state, action) else "refused, offered", action))
    return bad


def starving_playout(seed: int, steps: int = 250) -> list[R.State]:
    """A game played with moves offered (mostly searches and wood, few cards): shortages come fast."""
    rng = random.Random(seed)
    n = rng.choice([3, 4, 5, 6, 8, 12]) if seed % 5 else rng.randint(3, 6)
    s = RULES.setup(NAMES[:n], {"dead_vote": rng.random() < 0.3})
    states = [s]
    for _ in range(steps):
        forms = PKG.moves(s)
        if not forms:
            break
        pool: list[dict[str, Any]] = []
        if s.show and rng.random() < 0.6:  # show a card, say « none », or close, now and then
            pool = [a for a in RULES.candidates(s) if a["type"] in ("resource", "no_card", "close")]
        if not pool:
            main = [f for f in forms if f["type"] in MAIN]
            cards = [f for f in forms if f["type"] not in MAIN]
            group = cards if cards and (not main or rng.random() < 0.08) else main
            lean = [f for f in group if f["type"] not in ("fish", "water")]
            group = lean if lean and rng.random() < 0.75 else group
            if not group:
                break
            pool = list(M.expand(rng.choice(group), 30, rng))
        s, _ = RULES.apply(s, rng.choice(pool))
        states.append(s)
        if s.phase == R.OVER and rng.random() < 0.3:
            break
    return states


def interesting(states: list[R.State]) -> list[R.State]:
    """Every state with a moment to show cards, a tie, the pause or the end; a few of each other kind."""
    seen: Counter[tuple[Any, ...]] = Counter()
    out = []
    for st in states:
        key = (st.phase, bool(st.tie), st.ballot is not None, st.show)
        seen[key] += 1
        if key[3] or key[1] or st.phase in (R.OVER, R.ACTED) or seen[key] <= 2:
            out.append(st)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_moves_are_exactly_what_the_rules_accept(seed: int) -> None:
    for state in interesting(starving_playout(seed)):
        assert mismatches(state) == [], (seed, state.phase, RULES.view(state)["show_cards"])


def test_the_playouts_reach_every_kind_of_moment() -> None:
    """The exhaustive check above is only worth what it visits: votes, ties, and each last chance."""
    kinds: Counter[str] = Counter()
    for seed in range(12):
        for st in starving_playout(seed):
            kinds[st.phase] += 1
            kinds["tie"] += bool(st.tie)
            kinds["vote"] += st.ballot is not None
            kinds["show:" + st.show] += bool(st.show)
    for kind in ("weather", "actions", "acted", "end", "over", "tie", "vote", "show:save", "show:zero", "show:raft"):
        assert kinds[kind] > 0, kinds


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_line_is_offered_and_every_offer_accepted(path: Path) -> None:
    report = audit(path.read_text(encoding="utf-8").splitlines(), per_form=400)
    assert report["ok"], report["gaps"][:3]
    assert report["offered"] == report["actions"] > 0
    if "refuse" in path.stem:  # the same audit: its refused line was not offered
        assert "refused_line" in report and report["refused_line_offered"] is False, path.stem


def test_a_refused_scenario_line_was_not_offered() -> None:
    """Each scenario named ``refuse`` is audited above (its refused line not offered); there are some."""
    assert [p for p in SCENARIOS if "refuse" in p.stem]


# -- what the forms say, from the rulebook's sentences -----------------------------------------

def forms_of(state: R.State, kind: str, player: str | None = None, lang: str = "en") -> list[dict[str, Any]]:
    return [f for f in PKG.moves(state, lang) if f["type"] == kind and (player is None or f["player"] == player)]


def field(f: dict[str, Any], name: str) -> dict[str, Any]:
    return next(x for x in f["fields"] if x["name"] == name)


def values(fld: dict[str, Any]) -> list[Any]:
    return [c["value"] for c in M.enabled(fld["choices"])]


def test_the_weather_card_offers_every_card_and_marks_those_outside_the_deck() -> None:
    """« Mélangez la carte Ouragan et les 5 cartes Météo et placez la pile ... Placez ensuite le reste des
    cartes dessus. » An observed card outside the deck is accepted with a warning, so it is offered,
    its preview saying the deck will be corrected; the hurricane before the bottom pile likewise."""
    s = new()
    plain, other, storm = forms_of(s, "weather")
    assert plain["player"] is None and values(field(plain, "water")) == [0, 1, 2, 3]
    assert values(field(other, "water")) == [4, 5, 6, 7, 8, 9], "a card the deck does not hold: a correction"
    assert plain["step"] == "next" and other["step"] == storm["step"] == "override"
    previews = {c["value"]: c["preview"] for c in field(plain, "water")["choices"] + field(other, "water")["choices"]}
    assert [w for w, p in previews.items() if not p.get("warning")] == [0, 1, 2, 3]
    assert previews[0]["cards_left"] == 3 and previews[3]["cards_left"] == 2
    assert "corrected" in previews[4]["text"]
    assert "corrected" in field(storm, "hurricane")["choices"][0]["preview"]["text"], "round 1: too early"
    assert storm["preview"]["chance"] == 0.0
    s = _quiet_round(_quiet_round(s, 3), 3)
    plain, other = forms_of(s, "weather")[:2]
    assert 3 not in values(field(plain, "water")), "both 3-drop cards are gone"
    assert [c["preview"].get("warning") for c in field(other, "water")["choices"] if c["value"] == 3] == [True]
    while s.round + 1 < s.opts.hurricane_from:
        s = _quiet_round(s, s.deck[0])
    assert {f["step"] for f in forms_of(s, "weather")} == {"override"}, "the survival step's pause"
    s = play(s, {"type": "survival"})
    labels = [f["label"] for f in forms_of(s, "weather")]
    assert labels == ["Turn the weather card", "The hurricane card", "A weather card the deck does not hold"]
    hurricane = forms_of(s, "weather")[1]
    assert hurricane["step"] == "next", "the hurricane may come up now"
    assert [x["name"] for x in hurricane["fields"]] == ["hurricane", "water"] and hurricane["fields"][1]["optional"]
    assert "must leave" in hurricane["fields"][0]["choices"][0]["preview"]["text"]
    assert hurricane["preview"]["chance"] == pytest.approx(1 / 6), "the hurricane is one of the six cards left"


def _quiet_round(s: R.State, drops: int) -> R.State:
    """The weather card, then rations made ample by cards, and every castaway fishes or searches."""
    s = play(s, weather(drops))
    rich = max(s.names, key=lambda p: s.cards[s.names.index(p)])
    s = play(s, resource(rich, "water", 9), resource(rich, "food", 9))
    while view(s)["phase"] == "actions":
        s = play(s, {"type": "search", "player": view(s)["turn"]})
    return s


def test_only_the_acting_castaway_is_offered_an_action_and_fishing_shows_the_food_after() -> None:
    """« En commençant par le premier joueur et dans l'ordre des tours, chacun réalise une action. »"""
    s = play(new(), weather(1))
    acts = [f for f in PKG.moves(s) if f["type"] in ("fish", "water", "wood", "search")]
    assert {f["player"] for f in acts} == {"Ann"}
    catch = field(forms_of(s, "fish", "Ann")[0], "fish")
    three = next(c for c in catch["choices"] if c["value"] == 3)
    assert three["preview"]["food"] == 12 and three["preview"]["text"] == "food 9→12"
    assert forms_of(s, "water", "Ann")[0]["preview"]["text"] == "water 10→11"


def test_wood_asks_about_the_snake_only_when_balls_were_drawn_with_the_odds_of_each_count() -> None:
    """« Annoncez le nombre de bois que vous voulez collecter (1 à 5) ... Si une des boules est noire, le joueur est mordu. »"""
    s = play(new(), weather(1))
    extra = field(forms_of(s, "wood", "Ann")[0], "extra")
    assert extra.get("optional") and values(extra) == [0, 1, 2, 3, 4, 5]
    zero = extra["choices"][0]
    assert values(zero["fields"][0]) == [False], "no ball drawn: no snake can bite"
    for c in extra["choices"][1:]:
        assert values(c["fields"][0]) == [False, True]
        assert c["preview"]["snake"] == pytest.approx(C.snake_chance(c["value"]))
    assert extra["choices"][1]["preview"]["text"] == "snake 17%, ~1.8 wood"
    assert extra["choices"][5]["preview"]["text"] == "snake 83%, ~1.8 wood", "five balls of six: 5/6"
    # the expected wood of an announcement: the free piece, plus k pieces unless the snake bites
    assert extra["choices"][2]["preview"]["expected"] == pytest.approx(1 + 2 * (1 - 1 / 3), abs=1e-3)


def test_the_vote_offers_the_living_castaways_with_no_default_and_hides_who_voted_for_whom() -> None:
    """« tous pointent du doigt le joueur qu'il veut éliminer »: a secret vote, nobody chosen in advance."""
    s = play(new(), weather(0), *searches("Ann", "Bob", "Cid", "Dan", "Eve"))
    s = play(s, weather(1), wood("Eve", 1, snake=True), *searches("Ann", "Bob", "Cid", "Dan"))
    voters = {f["player"] for f in forms_of(s, "vote")}
    assert voters == {"Ann", "Bob", "Cid", "Dan"}, "Eve, bitten this round, cannot vote"
    s = play(s, vote("Ann", "Dan"))
    f = forms_of(s, "vote", "Bob")[0]
    target = field(f, "target")
    assert "default" not in target and values(target) == ["Ann", "Bob", "Cid", "Dan", "Eve"]
    assert target["choices"][0]["preview"]["text"] == "1 of 4 have voted"
    assert "Dan" not in json.dumps([c["preview"] for c in target["choices"]])
    assert not forms_of(s, "vote", "Ann"), "one vote each"


def test_the_tie_is_broken_by_the_first_player_among_the_tied_only() -> None:
    """« En cas d'égalité, le premier joueur tranche. »"""
    s = play(new(), weather(0), *searches("Ann", "Bob", "Cid", "Dan", "Eve"))
    s = play(s, weather(1), *searches("Eve", "Ann", "Bob", "Cid", "Dan"))
    s = play(s, vote("Ann", "Bob"), vote("Bob", "Ann"), vote("Cid", "Bob"), vote("Dan", "Ann"), vote("Eve", "Cid"))
    (f,) = forms_of(s, "tiebreak")
    assert f["player"] == view(s)["first_player"] == "Eve"
    assert values(field(f, "target")) == ["Ann", "Bob"]
    assert [c["preview"]["votes"] for c in field(f, "target")["choices"]] == [2, 2]


def test_the_condemned_is_offered_his_card_his_shot_or_none_until_the_moment_closes() -> None:
    """« Il peut se sauver en jouant une carte Ressource ou en tirant sur un autre joueur. » The moment
    stays open whatever else is entered, until he answers, the first player closes it, or the next
    weather card is turned."""
    s = play(new(), weather(0), *searches("Ann", "Bob", "Cid", "Dan", "Eve"))
    s = play(s, weather(1), *searches("Eve", "Ann", "Bob", "Cid", "Dan"))
    s = play(s, *[vote(p, "Bob") for p in ("Ann", "Cid", "Dan", "Eve")], vote("Bob", "Ann"))
    assert view(s)["players"][1]["alive"] and view(s)["phase"] == "show_cards"
    (card,) = forms_of(s, "resource", "Bob")
    kinds = {c["value"]: c["preview"]["text"] for c in card["fields"][0]["choices"]}
    assert kinds["food"] == "Bob is saved" and "still dies" in kinds["water"], "food is what he lacks"
    assert forms_of(s, "shoot", "Bob") and forms_of(s, "no_card", "Bob")
    assert [f["player"] for f in forms_of(s, "close")] == ["Eve"], "the first player says « nobody else »"
    assert not forms_of(s, "no_card", "Ann"), "only the condemned is asked"
    assert any(c["value"] == "Bob" for f in forms_of(s, "give", "Ann") for c in f["fields"][0]["choices"])
    s = play(s, resource("Ann", "water", 1))  # another castaway's card does not close his moment
    assert forms_of(s, "no_card", "Bob")
    later = play(s, weather(2))
    assert not view(later)["players"][1]["alive"], "the next weather card closed it: Bob died"
    assert not forms_of(later, "no_card", "Bob") and not forms_of(later, "resource", "Bob")


def test_the_pause_offers_the_confirmation_and_the_lines_that_imply_it() -> None:
    """« Étape 3 : action des joueurs » then « Étape 4 : survie des naufragés »: between them the first player
    confirms; a vote (the food is short) or the next weather card imply it."""
    s = food_vote_round_two()
    assert view(s)["phase"] == "acted"
    (go,) = forms_of(s, "survival")
    assert go["player"] == "Eve" and go.get("player_optional")
    votes = forms_of(s, "vote")
    assert {f["player"] for f in votes} == set(FIVE) and all(f.get("implies") == "survival" for f in votes)
    assert not forms_of(s, "weather"), "the food vote comes first"
    assert forms_of(s, "resource", "Ann"), "cards may still be played before the step"


def test_moves_at_twelve_come_in_step_order() -> None:
    """Their speed is measured by ``bench/moves.py``; here, twelve castaways' states list next, also,
    override."""
    from companion.engine.moves import STEPS

    states = [st for seed in (1, 2, 3) for st in starving_playout(seed, 150)]
    for st in states:
        steps = [STEPS.index(f["step"]) for f in PKG.moves(st)]
        assert steps == sorted(steps)
