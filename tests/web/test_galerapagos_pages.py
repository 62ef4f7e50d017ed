"""Galèrapagos' page fragments for the moment to show cards and the tablet, rendered through the real app (no browser): the moment to
show cards, what the table wants to know, a dead castaway's page, a tournament's totals."""

from __future__ import annotations

import html
import re

from tests.support.dashboard import Table

FIVE = ["Ana", "Ben", "Cleo", "Dan", "Eve"]
WATER_ON_ZERO = [
    {"type": "weather", "water": 0},
    {"type": "fish", "player": "Ana", "fish": 3}, {"type": "fish", "player": "Ben", "fish": 3},
    {"type": "search", "player": "Cleo"}, {"type": "search", "player": "Dan"}, {"type": "search", "player": "Eve"},
    {"type": "weather", "water": 0},
    {"type": "fish", "player": "Eve", "fish": 1}, {"type": "search", "player": "Ana"},
    {"type": "search", "player": "Ben"}, {"type": "search", "player": "Cleo"}, {"type": "search", "player": "Dan"},
    {"type": "weather", "water": 0},
    {"type": "search", "player": "Dan"}, {"type": "search", "player": "Eve"}, {"type": "search", "player": "Ana"},
    {"type": "search", "player": "Ben"}, {"type": "wood", "player": "Cleo"},
]


def text(page: bytes) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page.decode())))


def table_page(table: Table, gid: str, lang: str = "en") -> str:
    c = table.client()
    assert c.get(f"/?token={table.token}").status_code == 302  # the printed link sets the table's cookie
    if lang != "en":
        c.get(f"/lang/{lang}")
    r = c.get(f"/g/{gid}/table")
    assert r.status_code == 200
    return text(r.data)


def seat_page(table: Table, gid: str, seat: str) -> str:
    c = table.client()
    table.join(c, gid, seat)
    r = c.get(f"/g/{gid}/seat/{seat}")
    assert r.status_code == 200
    return text(r.data)


def test_the_moment_to_show_cards_is_on_the_tablet_and_the_phones(table: Table) -> None:
    gid = table.new_game("galerapagos", FIVE)
    for action in WATER_ON_ZERO:
        assert table.act(gid, action).status_code == 200
    page = table_page(table, gid)
    assert "Water is on 0" in page and "At risk" in page
    ana = seat_page(table, gid, "Ana")
    assert "Water is on 0" in ana and "I have no water card" in ana and "Show a card" in ana
    fr = table_page(table, gid, "fr")
    assert "Eau sur 0" in fr and "En danger" in fr


def test_a_dead_castaways_page_says_how_he_died_and_that_he_still_votes_under_the_voice_of_the_dead(
        table: Table) -> None:
    """« La voix des morts : Dans cette variante, les joueurs éliminés participent au vote. »"""
    gid = table.new_game("galerapagos", FIVE, {"dead_vote": True})
    for action in WATER_ON_ZERO:
        table.act(gid, action)
    table.act(gid, {"type": "resource", "player": "Ana", "resource": "water"})
    assert table.act(gid, {"type": "close", "player": "Dan"}).status_code == 200
    ben = seat_page(table, gid, "Ben")
    assert "You died of thirst." in ben and "you still vote" in ben


def test_the_tablet_shows_what_the_raft_lacks_the_weather_left_and_the_wood_per_announcement(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    table.act(gid, {"type": "weather", "water": 2})
    page = table_page(table, gid)
    assert "To leave now we lack" in page and "3 raft cards" in page
    assert "Weather cards left" in page and "Wood per announcement" in page


def test_a_tournaments_totals_and_leader_are_on_the_tablet(table: Table) -> None:
    """« le joueur qui totalise le plus de points remporte la partie »: the totals of the manches so far."""
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"],
                         {"match": "Friday", "manche": 3, "manches": 3, "carried": {"Ann": 2, "Bob": 1}})
    page = table_page(table, gid)
    assert "Tournament" in page and "Manche 3/3" in page
    assert re.search(r"Ann ★ 2", page) and "Bob 1" in page
