"""Computers on every core, shared fairly: does a person's computer opponent answer in time
while one client keeps a crowd of computers-only tables thinking?

Run: ``python benchmarks/bench_computers.py`` (``--bot-tables 200 --people 50 --seconds 90``).
It starts ``foxtrot serve`` (no limit on computers-only tables, ``--computer-processes`` as
given, default one per core), creates ``--bot-tables`` four-seat tables of ``--bot-level``
computers (they play by themselves, as fast as the computers think, and nobody watches them),
then ``--people`` two-seat tables, each a person against one ``--level`` computer with no
pause before its move (``bot_delay`` 0). Each person plays his first legal card ``--think``
seconds (± half) after his turn comes, and the time from his action to the computer's answer
(the next view in which it is his turn again, or the deal's end) is one sample.

The goal: the 95th percentile of a person's wait at most 1.2 × the computer's cap
(``HARD_SECONDS`` for hard) on a 2-core machine, with the server using both cores (its
process and its workers together above one core's CPU time). Prints the figures, the load
average before and after, and the server's CPU time per wall second.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench_server import NO_COMPUTER_LIMIT, free_port, rank
from foxtrot.bots.expert import EXPERT_SECONDS, HARD_SECONDS

CAPS = {"hard": HARD_SECONDS, "expert": EXPERT_SECONDS}


def start(home: Path, port: int, processes: int | None) -> subprocess.Popen[bytes]:
    """``foxtrot serve`` on ``port``, answering ``/healthz``."""
    extra = [] if processes is None else ["--computer-processes", str(processes)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "foxtrot", "serve", "--port", str(port), *NO_COMPUTER_LIMIT, *extra],
        env=os.environ | {"FOXTROT_HOME": str(home)},
        stdout=subprocess.DEVNULL,
        stderr=open(home / "server.log", "ab"),  # noqa: SIM115
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        if proc.poll() is not None:
            raise SystemExit(f"the server exited; see {home / 'server.log'}")
        time.sleep(0.1)
    raise SystemExit("the server did not answer in 120 s")


def tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its children (the workers) so far."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(stat.parent.name) == pid or int(fields[1]) == pid:  # ppid
                total += (int(fields[11]) + int(fields[12])) / ticks
    return total


async def person(
    uri: str, token: str, think: float, rng: random.Random, until: float
) -> list[float]:
    """Play one table until ``until``; the seconds each of the computer's answers took."""
    waits: list[float] = []
    sent_at: float | None = None
    async with connect(uri, max_size=2**21) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        pending: asyncio.Task[None] | None = None
        while time.time() < until:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.time()))
            except TimeoutError:
                break
            message = json.loads(raw)
            view = message.get("view")
            if message["type"] not in ("event", "snapshot") or not view:
                continue
            if view.get("legal"):
                if sent_at is not None:
                    waits.append(time.perf_counter() - sent_at)
                    sent_at = None
                if pending is not None:
                    pending.cancel()

                async def move(seq: int, action: str, delay: float) -> None:
                    nonlocal sent_at
                    await asyncio.sleep(delay)
                    sent_at = time.perf_counter()
                    with contextlib.suppress(ConnectionClosed):
                        await ws.send(
                            json.dumps(
                                {"type": "action", "id": str(seq), "seq": seq, "action": action}
                            )
                        )

                delay = think * (0.5 + rng.random())
                pending = asyncio.create_task(move(message["seq"], view["legal"][0], delay))
    return waits


async def load(base: str, args: argparse.Namespace) -> list[float]:
    """Create the tables, play for ``--seconds``; every person's waits."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for _ in range(args.bot_tables):
            answer = await http.post(
                "/api/tables",
                json={
                    "options": {"players": 4, "target": 100000},
                    "seats": [{"kind": args.bot_level}] * 4,
                    "bot_delay": 0,
                },
            )
            answer.raise_for_status()
        people = []
        for i in range(args.people):
            table = (
                await http.post(
                    "/api/tables",
                    json={
                        "options": {"players": 2, "target": 100000},
                        "seats": [{"kind": "person"}, {"kind": args.level}],
                        "bot_delay": 0,
                    },
                )
            ).json()["table"]
            joined = (await http.post(f"/api/tables/{table}/join", json={"name": f"P{i}"})).json()
            people.append((f"{base.replace('http', 'ws')}/ws/tables/{table}", joined["token"]))
    until = time.time() + args.seconds
    found = await asyncio.gather(
        *(
            person(uri, token, args.think, random.Random(f"{args.seed}-{i}"), until)
            for i, (uri, token) in enumerate(people)
        ),
        return_exceptions=True,
    )
    errors = [f for f in found if isinstance(f, BaseException)]
    if errors:
        print(f"{len(errors)} people failed, e.g. {errors[0]!r}", file=sys.stderr)
    return [w for f in found if not isinstance(f, BaseException) for w in f]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bot-tables", type=int, default=200, help="computers-only tables (200)")
    parser.add_argument("--bot-level", default="hard", help="their level (hard)")
    parser.add_argument("--people", type=int, default=50, help="people, one table each (50)")
    parser.add_argument("--level", default="hard", help="each person's opponent (hard)")
    parser.add_argument("--think", type=float, default=8.0, help="a person's delay (8 s ± half)")
    parser.add_argument("--seconds", type=float, default=90.0, help="how long to play (90)")
    parser.add_argument("--processes", type=int, default=None, help="--computer-processes")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the delays (2026)")
    args = parser.parse_args()
    load_before = os.getloadavg()
    home = Path(tempfile.mkdtemp(prefix="foxtrot-bench-computers-"))
    port = free_port()
    proc = start(home, port, args.processes)
    cpu0, wall0 = tree_cpu(proc.pid), time.perf_counter()
    waits = sorted(asyncio.run(load(f"http://127.0.0.1:{port}", args)))
    wall = time.perf_counter() - wall0
    cores_used = (tree_cpu(proc.pid) - cpu0) / wall
    metrics = httpx.get(f"http://127.0.0.1:{port}/metrics").text
    proc.send_signal(signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=30)
    cap = CAPS.get(args.level, 0.0)
    computer_actions = sum(
        float(line.rsplit(" ", 1)[1])
        for line in metrics.splitlines()
        if line.startswith('foxtrot_actions_total{source="computer"}')
    )
    result: dict[str, Any] = {
        "answers": len(waits),
        "wait_p50_s": statistics.median(waits) if waits else None,
        "wait_p95_s": rank(waits, 0.95) if waits else None,
        "wait_max_s": waits[-1] if waits else None,
        "cap_s": cap,
        "p95_over_cap": rank(waits, 0.95) / cap if waits and cap else None,
        "computer_actions_per_s": computer_actions / wall,
        "server_cores_used": cores_used,
        "cores": len(os.sched_getaffinity(0)),
        "load_average_before": " ".join(f"{x:.2f}" for x in load_before),
        "load_average_after": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }
    for key, value in result.items():
        print(f"{key:24} {value:.3f}" if isinstance(value, float) else f"{key:24} {value}")


if __name__ == "__main__":
    main()
