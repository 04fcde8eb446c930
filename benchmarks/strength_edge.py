"""The share of the all-seeing player's edge that a bot captures, on fresh duplicate decks.

Run: ``nice -n 15 python benchmarks/strength_edge.py --players 2,4,6 --take match --decks 20``
(``--bot hard`` by default; ``--bot`` again for more bots on the same decks, paired).

Per table size and take rule, every deck is dealt once per seat rotation (at 2, 4 and 6
players the bot on every other seat, two rotations; at 3 players two lineups, one bot seat and
then two, three rotations each, so the seats are split evenly) and played three ways on the
same cards, with the same dealer: the bot under test against greedy, the oracle (the same
search on the true state: it sees every card) against greedy, and (implicitly) greedy against
greedy, whose margin is 0 by symmetry.  A deck's margin is the mean over its rotations of the
mean deal score of the player's seats minus greedy's.  The share is ``sum(bot margins) /
sum(oracle margins)``: a ratio estimator over decks.  Its 95% interval treats the deals of one
deck as one unit and uses the delta method (``ratio_interval``: the standard error of
``mean(b - R o) / mean(o)``); a percentile bootstrap over decks (``bootstrap_interval``,
2,000 resamples, fixed seed) is printed next to it as a check.  With a second bot, its share
minus the first's is the same ratio of the per-deck differences, paired on the decks.

The decks are new to the project: they come from ``random.Random("edge:SEED:PLAYERS:TAKE:DECK")``,
a key no tuning script uses (the screens deal ``deal:BASE:N``, the tournaments their own
match generators), with ``--seed`` 27000 by default.  The bots search with their sample budget
and no time limit (``--cap`` adds one, in seconds of wall time), so a run repeats exactly;
the oracle's budget is ``--oracle`` (1,500: 150 samples to the end of the deal, as in
``strength_deals.py``'s ``oracle=1``).  Decision times are CPU times of the worker.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from foxtrot import Phase, State, TableOptions, TakeRule
from foxtrot.bots import BUDGETS, LEVELS, Bot, ExpertBot, OracleBot, decide, decide_oracle, make_bot
from strength_deals import seat_margin

#: z of a two-sided 95% normal interval.
Z95 = 1.959963984540054


def ratio_interval(bot: Sequence[float], oracle: Sequence[float]) -> tuple[float, float, float]:
    """The share ``R = sum(bot) / sum(oracle)`` of paired per-deck margins and its 95% interval
    by the delta method: ``se(R) = sd(bot_i - R oracle_i) / (sqrt(n) |mean(oracle)|)`` (the
    usual ratio-estimator variance, with ``n - 1`` in the standard deviation).

    The per-deck residuals ``bot_i - R oracle_i`` carry the pairing: a deck on which both
    players did well moves both sums together and adds little to the error."""
    n = len(bot)
    if n != len(oracle) or n < 2:
        raise ValueError(f"need two or more paired decks, got {n} and {len(oracle)}")
    mean_oracle = statistics.fmean(oracle)
    if mean_oracle == 0:
        raise ValueError("the oracle's mean margin is 0: no edge to share")
    share = statistics.fmean(bot) / mean_oracle
    residuals = [b - share * o for b, o in zip(bot, oracle, strict=True)]
    half = Z95 * statistics.stdev(residuals) / (math.sqrt(n) * abs(mean_oracle))
    return share, share - half, share + half


def bootstrap_interval(
    bot: Sequence[float], oracle: Sequence[float], rng: random.Random, resamples: int = 2000
) -> tuple[float, float]:
    """A percentile bootstrap 95% interval of ``sum(bot) / sum(oracle)``, decks resampled
    with their pairs (a resample whose oracle sum is 0 is skipped)."""
    n = len(bot)
    found = []
    for _ in range(resamples):
        picks = [rng.randrange(n) for _ in range(n)]
        total = sum(oracle[i] for i in picks)
        if total != 0:
            found.append(sum(bot[i] for i in picks) / total)
    found.sort()
    if not found:
        return math.nan, math.nan
    return found[int(0.025 * (len(found) - 1))], found[int(0.975 * (len(found) - 1))]


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and half-width of a normal 95% interval (decks as units)."""
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, half


def parse_bot(text: str, samples: int | None, cap: float | None) -> tuple[str, dict[str, Any]]:
    """``hard`` or ``hard:share=0.1,iterations=3000`` -> label and what ``build_bot`` needs.

    A level (``easy``, ``medium``, ``hard``, ``expert``) or bot name; ``key=value`` pairs are
    ``ExpertBot`` arguments and make it an expert of that level's budget (``--samples``
    overrides the samples, ``--cap`` the seconds, for the expert levels).  ``oracle:sees=hands``
    (or ``next``, ``none``) is the measuring device that sees part of the hidden cards
    (``OracleBot``), with hard's budget unless ``iterations=`` says otherwise."""
    name, _, rest = text.partition(":")
    kind = LEVELS.get(name, name)
    if kind not in {"random", "greedy", "expert", "oracle"}:
        raise SystemExit(f"--bot {text!r}: unknown bot (a level or random, greedy, expert, oracle)")
    kwargs: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--bot {text!r}: {item!r} is not key=value")
        if key == "sees":
            kwargs[key] = value
            continue
        number = float(value)
        kwargs[key] = int(number) if number.is_integer() and "." not in value else number
    if kind == "oracle":
        kwargs.setdefault("iterations", samples if samples is not None else BUDGETS["hard"][0])
        kwargs.setdefault("seconds", cap)
    elif kind == "expert":
        iterations, _ = BUDGETS.get(name, BUDGETS["hard"])
        kwargs.setdefault("iterations", samples if samples is not None else iterations)
        kwargs.setdefault("seconds", cap)
    elif kwargs:
        raise SystemExit(f"--bot {text!r}: only the expert levels take arguments")
    return text, {"name": name, "kwargs": kwargs}


def build_bot(spec: dict[str, Any]) -> Bot | OracleBot:
    """The bot of a ``parse_bot`` spec (in the worker)."""
    if spec["name"] == "oracle":
        return OracleBot(**spec["kwargs"])
    if spec["kwargs"] or LEVELS.get(spec["name"], spec["name"]) == "expert":
        return ExpertBot(**spec["kwargs"])
    return make_bot(spec["name"])


def seatings(players: int) -> list[tuple[bool, ...]]:
    """Which seats the player under test holds, one tuple a deal of the deck: alternate seats
    in two rotations at an even table; at an odd one one seat and then ``(players + 1) // 2``,
    in every rotation (the seats split evenly)."""
    if players % 2 == 0:
        return [tuple((seat + rotation) % 2 == 0 for seat in range(players)) for rotation in (0, 1)]
    found = []
    for held in ((players - 1) // 2, (players + 1) // 2):
        for rotation in range(players):
            found.append(tuple((seat - rotation) % players < held for seat in range(players)))
    return found


Chooser = Callable[[State, random.Random], Any]


def deck_margin(
    players: int, take: str, key: str, chooser: Chooser, times: list[float] | None = None
) -> float:
    """One deck played once per seating (``seatings``) by ``chooser`` against greedy: the mean
    of its seats' deal score minus greedy's, over the seatings."""
    options = TableOptions(players=players, take=TakeRule(take))
    greedy = make_bot("greedy")
    margins = []
    for index, seats in enumerate(seatings(players)):
        deck = random.Random(key)
        state = State(options, dealer=deck.randrange(players))
        state.deal(deck)
        rngs = [random.Random(f"{key}:bot:{index}:{seat}") for seat in range(players)]
        while state.phase is Phase.PLAYING:
            seat = state.to_move
            assert seat is not None
            if seats[seat]:
                start = time.process_time()
                action = chooser(state, rngs[seat])
                if times is not None:
                    times.append(time.process_time() - start)
            else:
                action = decide(greedy, state, rngs[seat])
            state.apply_unchecked(action)
        margins.append(seat_margin(state, seats))
    return statistics.fmean(margins)


@dataclass
class Task:
    """One deck of one table: every player on it (the oracle and the bots under test)."""

    players: int
    take: str
    deck: int
    seed: int
    oracle: int
    bots: list[dict[str, Any]]

    @property
    def key(self) -> str:
        """The deck's generator key: fresh, never used by the tuning (module docstring)."""
        return f"edge:{self.seed}:{self.players}:{self.take}:{self.deck}"


def honest(bot: Bot | OracleBot) -> Chooser:
    """``bot``'s moves, from its seat's observation only (``decide``); an oracle's from the
    state (a measuring device: ``OracleBot``'s ``sees``)."""
    if isinstance(bot, OracleBot):
        return lambda state, rng: decide_oracle(bot, state, rng)
    return lambda state, rng: decide(bot, state, rng)


def play_task(task: Task) -> tuple[float, list[float], list[list[float]]]:
    """The oracle's margin on the deck, each bot's, and each bot's decision times."""
    oracle = OracleBot(iterations=task.oracle, seconds=None)
    edge = deck_margin(
        task.players, task.take, task.key, lambda s, r: decide_oracle(oracle, s, r), None
    )
    margins, times = [], []
    for spec in task.bots:
        bot = build_bot(spec)
        spent: list[float] = []
        margins.append(deck_margin(task.players, task.take, task.key, honest(bot), spent))
        times.append(spent)
    return edge, margins, times


def deck_row(
    task: Task,
    edge: float,
    labels: Sequence[str],
    margins: Sequence[float],
    times: Sequence[list[float]],
) -> dict[str, Any]:
    """A deck's entry of a ``--json`` file: the oracle's margin, each bot's and its decision
    times."""
    return {
        "players": task.players,
        "take": task.take,
        "deck": task.deck,
        "key": task.key,
        "oracle": edge,
        "bots": dict(zip(labels, margins, strict=True)),
        "times": dict(zip(labels, times, strict=True)),
    }


def log_deck(task: Task, edge: float, margins: Sequence[float], start: float) -> None:
    """A deck's line on stderr as a run goes: the oracle's margin, the bots', the time so far."""
    print(
        f"{task.key}: oracle {edge:+.1f}, {', '.join(f'{m:+.1f}' for m in margins)}"
        f" ({time.perf_counter() - start:.0f} s)",
        file=sys.stderr,
        flush=True,
    )


def p95(values: Sequence[float]) -> float:
    """The 95th percentile, nearest rank (0 with no values)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0


def table_rows(
    labels: Sequence[str],
    edge: Sequence[float],
    margins: Sequence[Sequence[float]],
    times: Sequence[Sequence[float]],
    *,
    players: int,
    take: str,
) -> list[str]:
    """The markdown rows of one table size and take rule: each bot's margin, the oracle's,
    the share with its delta and bootstrap intervals; then each later bot minus the first."""
    rows = []
    decks = len(edge)
    oracle_mean, oracle_half = mean_interval(edge)
    for label, found, spent in zip(labels, margins, times, strict=True):
        mean, half = mean_interval(found)
        share, low, high = ratio_interval(found, edge)
        boot = bootstrap_interval(found, edge, random.Random(f"boot:{players}:{take}:{label}"))
        rows.append(
            f"| {players} | {take} | {label} | {decks} | {mean:+.2f} ± {half:.2f} |"
            f" {oracle_mean:+.2f} ± {oracle_half:.2f} | {share:.1%} ({low:.1%} to {high:.1%}) |"
            f" {boot[0]:.1%} to {boot[1]:.1%} | {p95(spent) * 1000:.0f} ms |"
        )
    for label, found in zip(labels[1:], margins[1:], strict=True):
        diffs = [b - a for a, b in zip(margins[0], found, strict=True)]
        mean, half = mean_interval(diffs)
        share, low, high = ratio_interval(diffs, edge)
        rows.append(
            f"| {players} | {take} | {label} − {labels[0]} | {decks} | {mean:+.2f} ± {half:.2f} |"
            f" | {share:+.1%} ({low:+.1%} to {high:+.1%}) | | |"
        )
    return rows


HEADER = (
    "| players | take | bot | decks | bot's margin over greedy (95% CI) | oracle's margin |"
    " share of the oracle's edge (95% CI, delta) | bootstrap 95% | bot's p95 decision (CPU) |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


def merged(decks: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Saved decks joined by deck (its key): the bots of runs on the same decks side by side,
    paired, with the oracle's margin played once (it repeats exactly: no time limit, its
    generators seeded by the deck)."""
    found: dict[str, dict[str, Any]] = {}
    for deck in decks:
        known = found.setdefault(deck["key"], {**deck, "bots": {}, "times": {}})
        if known["oracle"] != deck["oracle"]:
            raise SystemExit(
                f"{deck['key']}: two oracle margins ({known['oracle']}, {deck['oracle']})"
            )
        known["bots"].update(deck["bots"])
        known["times"].update(deck["times"])
    return list(found.values())


def report(decks: Sequence[dict[str, Any]], labels: Sequence[str]) -> None:
    """Print the table of these decks (``--json`` records), by table size and take rule, in
    the order first met; a deck counts for a bot only if every bot of ``labels`` played it."""
    print(HEADER)
    tables: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for deck in decks:
        if all(label in deck["bots"] for label in labels):
            tables.setdefault((deck["players"], deck["take"]), []).append(deck)
    for (players, take), found in tables.items():
        if len(found) < 2:
            continue
        edge = [deck["oracle"] for deck in found]
        margins = [[deck["bots"][label] for deck in found] for label in labels]
        times = [[t for deck in found for t in deck["times"][label]] for label in labels]
        for row in table_rows(labels, edge, margins, times, players=players, take=take):
            print(row)


def main(argv: Sequence[str] | None = None) -> None:
    """Play the decks and print the table (``--json`` keeps every deck as it is played;
    ``--load`` prints the table of saved files instead: their decks added up, and the bots of
    runs on the same decks paired, ``merged``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,4,6", help="table sizes, comma-separated (2-6)")
    parser.add_argument("--take", default="match", help="take rules: match, any or match,any")
    parser.add_argument("--decks", type=int, default=8, help="decks per table size and rule")
    parser.add_argument("--first", type=int, default=0, help="the first deck's number")
    parser.add_argument("--seed", type=int, default=27000, help="the decks' seed (fresh: 27000)")
    parser.add_argument("--bot", action="append", help="bot under test (repeatable; hard)")
    parser.add_argument("--samples", type=int, help="the expert bots' samples a move")
    parser.add_argument("--cap", type=float, help="the expert bots' seconds a move (none)")
    parser.add_argument("--oracle", type=int, default=1500, help="the oracle's budget")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write every deck's margins here")
    parser.add_argument(
        "--load", type=Path, nargs="+", action="extend", help="report these --json files"
    )
    args = parser.parse_args(argv)
    labels = args.bot or ["hard"]
    if args.load:
        saved = [json.loads(path.read_text(encoding="utf-8")) for path in args.load]
        report(merged(deck for data in saved for deck in data["decks"]), labels)
        return
    tables = [(int(p), t) for p in args.players.split(",") for t in args.take.split(",") if p and t]
    for players, take in tables:
        if not 2 <= players <= 6 or take not in {rule.value for rule in TakeRule}:
            raise SystemExit(f"no table of {players} players under take = {take!r}")
    if args.decks < 2:
        raise SystemExit("--decks: at least 2 (the interval needs two decks)")
    specs = [parse_bot(text, args.samples, args.cap)[1] for text in labels]
    # deck by deck across the tables, so that a run stopped early covers every table
    todo = [
        Task(players, take, deck, args.seed, args.oracle, specs)
        for deck in range(args.first, args.first + args.decks)
        for players, take in tables
    ]
    decks: list[dict[str, Any]] = []
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for task, (edge, margins, times) in zip(todo, pool.map(play_task, todo), strict=True):
            decks.append(deck_row(task, edge, labels, margins, times))
            if args.json:
                args.json.write_text(json.dumps({"seed": args.seed, "decks": decks}))
            log_deck(task, edge, margins, start)
    print(f"seed {args.seed}, oracle budget {args.oracle}, {time.perf_counter() - start:.0f} s")
    report(decks, labels)


if __name__ == "__main__":
    main()
