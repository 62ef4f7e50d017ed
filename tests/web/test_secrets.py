"""Nothing secret reaches anyone else: a Galèrapagos vote stays with its voter until the reveal.

Seed 004 (Galèrapagos): votes are simultaneous and secret until every eligible voter
has voted; the dashboard's rule: "Nothing secret (a vote before the reveal) is ever in a response to
someone else."
"""

from __future__ import annotations

import json

from tests.support.dashboard import COMPILED_TEMPLATES, TO_THE_VOTE, Table


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


# -- secrets through corrections ---------------------------------------------------

SIX = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"]


def _six_at_the_vote(table: Table, ann_votes: str) -> tuple[str, int, dict[str, str]]:
    """Six castaways short of food (the vote goes on even after a death); the tablet plays Dan's gift, then
    Ann and Bob vote on their phones (Ann for ``ann_votes``). Returns (game, the gift's seq, tokens)."""
    gid = table.new_game("galerapagos", SIX)
    session = table.dashboard.hub.session(gid)
    while "vote" not in session.expected().actions:
        exp = session.expected()
        action = {"type": "weather", "water": 0, "hurricane": False} if "weather" in exp.actions else \
            {"type": "search", "player": exp.players[0]}
        assert table.act(gid, action).status_code == 200
    assert table.act(gid, {"type": "give", "player": "Dan", "target": "Ann"}).status_code == 200
    gift = session.history()[-1].seq
    tokens = {name: table.join(table.client(), gid, name) for name in ("Ann", "Bob")}
    assert table.act(gid, {"type": "vote", "player": "Ann", "target": ann_votes}, headers=bearer(tokens["Ann"])).status_code == 200
    assert table.act(gid, {"type": "vote", "player": "Bob", "target": "Ann"}, headers=bearer(tokens["Bob"])).status_code == 200
    return gid, gift, tokens


def _tablet_sees(table: Table, gid: str, gift: int) -> list[str]:
    """Everything the tablet receives about the correction: the edit's answer, the history, the game, the page."""
    c = table.client()
    edit = c.post(f"/api/games/{gid}/history/{gift}/edit",
                  json={"action": {"type": "shoot", "player": "Bob", "target": "Cleo"}}, headers=table.auth())
    assert edit.status_code == 200, edit.json
    seen = [edit.json, c.get(f"/api/games/{gid}/history", headers=table.auth()).json,
            c.get(f"/api/games/{gid}", headers=table.auth()).json,
            c.get(f"/g/{gid}/table?token={table.token}").get_data(as_text=True)]
    return [json.dumps(x, sort_keys=True).replace(gid, "GAME") if not isinstance(x, str) else
            x.replace(gid, "GAME") for x in seen]


def _scrub(text: str, table: Table) -> str:
    """Leave out what differs between two servers whatever the votes (tokens, join codes, times)."""
    import re

    text = re.sub(r"[0-9a-f]{32,}", "TOKEN", text)
    text = re.sub(r'"at": [0-9.]+', '"at": T', text)
    text = re.sub(r"\b\d{6}\b", "CODE", text)
    text = re.sub(r'"remaining": [0-9.]+', "R", text)
    return re.sub(r'(csrf[^"]*"[^"]*")[^"]*"', r"\1X", text)


def test_an_edit_that_sets_a_phones_vote_aside_tells_the_tablet_nothing_of_it(tmp_path) -> None:
    """The tablet corrects Dan's gift into Bob shooting Cleo, before two phones' votes. Whether Ann had voted for
    Cleo (now dead) or for Dan, the tablet receives exactly the same: both votes set aside with a line that
    names no target (« Ann's vote no longer applies… »), never the rules' « Cleo is dead and cannot be chosen »."""
    seen = {}
    for target in ("Cleo", "Dan"):
        t = _fresh_table(tmp_path / target)
        try:
            gid, gift, _ = _six_at_the_vote(t, target)
            raw = _tablet_sees(t, gid, gift)
            seen[target] = [_scrub(x, t) for x in raw]
            aside = json.loads(raw[0])["aside"]
            assert [a["why"] for a in aside] == ["Ann's vote no longer applies after a correction: Ann makes it again.",
                                                 "Bob's vote no longer applies after a correction: Bob makes it again."]
            assert "cannot be chosen" not in " ".join(seen[target])
        finally:
            _close(t)
    assert seen["Cleo"] == seen["Dan"]


def _fresh_table(folder) -> Table:
    from companion.table.journal import Journal
    from web import create_app
    from web.context import Dashboard
    from web.hub import Hub
    from web.security import Keys, RateLimiter, SeatStore, load_secret

    folder.mkdir(parents=True)
    db = folder / "journal.db"
    journal = Journal(db)
    dashboard = Dashboard(hub=Hub(journal), keys=Keys(load_secret(folder / "secret")), seats=SeatStore(db),
                          joins=RateLimiter(limit=30, window=60), keepalive=0.2)
    app = create_app(dashboard)
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    return Table(app, dashboard, db)


def _close(t: Table) -> None:
    t.dashboard.hub.stop()
    t.dashboard.seats.close()
    t.dashboard.hub.journal.close()


def test_a_vote_set_aside_is_made_again_by_its_own_phone_only(table: Table) -> None:
    """The tablet may not enter Ann's vote again (nor see it); Ann's phone shows her own choice to confirm or
    change, and voting again settles it; Bob's phone confirms his with the re-entry route."""
    gid, gift, tokens = _six_at_the_vote(table, "Cleo")
    c = table.client()
    assert c.post(f"/api/games/{gid}/history/{gift}/edit", json={"action": {"type": "shoot", "player": "Bob", "target": "Cleo"}},
                  headers=table.auth()).status_code == 200
    aside = c.get(f"/api/games/{gid}/history", headers=table.auth()).json["aside"]
    ann, bob = aside[0]["seq"], aside[1]["seq"]
    refused = c.post(f"/api/games/{gid}/aside/{ann}/reenter", headers=table.auth())
    assert refused.status_code == 403 and refused.json["error"]["message"] == "Only Ann's phone can make this move again."
    assert c.post(f"/api/games/{gid}/aside/{ann}/reenter", headers=bearer(tokens["Bob"])).status_code == 403
    html = c.get(f"/api/games/{gid}/history", headers=table.auth()).json["html"]
    assert "Waiting for Ann&#39;s phone" in html and "Cleo" not in html.split("amend-list")[0].replace("Bob shoots Cleo", "")
    page = c.get(f"/g/{gid}/seat/Ann", headers=bearer(tokens["Ann"])).get_data(as_text=True)
    assert "A correction at the table set your move aside (" in page and "Cleo" in page.split("set your move aside")[1][:60]
    r = table.act(gid, {"type": "vote", "player": "Ann", "target": "Dan"}, headers=bearer(tokens["Ann"]))
    assert r.status_code == 200, r.json
    r = c.post(f"/api/games/{gid}/aside/{bob}/reenter", headers=bearer(tokens["Bob"]))
    assert r.status_code == 200, r.json
    assert c.get(f"/api/games/{gid}/history", headers=table.auth()).json["aside"] == []
    session = table.dashboard.hub.session(gid)
    assert [e.author.to_json() for e in session.history()[-2:]] == [
        {"via": "phone", "seat": "Ann"}, {"via": "phone", "seat": "Bob", "as": "reenter"}]


def test_an_edit_whose_replay_would_reveal_the_open_ballot_is_refused(table: Table) -> None:
    """Cleo made sick before the votes cannot vote: Ann's and Bob's votes would close the ballot in the replay,
    which needs their hidden values. One sentence, and nothing changes."""
    gid, tokens = at_the_vote(table)
    session = table.dashboard.hub.session(gid)
    assert table.act(gid, {"type": "give", "player": "Cleo", "target": "Ann"}, headers=bearer(tokens["Cleo"])).status_code == 200
    gift = session.history()[-1].seq
    for voter, target in (("Ann", "Cleo"), ("Bob", "Ann")):
        assert table.act(gid, {"type": "vote", "player": voter, "target": target}, headers=bearer(tokens[voter])).status_code == 200
    version = session.version
    r = table.client().post(f"/api/games/{gid}/history/{gift}/edit", json={"action": {"type": "sick", "player": "Cleo"}},
                            headers=table.auth())
    assert r.status_code == 409
    assert r.json["error"]["message"].startswith("This correction would reveal secret moves that are still hidden")
    assert session.version == version and session.set_aside() == []


def test_the_edit_form_of_a_hidden_vote_never_carries_its_target(table: Table) -> None:
    """A seat played on the tablet votes (the tablet is its author, so it may correct it): while the ballot is
    open the form comes without the hidden target, for anyone watching the tablet."""
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for action in TO_THE_VOTE:
        assert table.act(gid, action).status_code == 200
    assert table.act(gid, {"type": "vote", "player": "Ann", "target": "Cleo"}).status_code == 200
    seq = table.dashboard.hub.session(gid).history()[-1].seq
    r = table.client().get(f"/api/games/{gid}/history/{seq}/form", headers=table.auth())
    assert r.status_code == 200, r.json
    assert r.json["prefill"] == {} and "Cleo" not in r.json["html"].split("data-prefill")[1].split(">")[0]
