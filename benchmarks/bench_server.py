"""Load test of ``foxtrot serve``: simulated people over WebSocket, computer tables, recovery.

The server runs as a subprocess on SQLite (a fresh data folder); this script is
the load generator, in its own process.  It creates ``--pairs`` tables of two
people (each person plays a legal move ``--think`` seconds after his turn
comes) and ``--bot-tables`` tables of four medium computers, plays for
``--seconds``, and reports:

- the action round trip (send to own acknowledgement): p50, p95, p99, max, and p50/p99
  in every 10-s window of the run (a stall or a median that grows shows there);
- the machine's load average before and after (figures from a loaded machine differ);
- accepted actions per second (people's and computers', from ``/metrics``);
- the server's CPU (percent of one core) and resident memory;
- then kills the server with SIGKILL and times its recovery: start to
  ``/healthz`` 200 with every active table rebuilt from the log.

Usage: ``python benchmarks/bench_server.py [--pairs 200 --bot-tables 50 --seconds 60]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import signal
import socket
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

from foxtrot.web.http.running import keep_frozen


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


NO_COMPUTER_LIMIT = ("--computer-tables", "100000", "100000")


def start_server(home: Path, port: int) -> tuple[subprocess.Popen[bytes], float]:
    """Start ``foxtrot serve``; the process and the seconds until /healthz answered ok."""
    env = os.environ | {"FOXTROT_HOME": str(home)}
    started = time.perf_counter()
    proc = subprocess.Popen(
        # the 50 computer tables from one address are the load here: no limit on them
        [sys.executable, "-m", "foxtrot", "serve", "--port", str(port), *NO_COMPUTER_LIMIT],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(home / "server.log", "ab"),  # noqa: SIM115
    )
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc, time.perf_counter() - started
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit("the server exited; see server.log")
        time.sleep(0.05)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    match = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(match.group(1)) / 1024 if match else float("nan")


def quantile(text: str, label: str, q: float, name: str = "foxtrot_action_seconds") -> float:
    """A quantile (its bucket's upper bound, in ms) of one of the server's histograms."""
    buckets = []
    for line in text.splitlines():
        if line.startswith(f"{name}_bucket") and label in line:
            bound_text = line.split('le="', 1)[1].split('"', 1)[0]
            buckets.append((float(bound_text), float(line.rsplit(" ", 1)[1])))
    total = buckets[-1][1] if buckets else 0
    for bound, count in buckets:
        if total and count >= q * total:
            return 1000 * bound
    return float("nan")


def metric(text: str, name: str) -> float:
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith(name) and not line.startswith("#")
    )


#: One round trip: (seconds since the load began, its latency in seconds).
Sample = tuple[float, float]


async def person(  # noqa: PLR0917 (one simulated person's settings)
    uri: str,
    token: str,
    think: float,
    jitter: float,
    rng: random.Random,
    until: float,
    latencies: list[Sample],
) -> None:
    """Play the first legal action after each turn comes, until ``until``: ``think`` seconds
    later, give or take ``jitter`` of it (drawn uniformly)."""
    sent: dict[str, float] = {}
    async with connect(uri, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        pending: asyncio.Task[None] | None = None
        while time.time() < until:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.time()))
            except TimeoutError:
                break
            message = json.loads(raw)
            if message["type"] == "ack" and message["id"] in sent:
                now = time.perf_counter()
                latencies.append((now, now - sent.pop(message["id"])))
            view = message.get("view")
            if message["type"] in ("event", "snapshot") and view and view.get("legal"):
                if pending is not None:
                    pending.cancel()

                async def move(seq: int, action: str, delay: float) -> None:
                    await asyncio.sleep(delay)
                    action_id = f"{seq}"
                    sent[action_id] = time.perf_counter()
                    with contextlib.suppress(ConnectionClosed):
                        await ws.send(
                            json.dumps(
                                {"type": "action", "id": action_id, "seq": seq, "action": action}
                            )
                        )

                delay = think * (1 + jitter * (2 * rng.random() - 1))
                pending = asyncio.create_task(move(message["seq"], view["legal"][0], delay))


async def crowd(
    people: list[tuple[str, str]], args: argparse.Namespace, until: float, samples: list[Sample]
) -> None:
    """Every person of the load (WebSocket address, seat token) at once, until ``until``; each
    draws his delays from a generator of his own, seeded by ``--seed`` and his place."""
    await asyncio.gather(
        *(
            person(
                uri,
                token,
                args.think,
                args.jitter,
                random.Random(f"{args.seed}-{index}"),
                until,
                samples,
            )
            for index, (uri, token) in enumerate(people)
        ),
        return_exceptions=True,
    )


def rank(ordered: list[float], q: float) -> float:
    """The ``q`` quantile of sorted values, by rank (no interpolation)."""
    return ordered[int(q * (len(ordered) - 1))]


def windows(samples: list[Sample], started: float, width: float = 10.0) -> list[str]:
    """One line per ``width`` seconds of the run: its round trips, p50 and p99 in ms."""
    by_window: dict[int, list[float]] = {}
    for at, latency in samples:
        by_window.setdefault(int((at - started) // width), []).append(latency)
    lines = []
    for index in sorted(by_window):
        ordered = sorted(by_window[index])
        lines.append(
            f"{index * width:5.0f}-{(index + 1) * width:<4.0f}s  n={len(ordered):5}  "
            f"p50={1000 * rank(ordered, 0.5):7.1f}  p99={1000 * rank(ordered, 0.99):7.1f}  "
            f"max={1000 * ordered[-1]:7.1f}"
        )
    return lines


async def load(base: str, args: argparse.Namespace) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        tokens: list[tuple[str, str]] = []
        for _ in range(args.pairs):
            table = (await http.post("/api/tables", json={"options": {"target": 10000}})).json()
            for name in ("A", "B"):
                joined = (
                    await http.post(f"/api/tables/{table['table']}/join", json={"name": name})
                ).json()
                tokens.append((table["table"], joined["token"]))
        for _ in range(args.bot_tables):
            await http.post(
                "/api/tables",
                json={
                    "options": {"players": 4, "target": 10000},
                    "seats": [{"kind": "medium"}] * 4,
                },
            )
        before = (await http.get("/metrics")).text
    samples: list[Sample] = []
    ws_base = base.replace("http", "ws")
    until = time.time() + args.seconds
    started = time.perf_counter()
    # the load generator is Python too: its own collector's pauses would count as the
    # server's latency, so it keeps its objects frozen as the server does
    freezer = asyncio.create_task(keep_frozen())
    await crowd(
        [(f"{ws_base}/ws/tables/{table}", token) for table, token in tokens], args, until, samples
    )
    freezer.cancel()
    elapsed = time.perf_counter() - started
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        after = (await http.get("/metrics")).text
    people = metric(after, 'foxtrot_actions_total{source="person"}') - metric(
        before, 'foxtrot_actions_total{source="person"}'
    )
    computers = metric(after, 'foxtrot_actions_total{source="computer"}') - metric(
        before, 'foxtrot_actions_total{source="computer"}'
    )
    latencies = sorted(latency for _, latency in samples)
    commits = metric(after, "foxtrot_commit_tables_count")
    return {
        "commit_p50_ms_at_most": quantile(after, "", 0.5, "foxtrot_commit_seconds"),
        "commit_p99_ms_at_most": quantile(after, "", 0.99, "foxtrot_commit_seconds"),
        "tables_per_commit": metric(after, "foxtrot_commit_tables_sum") / commits
        if commits
        else None,
        "server_side_p50_ms_at_most": quantile(after, 'source="person"', 0.5),
        "server_side_p99_ms_at_most": quantile(after, 'source="person"', 0.99),
        "round_trips": len(latencies),
        "p50_ms": 1000 * statistics.median(latencies) if latencies else None,
        "p95_ms": 1000 * rank(latencies, 0.95) if latencies else None,
        "p99_ms": 1000 * rank(latencies, 0.99) if latencies else None,
        "max_ms": 1000 * latencies[-1] if latencies else None,
        "people_actions_per_s": people / elapsed,
        "computer_actions_per_s": computers / elapsed,
        "seconds": elapsed,
        "series": windows(samples, started),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=200, help="two-person tables (default 200)")
    parser.add_argument("--bot-tables", type=int, default=50, help="four-computer tables (50)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to play (60)")
    parser.add_argument("--think", type=float, default=0.5, help="a person's delay (0.5 s)")
    parser.add_argument(
        "--jitter",
        type=float,
        default=0.5,
        help="each delay is think x (1 +- jitter), drawn uniformly (0.5: 0.25-0.75 s);"
        " 0 makes every person's clock tick together",
    )
    parser.add_argument("--seed", type=int, default=2026, help="seed of the delays (2026)")
    args = parser.parse_args()
    load_before = os.getloadavg()
    home = Path(tempfile.mkdtemp(prefix="foxtrot-bench-"))
    port = free_port()
    proc, boot = start_server(home, port)
    print(f"server up in {boot:.2f} s; data folder {home}", flush=True)
    cpu0, wall0 = cpu_seconds(proc.pid), time.perf_counter()
    result = asyncio.run(load(f"http://127.0.0.1:{port}", args))
    wall = time.perf_counter() - wall0
    cpu = 100 * (cpu_seconds(proc.pid) - cpu0) / wall
    own = resource.getrusage(resource.RUSAGE_SELF)
    result["load_generator_cpu_percent"] = 100 * (own.ru_utime + own.ru_stime) / wall
    result |= {"server_cpu_percent_of_one_core": cpu, "server_rss_mib": rss_mib(proc.pid)}
    result["load_average_before"] = " ".join(f"{x:.2f}" for x in load_before)
    result["load_average_after"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    active = len(httpx.get(f"http://127.0.0.1:{port}/api/tables").json()["tables"])
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc, recovery = start_server(home, port)
    tables = metric(httpx.get(f"http://127.0.0.1:{port}/metrics").text, "foxtrot_open_tables")
    result |= {"recovered_tables": tables, "recovery_seconds": recovery, "open_listed": active}
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    series = result.pop("series")
    print("round trips per 10 s (ms):")
    for line in series:
        print(f"  {line}")
    for key, value in result.items():
        print(f"{key:32} {value:.2f}" if isinstance(value, float) else f"{key:32} {value}")


if __name__ == "__main__":
    main()
