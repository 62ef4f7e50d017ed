"""The dice island as built: entered hex by hex, checked by the rules, saved with the game;
and the island /setup draws from a seed is the one the game then starts on.

Seed 002: "The island is built randomly from the 37 island fields set into the frames; the volcano
forms the center."
"""

from __future__ import annotations

import html
import json
import re
from urllib.parse import parse_qs, urlsplit

from flask.testing import FlaskClient

from companion.games.dice import GAME
from companion.games.dice.island import spiral_hexes
from tests.support.dashboard import Table

GAME_ID = "galapagos-dice"


def tablet(table: Table) -> tuple[FlaskClient, str]:
    c = table.client()
    assert c.get(f"/?token={table.token}").status_code == 302
    return c, table.csrf(table.token)


def drawn_island(page: str) -> list[tuple[str, str]]:
    """Each field of a drawn island as the page shows it: its number and its fill, by position on screen."""
    cells = re.findall(r'<g class="hex[^"]*" data-field="(\d+)"[^>]*>\s*<polygon points="([^"]+)" fill="([^"]+)"', page)
    return sorted((points, f"{number} {fill}") for number, points, fill in cells)


def built(seed: int) -> list[dict]:
    """The cells of the island a seed draws, as the island page sends them (hex, colour, number)."""
    return [{"hex": c["hex"], **c["seeded"]} for c in GAME.setup_helpers(seed)["build"]["cells"]]


def start(c: FlaskClient, csrf: str, cells: list[dict], players: str = "Ann\nBob", **extra: str):
    return c.post("/games", data={"csrf": csrf, "game": GAME_ID, "players": players, "back": "island",
                                  "cells": json.dumps(cells), **extra})


def status_of(page: str) -> str:
    return html.unescape(re.search(r'id="island-status"[^>]*>([^<]*)<', page).group(1))


def test_the_seed_shown_on_setup_starts_exactly_that_island(table: Table) -> None:
    c, csrf = tablet(table)
    setup = c.get("/setup?seed=4242").data.decode()
    link = html.unescape(re.search(r'href="(/\?game=[^"]+)"[^>]*data-start-seed="4242"', setup).group(1))
    query = parse_qs(urlsplit(link).query)
    assert query["game"] == [GAME_ID]
    home = c.get(link).data.decode()  # Home, filled in with that island's option
    options = html.unescape(re.search(r'<textarea name="options"[^>]*>([^<]*)</textarea>', home).group(1))
    assert json.loads(options) == {"layout_seed": 4242}
    assert re.search(rf'<option value="{GAME_ID}"[^>]*selected', home)
    r = c.post("/games", data={"csrf": csrf, "game": GAME_ID, "players": "Ann\nBob", "options": options})
    assert r.status_code == 302
    table_page = c.get(r.headers["Location"]).data.decode()
    assert drawn_island(table_page) == drawn_island(setup) and len(drawn_island(setup)) == 36


def test_an_island_entered_hex_by_hex_is_saved_with_the_game(table: Table) -> None:
    """The rulebook does not fix the tiles' colours: the family's island is taken as entered."""
    c, csrf = tablet(table)
    colours = ["blue", "blue", "red", "green", "yellow", "white"] * 6
    cells = [{"hex": list(h), "colour": colours[i], "number": 36 - i} for i, h in enumerate(spiral_hexes())]
    r = start(c, csrf, cells, **{"opt:timer_seconds": "45"})
    assert r.status_code == 302
    gid = r.headers["Location"].split("/")[2]
    record = table.dashboard.hub.journal.game(gid)
    assert "layout_seed" not in record.options and record.options["timer_seconds"] == 45
    layout = c.get(f"/api/games/{gid}").json["state"]["layout"]
    assert layout == {str(36 - i): {"colour": colours[i], "hex": list(h)} for i, h in enumerate(spiral_hexes())}


def test_the_page_says_in_one_sentence_what_is_wrong_with_the_island(table: Table) -> None:
    c, csrf = tablet(table)
    check = "/setup/galapagos-dice/island/check"
    cells = built(5)
    r = c.post(check, json={"cells": cells}, headers={"X-CSRF-Token": csrf})
    assert r.json["ok"] and r.json["entered"] == 36
    twice = [dict(cell) for cell in cells]
    twice[7]["number"] = twice[8]["number"]
    r = c.post(check, json={"cells": twice}, headers={"X-CSRF-Token": csrf})
    assert not r.json["ok"] and r.json["text"] == f"Field {twice[8]['number']} appears twice in the layout."
    half = [{**cell, "number": None} if i >= 18 else cell for i, cell in enumerate(cells)]
    r = c.post(check, json={"cells": half}, headers={"X-CSRF-Token": csrf})
    assert r.json == {"ok": False, "entered": 18,
                      "text": "The island has 36 fields around the volcano, but the layout gives 18."}
    c.get("/lang/fr")
    fr = c.post(check, json={"cells": half}, headers={"X-CSRF-Token": csrf})
    assert fr.json["text"] != r.json["text"] and "36" in fr.json["text"]


def test_a_refused_island_keeps_what_was_tapped_and_typed(table: Table) -> None:
    c, csrf = tablet(table)
    cells = built(9)
    cells[0]["colour"] = None  # one hex still without its colour
    r = start(c, csrf, cells, players="Zoé\nYann\nXavier", **{"opt:timer_seconds": "60"})
    assert r.status_code == 400 and table.dashboard.hub.journal.games() == []
    page = r.data.decode()
    assert "The island has 36 fields around the volcano, but the layout gives 35." in page
    assert ">Zoé\nYann\nXavier</textarea>" in page
    sent = json.loads(html.unescape(re.search(r'id="island-cells" value="([^"]*)"', page).group(1)))
    assert sent == cells


def test_the_island_page_starts_from_a_seed_to_correct_and_refuses_what_it_cannot_read(table: Table) -> None:
    c, csrf = tablet(table)
    page = c.get("/setup/galapagos-dice/island?seed=9").data.decode()
    sent = json.loads(html.unescape(re.search(r'id="island-cells" value="([^"]*)"', page).group(1)))
    assert sent == built(9) and status_of(page) == "The island is complete: 36 fields."
    blank = c.get("/setup/galapagos-dice/island").data.decode()
    assert status_of(blank) == "The island has 36 fields around the volcano, but the layout gives 0."
    assert c.get("/setup/galapagos-auction/island").status_code == 404
    r = c.post("/setup/galapagos-dice/island/check", json={"cells": [{"hex": "0,1"}]}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 400 and r.json["error"]["message"] == "The island could not be read; reload the page."
    r = start(c, csrf, [{"hex": [1, 0], "colour": "red", "number": 1e400}])
    assert r.status_code == 400 and b"Traceback" not in r.data
    assert table.client().get("/setup/galapagos-dice/island").status_code in (302, 401, 403)
