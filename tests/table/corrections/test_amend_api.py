"""The editing API: the table only (CSRF for the tablet's cookie), one-sentence refusals, no 5xx."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.dashboard import TO_THE_VOTE, Table
from tests.web.test_pages import csrf_of, tablet

SCRIPT = Path(__file__).parents[2] / "scenarios" / "auction_full_game.jsonl"


def auction(table: Table, upto: int = 12) -> str:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob", "Cid"])
    for line in SCRIPT.read_text().splitlines()[1:upto + 1]:
        assert table.act(gid, json.loads(line)).status_code == 200
    return gid


def seq_of(table: Table, gid: str, back: int) -> int:
    entries = table.client().get(f"/api/games/{gid}/history", headers=table.auth()).json["entries"]
    return entries[-back]["seq"]


def test_the_table_edits_an_action_five_back_and_sees_what_was_set_aside(table: Table) -> None:
    gid = auction(table)
    c = table.client()
    listed = c.get(f"/api/games/{gid}/history", headers=table.auth())
    assert listed.status_code == 200 and len(listed.json["entries"]) == 12
    assert "Bob advances 2 education steps" in listed.json["html"] and "data-amend-edit" in listed.json["html"]
    seq = seq_of(table, gid, 5)
    form = c.get(f"/api/games/{gid}/history/{seq}/form", headers=table.auth())
    assert form.status_code == 200 and form.json["prefill"] == {"steps": 2}
    assert 'data-action="education"' in form.json["html"] and 'data-player="Bob"' in form.json["html"]
    r = c.post(f"/api/games/{gid}/history/{seq}/edit", json={"action": {"type": "done", "player": "Bob"}},
               headers=table.auth())
    assert r.status_code == 200, r.json
    assert r.json["replayed"] == 2 and [a["text"] for a in r.json["aside"]] == ["Bob takes an iguana", "Bob is done"]
    assert r.json["aside"][0]["why"] == "Bob cannot play an expedition card now: it is Cid's turn to play cards."
    listed = c.get(f"/api/games/{gid}/history", headers=table.auth()).json
    assert [a["seq"] for a in listed["aside"]] == [a["seq"] for a in r.json["aside"]]
    assert "Enter it again" in listed["html"] and "Drop it" in listed["html"]
    drop = c.post(f"/api/games/{gid}/aside/{r.json['aside'][1]['seq']}/drop", headers=table.auth())
    assert drop.status_code == 200
    again = c.post(f"/api/games/{gid}/aside/{r.json['aside'][0]['seq']}/reenter", headers=table.auth())
    assert again.status_code == 409 and again.json["error"]["message"].startswith("Bob cannot play an expedition")
    assert c.post(f"/api/games/{gid}/aside/99999/drop", headers=table.auth()).status_code == 404


def test_removing_an_action(table: Table) -> None:
    gid = auction(table, 8)
    seq = seq_of(table, gid, 1)
    r = table.client().post(f"/api/games/{gid}/history/{seq}/remove", headers=table.auth())
    assert r.status_code == 200 and r.json["state"]["version"] == 7 and r.json["aside"] == []


def test_only_the_table_edits(table: Table) -> None:
    gid = auction(table, 8)
    seq = seq_of(table, gid, 2)
    phone = table.client()
    token = table.join(phone, gid, "Bob")
    urls = [("get", f"/api/games/{gid}/history"), ("get", f"/api/games/{gid}/history/{seq}/form"),
            ("post", f"/api/games/{gid}/history/{seq}/edit"), ("post", f"/api/games/{gid}/history/{seq}/remove"),
            ("post", f"/api/games/{gid}/aside/{seq}/reenter"), ("post", f"/api/games/{gid}/aside/{seq}/drop")]
    body = {"action": {"type": "done", "player": "Bob"}}
    for method, url in urls:
        kwargs = {"json": body} if method == "post" else {}
        assert getattr(phone, method)(url, headers={"Authorization": f"Bearer {token}"}, **kwargs).status_code == 403
        assert getattr(phone, method)(url, **kwargs).status_code in (401, 403)  # the phone's cookie
        forged = getattr(table.client(), method)(url, headers={"Authorization": "Bearer forged"}, **kwargs)
        assert forged.status_code in (401, 403) and forged.json["error"]["message"].endswith(".")
    assert len(table.client().get(f"/api/games/{gid}/history", headers=table.auth()).json["entries"]) == 8


def test_the_tablets_cookie_needs_the_pages_csrf_token(table: Table) -> None:
    gid = auction(table, 8)
    seq = seq_of(table, gid, 1)
    page = tablet(table)
    r = page.post(f"/api/games/{gid}/history/{seq}/remove", json={})
    assert r.status_code == 403 and "security token" in r.json["error"]["message"]
    csrf = csrf_of(page.get(f"/g/{gid}").data)
    r = page.post(f"/api/games/{gid}/history/{seq}/remove", json={}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200


@pytest.mark.parametrize(("body", "status"), [
    (b"not json", 400), (b"[]", 400), (b'{"action": 3}', 400), (b'{"action": {}}', 400),
    (b'{}', 400), (b'{"action": {"type": "done", "player": "Bob"}, "more": 1}', 400),
    (b'{"action": {"type": "teleport"}}', 400), (b'{"action": {"type": "done", "colour": "red"}}', 400),
    (b'{"action": {"type": "done", "player": 7}}', 400), (b'{"action": {"type": "bid", "player": "Bob"}}', 409),
    (b'{"action": {"type": "done", "player": "Zed"}}', 409), (b'{"action": ' * 300 + b"1" + b"}" * 300, 400),
])
def test_malformed_edits_get_one_sentence_and_change_nothing(table: Table, body: bytes, status: int) -> None:
    gid = auction(table, 8)
    seq = seq_of(table, gid, 5)
    before = table.client().get(f"/api/games/{gid}", headers=table.auth()).json["state"]
    r = table.client().post(f"/api/games/{gid}/history/{seq}/edit", data=body,
                            headers={**table.auth(), "Content-Type": "application/json"})
    assert r.status_code == status, r.json
    message = r.json["error"]["message"]
    assert message.endswith(".") and "\n" not in message and "Traceback" not in message
    assert table.client().get(f"/api/games/{gid}", headers=table.auth()).json["state"] == before


def test_unknown_actions_and_games_are_refused_cleanly(table: Table) -> None:
    gid = auction(table, 8)
    c = table.client()
    for url in (f"/api/games/{gid}/history/99999/edit", f"/api/games/{gid}/history/99999/remove"):
        r = c.post(url, json={"action": {"type": "done", "player": "Bob"}} if url.endswith("edit") else {},
                   headers=table.auth())
        assert r.status_code == 409 and r.json["error"]["message"] == "There is no action 99999 in play."
    assert c.get(f"/api/games/{gid}/history/99999/form", headers=table.auth()).status_code == 409
    assert c.get("/api/games/nope/history", headers=table.auth()).status_code == 404
    assert c.post(f"/api/games/{gid}/history/x/edit", json={}, headers=table.auth()).status_code == 404
    assert c.post(f"/api/games/{gid}/history/1/edit", data="{}", headers={**table.auth(), "Content-Type": "text/plain"}
                  ).status_code == 415


def test_the_table_never_edits_a_phones_vote_nor_votes_for_a_phones_seat(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for action in TO_THE_VOTE:
        assert table.act(gid, action).status_code == 200
    ann = table.client()
    token = table.join(ann, gid, "Ann")
    r = table.act(gid, {"type": "vote", "target": "Cleo"}, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    c = table.client()
    vote = seq_of(table, gid, 1)
    form = c.get(f"/api/games/{gid}/history/{vote}/form", headers=table.auth())
    assert form.status_code == 409 and "Cleo" not in form.get_data(as_text=True)
    r = c.post(f"/api/games/{gid}/history/{vote}/edit", json={"action": {"type": "vote", "player": "Ann",
                                                                          "target": "Bob"}}, headers=table.auth())
    assert r.status_code == 409 and r.json["error"]["message"].startswith("Only Ann's phone knows this move")
    search = seq_of(table, gid, 2)  # Bob's search: the table may not turn it into a vote for Ann's seat
    r = c.post(f"/api/games/{gid}/history/{search}/edit", json={"action": {"type": "vote", "player": "Ann",
                                                                            "target": "Bob"}}, headers=table.auth())
    assert r.status_code == 403
    listed = c.get(f"/api/games/{gid}/history", headers=table.auth()).json
    assert "Cleo" not in listed["entries"][-1]["text"] and "Ann votes" in listed["html"]


def test_a_small_fuzz_of_the_editing_routes_gives_no_5xx(table: Table) -> None:
    import random

    gid = auction(table, 12)
    rng = random.Random(16)
    seqs = ["1", "5", "12", "0", "-1", "99999999999999999999999", "x", "1.5", "%00"]
    bodies = [b"", b"{}", b"null", b'{"action": null}', b'{"action": {"type": "done", "player": "Bob"}}',
              b'{"action": {"type": "bid", "player": "Ann", "direction": "N", "amount": 1e999}}',
              b'{"action": {"type": "education", "player": "Bob", "steps": NaN}}', b'{"action": "\\ud800"}',
              b'{"action": {"type": "exhibition", "player": "Bob", "animals": [[[[]]]], "bonus": {}}}']
    c = table.client()
    for _ in range(150):
        seq = rng.choice(seqs)
        url = rng.choice([f"/api/games/{gid}/history/{seq}/edit", f"/api/games/{gid}/history/{seq}/remove",
                          f"/api/games/{gid}/history/{seq}/form", f"/api/games/{gid}/aside/{seq}/reenter",
                          f"/api/games/{gid}/aside/{seq}/drop", f"/api/games/{gid}/history",
                          f"/api/games/{gid}/undo-preview"])
        method = "get" if url.endswith(("form", "history", "preview")) else "post"
        r = getattr(c, method)(url, data=rng.choice(bodies), headers={**table.auth(), "Content-Type": "application/json"})
        assert r.status_code < 500, (url, r.get_data(as_text=True)[:300])
        if r.status_code >= 400:
            assert r.json["error"]["message"]


def test_the_history_speaks_the_tablets_language(table: Table) -> None:
    gid = auction(table, 12)
    c = table.client()
    c.set_cookie("lang", "fr")
    seq = seq_of(table, gid, 5)
    r = c.post(f"/api/games/{gid}/history/{seq}/edit", json={"action": {"type": "done", "player": "Bob"}},
               headers=table.auth())
    assert r.status_code == 200 and r.json["aside"][0]["why"].startswith("Bob ne peut pas")
    html = c.get(f"/api/games/{gid}/history", headers=table.auth()).json["html"]
    assert "Modifier" in html and "La saisir à nouveau" in html and "Mis de côté" in html
