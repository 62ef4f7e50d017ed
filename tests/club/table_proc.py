"""One simulated table in its own process, as ``companion run`` wires the club: journal, outbox, publisher.

``python -m tests.club.table_proc DB URL TABLE DELAY SCENARIO...`` plays each scenario in turn (resuming
from the journal after a kill: a game already begun goes on where it stopped), printing ``acted N`` after
each committed action, then waits for the outbox to empty and prints ``done``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from companion.club import wiring
from companion.club.settings import parse
from companion.table.journal import Journal
from companion.table.session import Session
from tests.club.helpers import scenario


def main(argv: list[str]) -> int:
    db, url, table, delay, *names = argv
    journal = Journal(Path(db))
    club = wiring.start(parse({"url": url, "table": table}, "test"), journal, db, lambda: [], [])
    assert club is not None
    acted = 0
    for k, name in enumerate(names):
        head, actions = scenario(name)
        started = journal.games()
        started.sort(key=lambda r: r.created)
        if k < len(started):
            session = Session.open(journal, started[k].id)
        else:
            session = Session.new(journal, head["game"], head["players"], head.get("options") or {})
        for action in actions[len(session.entries):]:
            session.act(action)
            acted += 1
            print(f"acted {acted}", flush=True)
            time.sleep(float(delay))
    deadline = time.monotonic() + 30
    while club.publisher.reader.unsent() and time.monotonic() < deadline:
        time.sleep(0.05)
    left = club.publisher.reader.unsent()
    club.stop()
    journal.close()
    print(f"done {left}", flush=True)
    return 0 if left == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
