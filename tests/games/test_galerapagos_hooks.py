"""The package's hooks for the session and the pages: votes that stay secret at undo, the
tablet acting for a seat, readings at set-up, tournaments. Tested at the package level; the lead wires
them into the undo, the forms and the history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import games
from companion.engine.script import run_file
from companion.games.galerapagos import options as O
from tests.support.galerapagos import FIVE, food_vote_round_two, play, view, vote

PKG = games.package("galerapagos")
RULES = PKG.rules
SCENARIOS = Path(__file__).parent.parent / "scenarios"


def ballot_history():
    """The food vote of round two, each vote played one by one: (states before each action, actions)."""
    s = food_vote_round_two()
    states, actions = [s], []
    for voter, target in (("Ann", "Dan"), ("Bob", "Dan"), ("Cid", "Dan"), ("Dan", "Ann"), ("Eve", "Dan")):
        action = vote(voter, target)
        s, _ = RULES.apply(s, action)
        states.append(s)
        actions.append(action)
    return states, actions


# -- « Votes that stay secret » ----------------------------------------------------------------------

def test_once_the_ballot_is_revealed_no_seat_may_undo_its_vote() -> None:
    """« tous pointent du doigt » at once: a vote taken back after the reveal would be a second vote
    knowing the others' (« The last voter can undo after the reveal »)."""
    states, actions = ballot_history()
    before, last, after = states[-2], actions[-1], states[-1]
    assert view(after)["last_vote"], "Eve's vote revealed the ballot"
    reason = PKG.undo_refusal(before, last, after, by_table=False)
    assert reason and "revealed" in reason
    assert "révélés" in PKG.undo_refusal(before, last, after, by_table=False, lang="fr")
    assert PKG.undo_refusal(before, last, after, by_table=True) is None, "the table may"


def test_before_the_reveal_a_seat_may_take_its_vote_back() -> None:
    states, actions = ballot_history()
    assert PKG.undo_refusal(states[1], actions[1], states[2], by_table=False) is None
    assert PKG.undo_span(states[1], actions[1], states[2], by_table=False) == 1


def test_the_table_takes_back_the_whole_ballot_and_everyone_votes_again() -> None:
    """« The table may undo the whole ballot, which hides every vote again and asks everyone to vote anew »:
    the span reaches back to the state in which the ballot had just opened, no vote cast."""
    states, actions = ballot_history()
    span = PKG.undo_span(states[-2], actions[-1], states[-1], by_table=True)
    assert span == 5, "Ann's vote opened the ballot (it implied the survival step): all five votes"
    back = states[-1 - span]
    assert view(back)["phase"] == "acted" and not any(p.get("voted") for p in view(back)["players"])
    s = play(food_vote_round_two(), {"type": "survival", "player": "Eve"})  # the ballot opened by itself
    s = play(s, vote("Ann", "Dan"), vote("Bob", "Dan"), vote("Cid", "Dan"), vote("Dan", "Ann"))
    after, _ = RULES.apply(s, vote("Eve", "Dan"))
    assert PKG.undo_span(s, vote("Eve", "Dan"), after, by_table=True) == 5, "the confirmation stays"
    notice = PKG.undo_notice(states[-2], actions[-1])
    assert notice and "votes anew" in notice
    assert PKG.undo_notice(states[1], actions[1]) is None


def test_the_span_counts_cards_played_during_the_ballot() -> None:
    s = food_vote_round_two()
    s, _ = RULES.apply(s, vote("Ann", "Dan"))  # the vote that opens the ballot (the pause implied)
    seq = [{"type": "place", "player": "Bob", "card": "axe"}, vote("Bob", "Dan"), vote("Cid", "Dan"),
           vote("Dan", "Ann")]
    for action in seq:
        s, _ = RULES.apply(s, action)
    before = s
    last = vote("Eve", "Dan")
    after, _ = RULES.apply(before, last)
    assert PKG.undo_span(before, last, after, by_table=True) == len(seq) + 2, "Ann's vote opened it"


# -- the tablet acting for a phone ------------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "phone", "allowed"), [
    ("vote", True, False), ("vote", False, True), ("resource", True, True), ("no_card", True, True),
    ("tiebreak", True, True),
])
def test_the_tablet_never_votes_for_a_seat_held_by_a_phone(kind: str, phone: bool, allowed: bool) -> None:
    """« The tablet acts only for seats without a phone ... and never for a vote »."""
    assert PKG.table_may_act({"type": kind, "player": "Ann"}, phone_held=phone) is allowed


# -- readings shown at set-up -----------------------------------------------------------------------------

def test_each_reading_is_an_option_with_its_default_and_every_choice_sets_a_game_up() -> None:
    specs = PKG.option_specs("en")
    names = [s["name"] for s in specs]
    assert {"weather_deck", "raft_vote", "sick_show", "dead_vote", "manches", "scoring"} <= set(names)
    for spec in specs:
        assert spec["default"] in [c["value"] for c in spec["choices"]] and spec["note"]
        for c in spec["choices"]:
            RULES.setup(FIVE, {spec["name"]: c["value"]})
    defaults = RULES.setup(FIVE, {s["name"]: s["default"] for s in specs})
    assert RULES.dump(defaults) == RULES.dump(RULES.setup(FIVE, {})), "the defaults are the game without options"
    assert all(s["label"] != f["label"] for s, f in zip(specs, PKG.option_specs("fr"), strict=True) if s["name"] != "dead_vote")


# -- tournaments -------------------------------------------------------------------------------------------

def manche(k: int) -> dict:
    result = run_file(str(SCENARIOS / f"galerapagos_tournament_manche{k}.jsonl"))
    assert result.exit_code == 0
    header = json.loads((SCENARIOS / f"galerapagos_tournament_manche{k}.jsonl").read_text().splitlines()[0])
    return {**result.output, "options": header["options"]}


def test_a_tournament_of_three_manches_totals_the_points_and_names_the_leaders() -> None:
    """« Une fois toutes les manches jouées, le joueur qui totalise le plus de points remporte la partie. »"""
    records = [manche(1), manche(2), manche(3)]
    totals = PKG.match_totals(records)
    assert totals["totals"] == {"Ann": 2, "Bob": 2, "Cid": 1} and totals["leaders"] == ["Ann", "Bob"]
    assert totals["played"] == 3 and totals["over"] and totals["winners"] == ["Ann", "Bob"]
    assert [r["winners"] for r in totals["rows"]] == [["Ann", "Bob", "Cid"], [], ["Ann", "Bob"]]
    assert records[2]["match"]["totals"] == totals["totals"], "the last manche shows the same totals"


def test_the_totals_after_two_manches_and_the_next_manches_options() -> None:
    records = [manche(1), manche(2)]
    totals = PKG.match_totals(records)
    assert totals["played"] == 2 and not totals["over"] and totals["winners"] == []
    nxt = PKG.next_manche(records[-1]["options"], records[-1])
    assert nxt == {**records[-1]["options"], "manche": 3, "carried": {"Ann": 1, "Bob": 1, "Cid": 1}}
    RULES.setup(["Ann", "Bob", "Cid"], nxt)  # a valid set-up
    assert PKG.next_manche(manche(3)["options"], manche(3)) is None, "the match is over"


def test_solitaire_the_fewer_survivors_the_more_points() -> None:
    """« Moins il y a de survivants, plus vous marquerez des points. ... Vous perdez 1 point par survivant
    sur le radeau. » Three players: alone aboard 3 points, two aboard 2 each, three aboard 1 each."""
    records = []
    for k in (1, 3):
        r = manche(k)
        r["options"] = {**r["options"], "scoring": "solitaire"}
        records.append(r)
    totals = O.match_totals(records)
    assert totals["totals"] == {"Ann": 1 + 2, "Bob": 1 + 2, "Cid": 1} and totals["mode"] == "solitaire"


def test_records_of_another_match_or_of_no_match_are_left_out() -> None:
    other = {**manche(1), "options": {**manche(1)["options"], "match": "Saturday"}}
    assert PKG.match_totals([{"players": [], "options": {}}]) is None
    totals = PKG.match_totals([other, manche(1), manche(2)])
    assert totals["match"] == "Friday" and totals["played"] == 2


def test_a_manches_own_state_shows_the_totals_carried_in_and_a_bad_carry_is_refused() -> None:
    s = RULES.setup(["Ann", "Bob", "Cid"], {"match": "Friday", "manches": 3, "manche": 2,
                                            "carried": {"Ann": 3, "Cid": 1}})
    m = view(s)["match"]
    assert m["totals"] == {"Ann": 3, "Bob": 0, "Cid": 1} and m["leaders"] == ["Ann"] and not m["last"]
    from companion.engine.rules import RuleError

    with pytest.raises(RuleError):
        RULES.setup(["Ann", "Bob", "Cid"], {"manches": 3, "carried": {"Zed": 1}})
    with pytest.raises(RuleError):
        RULES.setup(["Ann", "Bob", "Cid"], {"manches": 3, "manche": 4})
    assert view(RULES.setup(["Ann", "Bob", "Cid"], {}))["match"] is None


def test_a_new_tournament_gets_a_match_name_of_its_own() -> None:
    first, second = PKG.default_options({"manches": 3}), PKG.default_options({"manches": 3})
    assert first["match"] and first["match"] != second["match"] and first["manche"] == 1
    RULES.setup(["Ann", "Bob", "Cid"], first)
    assert PKG.default_options({"manches": 3, "match": "Friday"}) == {"manches": 3, "match": "Friday"}
    assert PKG.default_options({}) == {}
