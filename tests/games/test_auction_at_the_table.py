"""galapagos-auction at a real table: the bank explains itself.

Each test starts from a rulebook sentence (seed 000) and checks what the table is
shown: the money that lies beside a compass board during the bidding and the money
still free, the totals of each square and the square that leads, the cards used of
a 7-card hand, the exchange prices, the bonus tile asked for (only among those the
exhibition fulfils) on the dial and on the phone, the end sentence naming the
tie-break, and the ``shared_field`` reading offered at set-up.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from random import Random
from typing import Any

import pytest

from companion.board.controller import TableController
from companion.board.screens import context_for, render
from companion.drawing.canvas import Canvas
from companion.engine import moves as M
from companion.engine.rules import RuleError
from companion.games.auction import GAME
from companion.games.auction.rules import AuctionState, animal_cost, costs
from companion.table import extras
from companion.table.journal import Journal
from companion.table.session import Session
from hw.events import ButtonEvent, EncoderEvent
from hw.oled import open_oled
from tests.games.test_auction_scoring import final
from tests.support.auction import RULES, act, choose, new, play, with_player, with_track
from tests.support.clock import FakeClock
from web import forms as web_forms

SCENARIOS = Path(__file__).parents[1] / "scenarios"
#: the game at a real table up to Bob's card play in round 2: he holds two iguanas, the 1 and iguana tiles are face up
TWO_TILES = SCENARIOS / "auction_table_tie_on_money.jsonl"
TWO_TILES_LINES = 24


def view(state: AuctionState) -> dict[str, Any]:
    return RULES.public_state(state)


def lines_of(path: Path, count: int) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()][:count]


def replayed(lines: list[dict[str, Any]]) -> AuctionState:
    state = RULES.setup(lines[0]["players"], lines[0].get("options", {}))
    return play(state, *lines[1:])


# -- the money beside the compass board ------------------------------------------------------

def test_money_bid_lies_beside_the_compass_and_is_not_free() -> None:
    """"each player may in turn place one bid, by placing any chosen amount of money next to his compass
    board": the money is still his (not paid yet), but it is not free to pay an exchange."""
    state = play(new(), act("bid", "Ann", direction="W", amount=300), act("bid", "Bob", direction="N", amount=500))
    pub = view(state)
    assert [p["money"] for p in pub["players"]] == [1500, 1500, 1500, 1500]
    assert pub["free_money"] == {"Ann": 1200, "Bob": 1000, "Cid": 1500, "Dee": 1500}
    assert costs(state, "Bob")["free"] == 1000 and costs(state, "Bob")["bid"] == 500


def test_after_the_settlement_all_money_is_free_again() -> None:
    """"Players with bids in other directions keep their money": once the bids are evaluated nothing lies
    beside a compass any more, so free money is money (paid bids are gone, others are back)."""
    state = play(new(), act("bid", "Ann", direction="W", amount=300), act("bid", "Bob", direction="N", amount=500),
                 act("pass", "Cid"), act("pass", "Dee"))
    pub = view(state)
    assert pub["phase"] == "actions"
    assert pub["free_money"] == {p["name"]: p["money"] for p in pub["players"]}
    assert pub["free_money"]["Ann"] == 1500 and pub["free_money"]["Bob"] == 1000


def test_an_exchange_during_the_bidding_is_offered_only_from_free_money() -> None:
    """Exchanges happen "at any time"; during the bidding the money beside the compass cannot pay one. The
    move shows the take disabled with the free sum, and the bank refuses it with the same figures."""
    state = with_player(new(), "Ann", money=700, animals={"crab": 2})
    state = play(state, act("bid", "Ann", direction="W", amount=600))
    form = next(f for f in GAME.moves(state) if f["type"] == "exchange" and f["player"] == "Ann" and not f.get("alias"))
    take = {c["value"]: c for c in form["fields"][1]["choices"]}
    assert take["sea_lion"]["disabled"] is None  # on the figure's field: free
    assert take["iguana"]["disabled"] == "£200 is more than the £100 not bid"
    with pytest.raises(RuleError) as info:
        RULES.apply(state, act("exchange", "Ann", give=["crab", "crab"], take="iguana"))
    assert info.value.message == "Ann has £700, £600 of it bid, and cannot pay £200 for an iguana."


# -- the totals and the leader while bidding -------------------------------------------------

def test_example_3_equal_totals_the_earlier_square_leads() -> None:
    """Example 3: "W-300, N-100, N-200 ... both directions received a total of 300, but W was bid first"."""
    state = play(new(("Ann", "Bob", "Cid", "Dee")), act("bid", "Ann", direction="W", amount=300),
                 act("bid", "Bob", direction="N", amount=100), act("bid", "Cid", direction="N", amount=200))
    pub = view(state)
    assert pub["bid_totals"] == {"N": 300, "E": 0, "S": 0, "W": 300}
    assert pub["leader"] == {"direction": "W", "total": 300, "player": "Ann"}
    assert pub["expected"]["prompt"] == "Dee: bid or pass. West leads with £300."


def test_example_5_the_earlier_of_two_equal_top_bids_would_take_the_figure() -> None:
    """Example 5: "N-200, W-100, N-200 ... the first player gets the Starting Player figure": while the
    bidding goes on, the leader shown names the player the settlement would give the figure to."""
    state = play(new(("Ann", "Bob", "Cid", "Dee")), act("bid", "Ann", direction="N", amount=200),
                 act("bid", "Bob", direction="W", amount=100))
    assert view(state)["leader"] == {"direction": "N", "total": 200, "player": "Ann"}
    state = play(state, act("bid", "Cid", direction="N", amount=200))
    assert view(state)["leader"] == {"direction": "N", "total": 400, "player": "Ann"}


def test_nothing_leads_before_the_first_bid_and_the_prompt_stays_short() -> None:
    state = play(new(), act("pass", "Ann"))
    pub = view(state)
    assert pub["leader"] is None and pub["bid_totals"] == {"N": 0, "E": 0, "S": 0, "W": 0}
    assert pub["expected"]["prompt"] == "Bob: bid or pass."
    assert GAME.prompt(play(state, act("bid", "Bob", direction="S", amount=100)), "fr") == (
        "Cid : enchérissez ou passez. Sud mène avec 100 £.")


def test_the_leader_shown_is_who_the_bank_then_settles_for() -> None:
    """Random biddings: the square and the start player the screens show as leading before the last
    player passes are exactly what the settlement gives (a pass changes no total)."""
    rng = Random(17)
    for _ in range(300):
        names = ("Ann", "Bob", "Cid", "Dee", "Eve")[: rng.randint(2, 5)]
        state = new(names)
        for name in names[:-1]:
            if rng.random() < 0.3:
                state = play(state, act("pass", name))
            else:
                state = play(state, act("bid", name, direction=rng.choice("NESW"), amount=100 * rng.randint(1, 5)))
        shown = view(state)["leader"]
        after = play(state, act("pass", names[-1]))
        if shown is None:
            assert after.phase == "direction"
        else:
            assert (view(after)["direction"], view(after)["start_player"]) == (shown["direction"], shown["player"])
            assert sum(b["amount"] for b in view(state)["bids"] if b["direction"] == shown["direction"]) == shown["total"]


def test_the_dial_preview_marks_the_square_that_leads() -> None:
    state = play(new(), act("bid", "Ann", direction="E", amount=200))
    bid = next(f for f in GAME.moves(state) if f["type"] == "bid")
    texts = {c["value"]: c["preview"]["text"] for c in bid["fields"][0]["choices"]}
    assert texts["E"] == "tortoise + booby · £200 bid, leads"
    assert texts["N"] == "sea lion + iguana"


# -- cards used of a hand of 7 ---------------------------------------------------------------

def test_cards_used_of_seven_are_counted_for_the_player_on_turn() -> None:
    """"each player is dealt a hand of 7 cards"; two cards for a wildcard action, one per card sold."""
    state = choose(new(), "S")
    assert view(state)["cards_used"] == 0 and view(state)["hand"] == 7
    state = play(state, act("education", "Ann", steps=1, wildcard=True), act("sell_cards", "Ann", count=3))
    assert view(state)["cards_used"] == 5
    assert costs(state, "Ann")["cards_used"] == 5 and costs(state, "Bob")["cards_used"] is None
    sell = next(f for f in GAME.moves(state) if f["type"] == "sell_cards")
    assert sell["fields"][0]["max"] == 2  # what is left of the 7
    state = play(state, act("done", "Ann"))
    assert view(state)["cards_used"] == 0 and view(state)["turn"] == "Bob"
    assert view(new())["cards_used"] is None  # no card play while bidding


# -- exchange prices -------------------------------------------------------------------------

def test_costs_give_every_exchange_price_from_the_figure() -> None:
    """An exchange costs "£200 for each animal token up to and including the chosen animal token" not yet
    reached: from field 0 the sea lion is free and each further token adds £200."""
    table_ = costs(choose(new(), "S"), "Ann")
    assert table_["exchange"] == {"sea_lion": 0, "iguana": 200, "tortoise": 400, "booby": 600, "penguin": 800,
                                  "crab": 1000}


# -- the bonus tile asked for, only among those that apply -----------------------------------

def exhibition_form(state: AuctionState, player: str) -> dict[str, Any]:
    return next(f for f in M.visible(GAME.moves(state)) if f["type"] == "exhibition" and f["player"] == player)


def bonus_of(form: dict[str, Any], animals: list[str]) -> dict[str, Any] | None:
    hit = next(c for c in form["fields"][0]["choices"] if c["value"] == animals)
    return next((f for f in hit.get("fields") or [] if f["name"] == "bonus"), None)


def test_several_tiles_apply_the_form_asks_which_among_those_only() -> None:
    """"If playing an exhibition that fulfills the requirements of more than one face-up bonus tile, you may
    freely choose which one": the 1 and iguana tiles are face up and Bob shows an iguana."""
    state = replayed(lines_of(TWO_TILES, TWO_TILES_LINES))
    assert view(state)["turn"] == "Bob" and view(state)["bonus_face_up"] == ["1", "iguana"]
    bonus = bonus_of(exhibition_form(state, "Bob"), ["iguana"])
    assert bonus is not None and not bonus.get("optional") and "default" not in bonus
    assert [c["value"] for c in bonus["choices"]] == ["1", "iguana"]
    assert all(c["preview"]["points"] == 3 for c in bonus["choices"])


def test_one_tile_applies_it_is_used_without_asking_and_none_asks_nothing() -> None:
    """The bonus is the tile the exhibition fulfils: one tile, nothing to choose (offered, optional);
    no tile fulfilled, no bonus field at all."""
    state = with_player(replace_flipped(choose(new(), "N"), 3), "Ann", animals={"crab": 1, "booby": 1, "penguin": 1})
    form = exhibition_form(state, "Ann")  # face up 1, 2, 3
    assert [c["value"] for c in bonus_of(form, ["crab"])["choices"]] == ["1"]
    assert bonus_of(form, ["crab"]).get("optional")
    assert [c["value"] for c in bonus_of(form, ["booby", "penguin", "crab"])["choices"]] == ["1", "2", "3"]
    used = play(state, act("exhibition", "Ann", animals=["crab"]))
    assert view(used)["bonus_face_up"] == ["2", "3"]
    spent = replace_used(state, {0, 1, 2})
    assert bonus_of(exhibition_form(spent, "Ann"), ["crab"]) is None


def replace_flipped(state: AuctionState, flipped: int) -> AuctionState:
    from dataclasses import replace

    return replace(state, flipped=flipped)


def replace_used(state: AuctionState, used: set[int]) -> AuctionState:
    from dataclasses import replace

    return replace(state, bonus_used=frozenset(used))


def dial_table(tmp_path: Path, lines: list[dict[str, Any]]) -> TableController:
    clock = FakeClock(100.0)
    header = lines[0]
    session = Session.new(Journal(tmp_path / "dial.db"), header["game"], header["players"], header.get("options", {}),
                          clock=clock, wall=clock)
    for action in lines[1:]:
        session.act(action)
    return TableController(session, open_oled("dummy"), clock=clock)


def test_the_dial_asks_for_the_bonus_tile_instead_of_sending_a_refused_exhibition(tmp_path: Path) -> None:
    """On the table alone: after the animals, OK goes to the bonus tile (the two that apply), then sends."""
    ctl = dial_table(tmp_path, lines_of(TWO_TILES, TWO_TILES_LINES))
    for _ in range(len(ctl.entry.forms)):
        if ctl.entry.form["type"] == "exhibition":
            break
        ctl.handle(EncoderEvent(1))
    assert ctl.entry.form["type"] == "exhibition" and ctl.entry.form["player"] == "Bob"
    ctl.handle(ButtonEvent("down"))
    ctl.handle(EncoderEvent(1))  # the first set: the iguana
    before = RULES.fingerprint(ctl.session.state)
    ctl.handle(ButtonEvent("ok"))
    assert RULES.fingerprint(ctl.session.state) == before and ctl.message is None  # nothing sent, nothing refused
    field = ctl.entry.current()
    assert field["name"] == "bonus"
    assert [c["value"] for c in M.enabled(field["choices"])] == ["1", "iguana"]
    ctl.handle(EncoderEvent(2))  # the second of the two: the iguana tile
    ctl.handle(ButtonEvent("ok"))
    assert RULES.fingerprint(ctl.session.state) == before and ctl.question()  # an exhibition asks first
    ctl.handle(ButtonEvent("ok"))
    pub = ctl.session.public()
    assert ctl.message is None
    assert next(p for p in pub["players"] if p["name"] == "Bob")["points"] == 3
    assert pub["bonus_face_up"] == ["1"]


def test_the_phone_form_asks_for_the_bonus_tile_as_a_required_choice(table) -> None:  # noqa: F811
    """The seat's page renders the same form: a required select with the two tiles and no preselection."""
    from companion.engine import texts

    state = replayed(lines_of(TWO_TILES, TWO_TILES_LINES))
    form = exhibition_form(state, "Bob")
    with table.app.test_request_context():
        html = table.app.jinja_env.from_string('{% import "macros.html" as m %}{{ m.action_form(f, t, fx, "Bob") }}'
                                               ).render(f=form, t=texts.translator("en"), fx=web_forms.helpers())
    sub = re.search(r'<div class="sub" data-when-field="animals" data-when="\[&#34;iguana&#34;\]".*?</div>', html, re.S)
    assert sub, html
    select = re.search(r'<select data-field="bonus"[^>]*>(.*?)</select>', sub.group(0), re.S)
    assert select and "required" in select.group(0).split(">")[0]
    values = re.findall(r'<option value="([^"]*)"', select.group(1))
    assert values == ["", "&#34;1&#34;", "&#34;iguana&#34;"]  # "– choose –", then the two tiles
    assert "selected" not in select.group(1)


# -- the end sentence names the tie-break ----------------------------------------------------

def test_a_clear_winner_is_named_alone() -> None:
    """"The player with the most exhibition points wins the game.\""""
    state = final([0, 0, 0], points=[10, 12, 11], money=[5000, 0, 0])
    assert RULES.outcome(state).sentence() == "Ann wins with 18 points."


def test_a_tie_lost_on_money_is_said() -> None:
    """"In the case of a tie, the tied player with the most money wins the game.\""""
    state = final([0, 0, 0], points=[52, 48, 52], money=[700, 3000, 500])  # 52 + 3 (education tie) = 55
    out = RULES.outcome(state)
    assert out.winners == ("Ann",)
    assert out.sentence() == "Ann wins with 55 points; Cid also has 55 and loses on money."
    assert out.to_json()["text"] == out.sentence()
    assert out.sentence("fr", GAME.domain) == "Ann gagne avec 55 points ; Cid a aussi 55 mais perd au départage par l'argent."
    three = RULES.outcome(final([0, 0, 0], points=[10, 10, 10], money=[1500, 1900, 1200]))
    assert three.sentence() == "Bob wins with 14 points; Ann and Cid also have 14 and lose on money."


def test_equal_points_and_money_share_the_win() -> None:
    """No further tie-break in the rulebook: the players equal in points and money share the win."""
    # each: exhibitions + 3 (all tied on education) + 1 per full £1000
    shared = RULES.outcome(final([0, 0, 0], points=[10, 10, 3], money=[1500, 1500, 1500]))
    assert shared.winners == ("Ann", "Bob")
    assert shared.sentence() == "Ann and Bob share the win with 14 points and £1500 each."
    assert shared.sentence("fr", GAME.domain) == "Ann et Bob se partagent la victoire avec 14 points et 1500 £ chacun."
    beaten = RULES.outcome(final([0, 0, 0, 0], points=[10, 10, 11, 0], money=[1500, 1500, 900, 0]))
    assert beaten.sentence() == ("Ann and Bob share the win with 14 points and £1500 each; "
                                 "Cid also has 14 and loses on money.")


def test_the_story_ends_with_the_same_sentence() -> None:
    """The last line of the story is the outcome's sentence, tie-break included."""
    from dataclasses import replace

    state = replace(choose(new(("Ann", "Bob")), "N"), round=12, flipped=12)
    state = with_player(with_player(state, "Ann", points=20, education=10, money=1300),
                        "Bob", points=21, education=9, money=2300)
    state = play(state, act("done", "Ann"))
    after, events = RULES.apply(state, act("done", "Bob"))
    lines = GAME.narrate(state, act("done", "Bob"), events, after)
    # Ann 20 + 4 (education) + 0 + 1 (£1300) = 25; Bob 21 + 2 + 0 + 2 (£2300) = 25: Bob has more money
    assert lines[-1] == "Bob wins with 25 points; Ann also has 25 and loses on money."
    assert lines[-1] == RULES.outcome(after).sentence()


# -- the shared-field reading, chosen at set-up ----------------------------------------------

def stacked(option: str | None) -> AuctionState:
    """The option's example: penguin and crab both on field 15, Ann's figure on 12, going West (penguin, crab)."""
    options = {} if option is None else {"shared_field": option}
    state = choose(new(**options), "W")
    return with_player(with_track(state, penguin=15, crab=15), "Ann", education=12)


def test_the_default_reading_pays_every_token_on_the_chosen_animals_field() -> None:
    """"£200 for each animal token up to and including the chosen animal token": by default the penguin
    sharing the crab's field is "up to" it too."""
    for state in (stacked(None), stacked("counted")):
        assert view(state)["shared_field"] == "counted"
        assert costs(state, "Ann")["expedition"] == {"penguin": 400, "crab": 400}
        after = play(state, act("expedition", "Ann", animal="crab"))
        assert after.players[0].money == 1500 - 400


def test_the_other_reading_pays_only_the_chosen_token_of_that_field() -> None:
    state = stacked("not_counted")
    assert view(state)["shared_field"] == "not_counted"
    assert costs(state, "Ann")["expedition"] == {"penguin": 200, "crab": 200}
    assert costs(state, "Ann")["exchange"]["crab"] == 200
    after, events = RULES.apply(state, act("expedition", "Ann", animal="crab"))
    assert after.players[0].money == 1300
    assert GAME.narrate(state, act("expedition", "Ann", animal="crab"), events, after) == [
        "Ann takes a crab for £200.", "The penguin on the same field is not paid."]
    exp = next(f for f in GAME.moves(state) if f["type"] == "expedition")
    assert {c["value"]: c["preview"]["cost"] for c in exp["fields"][0]["choices"]} == {"penguin": 200, "crab": 200}


def test_tokens_on_earlier_fields_are_paid_under_both_readings() -> None:
    """Only the chosen animal's own field is read two ways; a token between the figure and it is always paid."""
    for option in ("counted", "not_counted"):
        state = with_player(with_track(choose(new(shared_field=option), "W"), booby=13, penguin=15, crab=15),
                            "Ann", education=12)
        expected = {"counted": 600, "not_counted": 400}[option]
        assert costs(state, "Ann")["expedition"]["crab"] == expected
        assert animal_cost(state, 0, 3) == 200  # the booby alone


def test_the_story_says_the_default_reading_too() -> None:
    state = stacked(None)
    after, events = RULES.apply(state, act("expedition", "Ann", animal="penguin"))
    assert GAME.narrate(state, act("expedition", "Ann", animal="penguin"), events, after, "fr") == [
        "Ann prend un manchot pour 400 £.", "Jeton sur la même case, payé aussi : crabe."]


def test_an_unknown_reading_is_refused_with_one_sentence() -> None:
    with pytest.raises(RuleError) as info:
        RULES.setup(["Ann", "Bob"], {"shared_field": "half"})
    assert info.value.message == ('"shared_field" is "counted" (the tokens sharing the chosen animal\'s field are '
                                  'paid too) or "not_counted", not "half".')
    with pytest.raises(RuleError) as info:
        RULES.setup(["Ann", "Bob"], {"shared": "counted"})
    assert info.value.message == 'Galapagos has no option "shared"; it takes bonus_order and shared_field.'


def test_set_up_shows_the_reading_with_its_default() -> None:
    """The home page lists each game's readings (``option_specs``); every value offered is one set-up takes,
    and the default shown is the one a game without the option plays."""
    specs = GAME.option_specs("en")
    assert [s["name"] for s in specs] == ["shared_field"]
    spec = specs[0]
    assert spec["default"] == "counted" == view(new())["shared_field"]
    for c in spec["choices"]:
        assert view(new(shared_field=c["value"]))["shared_field"] == c["value"] and c["label"]
    assert "up to and including" in spec["note"] and spec["label"]
    french = GAME.option_specs("fr")[0]
    assert french["label"] != spec["label"] and french["choices"][0]["label"] != spec["choices"][0]["label"]
    listed = next(g for g in extras.game_names("en") if g["id"] == GAME.id)
    assert listed["options"] == specs


# -- the OLED costs screen -------------------------------------------------------------------

@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    out: list[str] = []
    text, header = Canvas.text, Canvas.header

    def record_text(self: Canvas, x: int, y: int, s: str, *args: Any, **kwargs: Any) -> int:
        out.append(s)
        return text(self, x, y, s, *args, **kwargs)

    def record_header(self: Canvas, left: str, right: str = "") -> None:
        out.extend([left, right])
        header(self, left, right)

    monkeypatch.setattr(Canvas, "text", record_text)
    monkeypatch.setattr(Canvas, "header", record_header)
    return out


def oled(state: AuctionState, lang: str = "en") -> None:
    render("costs", RULES.public_state(state), context_for(RULES, state, lang=lang))


def test_the_oled_shows_the_bidder_the_totals_and_the_leader(drawn: list[str]) -> None:
    state = play(new(), act("bid", "Ann", direction="W", amount=300), act("bid", "Bob", direction="N", amount=200))
    oled(state)
    assert drawn[:2] == ["Cid £1500", "W leads"]
    assert "£300" in drawn and "£200" in drawn  # the totals of W and N, beside their tiles


def test_the_oled_shows_cards_used_and_the_exchange_prices(drawn: list[str]) -> None:
    state = play(choose(new(), "S"), act("education", "Ann", steps=1, wildcard=True))
    oled(state)
    assert drawn[:2] == ["Ann £1400", "S cards 2/7"]
    table_ = costs(state, "Ann")
    shown = " ".join(drawn)
    assert "exchange 2 for 1:" in drawn
    for animal, short in (("sea_lion", "lio"), ("tortoise", "tor"), ("booby", "boo"), ("penguin", "pen")):
        assert short in drawn and f"£{table_['exchange'][animal]}" in shown
    assert {"cra", "igu"} <= set(drawn)  # the round's tile, first


def test_the_oled_money_is_the_free_money(drawn: list[str]) -> None:
    """The header's figure is what the player can pay with now: for the one to bid, none of his money is bid yet."""
    state = play(new(), act("bid", "Ann", direction="W", amount=300))
    oled(state)
    assert drawn[0] == "Bob £1500"
    assert costs(state, "Ann")["free"] == 1200
