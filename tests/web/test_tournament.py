"""A tournament at one table (seed 004, « Mode tournois »): three manches, the totals carried, the leader shown.

The first manche is played to its end through the API; the tablet then offers the next
manche with the same players, which starts with the points so far, and so on to the third,
whose page shows the match's totals.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.support.dashboard import Table

ROOT = Path(__file__).resolve().parents[2]


def actions(name: str) -> tuple[dict, list[dict]]:
    lines = [json.loads(x) for x in (ROOT / "tests" / "scenarios" / f"{name}.jsonl").read_text().splitlines() if x.strip()]
    return lines[0], lines[1:]


def next_manche_form(html: str) -> dict[str, str]:
    form = re.search(r'<form method="post" action="/games" class="row next-manche">(.*?)</form>', html, re.S)
    assert form, "the tablet offers no next manche"
    return {name: value for name, value in re.findall(r'name="(\w+)" value="([^"]*)"', form.group(1))}


def test_three_manches_at_one_table_carry_their_totals(table: Table) -> None:
    import html as html_lib

    client = table.client()
    header, moves = actions("galerapagos_tournament_manche1")
    gid = table.new_game(header["game"], header["players"], header["options"])
    for name in ("galerapagos_tournament_manche1", "galerapagos_tournament_manche2", "galerapagos_tournament_manche3"):
        header, moves = actions(name)
        for action in moves:
            r = table.act(gid, action)
            assert r.status_code == 200, (name, action, r.json)
        state = table.client().get(f"/api/games/{gid}", headers=table.auth()).json["state"]
        assert state["over"] and state["match"]["totals"]
        page = client.get(f"/g/{gid}/table", headers=table.auth()).get_data(as_text=True)
        if name.endswith("3"):
            assert "next-manche" not in page  # the match is over
            assert state["match"]["totals"] == {"Ann": 2, "Bob": 2, "Cid": 1}
            break
        form = {k: html_lib.unescape(v) for k, v in next_manche_form(page).items()}
        options = json.loads(form["options"])
        assert options["manche"] == int(name[-1]) + 1 and options["match"] == header["options"]["match"]
        r = client.post("/games", data=form, headers=table.auth())
        assert r.status_code in (302, 303), r.get_data(as_text=True)[:300]
        gid = r.headers["Location"].rstrip("/").split("/")[-2] if r.headers["Location"].endswith("/table") else r.headers["Location"].rstrip("/").split("/")[-1]
