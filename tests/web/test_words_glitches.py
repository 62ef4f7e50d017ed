"""Words and glitches on the screens, each once seen at a table and fixed.

« Ann, bob turned the sand timer » (a name lowered when the tablet addresses a seat), … Each test
failed before its fix.
"""

from __future__ import annotations

from companion import games
from web import seat_view, table_view


def _dice_sand_running() -> tuple[object, object]:
    pkg = games.package("galapagos-dice")
    state = pkg.rules.setup(["Ann", "Bob"], {})
    for _ in range(200):  # play the first legal move until Bob has said done and the sand runs
        exp = pkg.rules.expected(state)
        if exp.prompt.startswith("{player} turned the sand timer"):
            return pkg, exp
        state, _ = pkg.rules.apply(state, pkg.rules.candidates(state)[0])
    raise AssertionError("the sand timer never ran")


def test_a_seat_addressed_at_the_tablet_keeps_the_capital_of_another_s_name() -> None:
    pkg, exp = _dice_sand_running()
    turner = exp.params["player"]
    waiting = next(p for p in exp.players if p != turner)
    phone = seat_view.sentence(pkg, exp, waiting, "en")
    assert phone == f"The sand timer is running ({turner} turned it): plan your dice and say done before it runs out."
    tablet = table_view.addressed(waiting, phone, "en")
    assert tablet.startswith(f"{waiting}, the sand timer is running ({turner} turned it)")
    assert f", {turner.lower()} turned" not in tablet
    assert seat_view.sentence(pkg, exp, waiting, "fr").startswith(f"Le sablier s'écoule ({turner} l'a retourné)")


def _plan_form(state, lang: str = "en") -> dict:
    from companion.games.dice import moves

    return next(f for f in moves.moves(state, lang) if f["type"] == "plan" and f["player"] == "Ann")


def test_a_suggestion_that_gains_nothing_is_not_offered_and_a_gain_is_said_in_points() -> None:
    from tests.support.dice import act, play, ready

    nothing = play(ready(), act("roll", "Ann", dice=["white", "red", "green", "blue", "black"]))
    form = _plan_form(nothing)
    assert "hint" not in form and not form.get("first")  # no « Plan the suggestion: +0 » sending no dice
    assert form["preview"]["text"].startswith("No path with these dice takes a turtle: plan any dice you like, or none")
    one = play(ready(pawns=(1, 30), turtles={8: "red"}, island=(8,)), act("roll", "Ann", dice=["white", "black", "black", "black", "black"]))
    hint = _plan_form(one)["hint"]
    assert hint["order"] == ["white"] and hint["label"] == "Plan the suggestion (+1 point for the turtles it takes)"
    assert _plan_form(one, "fr")["hint"]["label"] == "Planifier la suggestion (+1 point pour les tortues ramassées)"
    under = play(ready(pawns=(1, 30), turtles={1: "red"}, island=(1,)), act("roll", "Ann", dice=["yellow"] * 5))
    assert "the one under your pawn is yours anyway (+1 point)" in _plan_form(under)["preview"]["text"]


def test_a_solo_game_is_offered_for_1_player_not_1_players(table) -> None:
    page = table.client().get("/", headers=table.auth()).get_data(as_text=True)
    assert "Pocket Galapagos (1 player)" in page and "1 players" not in page
    assert "(2–4 players)" in page or "players)" in page
    french = table.client().get("/?lang=fr", headers={**table.auth(), "Accept-Language": "fr"}).get_data(as_text=True)
    assert "(1 joueur)" in french and "Exporter :" in french  # a space before the colon in French


def test_a_game_scored_at_its_end_shows_no_column_of_zeros_while_played(table) -> None:
    from tests.support.dashboard import TO_THE_VOTE

    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for line in TO_THE_VOTE[:4]:
        assert table.act(gid, line).status_code == 200
    page = table.client().get(f"/g/{gid}/table", headers=table.auth()).get_data(as_text=True)
    assert '<td class="score">' not in page and "<h2>Players</h2>" in page
    assert '<svg class="ic ic-chart"' in page and "📈" not in page  # the course's icon drawn, not an emoji


def test_a_game_scored_while_played_keeps_its_score_column(table) -> None:
    import json

    from tests.table.corrections.test_amend_undo_back import SCENARIOS

    gid = table.new_game("galapagos-auction", ["Ann", "Bob", "Cid"])
    for line in (SCENARIOS / "auction_full_game.jsonl").read_text().splitlines()[1:30]:
        assert table.act(gid, json.loads(line)).status_code == 200
    page = table.client().get(f"/g/{gid}/table", headers=table.auth()).get_data(as_text=True)
    assert '<td class="score">' in page and "<h2>Scores</h2>" in page


def test_a_walk_s_gain_is_said_in_points() -> None:
    from companion.games.dice import moves
    from tests.support.dice import ready

    walk = {"turtles": [8, 9], "points": 2, "wins": False, "ends": False}
    assert moves._walk_text(ready(), walk, "en") == "turtles 8, 9 (+2 points)"  # not « (+2) »
    assert moves._walk_text(ready(), {**walk, "turtles": [8], "points": 1}, "fr") == "tortue 8 (+1 point)"
