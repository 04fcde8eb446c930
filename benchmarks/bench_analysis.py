"""What one frame of the analysis board costs: the position, the line and the coach's values.

Plays random matches of 2 and 4 players (seeded), then computes frames of the analysis board
exactly as the server's worker does (``web.http.analysis.frame_json``: the record replayed,
the line applied, every legal move valued with ``SAMPLES`` samples) at positions spread over
each first deal, each with a line of two tried moves.  The compiled kernel is warmed first
(the server's worker pays that once, at its first frame).

Prints the median and the worst seconds per frame for each table size and the machine's load
average (figures from a loaded machine differ; compare only within one run).

Usage: ``python benchmarks/bench_analysis.py [--frames 30]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from foxtrot import fast
from foxtrot.core import Phase, SplitMix64, State, TableOptions, to_record
from foxtrot.web.http.analysis import SAMPLES, Ask, frame_json


def played(players: int, seed: int) -> dict[str, object]:
    """A whole match of random legal moves, as a record."""
    rng = SplitMix64(seed)
    state = State(TableOptions(players=players, target=1), dealer=0)
    while state.phase is not Phase.OVER:
        if state.phase is Phase.AWAITING_DEAL:
            state.deal(rng)
            continue
        seat = state.to_move
        assert seat is not None
        state.apply(rng.choice(state.observation(seat).legal_actions))
    return to_record(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=30, help="frames per table size")
    args = parser.parse_args()
    fast.warm_up()
    for players in (2, 4):
        record = played(players, 7 + players)
        first = record["deals"][0]  # type: ignore[index]
        moves = len(first["actions"])
        times = []
        for i in range(args.frames):
            move = 1 + (i * (moves - 2)) // args.frames
            start = frame_json(Ask(record, (1, move), None, (), False, True, "en"))
            line = tuple(m["action"] for m in start["moves"][:1])
            if start["moves"]:
                nxt = frame_json(Ask(record, (1, move), None, line, True, True, "en"))
                line += tuple(m["action"] for m in nxt["moves"][-1:])
            began = time.perf_counter()
            frame_json(Ask(record, (1, move), None, line, True, True, "en"))
            times.append(time.perf_counter() - began)
        print(
            f"{players} players, {SAMPLES} samples: {len(times)} frames,"
            f" median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms"
        )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
