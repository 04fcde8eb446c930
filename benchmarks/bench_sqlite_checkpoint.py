"""What SQLite's WAL checkpoints cost the server's group commits, and why they stay automatic.

Run: ``python benchmarks/bench_sqlite_checkpoint.py [--seconds 20 --rounds 2]``

The server commits the log in one SQLite file in WAL mode with ``synchronous=NORMAL``
(web/store/event_log.py): about 150 group commits a second of ~4 events of ~400 bytes at
``bench_server.py``'s load.  SQLite checkpoints the WAL into the database file inside the
commit that takes the WAL past 1,000 pages, so now and then one commit also writes and syncs
the database file.  This script writes that load to a fresh file in three ways, alternating
within one run (the machine's speed drifts), and prints each commit's latency quantiles and
the WAL's size in frames at the end:

- ``auto``: SQLite's automatic checkpoint (what the server does);
- ``side``: no automatic checkpoint; a second connection in another thread checkpoints
  (PASSIVE) every 0.2 s, so commits never wait for one;
- ``both``: the automatic checkpoint kept, and the second connection's PASSIVE ones too (the
  automatic one then finds most pages already copied).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import threading
import time

PAYLOAD = "x" * 400


def run(mode: str, seconds: float) -> str:
    """Commit the load for ``seconds`` in one ``mode``; one line of figures."""
    path = os.path.join(tempfile.mkdtemp(prefix="foxtrot-wal-"), "log.db")
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL").fetchall()
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("CREATE TABLE events(tbl TEXT, seq INT, data TEXT, PRIMARY KEY (tbl, seq))")
    if mode == "side":
        conn.execute("PRAGMA wal_autocheckpoint=0").fetchall()
    done = threading.Event()
    frames = [0]

    def checkpointer() -> None:
        side = sqlite3.connect(path, isolation_level=None)
        while not done.wait(0.2):
            frames[0] = side.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()[0][1]
        side.close()

    thread = threading.Thread(target=checkpointer, daemon=True)
    if mode != "auto":
        thread.start()
    latencies: list[float] = []
    seqs: dict[str, int] = {}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        conn.execute("BEGIN")
        for event in range(4):  # four events of four of the 250 tables
            table = f"t{(4 * len(latencies) + event) % 250}"
            seqs[table] = seqs.get(table, 0) + 1
            conn.execute("INSERT INTO events VALUES (?, ?, ?)", (table, seqs[table], PAYLOAD))
        conn.execute("COMMIT")
        latencies.append(time.perf_counter() - start)
        time.sleep(0.006)  # ~150 commits a second
    done.set()
    if mode != "auto":
        thread.join()
    else:
        frames[0] = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()[0][1]
    conn.close()
    latencies.sort()
    count = len(latencies)

    def ms(q: float) -> str:
        return f"{1000 * latencies[min(count - 1, int(q * count))]:6.2f}"

    return (
        f"{mode:5} commits={count:5} p50={ms(0.5)} p99={ms(0.99)} p99.9={ms(0.999)}"
        f" max={1000 * latencies[-1]:6.1f} ms  WAL frames at the end={frames[0]}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="per mode and round (20)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the three modes (2)")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for _ in range(args.rounds):
        for mode in ("auto", "side", "both"):
            print(run(mode, args.seconds), flush=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
