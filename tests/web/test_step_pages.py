"""The next step, the dashboard's share: pages follow each form's step, a phone's draft counts at the
sand's end, seats played on the tablet lead its page, a hand-off is said prominently, and words
(units, outcomes, names) are said once and whole. In-process (Flask's test client); the browser
side is tests/web/test_step_browser.py."""

from __future__ import annotations

import dataclasses
import re
import time

from flask import render_template_string

from companion import games
from tests.support.dashboard import TO_THE_VOTE, Table
from web.forms import value_format

DICE_SETUP = [{"type": "start", "player": "Ann", "field": 1}, {"type": "start", "player": "Bob", "field": 19},
              {"type": "place_turtles", "numbers": [2, 3, 8, 20, 36]}]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def page(table: Table, gid: str, view: str = "table", token: str | None = None) -> str:
    path = f"/g/{gid}/table" if view == "table" else f"/g/{gid}/seat/{view}"
    r = table.client().get(path, headers=bearer(token or table.token))
    assert r.status_code == 200
    return r.get_data(as_text=True)


def dice_in_the_sand(table: Table, seconds: float) -> tuple[str, dict[str, str]]:
    """A dice game whose sand Ann's plan has just turned; both seats on phones."""
    gid = table.new_game("galapagos-dice", ["Ann", "Bob"], {"layout_seed": 7, "timer_seconds": seconds})
    tokens = {n: table.join(table.client(), gid, n) for n in ("Ann", "Bob")}
    for a in DICE_SETUP:
        h = bearer(tokens[a["player"]]) if a.get("player") else None
        assert table.act(gid, a, headers=h).status_code == 200
    assert table.act(gid, {"type": "plan", "player": "Ann", "dice": ["red"]}, headers=bearer(tokens["Ann"])).status_code == 200
    return gid, tokens


def lay_tiles(table: Table, gid: str) -> None:
    """The auction's four species tiles, laid by the table: the bidding opens."""
    for d, pair in zip("NESW", (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"], ["sea_lion", "crab"]),
                       strict=True):
        assert table.act(gid, {"type": "tile", "direction": d, "animals": pair}).status_code == 200


def draft(table: Table, gid: str, token: str, body: dict):
    return table.client().post(f"/api/games/{gid}/draft", json=body, headers=bearer(token))


# -- 3. the dice laid on a phone count when the sand runs out ----------------------------------------
def test_a_draft_sent_as_the_player_taps_is_his_plan_when_the_sand_runs_out(table: Table) -> None:
    gid, tokens = dice_in_the_sand(table, 0.8)
    assert draft(table, gid, tokens["Bob"], {"values": ["red", "blue"]}).status_code == 200
    session = table.dashboard.hub.session(gid)
    time.sleep(0.9)
    session.tick()
    last = session.history()
    planned = [e for e in last if e.action.get("type") == "plan" and e.action.get("player") == "Bob"]
    assert planned and planned[-1].action["dice"] == ["red", "blue"]  # not « Bob made no plan »
    assert last[-1].action["type"] == "timer_expired" and not session.drafts


def test_a_draft_is_the_seats_own_and_bad_ones_change_nothing(table: Table) -> None:
    gid, tokens = dice_in_the_sand(table, 60)
    r = draft(table, gid, tokens["Bob"], {"player": "Ann", "values": ["red"]})
    assert r.status_code == 403 and "Bob cannot lay a draft for Ann" in r.json["error"]["message"]
    for bad in ({"values": "red"}, {"values": [True]}, {"values": ["red"] * 40}, {"values": ["red"], "x": 1},
                {"player": "Zed", "values": []}):
        assert draft(table, gid, tokens["Bob"], bad).status_code == 400, bad
    r = table.client().post(f"/api/games/{gid}/draft", json={"values": ["red"]})
    assert r.status_code == 401
    session = table.dashboard.hub.session(gid)
    assert session.drafts == {}
    assert draft(table, gid, tokens["Bob"], {"values": ["blue"]}).status_code == 200
    assert session.drafts == {"Bob": ["blue"]}
    # what he sends replaces what he had laid
    assert table.act(gid, {"type": "plan", "player": "Bob", "dice": ["green"]}, headers=bearer(tokens["Bob"])).status_code == 200
    assert session.drafts == {}


def test_no_draft_without_the_sand_running(table: Table) -> None:
    gid = table.new_game("galapagos-dice", ["Ann", "Bob"], {"layout_seed": 7})
    token = table.join(table.client(), gid, "Bob")
    r = draft(table, gid, token, {"values": ["red"]})
    assert r.status_code == 409 and "sand" in r.json["error"]["message"]


def test_the_phone_marks_its_plan_as_a_draft_and_has_the_5_s_warning_ready(table: Table) -> None:
    gid, tokens = dice_in_the_sand(table, 60)
    html = page(table, gid, "Bob", tokens["Bob"])
    form = re.search(r'<form class="act[^"]*"[^>]*data-action="plan"[^>]*>', html).group(0)
    assert 'data-draft="dice"' in form
    assert "5 s: your dice in order as laid will count" in html and "data-draft-warning hidden" in html


def patch_moves(monkeypatch, game_id: str, moves) -> None:
    """The game's listed ``moves`` part replaced for one test (the package holds its parts, so the
    module's function is not what the interfaces call)."""
    pkg = games.package(game_id)
    monkeypatch.setattr(pkg, "parts", dataclasses.replace(pkg.parts, moves=moves))


# -- 1. the step decides: overrides last, never the big button, asking first -------------------------
def test_an_override_is_last_never_the_big_button_and_asks_its_question(table: Table, monkeypatch) -> None:
    real = games.package("galapagos-dice").parts.moves

    def with_override(state, lang="en"):
        out = real(state, lang)
        for f in out:
            if f["type"] == "timer_expired":
                f.update(step="override", ask="The sand is still running: end planning for everyone?", confirm=True)
        return out

    patch_moves(monkeypatch, "galapagos-dice", with_override)
    gid = table.new_game("galapagos-dice", ["Ann", "Bob"], {"layout_seed": 7, "timer_seconds": 60})
    for a in DICE_SETUP + [{"type": "plan", "player": "Ann", "dice": ["red"]}]:
        assert table.act(gid, a).status_code == 200
    html = page(table, gid)
    timer = re.search(r'<form class="act([^"]*)"[^>]*data-action="timer_expired"[^>]*>', html)
    assert timer and "override" in timer.group(1) and "lead" not in timer.group(1)
    assert 'data-ask="The sand is still running: end planning for everyone?" data-ask-time' in timer.group(0)
    lead = re.findall(r'<form class="act[^"]*\blead\b[^"]*"[^>]*data-action="([a-z_]+)"', html)
    assert lead and "timer_expired" not in lead
    actions = html[html.index('data-part="actions"'):]
    assert '<details class="overrides">' in actions and "Correct the flow" in actions


def test_acting_for_a_phones_seat_is_an_override_that_asks(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    table.join(table.client(), gid, "Ann")
    lay_tiles(table, gid)
    html = page(table, gid)
    acting = html[html.index('class="act-for"'):]
    form = re.search(r'<form class="act[^"]*"[^>]*data-action="pass"[^>]*>', acting).group(0)
    assert 'data-step="override"' in form and "Ann has a phone: send « Pass » for Ann from the tablet?" in form
    assert "data-ask-time" not in form  # the sand has nothing to do with it


# -- 4. a seat played on the tablet leads its page --------------------------------------------------
def test_a_tablet_seat_has_its_banner_and_chips_at_the_top_not_waiting_for_him(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    table.join(table.client(), gid, "Ann")
    assert table.act(gid, TO_THE_VOTE[0]).status_code == 200
    assert table.client().post(f"/api/games/{gid}/actions?act_for=Ann", json=TO_THE_VOTE[1],
                               headers=table.auth()).status_code == 200
    html = page(table, gid)
    side = html[html.index('data-part="actions"'):]
    banner = re.search(r'<section class="seat-turn[^"]*" data-seat="Bob".*?</section>', side, re.S)
    assert banner and "Bob, you must" in banner.group(0) and 'data-action="search"' in banner.group(0)
    assert "Waiting for" not in side and "Waiting for Bob" not in html
    assert side.index("seat-turn") < side.index('data-move="undo"')  # the top of the side column


def test_a_tablet_seats_secret_vote_is_behind_the_privacy_screen(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for a in TO_THE_VOTE:
        assert table.act(gid, a).status_code == 200
    html = page(table, gid)  # everyone has acted: the survival step is due, nobody votes yet
    assert "data-private-open=" not in html and 'data-action="vote"' not in html
    assert table.act(gid, {"type": "survival"}).status_code == 200
    html = page(table, gid)
    assert html.count("data-private-open=") == 3 and "Pass the tablet to Bob" in html  # one per seat, wherever
    outside = re.sub(r"<template.*?</template>", "", html, flags=re.S)
    assert 'data-action="vote"' not in outside  # the vote is only in the screen's template
    assert re.search(r'<template class="private-forms" data-seat="Bob">.*?data-action="vote"', html, re.S)


# -- 2. a hand-off the narration gives is said prominently -------------------------------------------
def test_the_narrations_hand_off_is_the_tablets_banner(table: Table, monkeypatch) -> None:
    pkg = games.package("galerapagos")
    monkeypatch.setattr(pkg, "parts", dataclasses.replace(pkg.parts, hand_off=lambda e, lang="en": (
        "Deal Dan's 4 cards: 2 to Ann, 2 to Cleo" if e.get("event") == "death" else "")))
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for a in TO_THE_VOTE:
        assert table.act(gid, a).status_code == 200
    assert "hand-off" not in page(table, gid).split('data-part="actions"')[0]
    for voter, target in (("Ann", "Cleo"), ("Bob", "Cleo"), ("Cleo", "Ann")):
        assert table.act(gid, {"type": "vote", "player": voter, "target": target}).status_code == 200
    pkg = games.package("galerapagos")
    session = table.dashboard.hub.session(gid)
    for _ in range(4):  # the condemned answers he has no card, the moment closes
        offered = [f for f in pkg.moves(session.state) if f["type"] in ("no_card", "close")]
        if not offered or any(not p["alive"] for p in session.public()["players"]):
            break
        f = offered[0]
        assert table.act(gid, {"type": f["type"], **({"player": f["player"]} if f.get("player") else {})}).status_code == 200
    assert any(not p["alive"] for p in session.public()["players"])
    html = page(table, gid)
    assert '<p class="banner hand-off" role="alert">' in html and "Deal Dan&#39;s 4 cards: 2 to Ann, 2 to Cleo" in html


# -- 7. words -------------------------------------------------------------------------------------
def test_a_range_says_its_unit_in_the_question() -> None:
    assert value_format({"min": 100, "max": 700, "preview": {"text": "£100 to £700"}}) == "£{n}"
    assert value_format({"min": 100, "max": 700, "preview": {"text": "100 £ à 700 £"}}) == "{n} £"
    assert value_format({"min": 1, "max": 4, "preview": {"text": "1 to 4 steps"}}) == ""
    assert value_format({"min": 1, "max": 4, "format": "{n} steps"}) == "{n} steps"


def test_the_bid_amount_carries_its_unit_on_the_page(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    lay_tiles(table, gid)
    assert 'data-label="Amount" data-format="£{n}"' in page(table, gid)


def test_the_end_of_a_game_never_says_winners_nobody(table: Table) -> None:
    tpl = '{% import "macros.html" as m %}{{ m.outcome(pub, text, players, t) }}'
    t = lambda s, **k: s  # noqa: E731
    with table.app.test_request_context():
        solo_won = render_template_string(tpl, pub={"winners": ["Ann"]}, text="You survived 10 turns.", players=["Ann"], t=t)
        solo_lost = render_template_string(tpl, pub={"winners": []}, text="The rats took over.", players=["Ann"], t=t)
        none = render_template_string(tpl, pub={"winners": []}, text="", players=["Ann", "Bob"], t=t)
        two = render_template_string(tpl, pub={"winners": ["Ann", "Bob"]}, text="", players=["Ann", "Bob"], t=t)
    assert "<b>Won</b>" in solo_won and "Winners" not in solo_won
    assert "<b>Lost</b>" in solo_lost and "nobody" not in solo_lost.lower()
    assert "Nobody wins." in none and "Winners" not in none
    assert "Winners: <b>Ann, Bob</b>" in two


def test_the_tablet_names_whom_it_waits_for_once(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    table.join(table.client(), gid, "Ann")
    lay_tiles(table, gid)
    side = page(table, gid).split('data-part="actions"')[1]
    line = re.search(r'<p class="banner prompt[^"]*"[^>]*>(.*?)</p>', side, re.S).group(1)
    assert line.count("Ann") == 1, line


def test_the_french_sentence_names_the_button_as_it_reads() -> None:
    """« Terminé » on the button, « Terminé » in the sentence that sends the player to it."""
    pkg = games.package("galapagos-auction")
    button = pkg.t("Done", "fr")
    for msgid in ("You must play your {d} cards, then say done.", "{p}: play your {d} cards, then done."):
        assert f"« {button} »" in pkg.t(msgid, "fr", d="3", p="Ann"), msgid


def test_a_tablet_seat_is_addressed_by_name_in_french_too() -> None:
    from web.table_view import addressed

    assert addressed("Bob", "À vous de pêcher.", "fr") == "Bob, à vous de pêcher."
    assert addressed("Dan", "You must bid or pass.", "en") == "Dan, you must bid or pass."
    assert addressed("Dan", "OK to go on?", "en") == "Dan, OK to go on?"
    assert addressed("Cid", "Ann turned the sand timer: plan.", "en", ["Ann", "Cid"]) == "Cid, Ann turned the sand timer: plan."


def test_a_tablet_seats_secret_move_not_yet_expected_is_still_behind_the_screen(table: Table, monkeypatch) -> None:
    """A vote the rulebook does not expect yet (« also » until the debate ends) is not drawn either."""
    real = games.package("galerapagos").parts.moves

    def votes_later(state, lang="en"):
        out = real(state, lang)
        for f in out:
            if f["type"] == "vote":
                f["step"] = "also"
        return out

    patch_moves(monkeypatch, "galerapagos", votes_later)
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for a in TO_THE_VOTE:
        assert table.act(gid, a).status_code == 200
    html = page(table, gid)
    outside = re.sub(r"<template.*?</template>", "", html, flags=re.S)
    assert 'data-action="vote"' not in outside
    assert html.count("data-private-open=") == 3
