"""Command line of the bridge: ``python -m firmware_bridge --port PATH --dump [--seconds N]``.

The dump prints one JSON line per decoded event, in the docs/design.md vocabulary, with ``at`` in
seconds from the start of the dump plus ``seq`` and ``boot_id``; link events (hello, resync,
lost, ...) carry a ``"link"`` key. Events derived from a resync snapshot carry ``"resync": true``.
When it ends it writes the link's counters as one JSON line on stderr.

Without ``--port`` it finds the device as the host link does (udev symlink, by-id, VID:PID).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

from .events import BridgeEvent, LinkEvent, to_json
from .finder import PortFinder
from .host import HostLink


def dump(port: str | Callable[[], str | None], seconds: float | None, out: TextIO) -> int:
    """Print events until ``seconds`` have passed (or forever); return the exit code."""
    start = time.monotonic()
    write_lock = threading.Lock()
    boot = {"id": None}

    def on_event(event: BridgeEvent) -> None:
        if isinstance(event, LinkEvent) and event.kind == "hello":
            boot["id"] = event.detail.get("boot_id")
        extra = {} if isinstance(event, LinkEvent) or boot["id"] is None else {"boot_id": boot["id"]}
        line = json.dumps(to_json(event, start, **extra))
        with write_lock:
            out.write(line + "\n")
            out.flush()

    link = HostLink(port, on_event=on_event, queue_size=1 << 20)  # a dump must not skip events
    link.start()
    try:
        if seconds is None:
            threading.Event().wait()
        else:
            time.sleep(max(0.0, start + seconds - time.monotonic()))
    except KeyboardInterrupt:
        pass
    finally:
        link.stop()
    summary = {"counters": link.counters(), "port": link.port_path, "error": link.last_error}
    print(json.dumps(summary), file=sys.stderr, flush=True)
    return 0 if link.counters()["connects"] else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_bridge", description=__doc__.split("\n")[0])
    parser.add_argument("--port", help="serial device (default: find the bridge)")
    parser.add_argument("--dump", action="store_true", help="print decoded events as JSON lines")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    args = parser.parse_args(argv)
    if not args.dump:
        parser.print_help()
        return 2
    return dump(args.port or PortFinder(), args.seconds, sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
