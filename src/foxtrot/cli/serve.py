"""``foxtrot serve``: the game server on uvicorn (needs the ``web`` extra).

It listens on 127.0.0.1:8000 by default, keeps everything in an SQLite file in
the data folder (or the database ``--db`` names), prints the address to open
and stops cleanly on Ctrl-C or SIGTERM: every accepted action is already
committed, so open tables are safe.
"""

from __future__ import annotations

import argparse
import datetime
import logging
from typing import Any

from ..core import FoxtrotError
from .console import Console
from .extras import require


def add_parser(sub: Any) -> None:
    """Register ``foxtrot serve``."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "serve", help="run the game server for online play", description=__doc__
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--db",
        metavar="URL",
        default=None,
        help="SQLAlchemy database URL, e.g. postgresql+psycopg://user@host/foxtrot"
        " (default: server.db in the data folder, $FOXTROT_HOME)",
    )
    parser.add_argument(
        "--bus",
        metavar="URL",
        default=None,
        help="Redis URL, e.g. redis://host:6379/0: run as one of many server processes"
        " sharing the --db PostgreSQL database (docs/cluster.md)",
    )
    parser.add_argument(
        "--lease-seconds",
        type=float,
        default=3.0,
        metavar="S",
        help="with --bus: a table's owner must renew its lease within this time (default 3)",
    )
    parser.add_argument(
        "--origin",
        metavar="URL",
        default=None,
        help="the public address passkeys belong to, e.g. https://foxtrot.example, behind a"
        " proxy (default: the address each request came to; docs/guide/accounts.md)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        default="",
        help="behind a reverse proxy: its addresses (comma-separated), the only ones whose"
        " X-Forwarded-For and -Proto are believed (default: none; docs/guide/operating.md)",
    )
    parser.add_argument(
        "--rating-seconds",
        type=float,
        default=2.0,
        metavar="S",
        help="rate the finished rated matches this often (default 2; docs/guide/accounts.md)",
    )
    parser.add_argument(
        "--rating-pair-hours",
        type=float,
        default=6.0,
        metavar="HOURS",
        help="two accounts' rated matches together move their ratings once in this time"
        " (default 6; 0: every match counts; docs/guide/accounts.md)",
    )
    parser.add_argument(
        "--idle-hours",
        type=float,
        default=24.0,
        metavar="HOURS",
        help="close a table every person has left for this long (default 24)",
    )
    parser.add_argument(
        "--log-events",
        action="store_true",
        help="log a line for every event of every table (off by default: the event log in the"
        " database holds them, and a line per move costs the server a few per cent)",
    )
    parser.add_argument(
        "--daily-day",
        type=datetime.date.fromisoformat,
        default=None,
        metavar="YYYY-MM-DD",
        help="serve the deal of the day as if today (UTC) were this day, for trials and tests"
        " (default: the real date)",
    )
    parser.add_argument(
        "--learned",
        action="append",
        default=[],
        metavar="PATH",
        help="offer a saved learned policy (a foxtrot-learned .npz file) as the computer level"
        " 'learned: NAME', NAME the file's stem, at the table size it was trained for;"
        " repeat or give a comma list (docs/guide/server.md)",
    )
    limits = parser.add_argument_group("limits", "what one client may cost (docs/protocol.md)")
    limits.add_argument(
        "--hello-seconds",
        type=float,
        default=10.0,
        metavar="S",
        help="close a WebSocket that has not said hello this long after opening (default 10)",
    )
    limits.add_argument(
        "--max-header-bytes",
        type=int,
        default=16384,
        metavar="N",
        help="the largest HTTP request line and headers (default 16384)",
    )
    limits.add_argument(
        "--header-seconds",
        type=float,
        default=10.0,
        metavar="S",
        help="close a connection whose request line and headers take longer (default 10)",
    )
    limits.add_argument(
        "--max-body-bytes",
        type=int,
        default=65536,
        metavar="N",
        help="the largest request body, the record check aside (default 65536)",
    )
    limits.add_argument(
        "--keep-alive-seconds",
        type=int,
        default=5,
        metavar="S",
        help="close an idle HTTP connection after this long (default 5)",
    )
    limits.add_argument(
        "--max-connections",
        type=int,
        default=8192,
        metavar="N",
        help="answer new HTTP requests 503 while this many connections are open (default 8192)",
    )
    limits.add_argument(
        "--expert-tables",
        type=int,
        default=3,
        metavar="N",
        help="open tables with an expert seat per client address (default 3)",
    )
    limits.add_argument(
        "--computer-processes",
        type=int,
        default=None,
        metavar="N",
        help="worker processes the computers think in, shared fairly between tables, the"
        " tables a person is connected to first (default: one for each core)",
    )
    limits.add_argument(
        "--computer-tables",
        type=int,
        nargs=2,
        default=[20, 2],
        metavar=("SERVER", "ADDRESS"),
        help="tables of computers only playing at once: per server, per client address (20 2)",
    )


def run(args: argparse.Namespace, out: Console) -> int:
    """Start the server and serve until interrupted."""
    require("web", "foxtrot serve")
    from ..web.http.app import create_app  # noqa: PLC0415 (the web extra only when serving)
    from ..web.http.running import Limits, serve  # noqa: PLC0415
    from ..web.logs import configure  # noqa: PLC0415
    from ..web.store.event_log import default_url  # noqa: PLC0415
    from ..web.table.learned import LearnedLevels  # noqa: PLC0415

    paths = [path.strip() for given in args.learned for path in given.split(",") if path.strip()]
    try:  # every policy is read now: a bad file stops the server before it listens
        learned = LearnedLevels.load(paths)
    except ValueError as error:
        raise FoxtrotError(str(error)) from None
    configure(logging.DEBUG if args.log_events else logging.INFO)
    url = args.db or default_url()
    app = create_app(
        url,
        idle_seconds=args.idle_hours * 3600,
        bus_url=args.bus,
        lease_seconds=args.lease_seconds,
        warm=True,
        hello_seconds=args.hello_seconds,
        computer_tables=(args.computer_tables[0], args.computer_tables[1]),
        computer_processes=args.computer_processes,
        expert_tables=args.expert_tables,
        rating_pair_hours=args.rating_pair_hours,
        origin=args.origin,
        rating_seconds=args.rating_seconds,
        daily={"today": (lambda: args.daily_day)} if args.daily_day else None,
        learned=learned,
    )
    shown = url.split("@")[-1] if "@" in url else url  # never print a password
    bus = f", bus: {args.bus.split('@')[-1]}" if args.bus else ""
    out.print(f"Foxtrot server: open http://{args.host}:{args.port}/  (database: {shown}{bus})")
    for kind, sizes in learned.offered().items():
        players = ", ".join(str(n) for n in sizes)
        out.print(f"Computer level {kind.replace(':', ': ')} at {players} players", markup=False)
    limits = Limits(
        header_bytes=args.max_header_bytes,
        keep_alive=args.keep_alive_seconds,
        connections=args.max_connections,
        header_seconds=args.header_seconds,
        body_bytes=args.max_body_bytes,
    )
    serve(app, args.host, args.port, limits, args.forwarded_allow_ips)
    return 0
