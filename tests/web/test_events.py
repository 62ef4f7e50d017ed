"""Live updates over SSE: the state on connect, one message per change, keepalives, per-viewer data."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator

from tests.support.dashboard import TO_THE_VOTE, Table


class Stream:
    """An open SSE response read message by message (test client, unbuffered)."""

    def __init__(self, response):
        self.response = response
        self.chunks: Iterator[bytes] = iter(response.response)

    def next_message(self) -> str:
        return next(self.chunks).decode()

    def next_state(self) -> dict:
        while True:
            text = self.next_message()
            if text.startswith("event: state"):
                data = "".join(line[6:] for line in text.splitlines() if line.startswith("data: "))
                return json.loads(data)

    def close(self) -> None:
        self.response.close()


def open_stream(table: Table, gid: str, query: str = "", headers: dict | None = None) -> Stream:
    r = table.client().get(f"/api/games/{gid}/events{query}", headers=headers or table.auth(), buffered=False)
    assert r.status_code == 200, r.data
    assert r.mimetype == "text/event-stream"
    assert r.headers["Cache-Control"] == "no-store"
    return Stream(r)


def test_the_state_is_replayed_on_connect(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    table.act(gid, {"type": "end_turn"})
    stream = open_stream(table, gid)
    try:
        assert stream.next_message().startswith("retry: ")
        data = stream.next_state()
        assert data["state"]["version"] == 1 and data["state"]["turn"] == 2
    finally:
        stream.close()


def test_an_action_by_another_client_reaches_the_open_stream(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    stream = open_stream(table, gid)
    try:
        stream.next_state()
        started = time.monotonic()
        threading.Timer(0.05, lambda: table.act(gid, {"type": "end_turn"})).start()
        data = stream.next_state()
        assert data["state"]["version"] == 1
        assert data["last_actions"][0]["action"]["type"] == "end_turn"
        assert time.monotonic() - started < 1.0
    finally:
        stream.close()


def test_undo_reaches_the_stream_too(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    table.act(gid, {"type": "end_turn"})
    stream = open_stream(table, gid)
    try:
        assert stream.next_state()["state"]["version"] == 1
        table.client().post(f"/api/games/{gid}/undo", headers=table.auth())
        assert stream.next_state()["state"]["version"] == 0
    finally:
        stream.close()


def test_a_quiet_stream_sends_keepalive_comments(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    stream = open_stream(table, gid)
    try:
        stream.next_state()
        assert stream.next_message() == ": keepalive\n\n"  # keepalive is 0.2 s in these tests
    finally:
        stream.close()


def test_a_page_stream_carries_its_fragments_rendered_on_the_server(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    stream = open_stream(table, gid, "?view=table")
    try:
        html = stream.next_state()["html"]
        assert set(html) == {"state", "actions"}
        assert "Pocket Galapagos" in html["state"]
    finally:
        stream.close()


def test_each_phone_stream_is_rendered_for_its_own_seat(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for action in TO_THE_VOTE:
        table.act(gid, action)
    ann = table.join(table.client(), gid, "Ann")
    bob = table.join(table.client(), gid, "Bob")
    bob_stream = open_stream(table, gid, "?view=seat&seat=Bob", {"Authorization": f"Bearer {bob}"})
    try:
        bob_stream.next_state()
        table.act(gid, {"type": "vote", "player": "Ann", "target": "Bob"}, headers={"Authorization": f"Bearer {ann}"})
        data = bob_stream.next_state()
        text = json.dumps(data)
        assert '"target": "Bob"' not in text and "You voted for" not in text
        ann_entry = next(p for p in data["state"]["players"] if p["name"] == "Ann")
        assert ann_entry["voted"] is True and "vote" not in ann_entry
    finally:
        bob_stream.close()


def test_a_phone_cannot_watch_another_seat(table: Table) -> None:
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    ann = table.join(table.client(), gid, "Ann")
    r = table.client().get(f"/api/games/{gid}/events?view=seat&seat=Bob", headers={"Authorization": f"Bearer {ann}"})
    assert r.status_code == 403


def test_the_stream_needs_a_token(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    assert table.client().get(f"/api/games/{gid}/events").status_code == 401


def test_when_every_live_slot_is_taken_a_new_stream_gets_503(table: Table) -> None:
    gid = table.new_game("pocket-galapagos", ["Ann"])
    table.dashboard.hub.max_feeds = 1
    first = open_stream(table, gid)
    try:
        first.next_state()
        r = table.client().get(f"/api/games/{gid}/events", headers=table.auth())
        assert r.status_code == 503 and r.is_json
    finally:
        first.close()
    assert table.dashboard.hub.feed_count() == 0


def test_an_action_from_another_process_reaches_the_stream_after_a_poll(table: Table) -> None:
    """`companion act` in a shell writes the journal; the server's poll picks it up for open pages."""
    from companion.table.journal import Journal
    from companion.table.session import Session

    gid = table.new_game("pocket-galapagos", ["Ann"])
    stream = open_stream(table, gid)
    try:
        assert stream.next_state()["state"]["version"] == 0
        with Journal(table.db) as shell:  # a second connection, as another process has
            Session.open(shell, gid).act({"type": "end_turn"}, source="cli")
        table.dashboard.hub.poll()
        data = stream.next_state()
        assert data["state"]["version"] == 1 and data["last_actions"][0]["source"] == "cli"
    finally:
        stream.close()
