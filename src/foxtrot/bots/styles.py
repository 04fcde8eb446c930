"""Who is at the table: each other player's style of play, read from his own moves.

The expert weighs the deals it samples by how likely the others would have made the moves
they made (``inference``), under one model of a sensible player: a choice in proportion to
``exp(rationality * value)`` of the default policy's values, with a ``surprise`` share spread
over every move.  People, other programs and the expert itself do not all play like that
model, so before it searches the expert reads each other player's style: a few models
(``STYLES``, from sharp to random) weighed by Bayes' rule on that player's own moves.

Only moves whose hand is known count: those of the hands he has already played out this deal
(``inference.revealed``).  Every card of such a hand was laid face up, so the likelihood of his
moves under each style is exact, and no hidden card is read.  A player whose moves are best
explained by chance (``random``) says nothing about his hand: his current moves are left out
of the weighing.  The others share one model (the kernel takes one): the style that best
explains all of them together, which at two players is the one opponent's.

A new deal starts the reading afresh (an observation holds this deal's moves only), and with
no hand played out yet the reading is the prior's: ``greedy``, the model the expert always
used.  The reading depends on the observation only: the bot stays deterministic for a seed.

>>> import random
>>> from foxtrot import State, TableOptions
>>> state = State(TableOptions(players=2), dealer=0)
>>> events = state.deal(random.Random(3))
>>> read(state.observation(0)).style.name  # nothing played out yet: the prior's
'greedy'
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Final

from ..core import Observation, TakeRule
from .inference import RATIONALITY, SURPRISE, Decision, choice_log, choice_values, revealed


@dataclasses.dataclass(frozen=True, slots=True)
class Style:
    """A model of a player: how sharply he prefers the default policy's better moves
    (``rationality``, per point), the share of his moves that are anything at all
    (``surprise``), and how likely it is before any move is seen (``prior``)."""

    name: str
    rationality: float
    surprise: float
    prior: float


#: The styles a player is read as, the expert's own model first (it has the largest prior).
STYLES: Final = (
    Style("greedy", RATIONALITY, SURPRISE, 0.4),
    Style("sharp", 2 * RATIONALITY, SURPRISE / 4, 0.15),
    Style("loose", RATIONALITY / 3, 3 * SURPRISE, 0.15),
    Style("erratic", RATIONALITY, 5 * SURPRISE, 0.15),
    Style("random", 0.0, 1.0, 0.15),
)
RANDOM: Final = STYLES[-1]


@dataclasses.dataclass(frozen=True, slots=True)
class Reading:
    """What the moves say about the table: each other seat's posterior over ``STYLES`` (in
    their order), the seats read as random (their moves are left out), and the ``style`` the
    rest share."""

    posteriors: dict[int, tuple[float, ...]]
    ignored: frozenset[int]
    style: Style
    moves: int

    def likeliest(self, seat: int) -> Style:
        """The seat's most probable style."""
        weights = self.posteriors[seat]
        return STYLES[max(range(len(STYLES)), key=weights.__getitem__)]


def style_logs(moves: Sequence[Decision], take_any: bool, forced: bool) -> dict[int, list[float]]:
    """Per seat, the log-likelihood of its revealed ``moves`` under every style of ``STYLES``."""
    logs: dict[int, list[float]] = {}
    for move in moves:
        values = choice_values(move.later, move, take_any, forced)
        row = logs.setdefault(move.seat, [0.0] * len(STYLES))
        if values is None:
            continue
        for index, style in enumerate(STYLES):
            row[index] += choice_log(values, move.code, style.rationality, style.surprise)
    return logs


def posterior(logs: Sequence[float]) -> tuple[float, ...]:
    """Bayes' rule: the styles' priors times the likelihoods ``exp(logs)``, normalised."""
    scores = [math.log(style.prior) + log for style, log in zip(STYLES, logs, strict=True)]
    top = max(scores)
    weights = [math.exp(score - top) for score in scores]
    total = sum(weights)
    return tuple(weight / total for weight in weights)


def read(obs: Observation) -> Reading:
    """The table's reading from ``obs``: every other seat's styles by Bayes' rule on the moves
    of its hands played out this deal; the seats most likely random are ignored, and the rest
    share the style of highest joint posterior."""
    moves = revealed(obs)
    take_any = obs.options.take is TakeRule.ANY
    logs = style_logs(moves, take_any, obs.options.forced_foxtrot)
    seats = [seat for seat in range(obs.players) if seat != obs.seat]
    posteriors = {seat: posterior(logs.get(seat, [0.0] * len(STYLES))) for seat in seats}
    last = len(STYLES) - 1
    ignored = frozenset(
        seat for seat in seats if max(range(len(STYLES)), key=posteriors[seat].__getitem__) == last
    )
    kept = [seat for seat in seats if seat not in ignored]
    if not kept:
        return Reading(posteriors, ignored, RANDOM, len(moves))
    joint = [
        sum(math.log(max(posteriors[seat][index], 1e-300)) for seat in kept)
        for index in range(last)
    ]
    style = STYLES[max(range(last), key=joint.__getitem__)]
    return Reading(posteriors, ignored, style, len(moves))


__all__ = ["RANDOM", "STYLES", "Reading", "Style", "posterior", "read", "style_logs"]
