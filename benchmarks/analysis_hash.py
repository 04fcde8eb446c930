"""A digest of what the bots compute on fixed positions: to show a refactoring changed nothing.

Run: ``python benchmarks/analysis_hash.py`` (``--positions`` per table, default 12).  Run it
on two trees (``PYTHONPATH=/tmp/base/src python benchmarks/analysis_hash.py``) and compare
the lines: equal digests mean equal results, to the last bit of every float.

Positions come from uniformly random legal play with fixed seeds, at tables whose options
are all given explicitly (never the defaults, which may change): 2 and 4 players, both take
rules, with and without forced foxtrots.  One digest per part:

- ``expert``: every action's value in the expert's analysis (60 samples, no time limit);
- ``rollout``: the actions and scores of the default policy playing each deal to its end;
- ``inference``: the opponent model's log-likelihood of the true hands;
- ``greedy``: greedy's value of every action;
- ``counting``: the coach's lone-card risks.
"""

from __future__ import annotations

import argparse
import hashlib
import random

from foxtrot import LeftoverPile, MostCardsTie, Phase, State, TableOptions, TakeRule
from foxtrot.bots import ExpertBot, GreedyBot
from foxtrot.bots.counting import card_count
from foxtrot.bots.inference import decisions, log_likelihood
from foxtrot.bots.rollout import rollout


def tables() -> list[TableOptions]:
    """Every table the digest covers, all options explicit."""
    return [
        TableOptions(
            players=players,
            take=take,
            forced_foxtrot=forced,
            leftover_pile=LeftoverPile.DISCARD,
            most_cards_tie=MostCardsTie.NONE,
            target=200,
        )
        for players in (2, 4)
        for take in (TakeRule.ANY, TakeRule.MATCH)
        for forced in (False, True)
    ]


def positions(options: TableOptions, count: int, seed: int) -> list[State]:
    """Deals in progress after 0 to 80 random legal actions."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = State(options, dealer=rng.randrange(options.players))
        state.deal(rng)
        for _ in range(rng.randrange(0, 80)):
            if state.phase is not Phase.PLAYING:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.phase is Phase.PLAYING:
            found.append(state)
    return found


def digests(count: int) -> dict[str, str]:
    """One SHA-256 digest (first 16 hex digits) per part, over every table and position."""
    parts = {name: hashlib.sha256() for name in ("expert", "rollout", "inference", "greedy")}
    parts["counting"] = hashlib.sha256()
    expert = ExpertBot(iterations=60, seconds=None)
    greedy = GreedyBot()
    for index, options in enumerate(tables()):
        for i, state in enumerate(positions(options, count, 1000 + index)):
            seat = state.to_move
            assert seat is not None
            obs = state.observation(seat)
            analysis = expert.analyse(obs, random.Random(i))
            line = sorted((a.code, v.hex()) for a, v in analysis.values.items())
            parts["expert"].update(repr((line, analysis.best.code)).encode())
            played = state.clone()
            rollout(played, random.Random(i))
            ended = played.deal_logs()[-1]  # the deal the rollout played to its end
            result = (list(ended.actions), [ended.scores])
            parts["rollout"].update(repr(result).encode())
            log = log_likelihood(
                state.hand_ids, decisions(obs), not state.take_match, options.forced_foxtrot
            )
            parts["inference"].update(log.hex().encode())
            values = sorted((a.code, v.hex()) for a, v in greedy.values(obs).items())
            parts["greedy"].update(repr(values).encode())
            risks = sorted((int(r), v.hex()) for r, v in card_count(obs).lone_card_risk.items())
            parts["counting"].update(repr(risks).encode())
    return {name: digest.hexdigest()[:16] for name, digest in parts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    args = parser.parse_args()
    for name, digest in digests(args.positions).items():
        print(f"{name:>9} {digest}")


if __name__ == "__main__":
    main()
