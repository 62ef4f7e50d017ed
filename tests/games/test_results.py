"""The results screen's data, per game, from the rulebooks' end-of-game sentences.

Each game is played to its end from a scenario (tests/scenarios, worked from the rulebooks with a
ledger of their own) and its package's ``results(state, lang)`` must rank and explain it as the
rulebook says the game ends.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion import games
from companion.engine.script import run_file

SCENARIOS = Path(__file__).parents[1] / "scenarios"


def results_of(name: str, lang: str = "en") -> dict[str, Any]:
    """The results at the end of scenario ``name``, with the events of the whole game (as the table has them)."""
    lines = [json.loads(x) for x in (SCENARIOS / f"{name}.jsonl").read_text().splitlines() if x.strip()]
    pkg = games.package(lines[0]["game"])
    state, events = pkg.rules.setup(lines[0]["players"], lines[0].get("options") or {}), []
    for action in lines[1:]:
        state, produced = pkg.rules.apply(state, action)
        events += produced
    assert pkg.rules.public_state(state)["over"], name
    assert run_file(str(SCENARIOS / f"{name}.jsonl")).output["scores"] == pkg.rules.scores(state)
    return pkg.results(state, lang, events)


def row(res: dict[str, Any], name: str) -> dict[str, Any]:
    return next(r for r in res["rows"] if r["name"] == name)


def cells(res: dict[str, Any], name: str) -> dict[str, dict[str, str]]:
    return dict(zip(res["columns"], row(res, name)["cells"], strict=True))


# -- Galápagos (auction), seed 000 "Game End" --------------------------------------------------------
def test_auction_a_tie_on_points_goes_to_the_most_money() -> None:
    """"The player with the most exhibition points wins the game. In the case of a tie, the tied
    player with the most money wins the game." Bob and Cid have 19; Cid has £1800, Bob £1400."""
    res = results_of("auction_table_tie_on_money")
    assert [(r["place"], r["name"], r["score"], r["winner"]) for r in res["rows"]] == [
        (1, "Cid", 19, True), (2, "Bob", 19, False), (3, "Ann", 13, False)]
    assert res["decides_label"] == "Money"
    assert (row(res, "Cid")["decides"], row(res, "Bob")["decides"]) == ("£1800", "£1400")
    assert res["tie"] == "Cid wins with 19 points; Bob also has 19 and loses on money."


def test_auction_end_bonuses_education_animals_and_money() -> None:
    """"The player with the highest education level receives 4 bonus exhibition points, the player with
    the second highest education receives 2 points ... each player receives 1 point for each two animal
    tokens he has (regardless of kinds) and 1 point for each £1000." Cid: education 6 (highest), four
    sea lions, £1800; Ann: education 1 (second), no token, £1600; Bob: education 0, £1400."""
    res = results_of("auction_table_tie_on_money")
    cid, ann, bob = cells(res, "Cid"), cells(res, "Ann"), cells(res, "Bob")
    assert (cid["Exhibitions"]["value"], cid["Education"]["value"], cid["Animals"]["value"], cid["Money"]["value"]) == (
        "12", "+4", "+2", "+1")
    assert cid["Education"]["detail"] == "level 6" and cid["Animals"]["detail"] == "4 tokens"
    assert (ann["Education"]["value"], ann["Animals"]["value"], ann["Money"]["value"]) == ("+2", "+0", "+1")
    assert (bob["Education"]["value"], bob["Money"]["detail"]) == ("+0", "£1400")
    assert "Education 6: Cid +4." in res["lines"] and "Education 1: Ann +2." in res["lines"]
    # the bonus tiles each exhibition used, in the order played (the scenario's rounds 2-12)
    assert cid["Exhibitions"]["detail"] == "bonus tiles 2, crab"
    assert cells(res, "Bob")["Exhibitions"]["detail"] == "bonus tiles iguana, 1, 3, sea lion"
    assert ann["Exhibitions"]["detail"] == "bonus tile tortoise"
    assert "Cid: +2 for animal tokens, +1 for money." in res["lines"]
    for r in res["rows"]:  # the score is the exhibition points plus every end bonus
        assert r["score"] == sum(int(c["value"].lstrip("+")) for c in r["cells"])


def test_auction_money_tied_too_shares_the_win() -> None:
    """Dee and Eli tie on 12 points and on £3200: the seed names no further tie-break, both win."""
    res = results_of("auction_table_shared_win")
    assert [(r["place"], r["name"], r["winner"]) for r in res["rows"]] == [(1, "Dee", True), (1, "Eli", True)]
    assert res["tie"] == "Dee and Eli share the win with 12 points and £3200 each."
    # a tie for the highest education: "all tied players receive 3 points (and no one else ...)"
    assert cells(res, "Dee")["Education"]["value"] == "+3" == cells(res, "Eli")["Education"]["value"]


def test_auction_results_in_french() -> None:
    res = results_of("auction_table_tie_on_money", "fr")
    assert res["columns"] == ["Expositions", "Éducation", "Animaux", "Argent"]
    assert "argent" in res["tie"] and "Cid" in res["tie"]
    assert "Éducation 6 : Cid +4." in res["lines"]
    assert cells(res, "Cid")["Expositions"]["detail"] == "tuiles bonus 2, crabe"


def test_auction_without_a_tie_names_no_tie_break() -> None:
    res = results_of("auction_review_four_players")
    assert res["rows"][0]["name"] == "Dan" and res["rows"][0]["place"] == 1 and res["tie"] == ""


# -- Galápagos (dice), seed 002 "End of the Game" ----------------------------------------------------
def test_dice_sets_of_six_colours_and_further_turtles_and_a_shared_win() -> None:
    """"For a set of 6 different-color turtles = 8 points; For each additional turtle = 1 point. ...
    In case of a tie, all tied players win!" Ann: one of each colour (a set, 8); Bob: eight turtles
    in five colours (no set, 8 further turtles, 8)."""
    res = results_of("dice_review_four_players_tie")
    assert [(r["place"], r["name"], r["score"], r["winner"]) for r in res["rows"]] == [
        (1, "Ann", 8, True), (1, "Bob", 8, True), (3, "Cy", 1, False), (3, "Dee", 1, False)]
    ann, bob = cells(res, "Ann"), cells(res, "Bob")
    assert (ann["Sets of six colours"]["value"], ann["Further turtles"]["value"]) == ("+8", "+0")
    assert (bob["Sets of six colours"]["value"], bob["Further turtles"]["value"], bob["Turtles"]["value"]) == ("+0", "+8", "8")
    assert res["tie"] == "Ann and Bob tie with 8 points: all tied players win."


def test_dice_five_of_a_colour_wins_at_once_in_the_two_player_variant() -> None:
    """"if a player collects 5 turtles of the same color, he/she immediately wins.\""""
    res = results_of("dice_two_player_variant")
    assert res["rows"][0]["name"] == "Ann" and res["rows"][0]["winner"] and not res["rows"][1]["winner"]
    assert res["outcome"] == "Ann collected five red turtles and wins at once." and res["tie"] == ""


# -- Pocket Galapagos, seed 003 ------------------------------------------------------------------------
def test_pocket_a_loss_when_two_populations_reach_zero() -> None:
    """"if two or more POPULATIONS are at 0, the game ends and you lose.\""""
    res = results_of("pocket_complete_loss_collapse")
    (only,) = res["rows"]
    assert not only["winner"] and only["score"] == "7 of 10" and only["cells"][0]["value"] == "lost"
    assert "rat 0" in only["cells"][0]["detail"] and "ant 0" in only["cells"][0]["detail"]
    assert res["outcome"] == "Two or more populations are at 0 and you lose."


def test_pocket_a_win_after_the_last_turn() -> None:
    """"If it reaches the last space, you win!\""""
    res = results_of("pocket_win_ten_turns", "fr")
    (only,) = res["rows"]
    assert only["winner"] and only["score"] == "10 sur 10"


# -- Galèrapagos, seed 004 -----------------------------------------------------------------------------
def test_galerapagos_the_survivors_on_the_raft_and_how_the_others_died() -> None:
    res = results_of("galerapagos_full_game")
    assert [(r["name"], r["winner"]) for r in res["rows"]] == [("Ann", True), ("Bob", True), ("Cid", True), ("Dan", False)]
    assert cells(res, "Dan")["Fate"]["value"] == "Died of hunger" and row(res, "Dan")["place"] == ""
    assert res["lines"] == ["On the raft: Ann, Bob and Cid.", "Dan died of hunger."]


def test_galerapagos_left_behind_by_the_hurricane_and_everyone_dead() -> None:
    res = results_of("galerapagos_cards_and_hurricane", "fr")
    assert cells(res, "Bob")["Sort"]["value"] == "Abandonné sur l'île"
    assert "Bob a été abandonné sur l'île." in res["lines"]
    res = results_of("galerapagos_hecatomb")
    assert not any(r["winner"] for r in res["rows"]) and res["outcome"] == "Every castaway died: everyone loses."
    assert all(r["cells"][0]["value"] == "Died of thirst" for r in res["rows"])


def test_the_generic_results_rank_the_scores_and_quote_the_outcome() -> None:
    from companion.engine import results

    public = {"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}],
              "scores": {"Ann": 3, "Bob": 7, "Cid": 3}, "winners": ["Bob"]}
    res = results.results(public, "Bob wins.")
    assert [(r["place"], r["name"]) for r in res["rows"]] == [(1, "Bob"), (2, "Ann"), (2, "Cid")]
    assert res["outcome"] == "Bob wins." and res["columns"] == []


def test_no_results_while_the_game_goes_on() -> None:
    pkg = games.package("galapagos-auction")
    assert pkg.results(pkg.rules.setup(["Ann", "Bob"], {})) is None
