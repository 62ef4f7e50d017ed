"""``companion run``: start the table (devices, controller, sessions) and serve the dashboard.

Like Jupyter, it prints the dashboard's address with the table's access
token; open that link on the tablet in the middle of the table. Phones join
with the code the OLED shows (or its QR code).
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import gc
import os
import sys
import traceback
from typing import Any

from companion.cli.main import UsageError, command, fail, subcommands
from companion.table.journal import default_db_path

#: exit statuses of ``companion run``: 2 is only a bad command line or config file (the unit's
#: RestartPreventExitStatus); a port taken is EX_TEMPFAIL, a crash EX_SOFTWARE, both restarted
EXIT_RETRY = 75
EXIT_CRASH = 70


@subcommands
def _parsers(sub: Any) -> None:
    p = sub.add_parser("run", help="start the table and serve the phone dashboard")
    p.add_argument("--sim", action="store_true", help="simulated devices (mock pins, dummy OLED, simulated readers) on 127.0.0.1")
    p.add_argument("--host", help="address to listen on (simulation: 127.0.0.1; else the config's, default all)")
    p.add_argument("--port", type=int, help="port to listen on (default 8080; 0 picks a free one)")
    p.add_argument("--config", help="the table's TOML config (default: $COMPANION_CONFIG, then ~/.config/galapagos-companion/config.toml)")
    p.add_argument("--db", default=argparse.SUPPRESS, help="journal database (as the global --db)")
    p.add_argument("--url", help="the address phones use, if not http://HOST:PORT (a reverse proxy, a DNS name)")


def limit_malloc_arenas(arenas: int = 2) -> None:
    """Cap glibc's malloc arenas before the worker threads start.

    glibc gives busy threads arenas of their own (up to 8 per core); with ~170
    waitress threads that is memory a 512 MB Pi Zero wastes for nothing, and it
    shows as a resident size that keeps creeping up under load. Same as
    ``MALLOC_ARENA_MAX=2``; a no-op where the C library is not glibc.
    """
    import ctypes  # late: run only
    import ctypes.util  # late: run only

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(-8, arenas)  # M_ARENA_MAX
    except (OSError, AttributeError):
        pass


def freeze_start_up_heap() -> None:
    """Move everything start-up made (Flask, Pillow, luma, the games: ~50,000 objects) out of the
    collector's reach.

    A full collection walks every tracked object: 50-100 ms on a 2-core x86 machine for a
    started table, several times that on a Pi, and every thread waits for it, a button press
    on its way to the OLED too. Frozen objects are never walked again; what is
    garbage already is collected first.
    """
    gc.collect()
    gc.freeze()


def listen_error(host: str, port: int, exc: OSError) -> str:
    """One sentence for a port the server cannot take, naming both ways to pick another."""
    if exc.errno == errno.EADDRINUSE:
        return (f"Port {port} on {host} is already in use (another companion or server holds it): "
                f"pick another with `companion run --port N` or `make run PORT=N`.")
    if exc.errno == errno.EACCES:
        return (f"Port {port} needs root on this system: pick one above 1023 with `companion run --port N` "
                f"or `make run PORT=N`.")
    return f"Cannot listen on {host}:{port} ({exc.strerror or exc}): pick another port with `--port N` or `make run PORT=N`."


@command("run")
def cmd_run(args: argparse.Namespace) -> int:
    from companion.board import config  # late: gpiozero, ~60 ms; run only
    from companion.cli.app import build, exit_now  # late: Flask, waitress, ~0.1 s
    from web.server import raise_open_files_limit  # late: waitress; run only

    try:
        cfg = config.load(args.config)
    except config.ConfigError as exc:
        raise UsageError(str(exc)) from None
    if args.port is not None and not 0 <= args.port <= 65535:
        raise UsageError(f"The port must be between 0 and 65535, not {args.port}.")
    limit_malloc_arenas()
    raise_open_files_limit()
    # absolute before anything loads lgpio: importing it chdirs to $LG_WD (tmpfs under systemd),
    # and a relative --db would then put the journal, tags and backups there
    db_path = default_db_path(args.db).absolute()
    if cfg.tags_db:
        cfg = dataclasses.replace(cfg, tags_db=os.path.abspath(cfg.tags_db))
    from companion.cli.storage import place_journal  # late: ~2 ms; run only

    placement = place_journal(db_path, sim=args.sim or cfg.simulated)  # a read-only card, a root in memory
    if placement.refusal:
        raise UsageError(placement.refusal)
    companion = build(cfg, placement.path, sim=args.sim, host=args.host, port=args.port, url=args.url)
    if placement.warning:
        companion.say_storage(placement.warning)
    from hw.rfid import ReaderError  # late: after the path is absolute (LG_WD)

    companion.install_signal_handlers()  # before start: a SIGTERM during start-up stops it cleanly
    try:
        companion.start()
    except ReaderError as exc:  # a reader the config cannot describe (a bridged one without [bridge])
        companion.close()
        raise UsageError(f"{str(exc).rstrip('.')}; `companion doctor` checks every device.") from None
    except OSError as exc:  # not a configuration mistake: systemd tries again (a port freed)
        companion.close()
        fail(listen_error(companion.host, companion.port, exc))
        return EXIT_RETRY
    except Exception as exc:  # a bug of ours: restarted by systemd (never status 2)
        return crashed(companion, exc)
    freeze_start_up_heap()

    mode = "simulated devices" if companion.sim else f"devices from {cfg.source}"
    out = sys.stdout
    out.write(f"Galapagos Table Companion — {mode}, journal {companion.db_path}\n")
    out.write("Open the table's dashboard (keep this link private: it carries the table's token):\n")
    out.write(f"    {companion.table_url()}\n")
    if companion.sim:
        out.write(f"Simulation panel: {companion.base_url()}/sim\n")
    out.write(f"Phones join at {companion.base_url()}/join with the code on the OLED.\n")
    if getattr(companion, "club", None) is not None:
        club = companion.club.publisher.settings
        out.write(f"Publishing table {club.table} to {club.url} (docs/club.md).\n")
    out.write("Press Ctrl-C to stop.\n")
    out.flush()
    companion.say_status(ready=True)  # systemd (Type=notify): started; the storage's warning among what is down
    try:
        companion.serve()  # returns once everything is closed (the journal last)
    except Exception as exc:
        return crashed(companion, exc)
    exit_now(0)
    return 0


def crashed(companion: Any, exc: BaseException) -> int:
    """A crash: the details in the log (systemd's journal), one sentence, a status systemd restarts."""
    report = companion.db_path.with_name(companion.db_path.name + ".crash.txt")
    try:
        report.write_text("".join(traceback.format_exception(exc)), encoding="utf-8")
        where = f"the details are in {report}"
    except OSError:
        where = "the details could not be written"
    try:
        companion.close()
    except Exception:  # noqa: BLE001 - closing what is left is best effort now
        pass
    fail(f"The table stopped on an internal error ({type(exc).__name__}: {exc}); the journal is kept and {where}; "
         "under systemd it starts again by itself.")
    return EXIT_CRASH
