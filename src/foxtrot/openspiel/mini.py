"""Mini-Foxtrot: games small enough to solve exactly, and the bots measured against them.

What Kuhn and Leduc poker are to OpenSpiel's poker, the mini games are to Foxtrot: the
same rules on a shrunk pack (``TableOptions`` ``packs``, ``ranks``, ``suits``,
``hand_size``; docs/research/mini.md says how each rule reads there), one deal, a fixed
dealer, so that the whole game tree, with the shuffle as explicit chance nodes, fits in
memory and OpenSpiel's CFR+ brings the exploitability near zero in minutes.

``MINI_GAMES`` names the configurations; ``tree_size`` counts a game's tree;
``solve`` runs CFR+ (OpenSpiel's Python ``cfr``: ``python_foxtrot`` is a Python game)
until the exploitability is below a bound, work-bounded by a number of iterations;
``BotPolicy`` turns a Foxtrot bot into an OpenSpiel policy so that ``exploitability``
measures it.  ``benchmarks/bench_mini.py`` makes the table of docs/research/mini.md.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable
from typing import Any, Final

import pyspiel
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import cfr, exploitability

from ..bots.base import Bot
from . import load
from .game import FoxtrotGame, FoxtrotState

#: The named mini games (``python_foxtrot`` parameters), smallest first.  All are two
#: players, one deal (``deals=1``), seat 0 dealing (``dealer=0``: no chance node for the
#: lot), margin returns (own score minus the other's: zero-sum).
MINI_GAMES: Final[dict[str, dict[str, Any]]] = {
    # 6 cards: 10S 10S JS JS QS QS; 2 each, the upturned card, one card never dealt
    "tiny": {"packs": 2, "ranks": "10 J Q", "suits": 1, "hand_size": 2, "dealer": 0},
    # 6 distinct cards: 10, J, Q of spades and hearts
    "small": {"packs": 1, "ranks": "10 J Q", "suits": 2, "hand_size": 2, "dealer": 0},
    # 8 cards: 10S JS QS AS twice; a redeal of one card each (R1)
    "medium": {"packs": 2, "ranks": "10 J Q A", "suits": 1, "hand_size": 2, "dealer": 0},
}


def mini_game(name: str) -> FoxtrotGame:
    """The named mini game (``MINI_GAMES``).

    >>> mini_game("tiny").rules.options.deck_size
    6
    """
    if name not in MINI_GAMES:
        raise ValueError(f"mini game: unknown {name!r} (expected {', '.join(MINI_GAMES)})")
    return load(**MINI_GAMES[name])


@dataclasses.dataclass(frozen=True, slots=True)
class TreeSize:
    """A game tree counted node by node: every history, and the information states."""

    histories: int
    chance: int
    decisions: int
    terminal: int
    infostates: tuple[int, ...]  # per player


def tree_size(game: pyspiel.Game) -> TreeSize:
    """Walk the whole tree of ``game`` (depth first) and count it.

    >>> tree_size(mini_game("tiny")).infostates
    (123, 69)
    """
    counts: Counter[str] = Counter()
    infos: list[set[str]] = [set() for _ in range(game.num_players())]
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            counts["terminal"] += 1
            continue
        if state.is_chance_node():
            counts["chance"] += 1
            stack.extend(state.child(action) for action, _ in state.chance_outcomes())
            continue
        counts["decisions"] += 1
        player = state.current_player()
        infos[player].add(state.information_state_string(player))
        stack.extend(state.child(action) for action in state.legal_actions())
    total = counts["terminal"] + counts["chance"] + counts["decisions"]
    return TreeSize(
        total,
        counts["chance"],
        counts["decisions"],
        counts["terminal"],
        tuple(len(seen) for seen in infos),
    )


#: When ``solve`` measures the exploitability (each measure costs about two iterations).
CHECKS: Final = (1, 2, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 150, 200, 300, 500)


@dataclasses.dataclass(frozen=True, slots=True)
class Solved:
    """A CFR+ run: the average policy, and the exploitability after each check."""

    policy: os_policy.TabularPolicy
    curve: tuple[tuple[int, float], ...]  # (iterations done, exploitability)

    @property
    def iterations(self) -> int:
        """Iterations done when the run stopped."""
        return self.curve[-1][0]

    @property
    def exploitability(self) -> float:
        """The exploitability of the average policy when the run stopped."""
        return self.curve[-1][1]


def solve(
    game: pyspiel.Game,
    *,
    below: float = 0.01,
    max_iterations: int = 1000,
    checks: tuple[int, ...] = CHECKS,
    on_check: Callable[[int, float], None] | None = None,
) -> Solved:
    """Run CFR+ on ``game`` until the average policy's exploitability (NashConv / players,
    in the game's return unit: points of margin) is below ``below``, measured after the
    iterations in ``checks`` and at ``max_iterations``; work-bounded, never time-bounded.

    >>> solve(mini_game("tiny"), max_iterations=1).curve  # one iteration: far from it
    ((1, 7.955555555555555),)
    """
    solver = cfr.CFRPlusSolver(game)
    curve: list[tuple[int, float]] = []
    for done in range(1, max_iterations + 1):
        solver.evaluate_and_update_policy()
        if done in checks or done == max_iterations:
            value = float(exploitability.exploitability(game, solver.average_policy()))
            curve.append((done, value))
            if on_check is not None:
                on_check(done, value)
            if value < below:
                break
    return Solved(solver.average_policy(), tuple(curve))


class BotPolicy(os_policy.Policy):  # type: ignore[misc]  # open_spiel ships no type information
    """A Foxtrot bot as an OpenSpiel policy, for ``exploitability``.

    At an information state the bot chooses from the seat's ``Observation`` with a
    generator seeded by the information state and the sample number, ``samples`` times:
    the policy is the share of each action.  A deterministic bot (greedy) is then a pure
    policy; a searching bot (expert, ISMCTS) is the mix of its seeded behaviours, the same
    at every history of one information state, as a policy must be.  The choices are
    cached by information state (the tree visits each one at many histories).
    """

    def __init__(
        self, game: pyspiel.Game, make: Callable[[], Bot], samples: int = 1, seed: int = 0
    ) -> None:
        super().__init__(game, list(range(game.num_players())))
        if type(samples) is not int or samples < 1:
            raise ValueError(f"samples: {samples!r} is not a positive whole number")
        self.bot = make()
        self.samples = samples
        self.seed = seed
        self.cache: dict[str, dict[int, float]] = {}

    def action_probabilities(
        self, state: FoxtrotState, player_id: int | None = None
    ) -> dict[int, float]:
        """The share of each legal action among the bot's seeded choices (see the class doc)."""
        player = state.current_player() if player_id is None else player_id
        key = state.information_state_string(player)
        found = self.cache.get(key)
        if found is not None:
            return found
        core = state.core
        assert core is not None
        legal = core.legal_actions()
        counts: Counter[int] = Counter()
        if len(legal) == 1:
            counts[legal[0].code] = self.samples
        else:
            obs = core.observation(player)
            for sample in range(self.samples):
                rng = random.Random(f"{self.seed}:{sample}:{key}")
                counts[self.bot.choose(obs, legal, rng).code] += 1
        # every legal action, those never chosen at 0: OpenSpiel's best response asks
        found = {action.code: counts[action.code] / self.samples for action in legal}
        self.cache[key] = found
        return found


def uniform_policy(game: pyspiel.Game) -> os_policy.Policy:
    """The random bot as a policy: uniform over the legal actions (what ``RandomBot`` plays
    in distribution)."""
    return os_policy.UniformRandomPolicy(game)


def exploitability_of(game: pyspiel.Game, policy: os_policy.Policy) -> float:
    """NashConv / players of ``policy`` on ``game``, in points of margin a deal."""
    return float(exploitability.exploitability(game, policy))


__all__ = [
    "MINI_GAMES",
    "BotPolicy",
    "Solved",
    "TreeSize",
    "exploitability_of",
    "mini_game",
    "solve",
    "tree_size",
    "uniform_policy",
]
