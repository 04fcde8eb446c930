"""Soak test of ``foxtrot serve``: ``bench_server``'s load for many minutes, watching the server.

Run: ``python benchmarks/soak_server.py`` (``--minutes 30`` by default; ``--pairs``,
``--bot-tables``, ``--think`` as in ``bench_server.py``). Every ``--every`` seconds (60) it
samples the server's resident memory, its open file descriptors and its threads; at the end
it stops the server (SIGTERM), starts it again on the same database, and checks that every
table that was playing came back (the boot replays each table's whole event log through the
engine: a log that does not replay is an error in the server's log), and counts the errors
and tracebacks in the server's log. Prints the samples, then one line per figure: the round
trips (p50/p99/max, and per window), memory and descriptors at the first sample after the
warm-up and at the end, their growth per 10 minutes, the tables, the errors.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import tempfile
import threading
import time
from pathlib import Path

import httpx

from bench_server import free_port, load, metric, rss_mib, start_server

WARM_UP = 120.0  # seconds of load before the memory baseline: caches and pools fill first


def sample(pid: int) -> tuple[float, int, int]:
    """The server's resident memory (MiB), open descriptors and threads now."""
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    threads = len(os.listdir(f"/proc/{pid}/task"))
    return rss_mib(pid), fds, threads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="how long (30)")
    parser.add_argument("--pairs", type=int, default=200, help="two-person tables (200)")
    parser.add_argument("--bot-tables", type=int, default=50, help="four-computer tables (50)")
    parser.add_argument("--think", type=float, default=0.5, help="a person's delay (0.5 s)")
    parser.add_argument("--jitter", type=float, default=0.5, help="think x (1 +- jitter) (0.5)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the delays (2026)")
    parser.add_argument("--every", type=float, default=60.0, help="seconds between samples")
    args = parser.parse_args()
    args.seconds = args.minutes * 60
    home = Path(tempfile.mkdtemp(prefix="foxtrot-soak-"))
    port = free_port()
    proc, _ = start_server(home, port)
    samples: list[tuple[float, float, int, int]] = []
    done = threading.Event()
    start = time.monotonic()

    def watch() -> None:
        while not done.wait(args.every):
            samples.append((time.monotonic() - start, *sample(proc.pid)))
            t, rss, fds, threads = samples[-1]
            print(
                f"  {t:7.0f} s  rss {rss:7.1f} MiB  fds {fds:5d}  threads {threads:3d}", flush=True
            )

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    result = asyncio.run(load(f"http://127.0.0.1:{port}", args))
    done.set()
    watcher.join()
    base = f"http://127.0.0.1:{port}"
    before = metric(httpx.get(f"{base}/metrics").text, "foxtrot_open_tables")
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    proc, _ = start_server(home, port)
    after = metric(httpx.get(f"{base}/metrics").text, "foxtrot_open_tables")
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    log = (home / "server.log").read_text(errors="replace")
    errors = sum(1 for line in log.splitlines() if '"ERROR"' in line or "Traceback" in line)
    warm = [s for s in samples if s[0] >= WARM_UP] or samples
    first, last = warm[0], warm[-1]
    per_10_min = 600 / max(last[0] - first[0], 1.0)
    # a table keeps its last events (up to twice CATCHUP_LIMIT) and its match's deals: both
    # fill for the first minutes, so the second half says whether memory has levelled off
    half = next(s for s in warm if s[0] >= (first[0] + last[0]) / 2)
    per_10_min_half = 600 / max(last[0] - half[0], 1.0)
    series = result.pop("series")
    print("round trips per 10 s (ms):")
    for line in series[:: max(1, len(series) // 20)]:
        print(f"  {line}")
    figures = {
        "minutes": args.minutes,
        "round_trips": result["round_trips"],
        "p50_ms": result["p50_ms"],
        "p99_ms": result["p99_ms"],
        "max_ms": result["max_ms"],
        "rss_mib_after_warm_up": first[1],
        "rss_mib_at_end": last[1],
        "rss_mib_growth_per_10_min": (last[1] - first[1]) * per_10_min,
        "rss_mib_growth_per_10_min_second_half": (last[1] - half[1]) * per_10_min_half,
        "fds_after_warm_up": first[2],
        "fds_at_end": last[2],
        "threads_at_end": last[3],
        "open_tables_before_stop": before,
        "open_tables_after_restart": after,
        "errors_in_server_log": errors,
        "load_average_at_end": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }
    for key, value in figures.items():
        print(f"{key:28} {value:.2f}" if isinstance(value, float) else f"{key:28} {value}")


if __name__ == "__main__":
    main()
