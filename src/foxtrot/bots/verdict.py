"""The verdict on a deal: its result set against what the seat's choices cost.

A review grades each move by the expected margin it gave up; a deal can
still be lost by hundreds of points with every move the expert's.  The
verdict says which it was, in numbers: the deal's margin (the seat's score
minus the others' mean, the measure of the expert's values), the sum of the
losses of the seat's moves, and when the losses explain less than half of a
lost margin, that the cards decided it, and under take = any the tempo (who
had to start the new piles: whoever faces a pile can take it, so the player
who starts piles can hardly score, rule T4).  Every verdict names a move and
its alternative with their values: the costliest move, or, when no move lost
anything, the choice where the expert's move was furthest ahead.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..core import TakeRule, replay
from ..i18n import catalog
from .coach import ReviewItem, action_text


@dataclasses.dataclass(frozen=True, slots=True)
class DealVerdict:
    """How one finished deal went for the seat, set against what its choices cost.

    ``score`` is the seat's deal score, ``others`` the others' mean: the
    deal's margin is the difference, the measure the expert's values use.
    ``lost`` sums the losses of the seat's reviewed moves in the deal: when
    it is less than half of a lost margin, the choices do not explain the
    result, the cards do (and, under take = any, the tempo: ``started`` of
    the deal's ``piles`` new piles had to be started by this seat).
    ``costliest`` is the reviewed move that lost most, ``closest`` the one
    where the expert's move was furthest ahead of the next best (the
    choice that mattered most); either names an alternative.
    """

    deal: int
    score: int
    others: float
    lost: float
    started: int
    piles: int
    players: int
    take_any: bool
    costliest: ReviewItem | None
    closest: ReviewItem | None

    @property
    def margin(self) -> float:
        """The seat's deal score minus the others' mean."""
        return self.score - self.others

    @property
    def by_the_cards(self) -> bool:
        """Lost, while the seat's choices cost less than half of the lost margin."""
        return self.margin < 0 and 2 * self.lost < -self.margin

    def text(self, lang: str = "en") -> str:
        """The verdict in two sentences: the result against the cost of the choices, and
        the move that names an alternative."""
        cat = catalog(lang)
        values = {
            "deal": self.deal + 1,
            "score": self.score,
            "others": cat.count("coach_others", self.players - 1, points=round(self.others)),
            "margin": round(self.margin),
            "lost": cat.count("coach_points", round(self.lost)),
        }
        if self.margin >= 0:
            head = cat.text("coach_verdict_won", **values)
        elif not self.by_the_cards:
            head = cat.text("coach_verdict_choices", **values)
        else:
            tempo = ""
            if self.take_any and self.started * self.players > self.piles:
                tempo = cat.text("coach_verdict_tempo", started=self.started, piles=self.piles)
            head = cat.text("coach_verdict_cards", **values, tempo=tempo)
        return f"{head} {self._example(lang)}"

    def _example(self, lang: str) -> str:
        cat = catalog(lang)
        item = self.costliest or self.closest
        if item is None or item.best_value is None:
            return cat.text("coach_verdict_forced")
        common = {"move": item.index + 1, "best_value": round(item.best_value)}
        if item is self.costliest:
            # the cost in the review lines' measure (points of expected margin lost)
            return cat.text(
                "coach_verdict_costliest",
                move=item.index + 1,
                played=action_text(item.played, lang),
                best=action_text(item.best, lang),
                lost=cat.count("coach_lost", round(item.loss)),
            )
        assert item.second is not None and item.second_value is not None
        return cat.text(
            "coach_verdict_closest",
            **common,
            best=action_text(item.best, lang),
            second=action_text(item.second, lang),
            second_value=round(item.second_value),
        )


def verdicts(
    record: Mapping[str, Any], seat: int, items: Sequence[ReviewItem], deal: int | None = None
) -> list[DealVerdict]:
    """A verdict for every finished deal of the record (or only deal ``deal``), from the
    review's ``items`` of that seat and one more replay of the record (no search)."""
    started: dict[int, list[int]] = {}
    pile = 0
    state = None
    for step in replay(record):
        state = step.state
        if step.action is None:
            started[step.deal] = [0] * state.players
        elif step.move is not None and step.move.card is not None and pile == 0:
            assert step.seat is not None
            started[step.deal][step.seat] += 1
        pile = len(state.pile)
    if state is None:
        return []
    found = []
    for index, log in enumerate(state.deal_logs()):
        if log.scores is None or (deal is not None and index != deal):
            continue
        totals = [line.total for line in log.scores]
        mine = [item for item in items if item.deal == index]
        costliest = max(mine, key=lambda item: item.loss, default=None)
        if costliest is not None and round(costliest.loss) < 1:
            costliest = None
        closest = max(mine, key=_lead, default=None) if costliest is None else None
        found.append(
            DealVerdict(
                index,
                totals[seat],
                (sum(totals) - totals[seat]) / (len(totals) - 1),
                sum(item.loss for item in mine),
                started[index][seat],
                sum(started[index]),
                len(totals),
                state.options.take is TakeRule.ANY,
                costliest,
                closest,
            )
        )
    return found


def _lead(item: ReviewItem) -> float:
    """How far the expert's move was ahead of the next best in a reviewed position."""
    if item.best_value is None or item.second_value is None:
        return -math.inf
    return item.best_value - item.second_value


__all__ = ["DealVerdict", "verdicts"]
