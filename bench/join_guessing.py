"""Join codes against a guesser, a prober and a flood, from many loopback addresses.

1. **Guessing at full speed**: requests from 1,000 addresses on 25 open games with no per-address
   limit. How many guesses were compared with a chance of a seat without the tablet's tap (at most
   ``web.joining.GUESSES - 1``), how many seats were won without it (must be 0), the request rate,
   and the chance over six hours by computation (web/joining.py).
2. **The oracle**: once joining needs the tablet's tap, an address sends ten candidate codes with a
   made-up seat, then one more request; half the trials hold the right code among the ten. Right
   codes learnt: trials whose answers (status, headers, body without its handle) differ from a trial
   without one (must be 0). The median time of a right and of a wrong code's answer is measured too.
3. **The flood**: a hundred loopback addresses for a simulated hour at the fastest pace the server
   allows (every address sends until its limit answers 429, every simulated minute): half of them
   know one game's current code (a glimpse of the QR) and ask for every name and made-up ones, the
   other half guess codes (they start: a code glimpsed before any wrong code is a player's code, it joins
   as the table means it to); meanwhile a real phone asks to join each minute. Seats won, right codes
   learnt, real phones' requests evicted before the tablet decides or they time out: all must be 0.
"""

from __future__ import annotations

import itertools
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import emit, metric, size
from companion.table.journal import Journal
from web import create_app, joining
from web.context import Dashboard
from web.hub import Hub
from web.security import Keys, RateLimiter, SeatStore

REQUESTS = size(5000, 200)
ORACLE_TRIALS = size(200, 10)
FLOOD_ADDRESSES = size(100, 10)
FLOOD_MINUTES = size(60, 3)
PER_ADDRESS_PER_MINUTE = 10  # the server's own limit (RateLimiter's default): the fastest pace it allows


class Clock:
    """A simulated clock every limiter of the dashboard reads."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _table(tmp: str, joins: RateLimiter, game: str, players: list[list[str]]) -> tuple[Any, Dashboard, list[str]]:
    db = Path(tmp) / "j.db"
    dashboard = Dashboard(hub=Hub(Journal(db)), keys=Keys(b"b" * 32), seats=SeatStore(db), joins=joins)
    app = create_app(dashboard)
    table = {"Authorization": f"Bearer {dashboard.keys.table_token}"}
    gids = [app.test_client().post("/api/games", json={"game": game, "players": p}, headers=table).json["id"]
            for p in players]
    return app, dashboard, gids


def _client(app: Any, address: str) -> Any:
    c = app.test_client()
    c.environ_base["REMOTE_ADDR"] = address
    return c


def _shape(r: Any) -> tuple:
    """What a prober sees of an answer, the request's handle (random) left out."""
    body = r.get_json(silent=True) or {}
    if isinstance(body.get("pending"), str):
        body = {**body, "pending": len(body["pending"])}
    return r.status_code, r.headers.get("Retry-After"), json.dumps(body, sort_keys=True)


def _clocks(app: Any, dashboard: Dashboard, clock: Clock) -> None:
    with app.app_context():
        for limiter in (dashboard.joins, joining.guesses(), joining.table_joins()):
            limiter._clock = clock
        joining.requests().clock = clock


def guessing() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        app, dashboard, gids = _table(tmp, RateLimiter(limit=10**6, window=60), "pocket-galapagos",
                                      [[f"P{i}"] for i in range(25)])
        codes = [dashboard.keys.join_code(g) for g in gids]
        guesses = (f"{n:06d}" for n in itertools.count())
        outcome = {201: 0, 202: 0, 403: 0}
        start = time.perf_counter()
        for i in range(REQUESTS):
            code = codes[i % 25] if i % 100 == 99 else next(guesses)  # the worst case: some right codes too
            c = _client(app, f"127.{i % 1000 // 250}.{i % 250}.1")
            status = c.post("/api/join", json={"code": code, "seat": f"P{i % 25}"}).status_code
            outcome[status] = outcome.get(status, 0) + 1
        seconds = time.perf_counter() - start
        dashboard.hub.journal.close()
    return {
        "join_guesses_per_second": metric(REQUESTS / seconds, "requests/s", ">= 100"),
        "join_seats_without_tap": metric(outcome[201], "seats", "<= 0"),
        "join_guesses_compared": metric(outcome[403], "guesses", f"<= {joining.GUESSES - 1}"),
        "join_chance_six_hours_25_games": metric((1 - (1 - 25 / 10**6) ** joining.GUESSES) * 10**5, "in 100,000",
                                                 "<= 10"),
    }


def oracle() -> dict[str, Any]:
    """Ten candidates with a made-up seat, then one more request, per address; half hold the right code."""
    with tempfile.TemporaryDirectory() as tmp:
        app, dashboard, gids = _table(tmp, RateLimiter(limit=PER_ADDRESS_PER_MINUTE, window=60), "galerapagos",
                                      [["Ann", "Bob", "Cleo"] for _ in range(25)])
        clock = Clock()
        _clocks(app, dashboard, clock)
        wrong = (f"{n:06d}" for n in itertools.count(500_000))
        for n in range(joining.GUESSES):  # the budget is spent: joining needs the tablet's tap
            _client(app, f"127.3.0.{n + 1}").post("/api/join", json={"code": next(wrong), "seat": "Ann"})
        codes = {dashboard.keys.join_code(g) for g in gids}
        seen: dict[bool, set[tuple]] = {False: set(), True: set()}
        times: dict[bool, list[float]] = {False: [], True: []}
        for trial in range(ORACLE_TRIALS):
            clock.now += 61  # a fresh minute for every trial's address too
            c = _client(app, f"127.4.{trial // 250}.{trial % 250 + 1}")
            right = trial % 2 == 1
            candidates = [next(c2 for c2 in wrong if c2 not in codes) for _ in range(10)]
            if right:
                candidates[trial % 10] = sorted(codes)[trial % len(codes)]
            answers = []
            for code in [*candidates, candidates[0]]:
                t0 = time.perf_counter()
                r = c.post("/api/join", json={"code": code, "seat": "Nobody"})
                took = time.perf_counter() - t0
                if r.status_code == 202:  # the eleventh (429, answered before any comparison) is no right/wrong pair
                    times[code in codes].append(took)
                answers.append(_shape(r))
            seen[right].add(tuple(answers))
        learnt = 0 if seen[True] == seen[False] and len(seen[False]) == 1 else ORACLE_TRIALS // 2
        dashboard.hub.journal.close()
    gap = abs(statistics.median(times[True]) - statistics.median(times[False])) * 1e6
    return {
        "join_oracle_codes_learnt": metric(learnt, "codes", "<= 0"),
        "join_right_wrong_time_gap_us": metric(gap, "µs (medians)", "<= 300",
                                               right_ms=round(statistics.median(times[True]) * 1e3, 3),
                                               wrong_ms=round(statistics.median(times[False]) * 1e3, 3)),
    }


def flood() -> dict[str, Any]:
    """A hundred addresses for an hour at the server's fastest pace; a real phone asks to join each minute."""
    with tempfile.TemporaryDirectory() as tmp:
        app, dashboard, gids = _table(tmp, RateLimiter(limit=PER_ADDRESS_PER_MINUTE, window=60), "galerapagos",
                                      [["Ann", "Bob", "Cleo"] for _ in range(25)])
        clock = Clock()
        _clocks(app, dashboard, clock)
        guesses = (f"{n:06d}" for n in itertools.count())
        attackers = [_client(app, f"127.5.{a // 250}.{a % 250 + 1}") for a in range(FLOOD_ADDRESSES)]
        handles: list[tuple[Any, str]] = []
        real: list[tuple[Any, str, float]] = []
        won = learnt = evicted = sent = refused = 0
        shapes: dict[bool, set[tuple]] = {False: set(), True: set()}
        for minute in range(FLOOD_MINUTES):
            clock.now += 60
            seen_code = dashboard.keys.join_code(gids[0])  # the flooders glimpse the QR afresh every minute
            for a, c in sorted(enumerate(attackers), key=lambda ac: ac[0] % 2 == 0):  # the guessers first
                for n in range(PER_ADDRESS_PER_MINUTE + 1):  # until the server says 429: its fastest pace
                    if a % 2 == 0:
                        code, seat = seen_code, ["Ann", "Bob", "Cleo", f"Ghost{n}"][(a + n) % 4]
                    else:
                        code, seat = next(guesses), "Ann"
                    right = code in {dashboard.keys.join_code(g) for g in gids}
                    r = c.post("/api/join", json={"code": code, "seat": seat})
                    sent += 1
                    if r.status_code == 429:
                        refused += 1
                        continue
                    if r.status_code == 201:
                        won += 1
                    if a % 2 == 1:
                        shapes[right].add(_shape(r))
                    if r.status_code == 202 and r.json.get("pending"):
                        handles.append((c, r.json["pending"]))
            k = minute % len(gids)  # a real phone (at the flooded game too), with its code, for a real seat
            phone = _client(app, f"127.6.{minute // 250}.{minute % 250 + 1}")
            r = phone.post("/api/join", json={"code": dashboard.keys.join_code(gids[k]), "seat": "Bob"})
            if r.status_code == 202:
                real.append((phone, r.json["pending"], clock.now))
            for phone, handle, at in real:  # nobody at the tablet decides: each must wait until it times out
                if clock.now - at < joining.REQUEST_TTL and phone.post(f"/api/join/requests/{handle}").status_code != 202:
                    evicted += 1
            for c, handle in handles[-2 * FLOOD_ADDRESSES:]:  # the attackers ask after their requests
                if c.post(f"/api/join/requests/{handle}").status_code == 201:
                    won += 1
        if shapes[True] - shapes[False]:
            learnt += 1
        dashboard.hub.journal.close()
    return {
        "join_flood_seats_won": metric(won, "seats", "<= 0", requests=sent, refused_429=refused,
                                       addresses=FLOOD_ADDRESSES, simulated_minutes=FLOOD_MINUTES),
        "join_flood_codes_learnt": metric(learnt, "codes", "<= 0"),
        "join_flood_real_phones_evicted": metric(evicted, "requests", "<= 0", real_phones=len(real)),
    }


def main() -> None:
    emit({**guessing(), **oracle(), **flood()})


if __name__ == "__main__":
    main()
