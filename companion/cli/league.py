"""``companion league``: the club's standings from every table's results (:mod:`companion.club.league`).

``--json`` prints the standings once everything the broker kept (queued for the league, retained) has been
read, then exits; otherwise it serves them as a page (English and French), JSON and CSV until Ctrl-C.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from companion.cli.main import UsageError, command, emit, subcommands


@subcommands
def _parsers(sub: Any) -> None:
    p = sub.add_parser("league", help="standings across the club's tables, from their MQTT results")
    p.add_argument("--broker", required=True, help="the club's broker, mqtt://host:1883 or mqtts://host:8883")
    p.add_argument("--db", dest="league_db", default="league.db",
                   help="where standings are kept: an SQLite file (default league.db) or postgresql://…")
    p.add_argument("--json", action="store_true", help="print the standings once all results are read, then exit")
    p.add_argument("--port", type=int, default=8090, help="the standings page's port (default 8090)")
    p.add_argument("--host", default="127.0.0.1", help="address of the page (default 127.0.0.1; 0.0.0.0 for the LAN)")
    p.add_argument("--username", help="the league's user on the broker")
    p.add_argument("--password", help="its password")
    p.add_argument("--ca-file", help="the CA certificate of an mqtts:// broker")
    p.add_argument("--timeout", type=float, default=30.0, help="--json: seconds to wait for the broker (default 30)")


@command("league")
def cmd_league(args: argparse.Namespace) -> int:
    from companion.club.league import (  # late: MQTT, league only
        LeagueError,
        Store,
        Subscriber,
        standings,
    )

    if not math.isfinite(args.timeout) or args.timeout <= 0:
        raise UsageError(f"--timeout must be a number of seconds above 0, not {args.timeout:g}.")
    if not 1 <= args.port <= 65535:
        raise UsageError(f"--port must be a number from 1 to 65535, not {args.port}.")
    try:
        store = Store(args.league_db)
        sub = Subscriber(args.broker, store, username=args.username, password=args.password,
                         ca_file=args.ca_file).start()
    except LeagueError as exc:
        raise UsageError(str(exc)) from None
    try:
        if args.json:
            if not sub.wait_synced(args.timeout):
                raise UsageError(f"The broker {args.broker} did not answer within {args.timeout:g} s; "
                                 "nothing was printed.")
            emit(standings(store.records()))
            return 0
        from waitress.server import create_server  # late: ~8 ms; league serve only

        from web.league import create_app  # late: Flask, ~60 ms; league only

        try:  # bound before it says where: a port in use or an address that is not this machine's is said
            app = create_app(store)
            store.listeners.append(app.extensions["league_drawer"].warm)  # charts drawn once, when stored
            server = create_server(app, host=args.host, port=args.port, threads=4)
        except (OSError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or str(exc)
            raise UsageError(f"The league's page cannot listen on {args.host}:{args.port} ({why}); "
                             "give another --host or --port.") from None
        sys.stdout.write(f"League standings at http://{args.host}:{args.port}/ (JSON: /standings.json, "
                         f"CSV: /standings.csv); Ctrl-C stops.\n")
        sys.stdout.flush()
        try:
            server.run()
        except KeyboardInterrupt:
            pass
        return 0
    except LeagueError as exc:
        raise UsageError(str(exc)) from None
    finally:
        sub.stop()
        store.close()
