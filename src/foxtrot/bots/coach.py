"""Hints and the coach: the expert's move with a reason, card counting, and a review of a deal.

Three services for a player who wants to get better:

- ``suggest(obs)`` gives the move the expert (``ExpertBot``) would make, with a
  short reason in words ("makes a double foxtrot: +40", "takes 21 points",
  "avoids taking the Q♠") compared with the next best move of the same search
  ("...; playing 7♣ instead is 12 points worse — it leaves a lone 7♣: the next
  player can match it (64%)"), and the seat's card count (``counting.card_count``).
- ``explain(obs, action)`` gives that reason for any legal action, so a front
  end can also describe the move the player made.
- ``review(record, seat)`` replays a finished (or unfinished) record and
  grades every move of one seat against the expert: good, inaccuracy or
  mistake, by the points it lost in expected value; a weaker move is shown
  with the better one and the expected margins of both.  ``verdict.verdicts``
  sets each deal's result against what the choices cost.

Honesty.  Everything is computed from the seat's ``Observation``; the reason
of a move comes from the move's immediate effect (``greedy.effects``, which
applies it on a table sampled from the observation), and names only the
seat's own card, the cards of the pile and the cards it takes, all of them
face up or in the seat's hand.  So a hint never tells a player about a card
he cannot know, and the same observation gives the same hint whatever the
hidden cards are (tests/test_coach.py checks both with hypothesis).

Determinism.  Without an ``rng`` the generator is seeded from a digest of the
observation, so the same position gives the same hint and the same review.
With a time budget (``seconds``) the number of search iterations depends on
the machine; the hint is reproducible when the iteration budget ends the
search first (``seconds=None`` guarantees it).

How the loss of a reviewed move is measured.  The expert's analysis gives,
for every legal action, its mean deal margin (the seat's deal score minus the
mean of the others', in points), every action evaluated on the same sampled
deals of the hidden cards and the same futures (common random numbers), so
the difference of two values is a fair comparison.  The loss is the value of
the expert's move minus the value of the played move, never negative.

Solved endgames.  Near the end of a two-player deal the expert solves the rest of the deal
instead of sampling it (``endgame``): when the observation determines the hidden cards its
values are exact, and otherwise every consistent deal is solved exactly and weighed.  A hint
and a reviewed move carry that (``solved``: 1 exact, more the deals solved, 0 sampled) and
say it in their words ("...; the coach solved this position exactly").

Grades: a loss under ``GOOD_BELOW`` (3 points) is good, under
``MISTAKE_FROM`` (10 points, a single foxtrot) an inaccuracy, else a mistake.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from ..core import Action, Card, Observation, Phase, PlayResult, SplitMix64, from_record, replay
from ..core.kernel import FOXTROT_BONUS
from ..i18n import card_slots, card_text, catalog
from .counting import QUEEN_OF_SPADES, CardCount, card_count, percent
from .expert import Analysis, ExpertBot
from .greedy import Effect, effects

GOOD_BELOW: Final = 3.0  # points of expected value: less than this lost is a good move
MISTAKE_FROM: Final = float(FOXTROT_BONUS)  # this much or more lost (a foxtrot) is a mistake


# ------------------------------------------------------------------ helpers


def observation_seed(obs: Observation) -> int:
    """A seed that depends on everything in the observation and on nothing else.

    Python's ``hash`` of text changes from run to run, so the digest is
    SHA-256 of a canonical text of the observation.
    """
    text = json.dumps(
        [
            obs.options.to_json(),
            obs.seat,
            obs.deal,
            obs.dealer,
            obs.to_move,
            [str(card) for card in obs.hand],
            [str(card) for card in obs.pile],
            obs.stock,
            list(obs.hand_sizes),
            [[seat, str(action)] for seat, action in obs.history],
            list(obs.totals),
            str(obs.upturned),
        ],
        sort_keys=True,
    )
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def observation_rng(obs: Observation) -> random.Random:
    """The default generator of a hint or a review: seeded from the observation."""
    return SplitMix64(observation_seed(obs))


def action_text(action: Action, lang: str = "en") -> str:
    """An action for the screen: the card (``10♥``, ``Д♠``) or "take the pile"."""
    if action.card is None:
        return catalog(lang).text("coach_take")
    return card_text(action.card, lang)


def solved_note(reason: str, solved: int, lang: str = "en") -> str:
    """``reason`` with how the coach knows its values when it solved the endgame
    (``Analysis.solved``: 1 exactly, more that many deals of the hidden cards each exactly)."""
    if solved == 1:
        return catalog(lang).text("coach_solved_exact", reason=reason)
    if solved > 1:
        return catalog(lang).text("coach_solved_deals", reason=reason, deals=solved)
    return reason


def _to_move(obs: Observation) -> None:
    if obs.phase is not Phase.PLAYING or obs.to_move != obs.seat or not obs.legal_actions:
        raise ValueError(f"seat {obs.seat} is not to move")


# ------------------------------------------------------------------ reasons


def _reason(
    effect: Effect,
    others: Iterable[Effect],
    obs: Observation,
    count: CardCount,
    lang: str,
    *,
    words: bool = False,
) -> str:
    """The most telling thing about one action's immediate effect, in words.

    Only the action's card, the pile and the cards taken are named: all of
    them are known to the seat.  A card is named in short (``Д♠``), or with
    ``words`` by its name in the case the sentence needs ("оставляет в стопке
    только даму пик"), as the page's hint names the move itself.
    """
    cat = catalog(lang)

    def slots(card: Card) -> dict[str, str]:
        return card_slots(card, lang, words=words)

    total = effect.bonus + effect.points
    if effect.result is PlayResult.DOUBLE_FOXTROT:
        return cat.text("coach_double_foxtrot", total=total)
    if effect.result is PlayResult.FOXTROT:
        return cat.text("coach_foxtrot", total=total)
    pile = obs.pile
    if effect.taken:  # a Jack, a matching card (take = match) or taking the pile
        n = len(effect.taken)
        if effect.points < 0 and QUEEN_OF_SPADES in effect.taken:
            return cat.count("coach_takes_loss", n, **slots(QUEEN_OF_SPADES), points=effect.points)
        if len(pile) == 1:
            return cat.text("coach_takes_lone", **slots(pile[0]))
        if effect.points > 0:
            return cat.count("coach_takes_points", effect.points)
        return cat.count("coach_takes_cards", n)
    card = effect.action.card
    assert card is not None  # a take always takes something: the pile is not empty
    if QUEEN_OF_SPADES in pile and any(
        QUEEN_OF_SPADES in other.taken for other in others if other.action != effect.action
    ):
        return cat.text("coach_avoids", **slots(QUEEN_OF_SPADES))
    if card == QUEEN_OF_SPADES:
        return cat.text("coach_poisons", **slots(card))
    # the pile after the move; empty when the move ended the deal (the card was laid on it)
    after = effect.pile or (*pile, card)
    if len(after) == 1:
        risk = count.lone_card_risk[card.rank]
        if risk <= 0.0:
            return cat.text("coach_lone_safe", **slots(card))
        return cat.text("coach_lone_risk", **slots(card), pct=percent(risk))
    if len(pile) == 1:
        return cat.text("coach_no_lone")
    worth = sum(other.points for other in after)
    if worth <= 0:
        return cat.text("coach_nothing_to_take")
    return cat.count("coach_lays", len(after), **slots(card), points=worth)


def _explain(
    obs: Observation, action: Action, lang: str, count: CardCount, *, words: bool = False
) -> str:
    found = effects(obs)
    chosen = next((effect for effect in found if effect.action == action), None)
    if chosen is None:
        raise ValueError(f"{action} is not a legal action of seat {obs.seat}")
    cat = catalog(lang)
    reason = _reason(chosen, found, obs, count, lang, words=words)
    if len(obs.legal_actions) == 1:
        reason = cat.text("coach_only_move", reason=reason)
    return reason


def explain(obs: Observation, action: Action, lang: str = "en", *, words: bool = False) -> str:
    """Why ``action`` is played, in one short phrase: its most telling immediate effect (the
    cards in short, or with ``words`` in words)."""
    _to_move(obs)
    return _explain(obs, action, lang, card_count(obs), words=words)


# -------------------------------------------------------------------- hints


@dataclasses.dataclass(frozen=True, slots=True)
class Hint:
    """The move to make, why, its expected deal margin (``None`` if not searched), the count.

    ``alternative`` is the next best move by the same search and
    ``alternative_value`` its expected margin: ``reason`` compares the two.  ``solved`` is
    ``Analysis.solved``: 1 when the coach solved the position exactly (the values are exact,
    and the reason says so), more when it solved that many consistent deals, 0 if it sampled.
    """

    action: Action
    reason: str
    value: float | None
    counting: CardCount
    alternative: Action | None = None
    alternative_value: float | None = None
    solved: int = 0

    @property
    def exact(self) -> bool:
        """The coach solved this position exactly: its values are not estimates."""
        return self.solved == 1


def runner_up(analysis: Analysis, besides: Action | None = None) -> Action | None:
    """The best action other than ``besides`` (the expert's move by default), if any."""
    skip = analysis.best if besides is None else besides
    others = [action for action in analysis.values if action != skip]
    if not others:
        return None
    return max(others, key=lambda action: (analysis.values[action], -action.code))


def alternative_text(action: Action, lang: str = "en", *, words: bool = False) -> str:
    """The alternative move as the subject of a phrase: "playing 7♣", "taking the pile"
    (with ``words``: "playing the seven of clubs")."""
    cat = catalog(lang)
    if action.card is None:
        return cat.text("coach_alt_take")
    return cat.text("coach_alt_play", **card_slots(action.card, lang, words=words))


def compared(
    obs: Observation,
    action: Action,
    other: Action,
    gap: float,
    lang: str = "en",
    *,
    count: CardCount | None = None,
    words: bool = False,
) -> str:
    """Why ``action`` rather than ``other``: its reason, then how much worse ``other`` is and
    what ``other`` would do ("takes 21 points; playing 7♣ instead is 12 points worse — it
    leaves a lone 7♣: ..."), or, when both do the same at once, that the difference comes
    later.  ``gap`` is the difference of their expected margins."""
    count = count if count is not None else card_count(obs)
    found = effects(obs)
    cat = catalog(lang)
    by_action = {effect.action: effect for effect in found}
    reason = _reason(by_action[action], found, obs, count, lang, words=words)
    other_reason = _reason(by_action[other], found, obs, count, lang, words=words)
    points = round(gap)
    alt = alternative_text(other, lang, words=words)
    if other_reason == reason:  # the same at once: the difference is in what follows
        if points < 1:
            return cat.text("coach_hint_close_same", reason=reason, alt=alt)
        return cat.count("coach_hint_better_same", points, reason=reason, alt=alt)
    if points < 1:
        return cat.text("coach_hint_close", reason=reason, alt=alt, alt_reason=other_reason)
    return cat.count("coach_hint_better", points, reason=reason, alt=alt, alt_reason=other_reason)


def suggest(
    obs: Observation,
    lang: str = "en",
    *,
    rng: random.Random | None = None,
    iterations: int = 100,
    seconds: float | None = 0.5,
    words: bool = False,
) -> Hint:
    """The expert's move for ``obs.seat``, with a reason in ``lang`` and the card count.

    The reason says what the move does and compares it with the next best
    move of the same search: how many points of expected margin that one
    gives up, and what it would do.  With a single legal action there is
    nothing to search or compare.  The default generator is seeded from the
    observation (see ``observation_seed``).  The reason names cards in short
    (``Д♠``), or with ``words`` in words in the case each sentence needs, for
    a front end that names the move itself in words (the page's hint).
    """
    _to_move(obs)
    count = card_count(obs)
    if len(obs.legal_actions) == 1:
        action = obs.legal_actions[0]
        return Hint(action, _explain(obs, action, lang, count, words=words), None, count)
    analysis = ExpertBot(iterations, seconds).analyse(
        obs, rng if rng is not None else observation_rng(obs)
    )
    action = analysis.best
    other = runner_up(analysis)
    assert other is not None  # more than one legal action
    value, other_value = analysis.values[action], analysis.values[other]
    reason = compared(obs, action, other, value - other_value, lang, count=count, words=words)
    reason = solved_note(reason, analysis.solved, lang)
    return Hint(action, reason, value, count, other, other_value, analysis.solved)


# ------------------------------------------------------------------- review


class Grade(enum.StrEnum):
    """How good a move was, by the points it lost against the expert's move."""

    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"

    @classmethod
    def of(cls, loss: float) -> Grade:
        """The grade of a move that lost ``loss`` points of expected value."""
        if loss < GOOD_BELOW:
            return cls.GOOD
        if loss < MISTAKE_FROM:
            return cls.INACCURACY
        return cls.MISTAKE

    def text(self, lang: str = "en") -> str:
        """The grade in words."""
        return catalog(lang).text(f"coach_grade_{self.value}")


@dataclasses.dataclass(frozen=True, slots=True)
class ReviewItem:
    """One reviewed move: where it was, what was played, the expert's move, the loss.

    ``index`` is the action's index in the deal (0-based, all seats counted);
    ``observation`` is what the seat saw before the move.  ``value`` and
    ``best_value`` are the expected deal margins of the played and the
    expert's move; ``second`` is the best move other than the expert's, with
    ``second_value`` (how close the choice was).  ``solved`` is the analysis's
    (``Analysis.solved``: 1 exact values), said in ``text``.
    """

    deal: int
    index: int
    played: Action
    best: Action
    loss: float
    grade: Grade
    observation: Observation = dataclasses.field(repr=False, compare=False)
    lang: str = dataclasses.field(default="en", compare=False)
    value: float | None = None
    best_value: float | None = None
    second: Action | None = None
    second_value: float | None = None
    solved: int = 0

    @property
    def exact(self) -> bool:
        """The coach solved this position exactly: the loss is exact, not an estimate."""
        return self.solved == 1

    def reason(self, lang: str | None = None) -> str:
        """Why, in words: what the played move does against the next best one (a good move),
        or what the expert's move would have done (a weaker one)."""
        lang = lang if lang is not None else self.lang
        count = card_count(self.observation)
        if self.grade is not Grade.GOOD:
            return _explain(self.observation, self.best, lang, count)
        other, other_value = (
            (self.second, self.second_value)
            if self.played == self.best
            else (self.best, self.best_value)
        )
        if other is not None and other_value is not None and self.value is not None:
            gap = self.value - other_value
            return compared(self.observation, self.played, other, gap, lang, count=count)
        return _explain(self.observation, self.played, lang, count)

    def text(self, lang: str | None = None) -> str:
        """A one-line comment: the grade, and for a weaker move the points lost, the better
        move with the expected margins of both, and what the better move does.

        A good move is explained by its own effect compared with the next best
        move, a weaker one by the effect of the expert's move.
        """
        lang = lang if lang is not None else self.lang
        cat = catalog(lang)
        place = {
            "deal": self.deal + 1,
            "move": self.index + 1,
            "played": action_text(self.played, lang),
            "grade": self.grade.text(lang),
        }
        reason = solved_note(self.reason(lang), self.solved, lang)
        if self.grade is Grade.GOOD:
            return cat.text("coach_review_good", **place, reason=reason)
        if self.value is None or self.best_value is None:
            lost = cat.count("coach_lost", round(self.loss))
            best = action_text(self.best, lang)
        else:
            best_value, value = round(self.best_value), round(self.value)
            lost = cat.count("coach_lost", round(self.loss))  # as the summary counts it
            best = cat.text(
                "coach_best_value",
                best=action_text(self.best, lang),
                best_value=best_value,
                value=value,
            )
        return cat.text("coach_review_worse", **place, lost=lost, best=best, reason=reason)


def _loss(analysis: Analysis, played: Action) -> float:
    """Points ``played`` lost against the expert's move (see the module's docstring)."""
    return max(0.0, analysis.values[analysis.best] - analysis.values[played])


def _decisions(
    record: Mapping[str, Any], seat: int, deal: int | None
) -> list[tuple[int, int, Observation, Action]]:
    """Every move of ``seat`` in the record: (deal, index, what the seat saw before, move).

    The whole record is replayed and checked first (``foxtrot.core.replay``),
    so a bad record is refused before any search is spent on it.
    """
    found: list[tuple[int, int, Observation, Action]] = []
    before: Observation | None = None
    players: int | None = None
    deals: set[int] = set()
    for step in replay(record):
        state = step.state
        if players is None:
            players = state.players
            if type(seat) is not int or not 0 <= seat < players:
                raise ValueError(f"seat {seat!r} is not a seat (0 to {players - 1})")
        deals.add(step.deal)
        if (
            step.action is not None
            and step.seat == seat
            and step.move is not None
            and before is not None
        ):
            found.append((step.deal, step.action, before, step.move))
        before = None
        if state.to_move == seat and (deal is None or step.deal == deal):
            before = state.observation(seat)
    if players is None:
        players = from_record(record).players
        if type(seat) is not int or not 0 <= seat < players:
            raise ValueError(f"seat {seat!r} is not a seat (0 to {players - 1})")
    if deal is not None and deal not in deals:
        raise ValueError(f"the record has no deal {deal} (deals are numbered from 0)")
    return found


def review(
    record: Mapping[str, Any],
    seat: int,
    lang: str = "en",
    *,
    iterations: int = 60,
    seconds: float | None = None,
    rng: random.Random | None = None,
    deal: int | None = None,
) -> list[ReviewItem]:
    """Grade every move of ``seat`` in a G2 record (or only in deal ``deal``, 0-based).

    Forced moves (a single legal action) are skipped.  Each move gets its own
    analysis from the seat's observation before it; without ``rng`` each
    position's generator is seeded from its observation, so a review is
    reproducible.  ``lang`` is the default language of ``ReviewItem.text``.
    """
    catalog(lang)  # refuse an unknown language before the long part
    expert = ExpertBot(iterations, seconds)
    items = []
    for deal_index, index, obs, played in _decisions(record, seat, deal):
        if len(obs.legal_actions) == 1:
            continue
        generator = rng if rng is not None else observation_rng(obs)
        analysis = expert.analyse(obs, generator)
        loss = _loss(analysis, played)
        second = runner_up(analysis)
        values = analysis.values
        items.append(
            ReviewItem(
                deal_index,
                index,
                played,
                analysis.best,
                loss,
                Grade.of(loss),
                obs,
                lang,
                values[played],
                values[analysis.best],
                second,
                values[second] if second is not None else None,
                analysis.solved,
            )
        )
    return items


def summary(items: Sequence[ReviewItem], lang: str = "en") -> str:
    """One line: how many good moves, inaccuracies and mistakes, and the points lost in all;
    and how many of those the good moves lost, so that "0 mistakes; 14 points lost" does not
    read as a contradiction."""
    cat = catalog(lang)
    grades = [item.grade for item in items]
    line = cat.text(
        "coach_summary",
        good=cat.count("coach_n_good", grades.count(Grade.GOOD)),
        inaccuracies=cat.count("coach_n_inaccuracies", grades.count(Grade.INACCURACY)),
        mistakes=cat.count("coach_n_mistakes", grades.count(Grade.MISTAKE)),
        lost=cat.count("coach_total_lost", round(sum(item.loss for item in items))),
    )
    small = round(sum(item.loss for item in items if item.grade is Grade.GOOD))
    return line + cat.count("coach_lost_in_good", small) if small else line


__all__ = [
    "GOOD_BELOW",
    "MISTAKE_FROM",
    "CardCount",
    "Grade",
    "Hint",
    "ReviewItem",
    "action_text",
    "alternative_text",
    "card_count",
    "compared",
    "explain",
    "observation_rng",
    "observation_seed",
    "review",
    "runner_up",
    "solved_note",
    "suggest",
    "summary",
]
