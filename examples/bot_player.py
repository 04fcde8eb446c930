"""A bot account playing at a Foxtrot server: any of ``foxtrot.bots`` through ``foxtrot.client``.

    export FOXTROT_BOT_TOKEN=fxbot_...            # shown once when you created the bot
    python examples/bot_player.py --server http://localhost:8000 --table TABLE_ID
    python examples/bot_player.py --server http://localhost:8000 --create medium,person
    python examples/bot_player.py --player learned:policy.npz --table TABLE_ID

``--table`` joins a table (a public one from ``GET /api/tables``, or a friend's invite);
``--create`` makes a casual table with these seats (``person`` is a seat for the bot or for
people, a level a computer) and prints its invite.  The bot plays the match to its end and
prints the final totals.  The token is read from the environment, never from the command
line (where other users of the machine could read it in the process list).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys

from foxtrot.bots import Bot
from foxtrot.client import BotClient, BotRefusedError
from foxtrot.core import Action, Observation
from foxtrot.research.entrants import parse_bots


def player(name: str) -> Bot:
    """An honest bot by its tournament name (greedy, random, hard, learned:PATH...)."""
    built = parse_bots(name)[0].build()
    if not isinstance(built, Bot):
        raise SystemExit(f"{name}: only an honest bot may sit at a table")
    return built


async def main(args: argparse.Namespace) -> int:
    token = os.environ.get("FOXTROT_BOT_TOKEN")
    if not token:
        print("set FOXTROT_BOT_TOKEN to the bot's token", file=sys.stderr)
        return 2
    bot, rng = player(args.player), random.Random(args.seed)

    def choose(obs: Observation) -> Action:
        return bot.choose(obs, obs.legal_actions, rng)

    try:
        async with await BotClient.connect(args.server, token) as client:
            if args.table:
                seat = await client.join(args.table)
            else:
                kinds = [kind.strip() for kind in args.create.split(",")]
                seats = [{"kind": kind} for kind in kinds]
                seat = await client.create(
                    options={"players": len(kinds), "target": args.target}, seats=seats
                )
                print(f"table {client.table}: invite {args.server.rstrip('/')}/t/{client.table}")
            print(f"{client.bot['name']} sits in seat {seat} of table {client.table}", flush=True)
            final = await client.play(choose)
    except BotRefusedError as refused:
        print(f"refused: {refused}", file=sys.stderr)
        return 1
    print(f"match over: totals {final.get('totals')}, winner seat {final.get('winner')}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://localhost:8000")
    parser.add_argument("--player", default="greedy", help="greedy, random, hard, learned:PATH")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="join this table")
    where.add_argument("--create", help="create a table with these seats: medium,person")
    parser.add_argument("--target", type=int, default=200, help="the match's target (--create)")
    parser.add_argument("--seed", type=int, default=None, help="the bot's own random generator")
    sys.exit(asyncio.run(main(parser.parse_args())))
