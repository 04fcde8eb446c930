"""``foxtrot verify FILE``: check that every deck of a server record is the one committed to.

The record must carry the fair-deal keys the server adds (``table`` and each
deal's ``fair``: algorithm, commitment, players' seeds, revealed server seed;
docs/fair.md).  The record is also checked as a game record (rule G3), so a
deck that was changed is refused whichever check sees it first.  Exit 0 if
every deal checks, 1 if any file is refused.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..core import FoxtrotError, from_record, parse_record
from ..storage import read_text
from ..web.fair import FairError, verify_record
from .console import Console

DESCRIPTION = """\
Recompute every deck of a record written by `foxtrot serve` from its revealed server
seed, the table id, the deal number and the players' seeds (algorithm fx/v1), and check
that the server seed matches the commitment published before the deal.  This proves the
server could not choose the deck after the commitment (nor after seeing the players'
seeds); it does not prove the server kept the cards secret: the server sees every card.
"""


def add_parser(sub: Any) -> None:
    """Register ``foxtrot verify``."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "verify",
        help="check the fair-deal commitments of server records (fx/v1)",
        description=DESCRIPTION,
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="record files")


def run(args: argparse.Namespace, out: Console) -> int:
    """Verify each file; one line per deal; 1 if any file is refused."""
    bad = 0
    for path in args.files:
        try:
            data = parse_record(read_text(path))
            lines = verify_record(data)  # the proofs of the decks first, as the page does
            from_record(data)  # then every check of a record, the same as `foxtrot check`'s
        except (FairError, FoxtrotError) as error:
            bad += 1
            out.print(f"REFUSED {path}: {error}")
            continue
        for line in lines:
            out.print(f"  {line}")
        out.print(f"ok {path}: {len(lines)} deal{'' if len(lines) == 1 else 's'} verified")
    return 1 if bad else 0
