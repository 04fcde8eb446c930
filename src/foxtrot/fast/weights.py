"""The bots' weights the compiled policy and opponent model read, handed in by the caller.

The compiled search is the twin of ``bots.rollout`` and ``bots.inference``, and their numbers
(``bots.values``: what a taken card and a Jack are worth, the policy's jitter;
``bots.inference``: how rational the others are taken to be) are the bots' judgements, not
rules.  The bots hand them in with every search (``samples(..., weights=...)``), so that
``foxtrot.fast`` imports nothing from ``foxtrot.bots``: the layering is core <- fast <- bots.
Passed as numbers rather than compiled in as constants, they give the same arithmetic (IEEE
double, no fast-math), so the same results to the last bit.

This module imports nothing from numba.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Weights"]


class Weights(NamedTuple):
    """The weights of the default policy and the opponent model (numba reads a NamedTuple
    of floats as a tuple, by field name)."""

    card_value: float
    """A taken card's share of the most-cards bonus (``bots.values.CARD_VALUE``); the
    compiled sums are exact only for a small binary fraction (``samples`` checks)."""
    jack_cost: float
    """What spending a Jack gives up (``bots.values.JACK_COST``)."""
    noise: float
    """The default policy's random jitter (``bots.values.NOISE``)."""
    rationality: float
    """How sharply the others prefer better moves (``bots.inference.RATIONALITY``)."""
    surprise: float
    """The share of a move's probability spread over all moves (``bots.inference.SURPRISE``)."""
    own: float = -1.0
    """The searcher's seat (-1: none), for the two switches below (a screen)."""
    peek: float = 0.0
    """1: the searcher's own playout moves read the sampled world's next hand instead of the
    odds; 2: every seat's do."""
    calm: float = 0.0
    """1: the other seats' playout moves without jitter (greedy, which they model, has none)."""
