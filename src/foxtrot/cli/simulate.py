"""``foxtrot simulate``: random legal matches, with statistics and optional records."""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from ..core import Phase, SplitMix64, State, TableOptions
from ..storage import save
from .console import Console


def play_random_match(options: TableOptions, rng: random.Random) -> State:
    """A whole match of uniformly random legal actions; the first dealer by lot (D1)."""
    state = State(options, rng=rng)
    choice = rng.choice
    while not state.is_over:
        state.deal(rng)
        while state.phase is Phase.PLAYING:
            state.apply_unchecked(choice(state.legal_actions()))
    return state


def match_rng(seed: int, index: int) -> random.Random:
    """The generator of match ``index``: matches are reproducible one by one."""
    return SplitMix64(f"foxtrot-simulate:{seed}:{index}")


def summary(values: Sequence[float]) -> dict[str, float]:
    """Mean, standard deviation, minimum and maximum."""
    return {
        "mean": statistics.fmean(values),
        "sd": statistics.pstdev(values),
        "min": min(values),
        "max": max(values),
    }


def run(
    options: TableOptions,
    *,
    matches: int,
    seed: int,
    records: Path | None,
    as_json: bool,
    out: Console,
    err: Console,
) -> int:
    """Play ``matches`` random matches; print statistics; write records into ``records``."""
    scores: list[float] = []
    foxtrots: list[float] = []
    doubles: list[float] = []
    lengths: list[float] = []
    deals_per_match: list[float] = []
    wins = [0] * options.players
    start = time.perf_counter()
    with err.progress(matches, "matches") as advance:
        for index in range(matches):
            state = play_random_match(options, match_rng(seed, index))
            logs = state.deal_logs()
            for log in logs:
                assert log.scores is not None
                scores.extend(line.total for line in log.scores)
                foxtrots.append(sum(line.foxtrots + line.double_foxtrots for line in log.scores))
                doubles.append(sum(line.double_foxtrots for line in log.scores))
                lengths.append(len(log.actions))
            deals_per_match.append(len(logs))
            assert state.winner is not None
            wins[state.winner] += 1
            if records is not None:
                save(state, records / f"match-{index + 1:05d}.json")
            advance()
    elapsed = time.perf_counter() - start
    stats = {
        "options": options.to_json(),
        "matches": matches,
        "seed": seed,
        "deals": len(lengths),
        "actions": int(sum(lengths)),
        "seconds": round(elapsed, 3),
        "deal_score": summary(scores),
        "foxtrots_per_deal": summary(foxtrots),
        "double_foxtrots_per_deal": summary(doubles),
        "deal_length": summary(lengths),
        "deals_per_match": summary(deals_per_match),
        "wins_by_seat": wins,
    }
    if as_json:
        out.json(json.dumps(stats))
    else:
        print_stats(stats, out)
    if records is not None:
        err.print(f"wrote {matches} records into {records}")
    return 0


def print_stats(stats: dict[str, object], out: Console) -> None:
    """The statistics as a table."""
    opts = stats["options"]
    assert isinstance(opts, dict)
    out.print(
        f"{stats['matches']} random matches, {opts['players']} players, take = {opts['take']},"
        f" target {opts['target']}: {stats['deals']} deals, {stats['actions']} actions"
        f" in {stats['seconds']} s"
    )
    rows = []
    for key, label in (
        ("deal_score", "deal score of a player"),
        ("foxtrots_per_deal", "foxtrots (all players)"),
        ("double_foxtrots_per_deal", "double foxtrots"),
        ("deal_length", "deal length (actions)"),
        ("deals_per_match", "deals per match"),
    ):
        row = stats[key]
        assert isinstance(row, dict)
        rows.append([label, *(f"{row[col]:.2f}" for col in ("mean", "sd", "min", "max"))])
    out.table(("per deal", "mean", "sd", "min", "max"), rows, right=(1, 2, 3, 4))
    wins = stats["wins_by_seat"]
    assert isinstance(wins, list)
    out.print("match wins by seat: " + ", ".join(f"{seat}: {n}" for seat, n in enumerate(wins)))
