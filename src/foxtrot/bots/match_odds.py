"""The chance of winning the match from the totals: what the expert plays for in a match.

A deal's margin over the others' mean is what a player controls, but a match is won by
the totals (M2): ten points taken from the leader near the target can be worth more than
thirty given to the last seat, and a deal that ends the match is won or lost outright.
``win_chance`` turns a seat's totals after a deal into an estimate of its chance to win:

- if the deal ends the match (someone has reached the target and leads alone), 1 or 0;
- otherwise a model of the deals left: as many as the leader needs at the table's mean deal
  score to reach the target (at least one), each moving two seats' difference by a normal
  spread (``PACE``); the chance is the product, over the other seats, of the chance to
  finish ahead of each.  (The product treats the rivals as independent: a rough model, but
  one that grows with every lead and weighs a lead over a close rival most.)

Doctest: a lead of one spread over a single deal left is worth about 84%.

>>> pace = Pace(mean=50.0, spread=60.0)
>>> round(win_chance([160, 100], 0, 200, final=False, pace=pace), 2)
0.84
>>> win_chance([210, 190], 1, 200, final=True, pace=pace)
0.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from ..core.kernel import match_winner


class Pace(NamedTuple):
    """How fast a table's totals move: a seat's mean deal score, and the standard deviation
    of the difference of two seats' deal scores."""

    mean: float
    spread: float


#: ``(players, take any)``: the pace of deals between greedy players, default options
#: (``benchmarks/match_pace.py --deals 1000``).
PACE: dict[tuple[int, bool], Pace] = {
    (2, False): Pace(60.3, 62.7),
    (2, True): Pace(166.6, 301.9),
    (3, False): Pace(37.5, 38.7),
    (3, True): Pace(73.7, 44.1),
    (4, False): Pace(27.1, 34.7),
    (4, True): Pace(65.3, 127.6),
    (5, False): Pace(20.9, 29.8),
    (5, True): Pace(33.2, 31.7),
    (6, False): Pace(17.2, 26.5),
    (6, True): Pace(37.1, 77.3),
    (7, False): Pace(22.5, 32.1),
    (7, True): Pace(33.1, 32.1),
    (8, False): Pace(18.9, 29.0),
    (8, True): Pace(39.5, 79.4),
    (9, False): Pace(17.3, 27.7),
    (9, True): Pace(22.3, 28.3),
}


def win_chance(
    totals: Sequence[float], seat: int, target: float, *, final: bool, pace: Pace
) -> float:
    """The seat's chance to win the match with these totals after a deal (``final``: the
    deal is over and these are its scores; else a deal still in progress)."""
    if final:
        winner = match_winner(totals, target)
        if winner >= 0:
            return 1.0 if winner == seat else 0.0
    deals = max(1.0, (target - max(totals)) / pace.mean)
    scale = pace.spread * math.sqrt(2 * deals)  # erf's scale: sqrt(2) standard deviations
    mine = totals[seat]
    chance = 1.0
    for other, total in enumerate(totals):
        if other != seat:
            chance *= 0.5 * (1 + math.erf((mine - total) / scale))
    # erf rounds to 1.0 far out (0 against 274 with 26 to go): while another deal is to come
    # nobody is sure of the match, so the chance stays just under 1 (M2)
    return min(chance, math.nextafter(1.0, 0.0))
