"""Fuzz every route of the real server, and `companion script`: no 5xx, no traceback, ever.

The server is a real `companion run --sim` (waitress, the journal on disk, simulated
devices). Every route of the Flask app is hit with the credentials, headers, query
strings and bodies a careless or hostile client sends: wrong methods, bad tokens,
stale cookies, foreign origins, JSON with NaN, Infinity, 5,000-digit integers, deep
nesting, lone surrogates, bytes that are not UTF-8, names with ``/ # ? ..``.
A refusal is any 4xx with one sentence; a 5xx (other than a 503 for full live
slots) or a traceback fails the test. ``make test`` sends 800 requests; ``make soak``
sends 20,000.

`companion script` gets the same treatment, in-process for speed (every result must
be the contract's shape and valid JSON) and through the real command for a few
hostile files (exit 2, one JSON error object, no traceback).
"""

from __future__ import annotations

import http.client
import json
import random
import socket
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from bench.harness import Server
from companion import games
from companion.engine.script import run_lines
from tests.support.cli import run as companion_cli

REQUESTS = 800
SOAK_REQUESTS = 20_000

#: every route of the app, with its methods (checked against the app's url_map below)
ROUTES = [
    ("GET", "/static/<path:filename>"), ("POST", "/api/games"), ("GET", "/api/games"),
    ("GET", "/api/games/<game_id>"), ("POST", "/api/games/<game_id>/actions"), ("POST", "/api/games/<game_id>/draft"), ("POST", "/api/games/<game_id>/draw"),
    ("POST", "/api/games/<game_id>/undo"), ("POST", "/api/games/<game_id>/redo"),
    ("GET", "/api/games/<game_id>/events"), ("POST", "/api/games/<game_id>/current"),
    ("POST", "/api/games/<game_id>/seats/<path:seat>/release"), ("POST", "/api/games/<game_id>/join-code"), ("POST", "/api/join"), ("GET", "/"),
    ("POST", "/games"), ("GET", "/g/<game_id>/table"), ("GET", "/g/<game_id>"), ("GET", "/g/<game_id>/seat/<path:seat>"),
    ("GET", "/g/<game_id>/qr.svg"), ("GET", "/wifi.svg"), ("GET", "/join"), ("POST", "/join"), ("GET", "/lang/<code>"), ("GET", "/setup"),
    ("GET", "/history.csv"), ("GET", "/history.json"), ("GET", "/sim"), ("GET", "/sim/oled.png"), ("GET", "/sim/state"),
    ("GET", "/sim/events"), ("POST", "/sim/press"), ("POST", "/sim/turn"), ("POST", "/sim/tag"),
    ("POST", "/tags/enroll"), ("POST", "/tags/forget"), ("GET", "/tags/last"), ("GET", "/tags.json"),
    ("POST", "/api/games/<game_id>/seats/<path:seat>/open"), ("GET", "/api/games/<game_id>/undo-preview"),
    ("GET", "/api/games/<game_id>/history"), ("GET", "/api/games/<game_id>/history/<int:seq>/form"),
    ("POST", "/api/games/<game_id>/history/<int:seq>/edit"), ("POST", "/api/games/<game_id>/history/<int:seq>/remove"),
    ("POST", "/api/games/<game_id>/aside/<int:seq>/reenter"), ("POST", "/api/games/<game_id>/aside/<int:seq>/drop"),
    ("POST", "/games/<game_id>/abandon"), ("POST", "/games/<game_id>/play-on"), ("POST", "/games/<game_id>/delete"),
    ("GET", "/setup/<game>/island"), ("POST", "/setup/<game>/island/check"),
    ("GET", "/games/<game_id>/raw.json"), ("POST", "/games/<game_id>/joining"), ("POST", "/api/games/<game_id>/joining"),
    ("GET", "/api/games/<game_id>/join-requests"), ("POST", "/api/join/requests/<request_id>"),
    ("POST", "/games/<game_id>/join-requests/<request_id>"), ("POST", "/api/games/<game_id>/join-requests/<request_id>"),
    ("GET", "/history"), ("GET", "/history/players.csv"), ("GET", "/history/players.json"),
    ("GET", "/history/bgstats.bgsplay"), ("GET", "/games/<game_id>/bgstats.bgsplay"), ("GET", "/g/<game_id>/course"),
]

WEIRD_TEXT = ["", " ", "A/B", "Jo #2", "x?y=1", "..", "%2e%2e", "%00", "\u202e", "é", "😀", "a" * 300,
              "=HYPERLINK(1)", "<script>", "'\"", "\r\nSet-Cookie: x=1", "null", "NaN", "-1", "1" * 5000]
WEIRD_JSON_TEXT = [
    "NaN", "Infinity", "-Infinity", "1e999", "1" + "0" * 5000, "[" * 3000 + "]" * 3000, '"\\ud800"', '"\\udfff x"',
    "{", "", "null", "[]", '{"a":1,"a":2}', '"' + "x" * 10000 + '"', "tru", "0x10", "1_000",
]


def json_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.45:
        return rng.choice([None, True, False, 0, -1, 3, 10**9, 10**16, 1.5, -0.0, rng.choice(WEIRD_TEXT),
                           "Ann", "Bob", "N", "rat", "dice", "weather", "end_turn", "tile", "bid", "vote"])
    if roll < 0.7:
        return [json_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = ["type", "player", "amount", "direction", "animals", "species", "change", "what", "code", "seat",
            "button", "hold", "delta", "point", "uid", "present", "kind", "value", "game", "players", "options",
            rng.choice(WEIRD_TEXT)[:40]]
    return {rng.choice(keys): json_value(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def body_for(rng: random.Random, context: dict[str, Any]) -> tuple[bytes | None, str | None]:
    """A body and its content type: JSON (sane, hostile or broken), a form, raw bytes, or none."""
    roll = rng.random()
    if roll < 0.1:
        return None, None
    if roll < 0.45:
        value = json_value(rng)
        if rng.random() < 0.5 and isinstance(value, dict):  # close to a real request
            value.update(rng.choice(context["good_bodies"]))
        return json.dumps(value).encode(), "application/json"
    if roll < 0.65:
        text = rng.choice(WEIRD_JSON_TEXT)
        return ('{"type": "end_turn", "x": ' + text + "}").encode(), "application/json"
    if roll < 0.8:
        fields = {"game": rng.choice(["galapagos-dice", "pocket-galapagos", "x", ""]),
                  "players": rng.choice(["Ann\nBob", "A/B,Jo #2", "", "x" * 500]),
                  "options": rng.choice(WEIRD_JSON_TEXT + ["{}", '{"timer_seconds": NaN}']),
                  "code": rng.choice([context["code"], "000000", "x", ""]), "seat": rng.choice(WEIRD_TEXT[:8] + ["Ann"]),
                  "csrf": rng.choice([context["csrf"], "bad", ""])}
        picked = {k: v for k, v in fields.items() if rng.random() < 0.7}
        return "&".join(f"{quote(k)}={quote(v)}" for k, v in picked.items()).encode(), \
            "application/x-www-form-urlencoded"
    if roll < 0.9:
        return bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 200))), rng.choice(
            ["application/json", "text/plain", "application/octet-stream"])
    return b"{" + b" " * rng.choice([5000, 70_000, 300_000]) + b"}", "application/json"


def path_for(rng: random.Random, template: str, context: dict[str, Any]) -> str:
    game_id = rng.choice(context["games"] + ["deadbeef", "", "..", "%2F", "x" * 100, "é"])
    seat = rng.choice(context["seats"] + WEIRD_TEXT)
    path = (template.replace("<game_id>", quote(game_id, safe="")).replace("<path:seat>", quote(seat, safe="/"))
            .replace("<code>", rng.choice(["en", "fr", "xx", "%00", ""]))
            .replace("<request_id>", rng.choice(["x", "", "A" * 24, "%00", ".."]))
            .replace("<int:seq>", rng.choice(["1", "2", "5", "0", "-1", "99999999999999999999", "x"]))
            .replace("<game>", quote(rng.choice(context["kinds"] + ["nope", "..", "é"]), safe=""))
            .replace("<path:filename>", rng.choice(["live.js", "app.css", "../secret", "nope", "%2e%2e/x"])))
    query = []
    for key, values in (("token", [context["table"], context["seat_token"], "bad", ""]),
                        ("view", ["table", "seat", "x"]), ("seat", context["seats"] + WEIRD_TEXT[:6]),
                        ("seed", ["42", "1" * 5000, "²", "-1", ""]), ("next", ["/", "//evil.example", "/\t/evil", "/g/x"]),
                        ("code", [context["code"], "12", "x"]), ("current", ["0", "1"]), ("role", ["table", "seat"])):
        if rng.random() < 0.15:
            query.append(f"{key}={quote(rng.choice(values), safe='')}")
    return path + ("?" + "&".join(query) if query else "")


def headers_for(rng: random.Random, context: dict[str, Any]) -> dict[str, str]:
    headers: dict[str, str] = {}
    auth = rng.random()
    if auth < 0.35:
        headers["Authorization"] = f"Bearer {context['table']}"
    elif auth < 0.5:
        headers["Authorization"] = f"Bearer {context['seat_token']}"
    elif auth < 0.6:
        headers["Authorization"] = rng.choice(["Bearer", "Bearer bad", "Basic eDp5", "bearer  ", "Bearer s.x.y"])
    if rng.random() < 0.3:
        headers["Cookie"] = rng.choice([f"table={context['table']}", f"seat-{context['games'][0]}={context['seat_token']}",
                                        "table=bad", f"seat-{context['games'][0]}=s.{context['games'][0]}.stale",
                                        "lang=fr", "lang=\u00e9"])
        headers["X-CSRF-Token"] = rng.choice([context["csrf"], context["seat_csrf"], "bad"])
    if rng.random() < 0.15:
        headers["Origin"] = rng.choice(["http://evil.example", "null", f"http://127.0.0.1:{context['port']}"])
    if rng.random() < 0.2:
        headers["X-Companion-Role"] = rng.choice(["table", "seat", "x"])
    if rng.random() < 0.1:
        headers["Accept-Language"] = rng.choice(["fr", "xx", ";;;"])
    return {k: v.encode("utf-8", "surrogatepass").decode("latin-1") for k, v in headers.items()}


def request(port: int, method: str, path: str, headers: dict[str, str], body: bytes | None,
            content_type: str | None) -> tuple[int, bytes]:
    """One request; a live stream is read only as far as its status line and then closed."""
    if "/events" in path and method == "GET":
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{head}\r\n".encode("latin-1"))
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
            return status, data
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        if content_type:
            headers = {**headers, "Content-Type": content_type}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    except (ConnectionError, http.client.HTTPException):
        return -1, b""  # the server refused to read an oversized body and closed: not a 5xx
    finally:
        conn.close()


def fuzz(tmp_path: Path, count: int, seed: int = 2024) -> dict[int, int]:
    server = Server(tmp_path / "fuzz.db")
    server.start()
    rng = random.Random(seed)
    try:
        ids, seats = [], []
        for game, players in (("galapagos-auction", ["Ann", "A/B", "Jo #2"]), ("galapagos-dice", ["Ann", "Bob"]),
                              ("pocket-galapagos", ["Ann"]), ("galerapagos", ["Ann", "Bob", "Cleo"])):
            ids.append(server.new_game(game, players))
            seats += players
        status, joined = http_json(server.port, "POST", "/api/join",
                                   {"code": join_code(server, ids[0]), "seat": "Ann"})
        assert status == 201, joined
        context = {
            "games": ids, "seats": sorted(set(seats)), "table": server.token, "seat_token": joined["token"],
            "kinds": ["galapagos-auction", "galapagos-dice", "pocket-galapagos", "galerapagos"],
            "code": join_code(server, ids[0]), "csrf": "", "seat_csrf": "", "port": server.port,
            "good_bodies": [{"type": "end_turn"}, {"type": "tile", "direction": "N", "animals": ["sea_lion", "iguana"]},
                            {"code": join_code(server, ids[0]), "seat": "Bob"}, {"what": "dice", "player": "Ann"},
                            {"button": "ok"}, {"delta": 1}, {"point": "scan", "uid": "04A1B2C3D4E5F6", "present": True},
                            {"game": "pocket-galapagos", "players": ["Zed"], "options": {}},
                            {"action": {"type": "end_turn"}}, {"cells": [{"field": 1, "colour": "red"}]}],
        }
        seen: dict[int, int] = {}
        bad: list[tuple[int, str, str, bytes]] = []
        for _ in range(count):
            method, template = rng.choice(ROUTES)
            if rng.random() < 0.08:
                method = rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH"])
            path = path_for(rng, template, context)
            body, ctype = body_for(rng, context) if method != "GET" or rng.random() < 0.05 else (None, None)
            status, data = request(server.port, method, path, headers_for(rng, context), body, ctype)
            seen[status] = seen.get(status, 0) + 1
            server_error = status >= 500 and not (status == 503 and b"live connections" in data)
            if server_error or b"Traceback" in data or status == 0:
                bad.append((status, method, path[:120], data[:300]))
        assert not bad, f"{len(bad)} requests failed the server: {bad[:5]}"
        assert http_json(server.port, "GET", "/api/games", None, server.token)[0] == 200  # still serving
        return seen
    finally:
        server.kill()


def http_json(port: int, method: str, path: str, body: Any, token: str | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"null")
    finally:
        conn.close()


def join_code(server: Server, game_id: str) -> str:
    status, body = server.api("GET", "/api/games")
    assert status == 200
    from companion.table.journal import Journal
    from web.security import Keys, load_secret

    del body
    with Journal(server.db):
        pass
    return Keys(load_secret(server.db.with_name(server.db.name + ".secret"))).join_code(game_id)


def test_the_fuzz_covers_every_route() -> None:
    import tempfile

    from companion.table.journal import Journal
    from web import create_app
    from web.context import Dashboard
    from web.hub import Hub
    from web.security import Keys, SeatStore

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "j.db"
        app = create_app(Dashboard(hub=Hub(Journal(db)), keys=Keys(b"k" * 32), seats=SeatStore(db)))
        routes = {(m, r.rule) for r in app.url_map.iter_rules() for m in r.methods - {"HEAD", "OPTIONS"}}
    assert routes == set(ROUTES), f"routes the fuzz does not know: {routes - set(ROUTES)}"


def test_fuzzing_every_route_gives_no_5xx_and_no_traceback(tmp_path: Path) -> None:
    seen = fuzz(tmp_path, REQUESTS)
    assert sum(n for s, n in seen.items() if 200 <= s < 300) > 20  # the fuzz also reaches real work


@pytest.mark.soak
def test_soak_twenty_thousand_fuzzed_requests(tmp_path: Path) -> None:
    fuzz(tmp_path, SOAK_REQUESTS, seed=7)


# -- companion script ----------------------------------------------------------------------------

def script_lines(rng: random.Random) -> list[str]:
    game = rng.choice(games.ids())
    rules = games.get(game)
    players = rng.choice([["Ann", "Bob", "Cleo"], ["Ann"], ["A/B", "Jo #2", "\u00e9"], ["Ann", "Ann"], []])
    header: Any = {"game": game, "players": players, "options": json_value(rng) if rng.random() < 0.3 else {}}
    lines = [json.dumps(header) if rng.random() < 0.85 else rng.choice(WEIRD_JSON_TEXT)]
    state = None
    try:
        state = rules.setup(players, header["options"] if isinstance(header["options"], dict) else {})
    except Exception:  # noqa: BLE001 - a refused set-up: the script stops at line 1
        pass
    for _ in range(rng.randint(0, 30)):
        roll = rng.random()
        if state is not None and roll < 0.5:
            candidates = rules.candidates(state)
            if candidates:
                action = rng.choice(candidates)
                lines.append(json.dumps(action))
                state, _ = rules.apply(state, action)
                continue
        if roll < 0.8:
            kind = rng.choice(sorted(rules.actions))
            action = {"type": kind, **{f: json_value(rng) for f in rules.actions[kind] if rng.random() < 0.8}}
            lines.append(json.dumps(action))
        else:
            lines.append('{"type": "x", "v": ' + rng.choice(WEIRD_JSON_TEXT) + "}")
    return lines


@pytest.mark.parametrize("seed", range(4))
def test_fuzzed_scripts_always_give_the_contract_s_shape(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        result = run_lines(script_lines(rng))
        text = json.dumps(result.output, allow_nan=False)  # valid JSON, whatever came in
        if not result.ok:
            assert set(result.output) == {"error", "state"}
            assert set(result.output["error"]) == {"line", "message"}
            assert result.output["error"]["message"] and "Traceback" not in text


@pytest.mark.parametrize("content", [
    b'{"game": "galapagos-dice", "players": ["Ann", "Bob"], "options": {"timer_seconds": NaN}}\n',
    b'{"game": "galapagos-dice", "players": ["Ann", "Bob"], "options": {"timer_seconds": 1e999}}\n',
    b'{"game": "pocket-galapagos", "players": ["\\ud800"], "options": {}}\n',
    b'{"game": "pocket-galapagos", "players": ["Ann"], "options": {}}\n' + b"[" * 100_000 + b"\n",
    b'{"game": "pocket-galapagos", "players": ["Ann"], "options": {"turns": 1' + b"0" * 5000 + b"}}\n",
    b'{"game": "pocket-galapagos", "players": ["Ann"], "options": {}}\n{"type": "x\\r\\ny"}\n',
    b"\xff\xfe\x00garbage\n",
])
def test_companion_script_refuses_hostile_files_with_the_json_error_and_exit_2(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(content)
    proc = companion_cli("script", str(path))  # main(argv) with a process's UTF-8 stdout: tests/support/cli.py
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"error", "state"} and out["error"]["message"]
    assert "\r" not in proc.stdout and "\n" not in proc.stdout.rstrip("\n")
