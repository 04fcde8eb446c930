"""Many server processes: the game-server load on one process and on three, fail-over.

Starts its own PostgreSQL (Debian's ``postgresql``, as the tests do) and
``redis-server`` in temporary folders on loopback ports, then:

1. the load of ``bench_server.py`` (``--pairs`` two-person tables, each person
   moving ``--think`` s after his turn, plus ``--bot-tables`` tables of four
   medium computers) against ONE ``foxtrot serve --db postgresql://... --bus
   redis://...`` and then against THREE of them (tables created, joined and
   connected round-robin, so most actions are forwarded to another process):
   round trip p50/p99/max, actions per second, the servers' CPU (sum, percent
   of one core);
2. fail-over: ``--kills`` times, ``kill -9`` of the process owning a table of
   computers, a new process started in its place, and the time from the kill
   to the table's next accepted action in the log: p50, p99, max.  This
   includes the computer's ``--bot-delay``.

Besides the round trips it reports, from the servers' ``/metrics`` summed over the
processes: the forwarding time, the owner's part of it, the wait for the follower's
read, the event loop's lag, resends, and the followers' batched reads (how many a
second, how many tables each): where the time goes.

Usage: ``python benchmarks/bench_cluster.py [--pairs 200 --bot-tables 50 --seconds 60
--kills 20 --sizes 1,3]``; ``--src OTHER/src --src .`` runs each size with each version
of the server in turn, in the same run (on a shared machine compare only runs made
together); ``--kills 0`` skips the fail-over part.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).parent))
from bench_server import NO_COMPUTER_LIMIT, Sample, cpu_seconds, crowd, free_port, metric


def as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def start_postgres(folder: Path) -> tuple[str, Path, Path]:
    """A fresh PostgreSQL server; its admin URL, bin folder and data folder."""
    bindir = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))[-1]).parent
    folder.chmod(0o755)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data, port = folder / "data", free_port()
    init = [str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "foxtrot"]
    subprocess.run(as_postgres(init), check=True, capture_output=True)
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
    start = [str(bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log")]
    subprocess.run(as_postgres([*start, "-w", "start"]), check=True, capture_output=True)
    return f"postgresql+psycopg://foxtrot@127.0.0.1:{port}/postgres", bindir, data


def new_database(admin: str, name: str) -> str:
    engine = sa.create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as db:
        db.execute(sa.text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return admin.rsplit("/", 1)[0] + f"/{name}"


def start_redis(folder: Path) -> tuple[str, subprocess.Popen[bytes]]:
    port = free_port()
    proc = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(folder),
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
    )
    time.sleep(0.5)
    return f"redis://127.0.0.1:{port}/0", proc


class Node:
    """One ``foxtrot serve --bus`` process."""

    def __init__(self, db: str, bus: str, home: Path, src: str | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "foxtrot", "serve", "--port", str(self.port)]
        command += NO_COMPUTER_LIMIT
        env = os.environ | {"FOXTROT_HOME": str(home)}
        if src is not None:  # another version of the server (a checkout's src folder)
            env["PYTHONPATH"] = src
        self.proc = subprocess.Popen(
            [*command, "--db", db, "--bus", bus, "--lease-seconds", "3"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(home / f"server-{self.port}.log", "ab"),  # noqa: SIM115
        )

    def ready(self) -> None:
        while True:
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None:
                raise SystemExit(f"a server exited; see its log in {self.base}")
            time.sleep(0.05)

    def owned(self) -> list[str]:
        return list(httpx.get(f"{self.base}/api/cluster", timeout=5).json()["owned"])


async def load(bases: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """The server benchmark's load spread over ``bases``: create, join and connect round-robin."""
    n = len(bases)
    clients = [httpx.AsyncClient(base_url=base, timeout=60) for base in bases]
    people: list[tuple[str, str, str]] = []  # (ws base, table, token)
    for i in range(args.pairs):
        pair: dict[str, Any] = {"options": {"target": 10000}}
        table = (await clients[i % n].post("/api/tables", json=pair)).json()["table"]
        for seat, name in enumerate(("A", "B")):
            at = (i + 1 + seat) % n
            joined = await clients[at].post(f"/api/tables/{table}/join", json={"name": name})
            people.append((bases[at].replace("http", "ws"), table, joined.json()["token"]))
    for i in range(args.bot_tables):
        bots: dict[str, Any] = {
            "options": {"players": 4, "target": 10000},
            "seats": [{"kind": "medium"}] * 4,
        }
        await clients[i % n].post("/api/tables", json=bots)
    before = [(await c.get("/metrics")).text for c in clients]
    samples: list[Sample] = []
    until = time.time() + args.seconds
    started = time.perf_counter()
    await crowd(
        [(f"{ws}/ws/tables/{table}", token) for ws, table, token in people], args, until, samples
    )
    elapsed = time.perf_counter() - started
    after = [(await c.get("/metrics")).text for c in clients]
    for c in clients:
        await c.aclose()

    def total(name: str) -> float:
        return sum(metric(a, name) - metric(b, name) for a, b in zip(after, before, strict=True))

    def quantile_ms(name: str, label: str, q: float) -> float | None:
        """A quantile of a histogram summed over the processes (its bucket's bound, ms)."""
        counts: dict[float, float] = {}
        for text, sign in [(t, 1) for t in after] + [(t, -1) for t in before]:
            for line in text.splitlines():
                if line.startswith(f"{name}_bucket") and label in line:
                    bound = float(line.split('le="', 1)[1].split('"', 1)[0])
                    counts[bound] = counts.get(bound, 0.0) + sign * float(line.rsplit(" ", 1)[1])
        bounds = sorted(counts)
        if not bounds or not counts[bounds[-1]]:
            return None
        return 1000 * next(b for b in bounds if counts[b] >= q * counts[bounds[-1]])

    reads = total("foxtrot_follow_read_seconds_count")
    latencies = sorted(latency for _, latency in samples)
    extra = {
        "owner_side_p99_ms_at_most": quantile_ms("foxtrot_action_seconds", "person", 0.99),
        "forward_p50_ms_at_most": quantile_ms("foxtrot_forward_seconds", "act", 0.5),
        "forward_p99_ms_at_most": quantile_ms("foxtrot_forward_seconds", "act", 0.99),
        "owner_answer_p50_ms_at_most": quantile_ms("foxtrot_forwarded_answer_seconds", "", 0.5),
        "ack_waits_for_read_p50_ms_at_most": quantile_ms("foxtrot_follow_wait_seconds", "", 0.5),
        "event_loop_lag_p99_ms_at_most": quantile_ms("foxtrot_event_loop_lag_seconds", "", 0.99),
        "forward_retries": total("foxtrot_forward_retries_total"),
        "follower_reads_per_s": reads / elapsed,
        "tables_per_follower_read": total("foxtrot_follow_read_tables_sum") / reads
        if reads
        else None,
        "follower_read_p99_ms_at_most": quantile_ms("foxtrot_follow_read_seconds", "", 0.99),
    }
    return extra | {
        "round_trips": len(latencies),
        "p50_ms": 1000 * statistics.median(latencies) if latencies else None,
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else None,
        "max_ms": 1000 * latencies[-1] if latencies else None,
        "people_actions_per_s": total('foxtrot_actions_total{source="person"}') / elapsed,
        "computer_actions_per_s": total('foxtrot_actions_total{source="computer"}') / elapsed,
    }


def run_load(  # noqa: PLR0917 (one call site)
    db: str, bus: str, home: Path, size: int, args: argparse.Namespace, src: str | None = None
) -> dict[str, Any]:
    nodes = [Node(db, bus, home, src) for _ in range(size)]
    for node in nodes:
        node.ready()
    cpu0 = [cpu_seconds(node.proc.pid) for node in nodes]
    wall0, own0 = time.perf_counter(), time.process_time()
    result = asyncio.run(load([node.base for node in nodes], args))
    wall, own = time.perf_counter() - wall0, time.process_time() - own0
    used = sum(cpu_seconds(n.proc.pid) - c for n, c in zip(nodes, cpu0, strict=True))
    result["servers_cpu_percent_of_one_core"] = 100 * used / wall
    result["load_generator_cpu_percent"] = 100 * own / wall
    result["load_average_1min"] = os.getloadavg()[0]
    for node in nodes:
        node.proc.send_signal(signal.SIGTERM)
    for node in nodes:
        node.proc.wait(timeout=60)
    return result


def failover(db: str, bus: str, home: Path, args: argparse.Namespace) -> dict[str, Any]:
    """``--kills`` times: kill -9 a table's owner; seconds to the table's next logged action."""
    nodes = [Node(db, bus, home) for _ in range(3)]
    for node in nodes:
        node.ready()
    tables = []
    for i in range(6):
        body = {
            "options": {"players": 4, "target": 100000},
            "seats": [{"kind": "medium"}] * 4,
            "bot_delay": args.bot_delay,
            "seed_seconds": 0,
        }
        answer = httpx.post(f"{nodes[i % 3].base}/api/tables", json=body, timeout=30)
        tables.append(answer.json()["table"])
    engine = sa.create_engine(db)

    def seq(table: str) -> int:
        with engine.connect() as c:
            query = sa.text("SELECT max(seq) FROM events WHERE table_id = :t")
            return int(c.execute(query, {"t": table}).scalar() or 0)

    times: list[float] = []
    for kill in range(args.kills):
        table = tables[kill % len(tables)]
        time.sleep(0.5)
        victim = next(node for node in nodes if table in node.owned())
        victim.proc.send_signal(signal.SIGKILL)
        killed = time.perf_counter()
        victim.proc.wait()
        before = seq(table)  # what the dead owner committed, to its last event
        fresh = Node(db, bus, home)
        nodes[nodes.index(victim)] = fresh
        while seq(table) <= before:
            time.sleep(0.01)
        times.append(time.perf_counter() - killed)
        fresh.ready()
        print(f"kill {kill + 1}: {times[-1]:.2f} s", flush=True)
    for node in nodes:
        node.proc.send_signal(signal.SIGTERM)
    for node in nodes:
        node.proc.wait(timeout=60)
    times.sort()
    return {
        "failover_p50_s": statistics.median(times),
        "failover_p99_s": times[int(0.99 * (len(times) - 1))],
        "failover_max_s": times[-1],
        "kills": len(times),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=200, help="two-person tables (200)")
    parser.add_argument("--bot-tables", type=int, default=50, help="four-computer tables (50)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long each load runs")
    parser.add_argument("--think", type=float, default=0.5, help="a person's delay (0.5 s)")
    parser.add_argument("--jitter", type=float, default=0.5, help="think x (1 +- jitter) (0.5)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the delays (2026)")
    parser.add_argument("--kills", type=int, default=20, help="fail-overs to time (20)")
    parser.add_argument("--bot-delay", type=float, default=0.05, help="computers' pause (s)")
    parser.add_argument("--skip-load", action="store_true", help="only the fail-over part")
    parser.add_argument(
        "--sizes",
        type=lambda text: [int(part) for part in text.split(",")],
        default=[1, 3],
        help="the cluster sizes to load, in order (1,3); --kills 0 skips the fail-over",
    )
    parser.add_argument(
        "--src",
        action="append",
        type=lambda text: None if text == "." else text,
        help="compare versions in one run: a checkout's src folder, or . for this one"
        " (repeat; each size runs each version in turn)",
    )
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="foxtrot-cluster-"))
    home.chmod(0o755)  # PostgreSQL runs as its own user below it
    (home / "pg").mkdir()
    admin, bindir, data = start_postgres(home / "pg")
    bus, redis = start_redis(home)
    try:
        results: dict[str, dict[str, Any]] = {}
        if not args.skip_load:
            for size in args.sizes:
                for number, src in enumerate(args.src or [None]):
                    db = new_database(admin, f"load{size}_{number}")
                    title = f"{size} process(es)" + (f" [{src or 'this tree'}]" if args.src else "")
                    results[title] = run_load(db, bus, home, size, args, src)
        if args.kills:
            results["fail-over"] = failover(new_database(admin, "failover"), bus, home, args)
        for title, figures in results.items():
            print(f"== {title}")
            for key, value in figures.items():
                print(f"{key:34} {value:.2f}" if isinstance(value, float) else f"{key:34} {value}")
    finally:
        redis.kill()
        stop = [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]
        subprocess.run(as_postgres(stop), capture_output=True, check=False)


if __name__ == "__main__":
    main()
