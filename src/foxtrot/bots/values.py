"""The bots' weights: what the heuristics add to the points of the rules (not rules themselves).

The rules' numbers (card points, foxtrot bonuses, hand size) live in ``core.kernel``;
these are judgements, shared by greedy, the default policy of search and the expert,
and written once here.
"""

from __future__ import annotations

from typing import Final

CARD_VALUE: Final = 0.25  # a taken card's share of the 5 points for most cards (P3)
JACK_COST: Final = 2.0  # spending a Jack on a pile gives up a sure future take
NOISE: Final = 0.5  # random jitter of the default policy, so that rollouts differ

__all__ = ["CARD_VALUE", "JACK_COST", "NOISE"]
