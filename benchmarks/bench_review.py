"""How soon a deal's review reaches the player: from the deal's end to its review lines.

Starts ``foxtrot serve`` (a fresh SQLite folder, its workers warmed at boot as
``foxtrot serve`` does), creates a table of one person (who never connects, so a
computer plays for him from the first move) against computers, watches it as a
spectator over WebSocket, and the moment each deal ends (the ``action`` event
that reveals the deal's server seed) asks for that deal's review as the person
(``GET /api/tables/{id}/review?deal=N``), as the page does.  The match goes on
meanwhile: the computers' moves share the machine with the review, as they do
for a player.

Prints, for every deal: the seconds from the deal's end (the event received) to
the review's answer, the moves reviewed and the seconds per move; then the first
deal's figure (the one the issue sets at under 5 s), the median and the worst,
and the machine's load average (figures from a loaded machine differ).

Usage: ``python benchmarks/bench_review.py [--players 2 --level medium --deals 4]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(home: Path, port: int) -> subprocess.Popen[bytes]:
    """``foxtrot serve`` on ``port``, once ``/healthz`` answers ok."""
    env = os.environ | {"FOXTROT_HOME": str(home)}
    log = (home / "server.log").open("ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "foxtrot", "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"foxtrot serve exited with {proc.returncode}: see {home}/server.log")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("foxtrot serve did not answer /healthz in 60 s")


async def measure(
    base: str, players: int, level: str, deals: int, lang: str
) -> list[dict[str, Any]]:
    """Play until ``deals`` deals have ended; each deal's review time, as the page asks."""
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        created = await http.post(
            "/api/tables",
            json={
                "options": {"players": players, "target": 10_000},
                "seats": [{"kind": "person"}] + [{"kind": level}] * (players - 1),
                "grace_seconds": 0,
                "seed_seconds": 0,
                "bot_delay": 0,
            },
        )
        created.raise_for_status()
        table = created.json()["table"]
        joined = await http.post(f"/api/tables/{table}/join", json={"name": "Ann", "seat": 0})
        joined.raise_for_status()
        token = joined.json()["token"]
        results: list[dict[str, Any]] = []
        url = base.replace("http://", "ws://") + f"/ws/tables/{table}"
        async with connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "lang": lang}))
            while len(results) < deals:
                message = json.loads(await ws.recv())
                if message.get("type") != "event" or message.get("kind") != "action":
                    continue
                if not message["data"].get("reveal"):
                    continue
                ended = time.perf_counter()
                deal = message["data"]["reveal"]["deal"]
                answer = await http.get(
                    f"/api/tables/{table}/review",
                    params={"deal": deal, "lang": lang},
                    headers={"Authorization": f"Bearer {token}"},
                )
                seconds = time.perf_counter() - ended
                answer.raise_for_status()
                moves = len(answer.json()["moves"])
                results.append({"deal": deal + 1, "seconds": seconds, "moves": moves})
                print(
                    f"deal {deal + 1}: review in {seconds:.2f} s after the deal's end,"
                    f" {moves} moves reviewed ({seconds / max(moves, 1) * 1000:.0f} ms a move)",
                    flush=True,
                )
        await http.post(f"/api/tables/{table}/leave", headers={"Authorization": f"Bearer {token}"})
        return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--lang", default="en")
    parser.add_argument(
        "--settle",
        type=float,
        default=10.0,
        help="seconds between the server's start and the table's (a person's way through"
        " the lobby; the workers warm up meanwhile); 0: the worst case",
    )
    args = parser.parse_args()
    load_before = os.getloadavg()
    home = Path(tempfile.mkdtemp(prefix="foxtrot-bench-review-"))
    port = free_port()
    proc = start_server(home, port)
    time.sleep(args.settle)
    try:
        results = asyncio.run(
            measure(f"http://127.0.0.1:{port}", args.players, args.level, args.deals, args.lang)
        )
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    times = [r["seconds"] for r in results]
    print(
        f"first deal's review: {times[0]:.2f} s; median {statistics.median(times):.2f} s,"
        f" worst {max(times):.2f} s over {len(times)} deals"
        f" ({args.players} players, {args.level} computers, {os.cpu_count()} CPUs,"
        f" table started {args.settle:g} s after the server)"
    )
    print(f"load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
