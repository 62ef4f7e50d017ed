"""Each form carries its ``step`` (next / also / override), from the rulebooks' order.

Every interface leads with the first ``next`` form and never makes an override its main button, so
the first form is what the rulebook expects now and every correction of the flow is an override
that asks first. Each test quotes the sentence it checks.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion import games
from companion.engine import audit
from companion.engine.moves import STEPS
from companion.games.galerapagos import narrate as gnarrate
from tests.games.test_galerapagos_gifts import water_vote_round_three
from tests.games.test_galerapagos_show_cards import hurricane_round_three
from tests.support.cli import run as companion_cli
from tests.support.galerapagos import (
    FIVE,
    RULES,
    food_vote_round_two,
    no_card,
    play,
    search,
    vote,
    weather,
)

SCENARIOS = Path(__file__).parent.parent / "scenarios"
GALERAPAGOS = games.package("galerapagos")


def forms_of(pkg, state, lang="en"):
    out = [f for f in pkg.moves(state, lang) if not f.get("alias")]
    assert [STEPS.index(f["step"]) for f in out] == sorted(STEPS.index(f["step"]) for f in out), "next, also, override"
    return out


def first(pkg, state):
    return forms_of(pkg, state)[0]


def of_type(forms, kind, player=None):
    return [f for f in forms if f["type"] == kind and (player is None or f["player"] == player)]


def script_state(lines):
    pkg, state = audit.final_state([json.dumps(x) if not isinstance(x, str) else x for x in lines])
    return pkg, state


# -- Galèrapagos ---------------------------------------------------------------------------------------

def everyone_acted():
    s = play(RULES.setup(FIVE, {}), weather(0))
    for p in FIVE:
        s = play(s, search(p))
    assert RULES.view(s)["phase"] == "acted"
    return s


def test_after_everyone_has_acted_survival_is_next_and_the_weather_an_override() -> None:
    """« Étape 4 : Survie » comes after the actions, with its pause for cards and debate: the next
    weather card would run the step by itself, so it is offered only as a correction that asks."""
    s = everyone_acted()
    forms = forms_of(GALERAPAGOS, s)
    assert forms[0]["type"] == "survival" and forms[0]["step"] == "next" and forms[0]["player"] == "Ann"
    for f in of_type(forms, "weather"):
        assert f["step"] == "override" and f["confirm"] and "pause" in f["ask"]


def test_the_lines_of_the_survival_step_during_the_pause_are_overrides() -> None:
    s = food_vote_round_two()  # everyone has acted, a food vote would come
    forms = forms_of(GALERAPAGOS, s)
    assert forms[0]["type"] == "survival"
    assert {f["step"] for f in of_type(forms, "vote")} == {"override"}


def test_in_a_shortage_cards_come_first_then_the_debates_end_then_the_vote() -> None:
    """« Les joueurs peuvent jouer des cartes Eau pour augmenter la ration. Si après l'utilisation des
    cartes la ration ne suffit toujours pas, procédez à un vote »."""
    s = water_vote_round_three()  # the ballot is open, the first player has not ended the debate
    forms = forms_of(GALERAPAGOS, s)
    nxt = [f for f in forms if f["step"] == "next"]
    assert nxt[0]["type"] == "resource" and "water" in [c["value"] for c in nxt[0]["fields"][0]["choices"]]
    assert nxt[-1]["type"] == "debate", "the first player ends the debate once the cards are played"
    assert {f["step"] for f in of_type(forms, "vote")} == {"also"}
    assert "Water is short by 3" in GALERAPAGOS.prompt(s)  # 1 water for 4
    after = play(s, {"type": "debate", "player": RULES.view(s)["first_player"]})
    forms = forms_of(GALERAPAGOS, after)
    assert forms[0]["type"] == "vote" and forms[0]["step"] == "next"
    assert {f["step"] for f in of_type(forms, "resource")} == {"also"}


def test_the_condemned_saving_himself_is_next_and_the_next_card_an_override() -> None:
    """« Il peut se sauver en jouant une carte Ressource ou en tirant sur un autre joueur »."""
    s = play(food_vote_round_two(), *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"))
    forms = forms_of(GALERAPAGOS, s)
    assert forms[0]["type"] == "resource" and forms[0]["player"] == "Dan"
    assert of_type(forms, "no_card", "Dan")[0]["step"] == "next"
    assert of_type(forms, "close")[0]["step"] == "also"
    assert {f["step"] for f in of_type(forms, "weather")} == {"override"}


def test_a_gift_is_next_when_the_one_at_risk_holds_no_card() -> None:
    """Resource cards « Peuvent être offertes »."""
    s = food_vote_round_two()
    s = play(s, {"type": "give", "player": "Dan", "target": "Cid", "count": 6})
    s = play(s, *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"))
    forms = forms_of(GALERAPAGOS, s)
    assert forms[0]["type"] == "give" and forms[0]["step"] == "next" and forms[0]["player"] != "Dan"
    assert "Dan has no card: someone may give him one" in GALERAPAGOS.prompt(s)
    assert any("Dan has no card" in line for line in gnarrate.moment_lines(s, "en"))
    assert "Dan n'a aucune carte" in GALERAPAGOS.prompt(s, "fr")


def test_when_the_raft_can_leave_embark_is_next_and_every_screen_says_so() -> None:
    """« Scénario 1 : tous les survivants quittent l'île » once there are as many raft places, water
    and food as survivors: the next weather card is still legal, but embarking is the step and another
    card an override that asks first."""
    pkg, s = script_state((SCENARIOS / "galerapagos_review_5p.jsonl").read_text().splitlines()[:-1])
    forms = forms_of(pkg, s)
    assert forms[0]["type"] == "embark" and forms[0]["step"] == "next"
    plain = [f for f in of_type(forms, "weather") if "correct the deck" not in (f.get("ask") or "")]
    assert plain and {f["step"] for f in plain} == {"override"}  # staying a round more is the table's choice: asked
    assert {f["ask"] for f in plain} == {"The raft can leave now: stay on the island and turn another weather card?"}
    assert plain[0]["draw"]["what"] == "weather"  # the digital draw fills that move: an override too
    assert pkg.prompt(s) == "The raft can leave now: embark?"
    assert pkg.prompt(s, "fr") == "Le radeau peut partir maintenant : embarquer ?"


def test_the_raft_moment_before_the_hurricane_vote_leads_with_cards() -> None:
    s = hurricane_round_three()
    forms = forms_of(GALERAPAGOS, s)
    assert forms[0]["type"] == "resource"
    assert {f["step"] for f in of_type(forms, "vote")} == {"override"}


def test_a_death_says_who_gets_the_cards() -> None:
    """« Les cartes que vous aviez en main sont mélangées et distribuées équitablement entre votre
    voisin de gauche et votre voisin de droite »."""
    s = play(food_vote_round_two(), *[vote(p, "Dan") for p in FIVE if p != "Dan"], vote("Dan", "Ann"))
    after, events = RULES.apply(s, no_card("Dan"))
    lines = GALERAPAGOS.narrate(s, no_card("Dan"), events, after, "en")
    assert "Deal Dan's 6 cards: 3 to Eve, 3 to Cid." in lines
    fr = GALERAPAGOS.narrate(s, no_card("Dan"), events, after, "fr")
    assert "Distribuez les 6 cartes de Dan : 3 à Eve, 3 à Cid." in fr


def test_the_first_form_at_every_line_of_a_full_game_is_never_an_override() -> None:
    lines = (SCENARIOS / "galerapagos_full_game.jsonl").read_text().splitlines()
    pkg, state, walk = audit.replay(lines)
    seen = 0
    for line in walk:
        forms = forms_of(pkg, line.before)
        if forms:
            seen += 1
            assert forms[0]["step"] != "override", line.number
    assert seen > 20


# -- the dice game -------------------------------------------------------------------------------------

DICE = (SCENARIOS / "dice_full_game.jsonl").read_text().splitlines()


def test_the_sand_running_out_is_an_override_while_it_runs() -> None:
    """« When the timer expires, the planning phase ends for all players »: the sand ends it, not a tap."""
    pkg, s = script_state(DICE[:6])  # Ann rolled, Bob planned: the sand runs
    forms = forms_of(pkg, s)
    timer = of_type(forms, "timer_expired")
    assert timer and timer[0]["step"] == "override" and timer[0]["confirm"]
    assert timer[0]["ask"] == "The sand is still running: end planning for everyone?"
    assert forms[0]["step"] == "next" and forms[0]["type"] in ("plan", "done", "roll")
    assert forms[-1]["type"] == "timer_expired"


def test_the_mover_moves_next() -> None:
    pkg, s = script_state(DICE[:7])
    assert first(pkg, s)["type"] == "move" and first(pkg, s)["player"] == "Bob"


# -- the auction game and Pocket Galapagos --------------------------------------------------------------

def test_the_bidder_bids_or_passes_next_and_an_exchange_is_also_allowed() -> None:
    """« in turn from the start player, clockwise »; the exchange is allowed « at any time »."""
    lines = (SCENARIOS / "auction_full_game.jsonl").read_text().splitlines()
    pkg, s = script_state(lines[:6])
    forms = forms_of(pkg, s)
    assert {f["type"] for f in forms if f["step"] == "next"} <= {"bid", "pass"}
    assert forms[0]["player"] == "Bob"
    assert {f["step"] for f in of_type(forms, "exchange")} <= {"also"}


def test_pocket_plays_cards_then_ends_the_turn_and_abilities_are_also_allowed() -> None:
    pkg = games.package("pocket-galapagos")
    s = pkg.rules.setup(["Ann"], {})
    forms = forms_of(pkg, s)
    assert forms[0]["type"] == "ocean"
    assert of_type(forms, "end_turn")[0]["step"] == "next"
    assert {f["step"] for f in forms if f["type"] in ("population", "move")} == {"also"}


def test_companion_moves_lists_next_also_override(tmp_path) -> None:
    script = tmp_path / "s.jsonl"
    script.write_text("\n".join(DICE[:6]) + "\n")
    out = companion_cli("moves", str(script))
    forms = json.loads(out.stdout)["moves"]
    steps = [f["step"] for f in forms]
    assert steps == sorted(steps, key=STEPS.index) and steps[-1] == "override"


def test_a_card_the_deck_does_not_hold_is_a_correction_that_asks() -> None:
    """« Mélangez la carte Ouragan et les 5 cartes Météo »: the hurricane cannot come up in round 1,
    and a card the deck does not hold corrects the companion's idea of the deck: both are overrides."""
    s = RULES.setup(FIVE, {})
    forms = forms_of(GALERAPAGOS, s)
    assert forms[0]["type"] == "weather" and forms[0]["step"] == "next"
    held = {c["value"] for c in forms[0]["fields"][0]["choices"]}
    assert held == {int(k) for k in RULES.view(s)["deck"]}
    weather_overrides = [f for f in of_type(forms, "weather") if f["step"] == "override"]
    assert weather_overrides and all(f["ask"].endswith("correct the deck?") for f in weather_overrides)
    assert any(f["fields"][0]["name"] == "hurricane" for f in weather_overrides), "the early hurricane"
