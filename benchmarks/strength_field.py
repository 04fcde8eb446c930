"""Bots against a field that is not greedy, one duplicate deal at a time, paired across variants.

Run: ``nice -n 10 python benchmarks/strength_field.py --players 4 --field hard --deals 20
--variant plain:level=hard --variant reads:reads=1`` (``--jobs 2``).

``strength_deals.py`` plays variants of the expert against greedy.  Here the other seats are
a *field*: ``hard`` (a table of hards), a mix (``greedy,hard,random``: the field's seats take
these bots in turn), or OpenSpiel's ISMCTS (``openspiel:ismcts``, extra ``[openspiel]``).  A
deck is dealt and played twice, the variant on the even seats and then on the odd ones (at 2
players: each seat once), so each bot meets the same cards; the deck's margin is the mean
score of the variant's seats minus that of the field's, averaged over both plays.  Every
variant plays the same decks against the same field, so differences between variants are
paired.  Deals are independent of any match (a fresh deal, totals at zero).

A variant is ``NAME:key=value,...``: ``level=medium|hard|expert`` plays that level as
``foxtrot.bots.make_bot`` builds it but with no time limit (the samples only: repeatable),
anything else ``ExpertBot`` arguments (``iterations``, ``reads``, ``share``, ...), also
without a time limit.  The field's search bots have no time limit either.  The decision
times are the variant's CPU times (``time.process_time``), mean and p95.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from foxtrot import Phase, State, TableOptions, TakeRule
from foxtrot.bots import READING_LEVELS, Bot, ExpertBot, budget, decide, make_bot
from strength_deals import interval, print_paired, seat_margin, timing


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``reads:reads=1,iterations=1500`` -> name and arguments (``level`` kept as text)."""
    name, _, rest = text.partition(":")
    kwargs: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        if key == "level":
            kwargs[key] = value
        elif key in {"share", "rival", "stake", "tempo"}:
            kwargs[key] = float(value)
        else:
            kwargs[key] = int(value)
    return name, kwargs


def build(kwargs: dict[str, Any]) -> Bot:
    """The variant's bot, with no time limit."""
    level = kwargs.get("level")
    if level is not None:
        bot = make_bot(level)
        if isinstance(bot, ExpertBot):
            return ExpertBot(budget(level)[0], None, reads=level in READING_LEVELS)
        return bot
    args = {key: value for key, value in kwargs.items() if key != "reads"}
    return ExpertBot(seconds=None, reads=bool(kwargs.get("reads", 0)), **args)


def field_bot(name: str) -> Bot:
    """A field's bot by name: a level or bot (search without a time limit), or openspiel:..."""
    if name.startswith("openspiel:"):
        from foxtrot.openspiel.bots import parse  # noqa: PLC0415 (pyspiel: only when used)

        return parse(name)
    return build({"level": name})


def play_deal(
    task: tuple[int, str, int, dict[str, Any], str, int],
) -> tuple[float, list[float]]:
    """One deck, with the variant on the even seats and then on the odd ones."""
    players, take, seed, kwargs, field, base = task
    options = TableOptions(players=players, take=TakeRule(take))
    names = field.split(",")
    margins, times = [], []
    for parity in (0, 1):
        variant = build(kwargs)
        mine = [seat % 2 == parity for seat in range(players)]
        others = [seat for seat in range(players) if not mine[seat]]
        bots: dict[int, Bot] = {
            seat: field_bot(names[index % len(names)]) for index, seat in enumerate(others)
        }
        state = State(options, dealer=seed % players)
        state.deal(random.Random(f"deal:{base}:{seed}"))
        rngs = [random.Random(f"bot:{base}:{seed}:{parity}:{s}") for s in range(players)]
        while state.phase is Phase.PLAYING:
            seat = state.to_move
            assert seat is not None
            if mine[seat]:
                start = time.process_time()
                action = decide(variant, state, rngs[seat])
                times.append(time.process_time() - start)
            else:
                action = decide(bots[seat], state, rngs[seat])
            state.apply_unchecked(action)
        margins.append(seat_margin(state, mine))
    return statistics.fmean(margins), times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--take", choices=[rule.value for rule in TakeRule], default="match")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3001, help="decks never used in tuning")
    parser.add_argument("--field", default="hard", help="the other seats' bots, in turn")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variant", action="append", required=True)
    parser.add_argument("--every", type=int, default=2, help="report every N decks")
    args = parser.parse_args()
    variants = [parse_variant(text) for text in args.variant]
    found: dict[str, list[float]] = {name: [] for name, _ in variants}
    times: dict[str, list[float]] = {name: [] for name, _ in variants}
    start = time.perf_counter()
    todo = [
        (name, (args.players, args.take, seed, kwargs, args.field, args.seed))
        for seed in range(args.deals)
        for name, kwargs in variants
    ]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = pool.map(play_deal, [task for _, task in todo])
        for done, ((name, _), (margin, spent)) in enumerate(zip(todo, results, strict=True), 1):
            found[name].append(margin)
            times[name].extend(spent)
            if done % len(variants) == 0 and (done // len(variants)) % args.every == 0:
                report(args, variants, found, times, time.perf_counter() - start)


def report(
    args: argparse.Namespace,
    variants: list[tuple[str, dict[str, Any]]],
    found: dict[str, list[float]],
    times: dict[str, list[float]],
    elapsed: float,
) -> None:
    """Every variant's margin against the field so far, and the paired differences."""
    decks = len(found[variants[0][0]])
    print(
        f"{args.players}p take={args.take} field={args.field}: {decks} decks, {elapsed:.0f} s",
        flush=True,
    )
    for name, kwargs in variants:
        mean, half = interval(found[name])
        print(
            f"  {name} {kwargs}: margin {mean:+.1f} ± {half:.1f} a deal;"
            f" {len(times[name])} decisions, {timing(times[name])}",
            flush=True,
        )
    print_paired(variants, found, "a deal", 1)


if __name__ == "__main__":
    main()
