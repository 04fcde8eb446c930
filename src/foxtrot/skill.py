"""The rating model of free-for-all matches, shared by the server and the tournaments.

One model rates the people of rated tables (``foxtrot.web.players.ratings``) and measures the
computers' fixed ratings (``foxtrot tournament --ratings``), so that a computer's rating
means what a person's means: openskill's Weng-Lin model with Plackett-Luce and its defaults
(a new player at mu 25, sigma 25/3; beta 25/6; tau 25/300 added to sigma before each
match).  A match's final order is the winner first, then the others by their totals;
equal totals are equal places.  A rating is shown as its ordinal ``mu - 3 sigma``.

``openskill`` is in the ``web`` extra; this module imports it at once, so import it only
where ratings are wanted.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Final

from openskill.models import PlackettLuce

#: The model every rating is computed with (openskill's defaults: mu 25, sigma 25/3, beta 25/6).
MODEL: Final = PlackettLuce()
START: Final = (MODEL.mu, MODEL.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: ``mu - 3 sigma`` (openskill's ordinal)."""
    return mu - 3.0 * sigma


def places(totals: Sequence[int], winner: int) -> list[int]:
    """Each seat's place, 1 first: the winner alone first, the others by total; ties share.

    >>> places([120, 205, 120, 90], winner=1)
    [2, 1, 2, 4]
    """
    keys = [(0 if seat == winner else 1, -total) for seat, total in enumerate(totals)]
    return [1 + sum(other < key for other in keys) for key in keys]


def rate(ratings: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """Every seat's new (mu, sigma) after one match finished in ``ranks`` (1 first, ties equal)."""
    if not 2 <= len(ratings) <= 9 or len(ranks) != len(ratings):
        raise ValueError(f"a rated match has 2 to 9 seats and a place each, got {len(ratings)}")
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]


@dataclasses.dataclass(frozen=True, slots=True)
class Finish:
    """One match to rate: the entrant (by index) in each seat, the winning seat, the totals."""

    seats: tuple[int, ...]
    winner: int
    totals: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Rated:
    """An entrant's rating after every match: mu (anchored), sigma, matches rated."""

    label: str
    mu: float
    sigma: float
    matches: int

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``, as a person's rating is shown."""
        return ordinal(self.mu, self.sigma)


def rate_entrants(
    labels: Sequence[str], finishes: Iterable[Finish], anchor: str, at: float = START[0]
) -> list[Rated]:
    """Rate entrants (bots) over ``finishes``, one update per match in the order given.

    Every entrant starts where a new person starts; each match is one free-for-all update,
    exactly as a rated table's (``rate``).  Afterwards every mu is moved by the same amount
    so that ``anchor`` sits at ``at`` (mu 25: the medium computer is where a new person
    starts); a shift changes no win probability, which depends on differences only.

    An entrant may sit only once in a match (one rating cannot be two players of one
    update): ``ValueError`` otherwise, and for an unknown anchor or entrant index.
    """
    if anchor not in labels:
        raise ValueError(f"the anchor {anchor!r} is not one of the bots {', '.join(labels)}")
    ratings = [START] * len(labels)
    counts = [0] * len(labels)
    for finish in finishes:
        if len(set(finish.seats)) != len(finish.seats):
            raise ValueError(
                "a bot sits in two seats of one match: it cannot be rated against itself"
            )
        if any(not 0 <= entrant < len(labels) for entrant in finish.seats):
            raise ValueError(f"a match names a bot outside 0..{len(labels) - 1}")
        after = rate([ratings[e] for e in finish.seats], places(finish.totals, finish.winner))
        for entrant, new in zip(finish.seats, after, strict=True):
            ratings[entrant] = new
            counts[entrant] += 1
    shift = at - ratings[labels.index(anchor)][0]
    return [
        Rated(label, mu + shift, sigma, count)
        for label, (mu, sigma), count in zip(labels, ratings, counts, strict=True)
    ]


__all__ = ["MODEL", "START", "Finish", "Rated", "ordinal", "places", "rate", "rate_entrants"]
