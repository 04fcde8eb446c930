"""Who holds the tempo at 2 players: hard's matches by who moved first, and what the cards allow.

Run: ``python benchmarks/strength_tempo.py benchmarks/results/hard-1500 --deals 400``

Under ``take = any`` a player may take the pile on any turn (T4).  Greedy takes
every pile worth more than nothing, so once it has taken, the other player
starts every new pile, faces an empty pile at each of his turns and feeds it
every card he is dealt (R1): he cannot make a foxtrot, and the cards greedy
keeps in hand cost it nothing (E2).  Only a pile worth less than nothing, which
takes a Queen of spades (P2: -20), makes greedy play on it instead; then the
other player can take the pile, and the tempo, himself.  So who moves first in
the first deal (D1, T1) wins most 2-player matches, and the second player's
chances turn on whether, and how early, he is dealt a Queen of spades.

Part one reads the JSON of ``benchmarks/strength.sh`` (every 2-player ``hard vs
greedy`` file in the folders given) and splits hard's matches by who moved first
in the first deal.  Part two (``--deals N``) plays N deals of greedy against
greedy under ``take = any`` and counts, for the player who moves second, the
deals in which he never held a Queen of spades on a turn with an empty pile,
and how many of those he won.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from foxtrot import Phase, State, TableOptions, TakeRule
from foxtrot.bots import GreedyBot, decide
from foxtrot.core import Card
from foxtrot.research.stats import wilson_interval
from strength_table import base

QUEEN_OF_SPADES = Card.parse("QS")


def by_first_mover(folders: list[Path]) -> dict[tuple[str, bool], tuple[int, int]]:
    """Per take rule and whether hard moved first in the first deal: (matches, hard's wins)."""
    found: dict[tuple[str, bool], tuple[int, int]] = {}
    for folder in folders:
        for path in sorted(folder.glob("2p-*-hg*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            take = data["options"]["take"]
            for game in data["games"]:
                seats = [base(label) for label in game["seats"]]
                hard = seats.index("hard")
                first = (game["first_dealer"] + 1) % 2 == hard  # T1: the dealer's left
                matches, wins = found.get((take, first), (0, 0))
                found[take, first] = matches + 1, wins + (game["winner"] == hard)
    return found


def greedy_deal(seed: int) -> tuple[bool, bool]:
    """One greedy-vs-greedy deal under take = any: did the second player ever hold a Queen of
    spades at a turn with an empty pile, and did he win the deal?"""
    state = State(TableOptions(players=2, take=TakeRule.ANY), dealer=1)  # seat 0 moves first
    state.deal(random.Random(f"tempo:{seed}"))
    greedy, rng = GreedyBot(), random.Random(seed)
    chance = False
    while state.phase is Phase.PLAYING:
        if state.to_move == 1 and not state.pile and QUEEN_OF_SPADES in state.hand(1):
            chance = True
        state.apply_unchecked(decide(greedy, state, rng))
    log = state.deal_logs()[-1]
    assert log.scores is not None
    return chance, log.scores[1].total > log.scores[0].total


def share(wins: int, n: int) -> str:
    """``12 of 40 (30.0%, 95% CI 18.1%–45.4%)``."""
    if not n:
        return "0 of 0"
    low, high = wilson_interval(wins, n)
    return f"{wins} of {n} ({wins / n:.1%}, 95% CI {low:.1%}–{high:.1%})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("folders", nargs="*", type=Path, help="strength.sh output folders")
    parser.add_argument("--deals", type=int, default=0, help="greedy-vs-greedy deals to play")
    args = parser.parse_args()
    if args.folders:
        found = by_first_mover(args.folders)
        if not found:
            names = ", ".join(str(folder) for folder in args.folders)
            raise SystemExit(f"no 2-player hard vs greedy files (2p-*-hg*.json) in {names}")
        print("| take | hard moved first in the first deal | matches hard won |")
        print("| --- | --- | --- |")
        for (take, first), (matches, wins) in sorted(found.items()):
            print(f"| {take} | {'yes' if first else 'no'} | {share(wins, matches)} |")
    if args.deals:
        deals = [greedy_deal(seed) for seed in range(args.deals)]
        won = sum(win for _, win in deals)
        stuck = [win for chance, win in deals if not chance]
        print(
            f"\ngreedy vs greedy, take = any, {args.deals} deals: the second player won"
            f" {share(won, args.deals)}; he never held a Queen of spades on a turn with an"
            f" empty pile in {len(stuck)} deals and won {share(sum(stuck), len(stuck))}"
        )


if __name__ == "__main__":
    main()
