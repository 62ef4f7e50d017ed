"""The club's outbox: what it adds to an action, how soon a message has its PUBACK, how many
messages a game makes.

A Galèrapagos scenario game is played through a real session twice, with and without the outbox hook
(the action's cost at the table), then once more with Debian's Mosquitto on a free loopback port and the
real publisher: the latency is each row's PUBACK time minus the moment its action's transaction wrote it.
Without mosquitto installed the broker figures are left out (said in ``note``).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import emit, median, metric, percentile, size
from companion.club.outbox import Outbox
from companion.club.publisher import Publisher
from companion.club.settings import parse
from companion.table.journal import Journal
from companion.table.session import Session

SCENARIO = Path(__file__).resolve().parent.parent / "tests" / "scenarios" / "galerapagos_review_5p.jsonl"
GAMES = size(5, 1)


def _lines() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in SCENARIO.read_text().splitlines() if line.strip()]
    return lines[0], lines[1:]


def act_ms(folder: Path, outbox: bool) -> list[float]:
    head, actions = _lines()
    samples = []
    for g in range(GAMES):
        journal = Journal(folder / f"act-{outbox}-{g}.db")
        if outbox:
            Outbox(journal, "t1").install()
        session = Session.new(journal, head["game"], head["players"], head.get("options") or {})
        for action in actions:
            start = time.perf_counter()
            session.act(action)
            samples.append((time.perf_counter() - start) * 1000)
        journal.close()
    return samples


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def puback_ms(folder: Path) -> tuple[list[float], int] | None:
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not os.path.exists(mosquitto):
        return None
    port = _port()
    conf = folder / "mosquitto.conf"
    import pwd

    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\nuser {pwd.getpwuid(os.geteuid()).pw_name}\n")
    broker = subprocess.Popen([mosquitto, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.02)
        db = folder / "pub.db"
        journal = Journal(db)
        outbox = Outbox(journal, "t1").install()
        pub = Publisher(parse({"url": f"mqtt://127.0.0.1:{port}", "table": "t1"}, "bench"), str(db), outbox.wake).start()
        pub.connected.wait(10)
        head, actions = _lines()
        session = Session.new(journal, head["game"], head["players"], head.get("options") or {})
        for action in actions:
            session.act(action)
            time.sleep(0.01)  # a table's pace, however brisk
        deadline = time.monotonic() + 20
        while pub.reader.unsent() and time.monotonic() < deadline:
            time.sleep(0.01)
        pub.stop()
        with journal.reading() as read:
            rows = read.execute("SELECT created, sent FROM club_outbox WHERE sent IS NOT NULL").fetchall()
        journal.close()
        return [(sent - created) * 1000 for created, sent in rows], len(rows)
    finally:
        broker.terminate()
        broker.wait(5)


def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as tmp:
        folder = Path(tmp)
        plain = act_ms(folder, outbox=False)
        hooked = act_ms(folder, outbox=True)
        broker = puback_ms(folder)
    out = {
        "club_act_p50_ms": metric(median(hooked), "ms", "<= 40", without_outbox=round(median(plain), 2),
                                  what="one Galèrapagos action with the outbox hook (replay + story + status in "
                                       "the action's transaction)"),
    }
    if broker is not None:
        lat, count = broker
        out["club_outbox_to_puback_p50_ms"] = metric(median(lat), "ms", "<= 250",
                                                     p95=round(percentile(lat, 95), 2), messages=count)
        out["club_messages_per_game"] = metric(count, "messages", "<= 200", actions=len(_lines()[1]))
    else:
        out["club_act_p50_ms"]["note"] = "mosquitto is not installed: no broker figures"
    return out


if __name__ == "__main__":
    emit(run())
