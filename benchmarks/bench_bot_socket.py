"""What a bot account costs against a person: the action round trip on ``/ws/bot`` and on a
table's own socket, and what ``foxtrot.client`` adds to each turn.

The server runs as a subprocess (``foxtrot serve``, SQLite, a fresh data folder).  A bot
account is written straight into its database (an account row and ``BotStore.create``: the
passkey ceremony is not what is measured).  Then, in alternating slices, a person (a seat
token on ``/ws/tables/{id}``) and the bot (its token on ``/ws/bot``) each play one whole
match against an easy computer (``bot_delay`` 0), always the first legal action; every
action's round trip (send to its own ``ack``) is kept.  Reported: each side's median and
95th percentile over all slices, and the median of the per-pair ratios bot/person (the
machine's speed drifts between runs, so only the ratio within one run means anything).

In the script's own process: ``observation_of`` (the client's reading of a view into the
engine's observation) against ``seat_view`` (the server's writing of it), microseconds a
call, over the same views, in alternating slices.

Usage: ``python benchmarks/bench_bot_socket.py [--pairs 6 --target 100]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from websockets.asyncio.client import ClientConnection, connect

from foxtrot.client import observation_of
from foxtrot.core import Phase, State, TableOptions
from foxtrot.web.store.bot_rows import BotStore
from foxtrot.web.table.views import seat_view


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(home: Path, port: int) -> subprocess.Popen[bytes]:
    env = os.environ | {"FOXTROT_HOME": str(home)}
    command = [sys.executable, "-m", "foxtrot", "serve", "--port", str(port)]
    proc = subprocess.Popen(
        [*command, "--db", f"sqlite:///{home / 'server.db'}"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not come up")


def bot_token(db_url: str) -> str:
    """An account and its bot, written into the server's database; the bot's token."""
    engine = sa.create_engine(db_url)
    with engine.begin() as db:
        db.execute(
            sa.text(
                "INSERT INTO accounts (id, name, name_key, name_skeleton, lang, created_at)"
                " VALUES ('bench', 'Bench', 'bench', 'bench', 'en', 0)"
            )
        )
    _bot, token = BotStore(engine).create("bench", "Benchbot")
    engine.dispose()
    return token


async def play(
    ws: ClientConnection, hello: dict[str, Any], first: dict[str, Any] | None
) -> list[float]:
    """Say hello (and ``first``: the bot's join), then play the first legal action each turn
    until the match is over; each action's round trip in seconds."""
    await ws.send(json.dumps(hello))
    if first is not None:
        await ws.send(json.dumps(first))
    trips: list[float] = []
    sent: dict[str, float] = {}
    seq, acted = 0, -1
    view: dict[str, Any] = {}
    while view.get("phase") != "over":
        message = json.loads(await ws.recv())
        kind = message["type"]
        if kind in ("event", "snapshot"):
            seq = max(seq, int(message["seq"]))
            view = message.get("view") or view
        elif kind == "ack":
            trips.append(time.perf_counter() - sent.pop(message["id"]))
        elif kind == "error" and message.get("code") == "throttled":
            await asyncio.sleep(0.1)  # past 20 messages a second: the action again (same id)
            acted = -1
        elif kind == "error" and message.get("id"):
            sent.pop(message["id"], None)
            acted = -1
        if view.get("legal") and view.get("to_move") == view.get("seat") and acted != seq:
            acted = seq
            ident = f"a{seq}"
            sent[ident] = time.perf_counter()
            await ws.send(
                json.dumps({"type": "action", "id": ident, "seq": seq, "action": view["legal"][0]})
            )
    return trips


def table(base: str, target: int) -> str:
    body = {
        "options": {"players": 2, "target": target},
        "seats": [{"kind": "person"}, {"kind": "easy"}],
        "seed_seconds": 0,
        "bot_delay": 0,
        "public": False,
    }
    return str(httpx.post(f"{base}/api/tables", json=body, timeout=30).json()["table"])


async def person_match(base: str, ws_base: str, target: int) -> list[float]:
    table_id = table(base, target)
    token = httpx.post(
        f"{base}/api/tables/{table_id}/join", json={"name": "Ann"}, timeout=30
    ).json()["token"]
    async with connect(f"{ws_base}/ws/tables/{table_id}") as ws:
        return await play(ws, {"type": "hello", "token": token}, None)


async def bot_match(base: str, ws_base: str, target: int, token: str) -> list[float]:
    table_id = table(base, target)
    async with connect(f"{ws_base}/ws/bot") as ws:
        join = {"type": "join", "table": table_id, "last_seq": 0}
        return await play(ws, {"type": "hello", "token": token}, join)


def views(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """Seat views of random positions (the seat to move), as they travel (JSON)."""
    rng = random.Random(seed)
    found: list[dict[str, Any]] = []
    while len(found) < count:
        state = State(TableOptions(players=rng.choice((2, 3, 4))), dealer=0)
        state.deal(rng)
        while state.phase is Phase.PLAYING and len(found) < count:
            seat = state.to_move
            assert seat is not None
            obs = state.observation(seat)
            found.append(json.loads(json.dumps(seat_view(obs))))
            state.apply(rng.choice(obs.legal_actions))
    return found


def per_call(work: Any, items: list[Any]) -> float:
    started = time.perf_counter()
    for item in items:
        work(item)
    return (time.perf_counter() - started) / len(items) * 1e6


def reading_cost(slices: int = 7, count: int = 2000) -> str:
    sample = views(count)
    states = [observation_of(view) for view in sample]
    ratios, reads, writes = [], [], []
    for _ in range(slices):
        read = per_call(observation_of, sample)
        write = per_call(seat_view, states)
        reads.append(read)
        writes.append(write)
        ratios.append(read / write)
    return (
        f"observation_of {statistics.median(reads):.1f} us a view, seat_view "
        f"{statistics.median(writes):.1f} us (median of {slices} slices of {count}); "
        f"median ratio {statistics.median(ratios):.2f}"
    )


def rank(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def round_trips(args: argparse.Namespace) -> str:
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        port = free_port()
        proc = start_server(home, port)
        try:
            base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
            token = bot_token(f"sqlite:///{home / 'server.db'}")
            people: list[float] = []
            bots: list[float] = []
            ratios = []
            for number in range(args.pairs):
                order = ("person", "bot") if number % 2 == 0 else ("bot", "person")
                got: dict[str, list[float]] = {}
                for side in order:
                    if side == "person":
                        got[side] = await person_match(base, ws_base, args.target)
                    else:
                        got[side] = await bot_match(base, ws_base, args.target, token)
                people += got["person"]
                bots += got["bot"]
                ratios.append(statistics.median(got["bot"]) / statistics.median(got["person"]))
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    people.sort()
    bots.sort()

    def figures(name: str, trips: list[float]) -> str:
        p50, p95 = rank(trips, 0.5) * 1e3, rank(trips, 0.95) * 1e3
        return f"{name}: p50 {p50:.2f} ms, p95 {p95:.2f} ms ({len(trips)} actions)"

    ratio = statistics.median(ratios)
    return (
        f"round trip, {figures('person', people)}; {figures('bot', bots)}; "
        f"median ratio bot/person over {args.pairs} pairs of matches {ratio:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=6, help="pairs of matches (person, bot)")
    parser.add_argument("--target", type=int, default=100, help="each match's target")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(reading_cost())
    print(asyncio.run(round_trips(args)))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
