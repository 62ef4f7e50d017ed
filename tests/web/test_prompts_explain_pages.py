"""Prompts that explain, on the phones: why a move is offered, said to « you », and nothing to the dead.

Galèrapagos with three castaways: food runs short in round 2 (Cleo is the first player). Bob's phone
says the shortage and that the card is optional (not « À vous : Jouer une carte Ressource »); the
condemned castaway's own phone says « you » (not « Your move: Cleo may still escape… »); once dead,
her phone offers no move and no undo (not « Undo: Cleo has no card to show »).
"""

from __future__ import annotations

import html
import re

from companion import games
from tests.support.dashboard import TO_THE_VOTE, Table
from web import seat_view


def _banner(page: str) -> str:
    found = re.search(r'class="banner (?:yours you-must|prompt)[^"]*" role="status">(.*?)</p>', page, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip() if found else ""


def test_a_shortage_says_why_a_card_is_offered_and_that_it_may_wait() -> None:
    pkg = games.package("galerapagos")
    state = pkg.rules.setup(["Ann", "Bob", "Cleo", "Dan", "Eve"], {})
    lines = [{"type": "weather", "water": 0, "hurricane": False}] + [
        {"type": "search", "player": p} for p in ("Ann", "Bob", "Cleo", "Dan", "Eve")] + [
        {"type": "weather", "water": 1, "hurricane": False}] + [
        {"type": "search", "player": p} for p in ("Eve", "Ann", "Bob", "Cleo", "Dan")] + [
        {"type": "survival", "player": "Eve"}]
    for line in lines:
        state, _ = pkg.rules.apply(state, line)
    exp = pkg.rules.expected(state)
    assert "Bob" in exp.players and exp.params["f"] == "Eve"
    assert seat_view.sentence(pkg, exp, "Bob", "fr") == (
        "Il manque 1 de nourriture : vous pouvez jouer une carte Nourriture, ou attendre le vote (Eve arrête le débat).")
    assert seat_view.sentence(pkg, exp, "Bob", "en") == (
        "Food is short by 1: you may play a food card, or wait for the vote (Eve ends the debate).")
    assert seat_view.sentence(pkg, exp, "Eve", "en").startswith("Food is short by 1: you may play a food card; "
                                                                "when the table is ready, you end the debate")


def test_the_condemned_is_told_as_you_and_the_dead_are_offered_nothing(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for line in TO_THE_VOTE:
        assert table.act(gid, line).status_code == 200
    token = table.join(table.client(), gid, "Cleo")
    cleo = {"Authorization": f"Bearer {token}"}
    for voter, target in (("Ann", "Cleo"), ("Bob", "Cleo"), ("Cleo", "Ann")):
        r = table.act(gid, {"type": "vote", "player": voter, "target": target}, cleo if voter == "Cleo" else None)
        assert r.status_code == 200, r.json

    def page(lang: str = "en") -> str:
        return table.client().get(f"/g/{gid}/seat/Cleo?lang={lang}", headers={**cleo, "Accept-Language": lang}
                                  ).get_data(as_text=True)

    alive = page()
    assert 'class="act' in alive  # her moves, while she may still escape
    said = _banner(alive)
    assert said == "The vote condemned you: you may still escape with a food card or a shot.", said
    assert "Cleo may still" not in said and "Your move" not in said
    assert _banner(page("fr")).startswith("Le vote vous désigne : vous pouvez encore vous sauver")
    assert table.act(gid, {"type": "no_card", "player": "Cleo"}, cleo).status_code == 200
    dead = page()
    assert _banner(dead) == "You are out of the game: you can follow it here."
    assert 'data-move="undo"' not in dead and "Undo:" not in dead  # her own « no card » is not hers to undo now
    assert 'class="act' not in dead  # no move form
