"""Galèrapagos' story, as a log tells it: the weather, each action, the rations shared, the votes
(never one before the reveal), deaths and why, and the ending; in English and French."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.engine.audit import narrate as narrate_script
from companion.engine.audit import replay
from companion.games.galerapagos.narrate import moment_lines
from tests.support.galerapagos import (
    FIVE,
    fish,
    new,
    play,
    resource,
    searches,
    shoot,
    vote,
    weather,
    wood,
)

PKG = games.package("galerapagos")
RULES = PKG.rules
def SCENARIO(name: str) -> list[str]:  # noqa: N802 - reads like a constant
    return (Path(__file__).parent.parent / "scenarios" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()


SCENARIOS = sorted(Path(__file__).parent.parent.joinpath("scenarios").glob("galerapagos*.jsonl"))


def told(state: Any, action: dict[str, Any], lang: str = "en") -> tuple[Any, list[str]]:
    after, events = RULES.apply(state, action)
    return after, PKG.narrate(state, action, events, after, lang)


def test_the_weather_card_and_the_actions_with_the_tracks_they_move() -> None:
    """« Avancez le pion Nourriture en autant de cases que le nombre de poissons pêchés. »"""
    s, lines = told(new(), weather(2))
    assert lines == ["Round 1: the weather card shows 2 drops of water."]
    s, lines = told(s, fish("Ann", 3))
    assert lines == ["Ann fishes and catches 3 fish: food 9→12."]
    s, lines = told(s, {"type": "water", "player": "Bob"})
    assert lines == ["Bob collects 2 water rations: water 10→12."]
    s, lines = told(s, wood("Cid", 2, snake=True))
    assert lines[0].startswith("Cid collects wood and draws 2 more balls, the black one among them: a snake bites")
    _, lines = told(s, {"type": "search", "player": "Dan"})
    assert lines == ["Dan searches the wreck and draws a card (5 in hand)."]


def test_a_sixth_piece_of_wood_lays_a_raft_card() -> None:
    """« Dès que le disque arrive sur la case 6, une carte Radeau est placée ... et le disque retourne sur la case 0. »"""
    s = play(new(), weather(1))
    _, lines = told(s, wood("Ann", 5))
    assert lines == ["Ann collects wood and draws 5 more balls, all white: 6 pieces.",
                     "A raft card is laid: 1 in all, the disc back on 0."]


def test_the_rations_shared_at_the_end_of_the_actions() -> None:
    """« Chaque survivant reçoit une ration d'eau et une ration de nourriture. »"""
    s = play(new(), weather(1), *searches("Ann", "Bob", "Cid", "Dan"))
    s, lines = told(s, {"type": "search", "player": "Eve"})
    assert lines == ["Eve searches the wreck and draws a card (5 in hand)."], "the first player confirms first"
    _, lines = told(s, {"type": "survival", "player": "Ann"})
    assert lines == ["Ann, the first player, starts the survival step.",
                     "5 survivors each drink a ration: water 10→5.",
                     "5 survivors each eat a ration: food 9→4."]


def test_votes_stay_secret_until_the_reveal_then_the_count_and_the_death_are_told() -> None:
    """« tous pointent du doigt le joueur qu'il veut éliminer. Le joueur qui récolte le plus de voix est éliminé. »"""
    s = play(new(), weather(0), *searches(*FIVE))
    s = play(s, weather(1), *searches("Eve", "Ann", "Bob", "Cid", "Dan"), {"type": "survival", "player": "Eve"})
    for voter in ("Ann", "Bob", "Cid", "Dan"):
        s, lines = told(s, vote(voter, "Bob" if voter != "Bob" else "Ann"))
        assert lines == [f"{voter} votes."], "nobody learns whom a vote names"
    s, lines = told(s, vote("Eve", "Bob"))
    assert lines == ["Eve votes.",
                     "The votes are revealed: Ann for Bob, Bob for Ann, Cid for Bob, Dan for Bob, Eve for Bob.",
                     "Bob has the most votes (4) and is refused a food ration."], "nobody dies before his answer"
    assert moment_lines(s, "en") == ["Bob may still escape the verdict with a food card or a shot."]
    _, saved = told(s, resource("Bob", "food"))
    assert saved[:2] == ["Bob plays a food card: food 4→5.", "Bob is saved."]
    _, dead = told(s, {"type": "no_card", "player": "Bob"})
    assert dead == ["Bob cannot escape the verdict.", "Bob dies of hunger.", "Deal Bob's 6 cards: 3 to Cid, 3 to Ann.",
                    "4 survivors each eat a ration: food 4→0."]


def test_the_log_line_of_a_vote_hides_its_target_from_everyone_but_the_voter() -> None:
    action = vote("Ann", "Bob")
    assert PKG.describe(action, "en") == "Ann votes"
    assert PKG.describe(action, "en", viewer="Cid") == "Ann votes"
    assert PKG.describe(action, "en", viewer="Ann") == "Ann votes for Bob"
    assert PKG.describe(action, "fr", viewer="Ann") == "Ann vote contre Bob"


def test_a_shot_is_told_with_the_cards_it_takes() -> None:
    """« Le tireur récupère les cartes de la victime, dont le revolver. »"""
    _, lines = told(play(new(), weather(0)), shoot("Ann", "Bob"))
    assert lines == ["Ann shoots Bob and takes Bob's cards."]


def test_no_vote_when_the_token_is_on_zero_and_who_dies_of_thirst() -> None:
    """« Si un jeton Ressource ... se trouve sur la case 0 au début de cette étape, il n'y a pas de vote.
    Seuls les joueurs disposant de cartes correspondant à la ressource manquante survivent. »"""
    lines, error = narrate_script(SCENARIO("galerapagos_no_vote_at_zero"))
    assert error is None
    asked = "Water is on 0: no vote. Each castaway who holds a water card shows it now (Ann, Bob and Cid)."
    shown = "Water on 0: no vote; only Ann showed a water card, the rest goes on the track: water 0→1."
    assert lines.index(asked) < lines.index("Ann shows a water card (2): a ration of their own.")
    at = lines.index(shown)
    assert lines[at + 1:at + 3] == ["Bob dies of thirst.", "Cid dies of thirst."]


def test_the_endings_are_told() -> None:
    """« Scénario 3 : hécatombe. À la fin du tour, tous les joueurs meurent de soif ou de faim. »"""
    lines, error = narrate_script(SCENARIO("galerapagos_hecatomb"))
    assert error is None and lines[-1] == "Every castaway has died: everyone loses."
    lines, _ = narrate_script(SCENARIO("galerapagos_review_5p"))
    assert lines[-1] == "Ann, Bob and Eve embark on the raft and leave the island: they win."
    fr, _ = narrate_script(SCENARIO("galerapagos_review_5p"), "fr")
    assert fr[-1] == "Ann, Bob et Eve embarquent sur le radeau et quittent l'île : ils gagnent."
    assert fr[0] == "Tour 1 : la carte Météo montre 1 goutte d'eau."


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_line_of_every_scenario_is_told(path: Path) -> None:
    _, _, walk = replay(path.read_text(encoding="utf-8").splitlines())
    for line in walk:
        if line.error is not None:
            break
        story = PKG.narrate(line.before, line.action, line.events, line.after, "en")
        assert story, f"line {line.number} {line.action} tells nothing"
        if line.action["type"] == "vote" and not any(e["event"] == "reveal" for e in line.events):
            assert line.action["target"] not in " ".join(story), "a vote is secret until the reveal"
