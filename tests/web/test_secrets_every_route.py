"""Two tables whose games differ only in a hidden vote answer every reader the same, through every route.

Seed 004 (Galèrapagos): the votes are secret until every eligible voter has voted. The
routes are not listed by hand: every GET rule of the app's ``url_map`` is asked, so an export
or a page added later is covered the day it is added. The readers are the table (its token
as a header and as the tablet's cookie) and every phone but the voter's, in each language.
The raw rows of a game set aside as damaged are compared the same way: its secret fields are
hidden there too, even when the damaged cell is the vote itself.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.dashboard import TO_THE_VOTE, Table, open_table

#: how long a stream is read: its first event (the page's state) is what a reader gets at once
STREAM_BYTES = 64_000
PHONES = ("Bob", "Cleo")
TARGETS = ("Cleo", "Bob")  # Ann's hidden vote in the first table, in the second


def _scrub(text: str, gid: str) -> str:
    """What differs between two servers whatever the votes: ids, tokens, codes, times, CSRF."""
    text = text.replace(gid, "GAME")
    text = re.sub(r"[0-9a-f]{32,}", "TOKEN", text)
    text = re.sub(r'"(at|remaining|created|finished|since|expires)": ?[0-9.e+-]+', r'"\1": T', text)
    text = re.sub(r"\b\d{6}\b|\b\d{3} \d{3}\b", "CODE", text)
    text = re.sub(r"\d{1,2}:\d{2}(:\d{2})?", "HH:MM", text)
    text = re.sub(r"\d{4}-\d{2}-\d{2}", "DATE", text)
    text = re.sub(r'<path d="[^"]*"', "<path QR", text)  # a QR code of the join link (the game's id and code)
    return re.sub(r'(csrf[^"]*"[^"]*")[^"]*"', r"\1X", text)


def _vote_table(tmp_path: Path, target: str) -> Iterator[tuple[Table, str, dict[str, str]]]:
    opened = open_table(tmp_path)
    table = next(opened)
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for action in TO_THE_VOTE:
        assert table.act(gid, action).status_code == 200
    tokens = {name: table.join(table.client(), gid, name) for name in ("Ann", *PHONES)}
    r = table.act(gid, {"type": "vote", "player": "Ann", "target": target},
                  headers={"Authorization": f"Bearer {tokens['Ann']}"})
    assert r.status_code == 200, r.json
    yield table, gid, tokens
    opened.close()


@pytest.fixture
def twins(tmp_path: Path) -> Iterator[list[tuple[Table, str, dict[str, str]]]]:
    made = [_vote_table(tmp_path / str(i), target) for i, target in enumerate(TARGETS)]
    yield [next(m) for m in made]
    for m in made:
        m.close()


def _paths(table: Table, gid: str) -> list[str]:
    """Every GET route of the app with its parameters filled in for ``gid`` (static files aside)."""
    seqs = [str(e.seq) for e in table.dashboard.hub.session(gid).history()]
    fills = {"game_id": [gid], "seat": ["Ann", *PHONES], "code": ["en", "fr"], "game": ["galerapagos"],
             "seq": seqs, "request_id": ["x" * 24]}
    paths = []
    for rule in table.app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        found = [[""]]
        for arg in sorted(rule.arguments):
            assert arg in fills, f"a GET route with a parameter this test cannot fill: {rule.rule}"
            found = [f + [f"{arg}={v}"] for f in found for v in fills[arg]]
        for combo in found:
            values = dict(part.split("=", 1) for part in combo if part)
            paths.append(rule.build(values, append_unknown=False)[1])
    return sorted(set(paths))


def _answer(table: Table, path: str, reader: dict[str, str], lang: str) -> str:
    client = table.client()
    client.set_cookie("lang", lang)
    headers = {}
    if "cookie" in reader:
        client.set_cookie(reader["cookie"], reader["token"])
        headers["X-Companion-Role"] = "table" if reader["cookie"] == "table" else "seat"
    else:
        headers["Authorization"] = f"Bearer {reader['token']}"
    r = client.get(path, headers=headers, buffered=False)
    try:
        if r.mimetype == "text/event-stream":
            body = next(iter(r.response), b"")[:STREAM_BYTES]
        else:
            body = r.get_data()
    finally:
        r.close()
    return f"{r.status_code} {r.mimetype}\n" + body.decode("utf-8", "replace")


def _readers(tokens: dict[str, str], table: Table, gid: str) -> dict[str, dict[str, str]]:
    readers = {"table header": {"token": table.token}, "table cookie": {"token": table.token, "cookie": "table"}}
    for name in PHONES:
        readers[f"{name} header"] = {"token": tokens[name]}
        readers[f"{name} cookie"] = {"token": tokens[name], "cookie": f"seat-{gid}"}
    return readers


def test_every_get_route_answers_every_reader_the_same_whatever_the_hidden_vote(twins) -> None:
    (a, gid_a, tok_a), (b, gid_b, tok_b) = twins
    paths_a, paths_b = _paths(a, gid_a), _paths(b, gid_b)
    assert [p.replace(gid_a, "GAME") for p in paths_a] == [p.replace(gid_b, "GAME") for p in paths_b]
    assert any(p.endswith("/raw.json") for p in paths_a)  # the raw export is among them
    readers_a, readers_b = _readers(tok_a, a, gid_a), _readers(tok_b, b, gid_b)
    asked, random_pages = 0, set()
    for path_a, path_b in zip(paths_a, paths_b, strict=True):
        for who in readers_a:
            for lang in ("en", "fr"):
                seen_a = _scrub(_answer(a, path_a, readers_a[who], lang), gid_a)
                seen_b = _scrub(_answer(b, path_b, readers_b[who], lang), gid_b)
                if seen_a != seen_b and seen_a != _scrub(_answer(a, path_a, readers_a[who], lang), gid_a):
                    # a page drawn afresh at each ask (a random island to set up): no game of the table in it
                    assert gid_a not in path_a, f"{path_a} answers differently each time"
                    random_pages.add(path_a)
                    continue
                assert seen_a == seen_b, f"{path_a} as {who} ({lang}) tells the hidden vote apart"
                asked += 1
    assert asked >= 60 and len(random_pages) <= 2, random_pages


def test_a_sound_games_raw_rows_are_refused_in_one_sentence(twins) -> None:
    """The raw rows are a damaged game's evidence; a sound game's story is its export."""
    (a, gid, _tokens), _ = twins
    r = a.client().get(f"/games/{gid}/raw.json", headers=a.auth())
    assert r.status_code == 404
    assert "is not damaged: only a damaged game&#39;s rows are exported as stored." in r.get_data(as_text=True)
    assert "Cleo" not in r.get_data(as_text=True)


def _damage(db: Path, where: str, old: str, new: str) -> None:
    """Rewrite one action cell behind the journal's back (as a flipped bit on the card would)."""
    conn = sqlite3.connect(str(db))
    with conn:
        conn.execute(f"UPDATE actions SET action = replace(action, ?, ?) WHERE {where}", (old, new))
    conn.close()


@pytest.mark.parametrize("cell", ["another", "the vote"])
def test_a_damaged_games_raw_rows_hide_the_open_vote(tmp_path: Path, cell: str) -> None:
    """Two tables, one hidden vote apart, each with the game damaged in another action's cell or in the
    vote's own cell: the table's export of the rows is the same, and names no target."""
    exports = []
    for i, target in enumerate(TARGETS):
        made = _vote_table(tmp_path / str(i), target)
        table, gid, _tokens = next(made)
        db = table.db
        made.close()
        if cell == "another":
            _damage(db, "seq = 1", '"hurricane":false', '"hurricane":fa}se')
        else:
            _damage(db, "action LIKE '%\"vote\"%'", '"target":', '"target";')
        reopened = open_table(tmp_path / str(i))
        table = next(reopened)
        try:
            r = table.client().get(f"/games/{gid}/raw.json", headers=table.auth())
            assert r.status_code == 200, r.json
            rows = r.json
            votes = [row["action"] for row in rows["actions"] if "vote" in row["action"]]
            assert votes and all(target not in v for v in votes), votes
            exports.append(_scrub(json.dumps(rows, sort_keys=True), gid))
        finally:
            reopened.close()
    assert exports[0] == exports[1]
