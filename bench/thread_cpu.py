"""Run ``companion`` in this process and write the CPU each of its threads used over a quiet stretch.

    python -m bench.thread_cpu OUT.json SETTLE SECONDS -- <companion arguments>
    (then, once the table is up: touch OUT.json.go)

Python 3.11 does not name its threads for the kernel (``/proc/PID/task/TID/comm`` is « python » for
all), so the thread names come from :func:`threading.enumerate` inside the process: a probe thread
waits for ``OUT.json.go`` (the driver makes it once the table answers), then ``SETTLE`` seconds, reads each task's utime+stime (``/proc/self/task/TID/stat``), waits
``SECONDS``, reads them again and writes ``{name: {"cpu_s", "pct"}}`` (the probe's own thread left
out) with the process total and the garbage collector's passes meanwhile, then goes back to sleep. Used by :mod:`bench.at_rest`.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import threading
import time
from pathlib import Path


def task_seconds(tid: int) -> float:
    """utime + stime of one thread of this process, in seconds (0 once it ended)."""
    try:
        with open(f"/proc/self/task/{tid}/stat") as handle:
            fields = handle.read().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_seconds() -> float:
    with open("/proc/self/stat") as handle:
        fields = handle.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def sample() -> dict[int, float]:
    return {int(tid): task_seconds(int(tid)) for tid in os.listdir("/proc/self/task")}


class Collections:
    """The garbage collector's passes during the stretch: generation, thread and CPU time of each."""

    def __init__(self) -> None:
        self.on = False
        self.passes: list[dict[str, object]] = []
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if not self.on:
            return
        if phase == "start":
            self._began = time.thread_time()
        else:
            self.passes.append({"generation": info["generation"], "thread": threading.current_thread().name,
                                "cpu_ms": round(1000 * (time.thread_time() - self._began), 2)})


def probe(out: Path, settle: float, seconds: float) -> None:
    go = out.with_name(out.name + ".go")
    while not go.exists():  # the driver says when the table is up and its game on it
        time.sleep(0.1)
    time.sleep(settle)
    me = threading.get_native_id()
    collections = Collections()
    gc.callbacks.append(collections)
    before, total_before, began = sample(), process_seconds(), time.monotonic()
    collections.on = True
    time.sleep(seconds)
    collections.on = False
    after, total_after, took = sample(), process_seconds(), time.monotonic() - began
    names = {t.native_id: t.name for t in threading.enumerate()}
    per: dict[str, dict[str, float]] = {}
    for tid, used in after.items():
        if tid == me:
            continue
        name = names.get(tid, f"tid {tid}")
        cpu = used - before.get(tid, 0.0)
        entry = per.setdefault(name, {"cpu_s": 0.0, "pct": 0.0, "threads": 0})
        entry["cpu_s"] = round(entry["cpu_s"] + cpu, 3)
        entry["pct"] = round(100 * entry["cpu_s"] / took, 3)
        entry["threads"] += 1
    report = {"seconds": round(took, 2), "total_pct": round(100 * (total_after - total_before) / took, 3),
              "threads": dict(sorted(per.items(), key=lambda kv: -kv[1]["cpu_s"])),
              "gc_passes": collections.passes}
    out.write_text(json.dumps(report, indent=2))


def main() -> None:
    out, settle, seconds, dash, *argv = sys.argv[1:]
    if dash != "--":
        raise SystemExit("usage: python -m bench.thread_cpu OUT SETTLE SECONDS -- <companion arguments>")
    threading.Thread(target=probe, args=(Path(out), float(settle), float(seconds)), name="probe",
                     daemon=True).start()
    from companion.cli.main import main as companion

    sys.argv = ["companion", *argv]
    raise SystemExit(companion())


if __name__ == "__main__":
    main()
