"""Exact endgames: how often the solver applies, how long a solve takes, what it gains.

Run: ``nice -n 10 python benchmarks/bench_endgame.py --decks 150 --jobs 2``.

Gain, at 2 players (``--take``, default ``match``, the rule's default): hard with the endgame
solver against hard without it (``ExpertBot(endgame=False)``), duplicate: every deck is played
with the solver on seat 0 and then on seat 1, the other seat's hard without it.  The two
hards play alike until the solver first applies (a decision of either seat once the stock can
no longer be dealt, ``endgame.solve_observation``), and each seat's bot has its own random
numbers keyed by the deck and the seat, so the deal up to there is the same in both seatings
and in a game of two solver-less hards: it is played once per deck (with ``--prefix``
samples a move, fewer than hard's to save time; the endgame itself is played by hards of
``--iterations`` samples), then both seatings play on from that position.  Per deck the
figure is the solver's seat's deal margin (its score minus the other's) averaged over the
two seatings: 0 when the solver changes nothing.  Its mean and 95% interval (normal) are the
points a deal the solver gains, paired by construction.  No time limit (repeatable).

Decks: generator keys ``endgame:SEED:players:take:deck`` with ``--seed 31000``: a namespace
no tuning run has used.

Applies: the share of hard's decisions in a deal where the solver took the decision, and
where it was exact (the hidden cards determined), at 2 players from these games; at 3 and 4
players (``--others``, greedy play, since the solver is two-player only) how often a decision
is determined at all.  Solve times: CPU seconds (``time.process_time``) of each solve, median,
p95 and max, with the load average beside them.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from foxtrot import Phase, State, TableOptions, TakeRule
from foxtrot.bots import ExpertBot, GreedyBot, decide
from foxtrot.bots.endgame import determined, solve_observation
from strength_deals import interval


def key(seed: int, players: int, take: str, deck: int) -> str:
    """A deck's generator key: fresh (module docstring)."""
    return f"endgame:{seed}:{players}:{take}:{deck}"


def margin(state: State, seat: int) -> float:
    """The deal just played: the seat's score minus the other's."""
    log = state.deal_logs()[-1]
    assert log.scores is not None
    return float(log.scores[seat].total - log.scores[1 - seat].total)


def play_deck(task: tuple[int, str, int, int, int]) -> dict[str, Any]:
    """One deck: the shared deal up to the endgame, then each seating of the solver."""
    seed, take, deck, iterations, prefix = task
    options = TableOptions(players=2, take=TakeRule(take))
    state = State(options, dealer=deck % 2)
    state.deal(random.Random(key(seed, 2, take, deck)))
    rngs = [random.Random(f"{key(seed, 2, take, deck)}:bot:{s}") for s in range(2)]
    early = ExpertBot(prefix, None, endgame=False)
    decisions = 0
    while state.phase is Phase.PLAYING:
        seat = state.to_move
        assert seat is not None
        obs = state.observation(seat)
        if len(obs.legal_actions) > 1 and solve_observation(obs) is not None:
            break
        decisions += len(obs.legal_actions) > 1
        state.apply_unchecked(decide(early, state, rngs[seat]))
    gains, solves, applied, exact, late = [], [], 0, 0, 0
    for solver_seat in (0, 1):
        game = state.clone()
        bots = [ExpertBot(iterations, None, endgame=s == solver_seat) for s in range(2)]
        streams = [random.Random(f"{key(seed, 2, take, deck)}:end:{s}") for s in range(2)]
        while game.phase is Phase.PLAYING:
            seat = game.to_move
            assert seat is not None
            obs = game.observation(seat)
            if seat == solver_seat and len(obs.legal_actions) > 1:
                late += 1
                start = time.process_time()
                found = solve_observation(obs)
                if found is not None:
                    solves.append(time.process_time() - start)
                    applied += 1
                    exact += found.exact
            game.apply_unchecked(decide(bots[seat], game, streams[seat]))
        gains.append(margin(game, solver_seat))
    return {
        "gain": statistics.fmean(gains),
        "solves": solves,
        # decisions of one seat in the deal: half the shared ones, its own after
        "decisions": decisions / 2 + late / 2,
        "applied": applied / 2,
        "exact": exact / 2,
    }


def determined_share(players: int, take: str, seed: int, decks: int) -> tuple[int, int, int]:
    """Greedy deals at ``players``: decisions, decisions after the stock's last redeal, and
    decisions whose hidden cards were determined."""
    total = late = fixed = 0
    greedy = GreedyBot()
    for deck in range(decks):
        state = State(TableOptions(players=players, take=TakeRule(take)), dealer=deck % players)
        state.deal(random.Random(key(seed, players, take, deck)))
        rng = random.Random(deck)
        while state.phase is Phase.PLAYING:
            seat = state.to_move
            assert seat is not None
            obs = state.observation(seat)
            if len(obs.legal_actions) > 1:
                total += 1
                late += obs.stock < players
                fixed += determined(obs)
            state.apply_unchecked(decide(greedy, state, rng))
    return total, late, fixed


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decks", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="the first deck's number")
    parser.add_argument("--seed", type=int, default=31000, help="the decks' seed (fresh: 31000)")
    parser.add_argument("--take", choices=[rule.value for rule in TakeRule], default="match")
    parser.add_argument("--iterations", type=int, default=1500, help="hard's samples a move")
    parser.add_argument("--prefix", type=int, default=300, help="samples before the endgame")
    parser.add_argument("--others", type=int, default=40, help="greedy decks at 3 and 4 players")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(
        f"{started}; load {os.getloadavg()[0]:.2f}; decks {args.first}-"
        f"{args.first + args.decks - 1} of seed {args.seed}, take = {args.take}",
        flush=True,
    )
    tasks = [
        (args.seed, args.take, deck, args.iterations, args.prefix)
        for deck in range(args.first, args.first + args.decks)
    ]
    results: list[dict[str, Any]] = []
    loads: list[float] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, result in enumerate(pool.map(play_deck, tasks), 1):
            results.append(result)
            loads.append(os.getloadavg()[0])
            if done % 10 == 0 or done == len(tasks):
                mean, half = interval([r["gain"] for r in results])
                print(f"  {done} decks: {mean:+.2f} ± {half:.2f} points a deal", flush=True)
    solves = [t for r in results for t in r["solves"]]
    decisions = sum(r["decisions"] for r in results)
    applied = sum(r["applied"] for r in results)
    exact = sum(r["exact"] for r in results)
    mean, half = interval([r["gain"] for r in results])
    changed = sum(r["gain"] != 0 for r in results)
    print(
        f"2 players, take = {args.take}: a seat's decisions a deal {decisions / len(results):.1f};"
        f" solved {applied / len(results):.2f} a deal ({100 * applied / decisions:.1f}%),"
        f" exact {exact / len(results):.2f} ({100 * exact / decisions:.2f}%)"
    )
    print(
        f"solve CPU time: median {1000 * statistics.median(solves):.2f} ms, p95 "
        f"{1000 * percentile(solves, 0.95):.2f} ms, max {1000 * max(solves):.2f} ms over "
        f"{len(solves)} solves; load average {min(loads):.2f}-{max(loads):.2f}"
    )
    print(
        f"gain (solver seat's margin, mean of both seatings): {mean:+.2f} ± {half:.2f} points"
        f" a deal (95%, {len(results)} decks; decks where it changed the result: {changed})"
    )
    for players in (3, 4):
        total, late, fixed = determined_share(players, args.take, args.seed, args.others)
        print(
            f"{players} players (greedy, {args.others} decks): {late / total:.1%} of decisions"
            f" after the last redeal, {fixed / total:.2%} determined (the solver: 2 players only)"
        )
    print(
        f"ended {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
