"""``foxtrot serve``: the game server on uvicorn (needs the ``web`` extra).

It listens on 127.0.0.1:8000 by default, keeps everything in an SQLite file in
the data folder (or the database ``--db`` names), prints the address to open
and stops cleanly on Ctrl-C or SIGTERM: every accepted action is already
committed, so open tables are safe.
"""

from __future__ import annotations

import argparse
from typing import Any

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
        "--idle-hours",
        type=float,
        default=24.0,
        metavar="HOURS",
        help="close a table every person has left for this long (default 24)",
    )


def run(args: argparse.Namespace, out: Console) -> int:
    """Start the server and serve until interrupted."""
    require("web", "foxtrot serve")
    import uvicorn  # noqa: PLC0415 (the web extra only when serving)

    from ..web.app import create_app  # noqa: PLC0415
    from ..web.logs import configure  # noqa: PLC0415
    from ..web.store import default_url  # noqa: PLC0415

    configure()
    url = args.db or default_url()
    app = create_app(url, idle_seconds=args.idle_hours * 3600)
    shown = url.split("@")[-1] if "@" in url else url  # never print a password
    out.print(f"Foxtrot server: open http://{args.host}:{args.port}/  (database: {shown})")
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws_max_size=65536,
        access_log=False,
    )
    return 0
