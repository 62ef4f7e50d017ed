"""Nothing secret reaches anyone else: a Galèrapagos vote stays with its voter until the reveal.

Seed 004 (Galèrapagos): votes are simultaneous and secret until every eligible voter
has voted; issue 8: "Nothing secret (a vote before the reveal) is ever in a response to
someone else."
"""

from __future__ import annotations

import json

from tests.web.conftest import TO_THE_VOTE, Table


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def at_the_vote(table: Table) -> tuple[str, dict[str, str]]:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for action in TO_THE_VOTE:
        assert table.act(gid, action).status_code == 200
    tokens = {name: table.join(table.client(), gid, name) for name in ("Ann", "Bob", "Cleo")}
    return gid, tokens


def test_a_vote_is_seen_by_its_voter_only_until_everyone_has_voted(table: Table) -> None:
    gid, tokens = at_the_vote(table)
    r = table.act(gid, {"type": "vote", "player": "Ann", "target": "Cleo"}, headers=bearer(tokens["Ann"]))
    assert r.status_code == 200
    mine = next(p for p in r.json["state"]["players"] if p["name"] == "Ann")
    assert mine["vote"] == "Cleo"
    for name in ("Bob", "Cleo"):
        seen = table.client().get(f"/api/games/{gid}", headers=bearer(tokens[name])).json
        ann = next(p for p in seen["state"]["players"] if p["name"] == "Ann")
        assert ann["voted"] is True and "vote" not in ann
        assert '"target": "Cleo"' not in json.dumps(seen)
        assert seen["last_actions"][0]["action"]["target"] == "hidden"
    table_view = table.client().get(f"/api/games/{gid}", headers=table.auth()).json
    assert table_view["last_actions"][0]["action"]["target"] == "hidden"
    assert all("vote" not in p for p in table_view["state"]["players"])


def test_the_votes_are_revealed_once_all_eligible_voters_have_voted(table: Table) -> None:
    gid, tokens = at_the_vote(table)
    table.act(gid, {"type": "vote", "player": "Ann", "target": "Cleo"}, headers=bearer(tokens["Ann"]))
    table.act(gid, {"type": "vote", "player": "Bob", "target": "Cleo"}, headers=bearer(tokens["Bob"]))
    r = table.act(gid, {"type": "vote", "player": "Cleo", "target": "Ann"}, headers=bearer(tokens["Cleo"]))
    assert r.status_code == 200
    seen = table.client().get(f"/api/games/{gid}", headers=bearer(tokens["Bob"])).json["state"]
    assert seen["last_vote"] == {"Ann": "Cleo", "Bob": "Cleo", "Cleo": "Ann"}


def test_the_live_fragments_of_another_phone_hold_no_vote(table: Table) -> None:
    """The pages' HTML is rendered per viewer too: Bob's seat page never names Ann's target."""
    from web import views
    from web.security import Principal

    gid, tokens = at_the_vote(table)
    table.act(gid, {"type": "vote", "player": "Ann", "target": "Bob"}, headers=bearer(tokens["Ann"]))
    session = table.dashboard.hub.session(gid)
    with table.app.test_request_context():
        bob = Principal("seat", "cookie", tokens["Bob"], gid, "Bob")
        ann = Principal("seat", "cookie", tokens["Ann"], gid, "Ann")
        bobs = views.fragments(session, bob, "seat", "en")
        anns = views.fragments(session, ann, "seat", "en")
        table_page = views.fragments(session, Principal("table", "cookie", table.token), "table", "en")
    assert "You voted for" in anns["state"] and "<b>Bob</b>" in anns["state"]
    assert "You voted for" not in bobs["state"]
    # the log tells the story: that Ann voted, for everyone, never for whom before the reveal
    assert "Ann votes" in bobs["state"] and "Ann votes" in table_page["state"]
    assert "votes for Bob" not in bobs["state"] + bobs["actions"] + table_page["state"] + anns["state"].replace("You voted for", "")
