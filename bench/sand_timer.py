"""Sand-timer accuracy: the moment the session journals `timer_expired` against the ideal end.

A real session (autotick on, real monotonic clock, SQLite journal) plays a dice game
until a plan turns a short sand timer; the figure is how late the journaled expiry
reaches a listener, measured on the monotonic clock. Worst case over the runs.
"""

from __future__ import annotations

import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import emit, median, metric, size
from companion.table.journal import Journal
from companion.table.session import Session

SECONDS = 0.5
RUNS = size(10, 1)


def one_run(folder: Path, n: int) -> float:
    session = Session.new(Journal(folder / f"t{n}.db"), "galapagos-dice", ["Ann", "Bob"],
                          {"layout_seed": n, "timer_seconds": SECONDS}, autotick=True)
    heard: dict[str, float] = {}
    done = threading.Event()

    def listener(change: Any) -> None:
        if change.action == {"type": "timer_expired"}:
            heard["at"] = time.monotonic()
            done.set()

    session.subscribe(listener)
    while session.timer is None:
        cands = [a for a in session.rules.candidates(session.state) if a["type"] != "timer_expired"]
        plans = [a for a in cands if a["type"] == "plan"]
        session.act((plans or cands)[0])
    assert session.timer is not None
    ideal_end = session.timer._started + SECONDS  # noqa: SLF001 - the bench reads the turn moment
    if not done.wait(SECONDS + 5):
        raise RuntimeError("the expiry was never journaled")
    session.close()
    return (heard["at"] - ideal_end) * 1000


def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        errors = [one_run(Path(tmp), n) for n in range(RUNS)]
    return {
        "sand_timer_error_ms": metric(max(abs(e) for e in errors), "ms", "<= 20", median_ms=round(median(errors), 3),
                                      runs=RUNS, timer_seconds=SECONDS),
    }


if __name__ == "__main__":
    emit(run())
