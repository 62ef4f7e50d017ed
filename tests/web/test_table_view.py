"""The table page's turn ribbon, story and results, through the Flask test client.

The ribbon: "who acts, who is next, the start player's figure", each seat in its colour, a phone
icon for a seat held by a phone. Written from the rulebooks' turn order: the auction's bidding goes
"in turn from the start player, clockwise"; its cards start with the new start player; the table
lays the species tiles.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from companion import games
from companion.engine import results
from tests.support.dashboard import Table

TILES = [("N", ["sea_lion", "iguana"]), ("E", ["tortoise", "booby"]), ("S", ["penguin", "crab"]), ("W", ["sea_lion", "crab"])]


def tablet(table: Table):
    c = table.client()
    assert c.get(f"/?token={table.token}").status_code == 302
    return c


def html_text(fragment: str) -> str:
    """A fragment's text as a reader sees it (tags dropped, entities read)."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def ribbon_of(html: str) -> list[tuple[str, str, str]]:
    """(name, classes, role words) of each ribbon entry, in order."""
    box = re.search(r'<ol class="ribbon".*?</ol>', html, re.S)
    assert box, "no ribbon on the page"
    out = []
    for li in re.finditer(r'<li class="(rb[^"]*)"\s+data-seat="([^"]*)".*?</li>', box.group(0), re.S):
        role = re.search(r'<small class="rb-role">(.*?)</small>', li.group(0), re.S)
        out.append((li.group(2), li.group(1), role.group(1).strip() if role else ""))
    return out


def test_the_ribbon_shows_the_table_laying_tiles_then_the_bidders_in_turn(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob", "Cid"])
    c = tablet(table)
    rb = ribbon_of(c.get(f"/g/{gid}/table").data.decode())
    assert [r[0] for r in rb] == ["Ann", "Bob", "Cid", "The table"]  # seating order, then the table
    assert "now" in rb[3][1] and rb[3][2] == "on the tablet"
    assert "next" in rb[0][1] and "start player" in rb[0][2]  # Ann opens the bidding once the tiles lie
    for square, pair in TILES:
        assert table.act(gid, {"type": "tile", "direction": square, "animals": pair}).status_code == 200
    table.act(gid, {"type": "bid", "player": "Ann", "direction": "N", "amount": 300})
    html = c.get(f"/g/{gid}/table").data.decode()
    rb = ribbon_of(html)
    assert [r[0] for r in rb] == ["Ann", "Bob", "Cid"]  # the table does not act now
    assert "now" in rb[1][1] and rb[1][2] == "plays now"
    assert "next" in rb[2][1] and rb[2][2] == "next"
    assert "now" not in rb[0][1] and "next" not in rb[0][1] and "start player" in rb[0][2]
    assert 'style="--seat: #e4572e"' in html  # Ann in her seat's colour
    assert '<title>Start player</title>' in html  # the figure, named for a screen reader


def test_the_last_bidder_has_nobody_next_and_the_last_card_player_has_the_table_next(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    c = tablet(table)
    for square, pair in TILES:
        table.act(gid, {"type": "tile", "direction": square, "animals": pair})
    table.act(gid, {"type": "bid", "player": "Ann", "direction": "N", "amount": 300})
    rb = ribbon_of(c.get(f"/g/{gid}/table").data.decode())
    assert "now" in rb[1][1] and not any("next" in r[1] for r in rb)  # the highest bid decides who starts
    table.act(gid, {"type": "bid", "player": "Bob", "direction": "E", "amount": 400})  # East wins: Bob starts
    rb = ribbon_of(c.get(f"/g/{gid}/table").data.decode())
    assert "now" in rb[1][1] and "start player" in rb[1][2] and "next" in rb[0][1]
    table.act(gid, {"type": "done", "player": "Bob"})
    rb = ribbon_of(c.get(f"/g/{gid}/table").data.decode())
    assert "now" in rb[0][1] and rb[-1][0] == "The table" and "next" in rb[-1][1]  # then a tile is laid


def test_a_seat_held_by_a_phone_shows_the_phone_icon_on_the_ribbon(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    table.join(table.client(), gid, "Bob")
    html = tablet(table).get(f"/g/{gid}/table").data.decode()
    box = re.search(r'<ol class="ribbon".*?</ol>', html, re.S).group(0)
    bob = re.search(r'data-seat="Bob".*?</li>', box, re.S).group(0)
    ann = re.search(r'data-seat="Ann".*?</li>', box, re.S).group(0)
    assert "ic-phone" in bob and "ic-phone" not in ann


def test_the_default_ribbon_skips_a_dead_castaway_and_names_nobody_next_for_simultaneous_players() -> None:
    public = {"players": [{"name": "Ann", "alive": True}, {"name": "Bob", "alive": False}, {"name": "Cid", "alive": True}],
              "expected": {"players": ["Ann"], "actions": ["fish"]}, "first_player": "Cid", "over": False}
    turn = results.turn(public)
    assert turn["now"] == ["Ann"] and turn["next"] == ["Cid"] and turn["start"] == "Cid"
    public["expected"] = {"players": ["Ann", "Cid"], "actions": ["plan"]}
    assert results.turn(public)["next"] == []
    rb = results.ribbon(results.turn(public), public, "fr")
    assert [r["role"] for r in rb] == ["joue", "hors jeu", "joue"]


def test_galerapagos_turn_goes_round_from_the_first_player_then_the_survival_step() -> None:
    pkg = games.package("galerapagos")
    rules = pkg.rules
    s = rules.setup(["Ann", "Bob", "Cid"], {})
    s, _ = rules.apply(s, {"type": "weather", "water": 0, "hurricane": False})
    turn = pkg.turn(s, rules.public_state(s))
    assert turn["now"] == ["Ann"] and turn["next"] == ["Bob"] and turn["start"] == "Ann"
    for p in ("Ann", "Bob"):
        s, _ = rules.apply(s, {"type": "water", "player": p})
    turn = pkg.turn(s, rules.public_state(s))
    assert turn["now"] == ["Cid"] and turn["next"] == ["Ann"]  # the first player runs the survival step


# -- the story of the round ----------------------------------------------------------------------
def test_the_sources_read_as_words_in_the_readers_language() -> None:
    from companion.table.authorship import Author, from_legacy, phone, tablet
    from companion.table.story import source_text

    assert source_text(phone("Ann")) == "from Ann's phone"
    assert source_text(tablet()) == "at the table"
    assert source_text(tablet(for_="Bob")) == "at the table, for Bob"
    assert source_text(phone("Ann", seed=42)) == "drawn on Ann's phone"
    assert source_text(Author("buttons")) == "on the board"
    assert source_text(phone("table")) == "from table's phone"  # a player named « table » is a phone's seat
    assert source_text(from_legacy("web:table:act-for:Bob")) == "at the table, for Bob"  # an older journal's text
    assert source_text(phone("Ann"), "fr") == "depuis le téléphone d'Ann"  # « de » elided before a vowel
    assert source_text(tablet(), "fr") == "à la table"
    assert source_text(Author("script")) == ""  # a way without words says nothing rather than API words


def test_the_table_tells_the_story_by_round_newest_first_in_sentences(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    phone = table.client()
    seat = table.join(phone, gid, "Ann")
    for square, pair in TILES:
        table.act(gid, {"type": "tile", "direction": square, "animals": pair})
    assert table.act(gid, {"type": "bid", "player": "Ann", "direction": "E", "amount": 300},
                     headers={"Authorization": f"Bearer {seat}"}).status_code == 200
    table.act(gid, {"type": "pass", "player": "Bob"})
    for action in ({"type": "done", "player": "Ann"}, {"type": "done", "player": "Bob"}):
        assert table.act(gid, action, headers={"Authorization": f"Bearer {seat}"} if action["player"] == "Ann"
                         else None).status_code == 200
    table.act(gid, {"type": "tile", "direction": "E", "animals": ["iguana", "booby"]})
    html = tablet(table).get(f"/g/{gid}/table").data.decode()
    story = re.search(r'<div class="story".*?</div>', html, re.S).group(0)
    headings = re.findall(r"<h3>(.*?)</h3>", story)
    assert headings == ["Round 2", "Round 1"]  # the newest round first
    lines = re.findall(r'<li data-seq="\d+"( class="newest")?>(.*?)</li>', story, re.S)
    assert lines[0][0] and not any(cls for cls, _ in lines[1:])  # the newest line, and only it, marked
    text = [html_text(body) for _, body in lines]
    assert text[0].startswith("The iguana and booby tile is laid on East.") and text[0].endswith("— at the table")
    assert any(t.startswith("Ann bids £300 on East.") and t.endswith("— from Ann's phone") for t in text)
    assert "web:" not in story and "web:table" not in html.split('<div class="story"')[1]


def test_the_story_of_a_galerapagos_round_starts_with_its_weather_card(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    from tests.support.dashboard import TO_THE_VOTE

    for action in TO_THE_VOTE[:5]:
        assert table.act(gid, action).status_code == 200, action
    html = tablet(table).get(f"/g/{gid}/table").data.decode()
    story = re.search(r'<div class="story".*?</div>', html, re.S).group(0)
    rounds = re.findall(r"<h3>(.*?)</h3>(.*?)</section>", story, re.S)
    assert [h for h, _ in rounds] == ["Round 2", "Round 1"]
    assert "Round 2: the weather card" in rounds[0][1]  # the weather card opens round 2, not the end of round 1


def test_a_solo_game_tells_its_story_turn_by_turn(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    assert table.act(gid, {"type": "end_turn"}).status_code == 200
    assert table.act(gid, {"type": "ocean", "species": "rat", "icons": 1, "mode": "inhabit"}).status_code == 200
    html = tablet(table).get(f"/g/{gid}/table").data.decode()
    story = re.search(r'<div class="story".*?</div>', html, re.S).group(0)
    assert re.findall(r"<h3>(.*?)</h3>", story) == ["Turn 2", "Turn 1"]


def test_a_package_whose_turn_or_results_fail_still_gets_a_page(table: Table, monkeypatch) -> None:
    pkg = games.package("galapagos-auction")

    def broken(*_args, **_kwargs):
        raise ValueError("a bug in a package")

    monkeypatch.setattr(pkg, "turn", broken)
    monkeypatch.setattr(pkg, "results", broken)
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    page = tablet(table).get(f"/g/{gid}/table")
    assert page.status_code == 200
    assert [r[0] for r in ribbon_of(page.data.decode())] == ["Ann", "Bob", "The table"]  # the generic reading


# -- the results screen ----------------------------------------------------------------------------
def test_the_results_screen_after_a_game_decided_on_money_and_play_again(table: Table) -> None:
    lines = [json.loads(x) for x in (Path(__file__).parents[1] / "scenarios" / "auction_table_tie_on_money.jsonl")
             .read_text().splitlines() if x.strip()]
    gid = table.new_game(lines[0]["game"], lines[0]["players"], lines[0]["options"])
    c = tablet(table)
    assert "<section class=\"card joinbox\">" in c.get(f"/g/{gid}/table").data.decode()  # the QR while playing
    for action in lines[1:]:
        assert table.act(gid, action).status_code == 200
    c.set_cookie("lang", "fr")
    html = c.get(f"/g/{gid}/table").data.decode()
    assert '<section class="card joinbox" hidden>' in html  # nobody joins a game that is over
    results = html_text(re.search(r'<section class="card results".*?</section>', html, re.S).group(0))
    assert "Cid gagne avec 19 points ; Bob a aussi 19 mais perd au départage par l'argent." in results
    ranking = re.findall(r'<tr class="([^"]*)" data-player="([^"]*)">', html)
    assert [name for _cls, name in ranking] == ["Cid", "Bob", "Ann"]
    assert "rk-winner" in ranking[0][0] and "rk-tied" in ranking[1][0] and "rk-tied" not in ranking[2][0]
    assert "Rejouer avec les mêmes joueurs" in html and "Argent" in html
    form = re.search(r'<form method="post" action="/games" class="row play-again">(.*?)</form>', html, re.S).group(1)
    fields = {k: html_text(v) for k, v in re.findall(r'name="(\w+)" value="([^"]*)"', form)}
    assert fields["players"].splitlines() == ["Ann", "Bob", "Cid"] and fields["game"] == "galapagos-auction"
    r = c.post("/games", data=fields)
    assert r.status_code == 302
    new_gid = r.headers["Location"].split("/g/")[1].split("/")[0]
    state = table.client().get(f"/api/games/{new_gid}", headers=table.auth()).json["state"]
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob", "Cid"] and state["round"] == 1
    assert state["shared_field"] == "not_counted"  # the same readings of the rules
