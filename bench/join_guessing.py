"""Join codes against a guesser at full speed: requests from 1,000 addresses on 25 open games.

Counts how many guesses were compared with a chance of a seat without the tablet's tap (at most
``web.joining.GUESSES``), how many seats were won without it (must be 0), and the request rate,
and gives the chance over six hours by computation (web/joining.py).
"""

from __future__ import annotations

import itertools
import tempfile
import time
from pathlib import Path

from bench.common import emit, metric, size
from companion.table.journal import Journal
from web import create_app, joining
from web.context import Dashboard
from web.hub import Hub
from web.security import Keys, RateLimiter, SeatStore

REQUESTS = size(5000, 200)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "j.db"
        journal = Journal(db)
        dashboard = Dashboard(hub=Hub(journal), keys=Keys(b"b" * 32), seats=SeatStore(db),
                              joins=RateLimiter(limit=10**6, window=60))
        app = create_app(dashboard)
        table = {"Authorization": f"Bearer {dashboard.keys.table_token}"}
        client = app.test_client()
        gids = [client.post("/api/games", json={"game": "pocket-galapagos", "players": [f"P{i}"]},
                            headers=table).json["id"] for i in range(25)]
        codes = [dashboard.keys.join_code(g) for g in gids]
        guesses = (f"{n:06d}" for n in itertools.count())
        outcome = {201: 0, 202: 0, 403: 0}
        start = time.perf_counter()
        for i in range(REQUESTS):
            code = codes[i % 25] if i % 100 == 99 else next(guesses)  # the worst case: some right codes too
            c = app.test_client()
            c.environ_base["REMOTE_ADDR"] = f"10.{i % 1000 // 250}.{i % 250}.1"
            status = c.post("/api/join", json={"code": code, "seat": f"P{i % 25}"}).status_code
            outcome[status] = outcome.get(status, 0) + 1
        seconds = time.perf_counter() - start
        journal.close()
    emit({
        "join_guesses_per_second": metric(REQUESTS / seconds, "requests/s", ">= 100"),
        "join_seats_without_tap": metric(outcome[201], "seats", "<= 0"),
        "join_guesses_compared": metric(outcome[403], "guesses", f"<= {joining.GUESSES - 1}"),
        "join_chance_six_hours_25_games": metric((1 - (1 - 25 / 10**6) ** joining.GUESSES) * 10**5, "in 100,000",
                                                 "<= 10"),
    })


if __name__ == "__main__":
    main()
