"""The statistics of a tournament: win-rate intervals, Elo ratings, means and percentiles.

Pure Python and deterministic, so that the same games always give the same
report and the tests can check every figure against a hand computation.

- ``wilson_interval``: the Wilson score interval of a proportion.  Unlike the
  normal ("Wald") interval it stays inside [0, 1] and does not collapse to a
  point at 0 or n wins, which matters for a strong bot against a weak one.
- ``elo_ratings``: Bradley–Terry strengths fitted to pairwise wins by maximum
  a posteriori, shown on the Elo scale (400 points = odds of 10 to 1).  A weak
  Gaussian prior on every rating keeps the fit finite when a bot wins (or
  loses) every game, where the plain maximum likelihood runs off to infinity.
- ``percentile``: the nearest-rank percentile (no interpolation), so that a
  reported p95 decision time is a time that was actually measured.
- ``paired_interval``: the mean of paired differences (one per deck or deal sequence
  that both sides played) with Student's t interval.  Pairing removes the luck of the
  cards that both sides shared, so it is much narrower than two separate intervals, and
  it is the interval of the difference itself.

Examples:
    >>> low, high = wilson_interval(8, 10)
    >>> round(low, 4), round(high, 4)
    (0.4902, 0.9433)
    >>> percentile([15, 20, 35, 40, 50], 30)
    20
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Final, TypeVar

#: Elo points per natural-log unit of the odds: 400 points are odds of 10 to 1.
ELO_SCALE: Final = 400.0 / math.log(10.0)
#: The standard deviation of the prior on every rating, in Elo points.  Weak: with 4 games
#: between two bots it moves their difference by a few points.
PRIOR_SD: Final = 1000.0
#: The mean of the ratings: the ratings are anchored so that the bots average this.
ANCHOR: Final = 1500.0

Number = TypeVar("Number", int, float)


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` successes in ``n`` trials (z = 1.96: 95 %).

    With no trials nothing is known: the interval is (0, 1).
    """
    if n < 0 or not 0 <= wins <= n:
        raise ValueError(f"wilson_interval: {wins} wins of {n} trials")
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean; ``nan`` for no values (a bot that never moved has no time)."""
    return math.fsum(values) / len(values) if values else math.nan


def percentile(values: Sequence[Number], q: float) -> Number:
    """The ``q``-th percentile (0-100) by nearest rank: the smallest value with at least
    ``q`` % of the values at or below it.  Raises ``ValueError`` for no values.

    Examples:
        >>> percentile(list(range(1, 21)), 95)
        19
    """
    if not values:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile: q = {q} is not between 0 and 100")
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered) - 1e-9))
    return ordered[rank - 1]


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), for 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution function with ``df`` degrees of freedom."""
    square = t * t
    if square < df:  # near 0: the complement's argument keeps the digits that x loses
        tail = 0.5 * (1.0 - incomplete_beta(0.5, df / 2.0, square / (df + square)))
    else:
        tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + square))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (by bisection).

    Examples:
        >>> round(t_quantile(0.975, 9), 3)
        2.262
    """
    if not 0.0 < p < 1.0 or not df > 0:
        raise ValueError(f"t_quantile: p = {p}, df = {df}")
    low, high = -1.0, 1.0
    while t_cdf(low, df) > p:  # heavy tails at small df: widen the bracket first
        low *= 2
    while t_cdf(high, df) < p:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2


@dataclasses.dataclass(frozen=True, slots=True)
class Paired:
    """The mean of paired differences, its 95 % t interval and the number of pairs."""

    mean: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, float | int | None]:
        """Rounded for a report; an unknown bound (fewer than two pairs) is ``None``."""

        def rounded(value: float) -> float | None:
            return None if math.isnan(value) else round(value, 4)

        return {"mean": rounded(self.mean), "low": rounded(self.low),
                "high": rounded(self.high), "n": self.n}  # fmt: skip


def paired_interval(differences: Sequence[float], confidence: float = 0.95) -> Paired:
    """The mean of ``differences`` (one per pair: a deck, a deal sequence) and its Student's
    t interval with n - 1 degrees of freedom; the bounds are ``nan`` with fewer than two.

    Examples:
        >>> found = paired_interval([1.0, 2.0, 3.0, 4.0])
        >>> round(found.mean, 2), round(found.low, 3), round(found.high, 3)
        (2.5, 0.446, 4.554)
    """
    n = len(differences)
    centre = mean(differences)
    if n < 2:
        return Paired(centre, math.nan, math.nan, n)
    sd = math.sqrt(math.fsum((d - centre) ** 2 for d in differences) / (n - 1))
    half = t_quantile(0.5 + confidence / 2, n - 1) * sd / math.sqrt(n)
    return Paired(centre, centre - half, centre + half, n)


@dataclasses.dataclass(frozen=True, slots=True)
class EloFit:
    """Ratings on the Elo scale, with the standard error of each (from the curvature)."""

    ratings: tuple[float, ...]
    errors: tuple[float, ...]

    def interval(self, index: int, z: float = 1.96) -> tuple[float, float]:
        """The approximate 95 % interval of one rating (normal approximation)."""
        rating, error = self.ratings[index], self.errors[index]
        return rating - z * error, rating + z * error


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ · vector`` by Gauss–Jordan elimination with partial pivoting."""
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [value / head for value in rows[col]]
        for r in range(size):
            if r != col and rows[r][col] != 0.0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][size] for i in range(size)]


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _log_posterior(r: Sequence[float], wins: Sequence[Sequence[float]], tau: float) -> float:
    total = -sum(x * x for x in r) / (2 * tau * tau)
    for i, row in enumerate(wins):
        for j, w in enumerate(row):
            if w:
                d = r[i] - r[j]
                # log σ(d), computed without overflow for large |d|
                total += w * (-math.log1p(math.exp(-d)) if d > 0 else d - math.log1p(math.exp(d)))
    return total


def elo_ratings(
    wins: Sequence[Sequence[float]], *, prior_sd: float = PRIOR_SD, anchor: float = ANCHOR
) -> EloFit:
    """Bradley–Terry ratings from ``wins[i][j]`` (how often i beat j), on the Elo scale.

    The model: i beats j with probability ``1 / (1 + 10 ** ((R_j - R_i) / 400))``.  The fit
    maximizes the likelihood of the wins times a Gaussian prior of sd ``prior_sd`` on each
    rating (maximum a posteriori), by Newton's method with step halving.  The prior makes the
    ratings finite when a bot wins everything; with many games its effect vanishes.  The
    ratings average ``anchor``; each error is the standard error of the rating's distance
    from that mean, from the inverse of the curvature at the optimum (Laplace approximation).
    """
    size = len(wins)
    if any(len(row) != size for row in wins):
        raise ValueError("elo_ratings: wins must be a square table")
    if size == 0:
        return EloFit((), ())
    tau = prior_sd / ELO_SCALE
    r = [0.0] * size
    value = _log_posterior(r, wins, tau)
    hessian = [[0.0] * size for _ in range(size)]
    for _ in range(100):
        grad = [-x / (tau * tau) for x in r]
        hessian = [
            [-1.0 / (tau * tau) if i == j else 0.0 for j in range(size)] for i in range(size)
        ]
        for i in range(size):
            for j in range(i + 1, size):
                games = wins[i][j] + wins[j][i]
                if not games:
                    continue
                p = _sigmoid(r[i] - r[j])
                g = wins[i][j] - games * p
                grad[i] += g
                grad[j] -= g
                c = games * p * (1 - p)
                hessian[i][i] -= c
                hessian[j][j] -= c
                hessian[i][j] += c
                hessian[j][i] += c
        step = _solve(hessian, [-g for g in grad])
        scale = 1.0
        while True:
            trial = [x + scale * s for x, s in zip(r, step, strict=True)]
            trial_value = _log_posterior(trial, wins, tau)
            if trial_value >= value or scale < 1e-6:
                break
            scale /= 2
        r, value = trial, trial_value
        if max(abs(s) for s in step) * scale < 1e-10:
            break
    # The gradient of the likelihood sums to zero, so the optimum already has mean 0;
    # subtract it anyway against rounding.
    centre = math.fsum(r) / size
    covariance = [
        _solve(hessian, [-1.0 if k == j else 0.0 for k in range(size)]) for j in range(size)
    ]
    errors = []
    for i in range(size):
        # var(r_i - mean(r)) = Σ_ii - 2/n Σ_j Σ_ij + 1/n² Σ_jk Σ_jk
        row_mean = math.fsum(covariance[i]) / size
        all_mean = math.fsum(math.fsum(row) for row in covariance) / (size * size)
        variance = max(0.0, covariance[i][i] - 2 * row_mean + all_mean)
        errors.append(math.sqrt(variance) * ELO_SCALE)
    return EloFit(tuple(anchor + (x - centre) * ELO_SCALE for x in r), tuple(errors))


__all__ = [
    "ANCHOR",
    "ELO_SCALE",
    "PRIOR_SD",
    "EloFit",
    "Paired",
    "elo_ratings",
    "incomplete_beta",
    "mean",
    "paired_interval",
    "percentile",
    "t_cdf",
    "t_quantile",
    "wilson_interval",
]
