"""Screen playout policies of hard's search on strength_edge's decks.

Run: ``nice -n 15 python benchmarks/strength_playout.py --players 4 --decks 10 --variant
peek=1 --variant calm=1 --json out.json`` (``--oracle-from`` saved ``strength_edge.py`` files:
the oracle's margins of those decks are read, not played again).

Every variant is hard (1,500 samples, no time limit) with ``fast.Weights`` switches for its
playouts (``peek``: the searcher's own moves, 2: every seat's, read the sampled world's next
hand; ``calm``: the other seats' moves without jitter), the searcher's seat filled in per
decision.  The variants play the decks of ``strength_edge.py`` (same keys, seats and
generators), so that ``strength_edge.py --load`` pairs them with the saved hard and oracle.
Both twins of the policy have the switches; the screen runs on the compiled kernel for speed.

``--plain N`` is the sanity check of the peeking policy as a player: one move deep, it values
its moves by the true next hand (a measuring device that reads a hidden hand, like the
oracle) against greedy, on ``N`` decks of its own (``peekcheck:PLAYERS:DECK``), seats as in
``strength_edge.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from foxtrot import Action, State, fast
from foxtrot.bots import ExpertBot, OracleBot, decide_oracle
from foxtrot.bots.rollout import move_values
from foxtrot.core import ACTIONS
from foxtrot.core.kernel import RANKS, foxtrot_card
from strength_edge import Task, deck_margin, deck_row, honest, log_deck, mean_interval


def peeking(state: State, rng: random.Random) -> Action:
    """The ``peek`` policy as a player, on the true state: ``move_values`` with the next
    hand as the whole pool, the best value, ties to the lowest code as greedy breaks them."""
    hands, mover = state.hand_ids, state.turn
    following = hands[(mover + 1) % len(hands)]
    hand, pile = hands[mover], state.pile_ids
    if state.options.forced_foxtrot and foxtrot_card(hand, pile) >= 0:
        return ACTIONS[foxtrot_card(hand, pile)]
    counts = [0] * RANKS
    for card in following:
        counts[card >> 2] += 1
    values = move_values(hand, pile, not state.take_match, counts, len(following))
    legal = {action.code for action in state.legal_actions()}
    return ACTIONS[max((c for c in values if c in legal), key=lambda c: (values[c], -c))]


def parse(text: str) -> dict[str, float]:
    """``peek=1,calm=1`` -> switches (``hard``: none)."""
    if text == "hard":
        return {}
    found: dict[str, float] = {}
    for item in text.split(","):
        key, _, value = item.partition("=")
        if key not in {"peek", "calm"}:
            raise SystemExit(f"--variant {text!r}: {key!r} is not a switch")
        found[key] = float(value)
    return found


def play(job: tuple[Task, list[str], float | None]) -> tuple[float, list[float], list[list[float]]]:
    """The oracle's margin (played unless known) and every variant's, with decision times."""
    task, labels, known = job
    if known is None:
        oracle = OracleBot(iterations=task.oracle, seconds=None)
        known = deck_margin(
            task.players, task.take, task.key, lambda s, r: decide_oracle(oracle, s, r), None
        )
    margins, times = [], []
    for label in labels:
        switches = parse(label)
        bot = ExpertBot(
            seconds=None, peek=int(switches.get("peek", 0)), calm=bool(switches.get("calm", 0))
        )
        spent: list[float] = []
        margins.append(deck_margin(task.players, task.take, task.key, honest(bot), spent))
        times.append(spent)
    return known, margins, times


def main(argv: Sequence[str] | None = None) -> None:
    """Play the variants deck by deck; write ``strength_edge.py``'s JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--take", default="match")
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seed", type=int, default=27000)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--oracle-from", type=Path, nargs="+", action="extend", default=[])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write every deck's margins here")
    parser.add_argument("--plain", type=int, default=0, help="decks of the plain-player check")
    args = parser.parse_args(argv)
    if args.plain:
        found = [
            deck_margin(args.players, args.take, f"peekcheck:{args.players}:{deck}", peeking)
            for deck in range(args.plain)
        ]
        mean, half = mean_interval(found)
        print(f"{args.players} players: peek as a player vs greedy {mean:+.2f} ± {half:.2f}")
        return
    if not args.variant or args.json is None:
        raise SystemExit("--variant (one or more) and --json are needed, or --plain")
    for label in args.variant:
        parse(label)
    if not fast.warm_up():
        raise SystemExit("the compiled kernel is not available")
    saved = {
        deck["key"]: deck["oracle"]
        for path in args.oracle_from
        for deck in json.loads(path.read_text(encoding="utf-8"))["decks"]
    }
    tasks = [
        Task(args.players, args.take, deck, args.seed, 1500, [])
        for deck in range(args.first, args.first + args.decks)
    ]
    jobs = [(task, args.variant, saved.get(task.key)) for task in tasks]
    decks: list[dict[str, Any]] = []
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for task, (edge, margins, times) in zip(tasks, pool.map(play, jobs), strict=True):
            decks.append(deck_row(task, edge, args.variant, margins, times))
            args.json.write_text(json.dumps({"seed": args.seed, "decks": decks}))
            log_deck(task, edge, margins, start)


if __name__ == "__main__":
    main()
