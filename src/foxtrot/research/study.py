"""Rule-variant studies for designers: the same deals under several rule sets, measured.

``run_study(StudyConfig(variants=parse_variants("take=any,take=match"), ...))``
plays ``matches`` whole matches under each variant with the chosen bots, and
``skill_matches`` more of greedy against random, and reports per variant:

- **deal length**: actions in a deal; **deals per match**;
- **score spread**: the best minus the worst deal score of a deal;
- **foxtrots per deal**: single and double, all seats together;
- **seat position**: the deal score of the first player (the dealer's left)
  and of the dealer, each minus the table's mean score of that deal; the share
  of deals the first player wins outright; the share of matches won by the
  player who moved first in the first deal (even: ``1 / players``);
- **Q♠ decides a deal**: the share of deals whose outright winner (or lack of
  one) changes when the two Queens of spades score 0 instead of -20;
- **skill**: greedy against random (two seats; more players: alternating,
  rotated): the share of matches a greedy seat wins (even: the greedy seats'
  share of the table) and greedy's deal-score margin over random.

Intervals are 95 %: Wilson for shares, mean ± 1.96 standard errors for means
(deals of one match are not independent, so those are a little too narrow).
Common random numbers: match ``m`` uses the same shuffled decks under every
variant (seeded by the study seed and ``m`` only), so differences between
variants are not luck of the cards.  Same seed, same report, any ``jobs``.

**Effects** (``effects``): every variant after the first against the first, the
baseline, on each figure, paired by match: the figure is computed on each match alone
(a share of its deals, a mean over its deals, 0 or 1 for the match's winner), the
baseline's value on the same match number (the same decks) is subtracted, and the mean
of those differences gets a 95 % Student's t interval over the matches
(``stats.paired_interval``).  This is the interval of the effect itself, narrower than
the two separate intervals wherever the decks explain part of the figure.  (A mean of
per-match figures weighs every match alike, so an effect's mean can differ a little
from the difference of the pooled figures when deal counts differ.)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final

from ..bots import decide, make_bot
from ..core import CARDS, Phase, Rank, SplitMix64, State, Suit, TableOptions
from .stats import Paired, mean, paired_interval, wilson_interval

QUEEN_OF_SPADES: Final = CARDS[Rank.QUEEN * 4 + Suit.SPADES]


def parse_variants(
    text: str, base: TableOptions | None = None
) -> tuple[tuple[str, TableOptions], ...]:
    """Variants from ``"take=any,take=match,forced_foxtrot=true"``; ``+`` joins changes
    of one variant (``take=match+forced_foxtrot=true``).  Each changes ``base``.

    Raises ``ValueError`` (or ``OptionsError``) naming the bad part.
    """
    base = base if base is not None else TableOptions()
    found: list[tuple[str, TableOptions]] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise ValueError(f"variants: an empty variant in {text!r}")
        changes: dict[str, Any] = {}
        for change in item.split("+"):
            key, sep, value = change.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise ValueError(f"variants: {change!r} is not key=value (e.g. take=any)")
            changes[key.strip()] = _value(key.strip(), value.strip())
        found.append((item, base.replace(**changes)))
    if len({label for label, _ in found}) != len(found):
        raise ValueError(f"variants: a variant is named twice in {text!r}")
    return tuple(found)


def _value(key: str, value: str) -> Any:
    if key in ("players", "target"):
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"variants: {key}={value!r} is not a whole number") from None
    if key == "forced_foxtrot":
        if value.lower() not in ("true", "false"):
            raise ValueError(f"variants: forced_foxtrot={value!r} is not true or false")
        return value.lower() == "true"
    return value


@dataclasses.dataclass(frozen=True, slots=True)
class StudyConfig:
    """What to play: the variants, the bots (one per seat, repeated), matches, seed."""

    variants: tuple[tuple[str, TableOptions], ...]
    bots: tuple[str, ...] = ("greedy",)
    matches: int = 100
    skill_matches: int = 100
    seed: int = 0

    def __post_init__(self) -> None:
        if not self.variants:
            raise ValueError("a study needs at least one variant")
        if self.matches < 1 or self.skill_matches < 0:
            raise ValueError("matches must be at least 1 (skill matches at least 0)")
        for name in self.bots:
            make_bot(name)  # refuses an unknown bot (and the oracle) now, not in a worker


@dataclasses.dataclass(frozen=True, slots=True)
class DealFacts:
    """What one deal showed."""

    length: int
    scores: tuple[int, ...]
    foxtrots: int
    first: int  # the seat that moved first
    dealer: int
    queen_decided: bool


@dataclasses.dataclass(frozen=True, slots=True)
class MatchFacts:
    """What one match showed: its deals, its winner and who moved first in deal 1."""

    deals: tuple[DealFacts, ...]
    winner: int
    first: int
    seats: tuple[str, ...]


def _outright(scores: Sequence[int]) -> int | None:
    best = max(scores)
    return scores.index(best) if list(scores).count(best) == 1 else None


def play_one(options: TableOptions, seats: Sequence[str], seed: int, match: int) -> MatchFacts:
    """One match, its decks from (seed, match) only: the same under every variant."""
    deals_rng = SplitMix64(f"foxtrot-study:{seed}:deals:{match}")
    bots = [make_bot(name) for name in seats]
    rngs = [SplitMix64(f"foxtrot-study:{seed}:bot:{match}:{s}") for s in range(len(seats))]
    state = State(options, rng=deals_rng)
    deals: list[DealFacts] = []
    first_of_match = -1
    while not state.is_over:
        state.deal(deals_rng)
        first = state.to_move
        assert first is not None
        first_of_match = first if first_of_match < 0 else first_of_match
        dealer = state.dealer
        length = 0
        while state.phase is Phase.PLAYING:
            seat = state.to_move
            assert seat is not None
            state.apply_unchecked(decide(bots[seat], state, rngs[seat]))
            length += 1
        log = state.deal_logs()[-1]
        assert log.scores is not None
        scores = tuple(line.total for line in log.scores)
        without = [
            total + 20 * state.taken(seat).count(QUEEN_OF_SPADES)
            for seat, total in enumerate(scores)
        ]
        foxtrots = sum(line.foxtrots + line.double_foxtrots for line in log.scores)
        decided = _outright(scores) != _outright(without)
        deals.append(DealFacts(length, scores, foxtrots, first, dealer, decided))
    assert state.winner is not None
    return MatchFacts(tuple(deals), state.winner, first_of_match, tuple(seats))


def _task(args: tuple[TableOptions, tuple[str, ...], int, int]) -> MatchFacts:
    return play_one(*args)


@dataclasses.dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95 % interval and the number of observations behind it."""

    value: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, float | int]:
        """Rounded for a report."""
        return {"value": round(self.value, 4), "low": round(self.low, 4),
                "high": round(self.high, 4), "n": self.n}  # fmt: skip


def mean_interval(values: Sequence[float]) -> Estimate:
    """The mean and mean ± 1.96 standard errors (a normal interval)."""
    n = len(values)
    centre = mean(values)
    if n < 2:
        return Estimate(centre, math.nan, math.nan, n)
    sd = math.sqrt(math.fsum((v - centre) ** 2 for v in values) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return Estimate(centre, centre - half, centre + half, n)


def share(hits: int, n: int) -> Estimate:
    """A proportion with its Wilson interval."""
    low, high = wilson_interval(hits, n)
    return Estimate(hits / n if n else math.nan, low, high, n)


#: The figures of a variant, in the order of the report: key, label.
METRICS: Final = (
    ("deal_length", "actions per deal"),
    ("deals_per_match", "deals per match"),
    ("score_spread", "score spread in a deal (best - worst)"),
    ("foxtrots_per_deal", "foxtrots per deal (all seats)"),
    ("first_player_edge", "first player's deal score - table mean"),
    ("dealer_edge", "dealer's deal score - table mean"),
    ("first_player_deal_wins", "deals won outright by the first player"),
    ("first_mover_match_wins", "matches won by the first player of deal 1"),
    ("queen_decides", "deals decided by the Q♠"),
    ("skill_win_rate", "greedy's match win rate against random"),
    ("skill_margin", "greedy's deal score - random's"),
)


def summarize(facts: Sequence[MatchFacts], skill: Sequence[MatchFacts]) -> dict[str, Estimate]:
    """The figures of one variant (see ``METRICS``)."""
    deals = [deal for match in facts for deal in match.deals]
    n = len(facts[0].seats)

    def edge(seat_of: Callable[[DealFacts], int]) -> Estimate:
        return mean_interval([d.scores[seat_of(d)] - sum(d.scores) / n for d in deals])

    out = {
        "deal_length": mean_interval([d.length for d in deals]),
        "deals_per_match": mean_interval([len(m.deals) for m in facts]),
        "score_spread": mean_interval([max(d.scores) - min(d.scores) for d in deals]),
        "foxtrots_per_deal": mean_interval([d.foxtrots for d in deals]),
        "first_player_edge": edge(lambda d: d.first),
        "dealer_edge": edge(lambda d: d.dealer),
        "first_player_deal_wins": share(
            sum(_outright(d.scores) == d.first for d in deals), len(deals)
        ),
        "first_mover_match_wins": share(sum(m.winner == m.first for m in facts), len(facts)),
        "queen_decides": share(sum(d.queen_decided for d in deals), len(deals)),
    }
    if skill:
        wins = sum(m.seats[m.winner] == "greedy" for m in skill)
        margins = []
        for match in skill:
            for deal in match.deals:
                greedy = [s for s, name in enumerate(match.seats) if name == "greedy"]
                rand = [s for s, name in enumerate(match.seats) if name != "greedy"]
                margins.append(
                    mean([deal.scores[s] for s in greedy]) - mean([deal.scores[s] for s in rand])
                )
        out["skill_win_rate"] = share(wins, len(skill))
        out["skill_margin"] = mean_interval(margins)
    return out


def match_figures(match: MatchFacts) -> dict[str, float]:
    """The figures of ``METRICS`` on one match alone (the skill figures not included)."""
    deals = match.deals
    n = len(match.seats)
    return {
        "deal_length": mean([d.length for d in deals]),
        "deals_per_match": float(len(deals)),
        "score_spread": mean([max(d.scores) - min(d.scores) for d in deals]),
        "foxtrots_per_deal": mean([d.foxtrots for d in deals]),
        "first_player_edge": mean([d.scores[d.first] - sum(d.scores) / n for d in deals]),
        "dealer_edge": mean([d.scores[d.dealer] - sum(d.scores) / n for d in deals]),
        "first_player_deal_wins": mean([float(_outright(d.scores) == d.first) for d in deals]),
        "first_mover_match_wins": float(match.winner == match.first),
        "queen_decides": mean([float(d.queen_decided) for d in deals]),
    }


def effects(baseline: Sequence[MatchFacts], variant: Sequence[MatchFacts]) -> dict[str, Paired]:
    """Each figure's effect of ``variant`` over ``baseline``, paired match by match (the
    same match numbers, so the same decks): see the module doc."""
    if len(baseline) != len(variant):
        raise ValueError("effects: the variants played different numbers of matches")
    base = [match_figures(match) for match in baseline]
    other = [match_figures(match) for match in variant]
    return (
        {
            key: paired_interval([b[key] - a[key] for a, b in zip(base, other, strict=True)])
            for key in base[0]
        }
        if base
        else {}
    )


@dataclasses.dataclass(frozen=True, slots=True)
class StudyResults:
    """Per variant: its label, options and figures; and every variant's paired effects
    over the first (``effects``; an empty dict for the first)."""

    config: StudyConfig
    figures: tuple[dict[str, Estimate], ...]
    seconds: float
    changes: tuple[dict[str, Paired], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The whole report as JSON data."""
        return {
            "format": "foxtrot-study/1",
            "seed": self.config.seed,
            "bots": list(self.config.bots),
            "matches": self.config.matches,
            "skill_matches": self.config.skill_matches,
            "methods": __doc__,
            "variants": [
                {
                    "variant": label,
                    "options": options.to_json(),
                    "figures": {key: est.to_json() for key, est in figures.items()},
                    "effect_over_first": {key: found.to_json() for key, found in change.items()},
                }
                for (label, options), figures, change in zip(
                    self.config.variants,
                    self.figures,
                    self.changes or ({},) * len(self.figures),
                    strict=True,
                )
            ],
        }


def _seats(bots: Sequence[str], players: int, match: int) -> tuple[str, ...]:
    """The bots repeated to fill the table, rotated by the match number."""
    filled = [bots[s % len(bots)] for s in range(players)]
    shift = match % players
    return tuple(filled[shift:] + filled[:shift])


def study_tasks(config: StudyConfig) -> list[tuple[TableOptions, tuple[str, ...], int, int]]:
    """Every match to play: per variant, ``matches`` with the bots, then the skill matches."""
    found = []
    for _, options in config.variants:
        n = options.players
        for match in range(config.matches):
            found.append((options, _seats(config.bots, n, match), config.seed, match))
        for match in range(config.skill_matches):
            seats = _seats(("greedy", "random"), n, match)
            found.append((options, seats, config.seed, config.matches + match))
    return found


def run_study(
    config: StudyConfig, *, jobs: int = 1, progress: Callable[[], None] | None = None
) -> StudyResults:
    """Play every match of ``config`` on ``jobs`` processes and summarize each variant."""
    import time  # noqa: PLC0415

    start = time.perf_counter()
    todo = study_tasks(config)
    played: list[MatchFacts] = []
    if jobs <= 1:
        for task in todo:
            played.append(_task(task))
            if progress is not None:
                progress()
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for facts in pool.map(_task, todo, chunksize=max(1, len(todo) // (jobs * 8))):
                played.append(facts)
                if progress is not None:
                    progress()
    per = config.matches + config.skill_matches
    figures = []
    changes: list[dict[str, Paired]] = []
    for index in range(len(config.variants)):
        chunk = played[index * per : (index + 1) * per]
        figures.append(summarize(chunk[: config.matches], chunk[config.matches :]))
        first = played[: config.matches]
        changes.append({} if index == 0 else effects(first, chunk[: config.matches]))
    return StudyResults(config, tuple(figures), time.perf_counter() - start, tuple(changes))


__all__ = [
    "METRICS",
    "DealFacts",
    "Estimate",
    "MatchFacts",
    "StudyConfig",
    "StudyResults",
    "effects",
    "match_figures",
    "mean_interval",
    "parse_variants",
    "play_one",
    "run_study",
    "share",
    "study_tasks",
    "summarize",
]
