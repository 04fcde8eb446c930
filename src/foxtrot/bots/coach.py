"""Hints and the coach: the expert's move with a reason, card counting, and a review of a deal.

Three services for a player who wants to get better:

- ``suggest(obs)`` gives the move the expert (``ExpertBot``) would make, with a
  short reason in words ("makes a double foxtrot: +40", "takes 21 points",
  "avoids taking the Q♠") compared with the next best move of the same search
  ("...; playing 7♣ instead is 12 points worse — it leaves a lone 7♣: the next
  player holds a card of that rank in 38% of the possible deals, a foxtrot for him
  (-10 × 0.38 = -3.8); besides, -8.2 in the play that follows"), and the seat's card
  count (``counting.card_count``).
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

What a move costs.  The difference between two moves is the difference of the coach's values
(``Analysis.values``: expected deal margins), split into three parts that add up to it as the
words show it (``Difference``): ``now``, what each move scores at once (card points and a
foxtrot's bonus: exact); ``next``, what the pile each leaves is worth to the next player times
the chance that he can take it on his turn (a foxtrot on a lone card, or a bigger pile with a
Jack or the top card's rank), that chance from the seat's card count (``counting``, the unseen
cards only), shared among the other players as the margin shares it; and ``later``, the rest,
which only the search sees: the play that follows in its sampled deals or its solved endgame.
The words name the costliest part first with its number and how it was computed ("-10 × 0.38
= -3.8"), then the others, so that a review line's parts add up to the points lost it shows.
The second move of a comparison is described by what it does differently, never by the
first move's reason, so that two moves compared never get the same words.

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

from ..core import (
    Action,
    Card,
    Observation,
    Phase,
    PlayResult,
    Rank,
    SplitMix64,
    TakeRule,
    from_record,
    replay,
)
from ..core.kernel import FOXTROT_BONUS, FOXTROT_BONUSES
from ..i18n import card_slots, card_text, catalog
from .counting import QUEEN_OF_SPADES, CardCount, card_count, holds_any, percent
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


# ------------------------------------------------------------------ costs


@dataclasses.dataclass(frozen=True, slots=True)
class Cost:
    """What one move does to the seat's deal margin at once, in the parts the coach names.

    ``now`` is what the seat scores with the move itself: the card points it takes (rule P2,
    the Queen of spades -20) and a foxtrot's bonus (P1).  ``offer`` is what the pile the move
    leaves is worth to the next player if he takes it on his turn: on a lone card his foxtrot
    (its bonus and both cards' points; nothing when he would not want it, unless foxtrots are
    forced), on a bigger pile its card points when they are worth having (he takes it with a
    Jack or a card of the top rank, T3a, T3d; under take = any whenever he likes, T4).
    ``chance`` is the chance that he can, from the seat's card count (``counting``: the unseen
    cards only), as the whole percentage the words quote; ``share`` the number of other
    players, since the margin is the seat's score minus the others' mean.
    """

    effect: Effect
    now: int
    offer: int = 0
    chance: float = 0.0
    lone: bool = False
    share: int = 1

    @property
    def next(self) -> float:
        """The expected change of the seat's margin from what the next player can take."""
        return -self.offer * self.chance / self.share


def quoted(chance: float) -> float:
    """A chance as the words quote it: the whole percentage of ``counting.percent``, so that
    a product shown ("-10 × 0.38 = -3.8") is the product of the numbers shown."""
    return percent(chance) / 100


def move_cost(effect: Effect, obs: Observation, count: CardCount | None = None) -> Cost:
    """The ``Cost`` of one move, from its immediate effect and the seat's card count alone."""
    count = count if count is not None else card_count(obs)
    now = effect.points + effect.bonus
    share = max(1, obs.players - 1)
    pile = effect.pile  # empty when the move took the pile or ended the deal
    if not pile:
        return Cost(effect, now, share=share)
    if len(pile) == 1:
        card = pile[0]
        offer = FOXTROT_BONUSES[card.id] + 2 * card.points
        if not obs.options.forced_foxtrot:
            offer = max(0, offer)  # nobody makes a foxtrot that costs him points
        return Cost(effect, now, offer, quoted(count.lone_card_risk[card.rank]), True, share)
    offer = max(0, sum(card.points for card in pile))
    # under take = any he may take any pile (T4); else with a Jack or the top card's rank
    any_take = obs.options.take is TakeRule.ANY
    chance = 1.0 if any_take else holds_any(obs, {Rank.JACK, pile[-1].rank})
    return Cost(effect, now, offer, quoted(chance), False, share)


def number_text(value: float, lang: str, *, sign: bool = True, places: int = 1) -> str:
    """A number as the language writes it: ``-3.8`` in English, ``-3,8`` in Russian."""
    value = round(value, places) + 0.0  # no "-0.0"
    text = f"{value:+.{places}f}" if sign else f"{value:.{places}f}"
    return text.replace(".", ",") if lang in {"ru", "uk"} else text


def formula(cost: Cost, lang: str) -> str:
    """How the next player's part of a cost is computed, with its result: "-10 × 0.38 = -3.8"
    (with more players, "÷ 2": the margin shares his points among the others)."""
    chance = "1" if cost.chance >= 1 else number_text(cost.chance, lang, sign=False, places=2)
    text = f"{-cost.offer:+d} × {chance}"
    if cost.share > 1:
        text += f" ÷ {cost.share}"
    return f"{text} = {number_text(cost.next, lang)}"


def _another_takes_the_queen(others: Iterable[Effect], effect: Effect) -> bool:
    """Another move would take the Queen of spades that this one leaves in the pile."""
    return any(QUEEN_OF_SPADES in other.taken for other in others if other.action != effect.action)


# ------------------------------------------------------------------ reasons


def _reason(
    cost: Cost,
    others: Iterable[Effect],
    obs: Observation,
    count: CardCount,
    lang: str,
    *,
    words: bool = False,
) -> str:
    """The most telling thing about one action's immediate effect, in words, with its number.

    Only the action's card, the pile and the cards taken are named: all of
    them are known to the seat.  A card is named in short (``Д♠``), or with
    ``words`` by its name in the case the sentence needs ("оставляет в стопке
    только даму пик"), as the page's hint names the move itself.
    """
    cat = catalog(lang)
    effect = cost.effect

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
    if QUEEN_OF_SPADES in pile and _another_takes_the_queen(others, effect):
        return cat.text("coach_avoids", **slots(QUEEN_OF_SPADES))
    if card == QUEEN_OF_SPADES:
        return cat.text("coach_poisons", **slots(card))
    # the pile after the move; empty when the move ended the deal (the card was laid on it)
    after = effect.pile or (*pile, card)
    if len(after) == 1:
        risk = count.lone_card_risk[card.rank]
        if risk <= 0.0 or cost.next == 0.0:
            return cat.text("coach_lone_safe", **slots(card))
        return cat.text(
            "coach_lone_risk", **slots(card), pct=percent(risk), formula=formula(cost, lang)
        )
    if len(pile) == 1:
        reason = cat.text("coach_no_lone")
    else:
        worth = sum(other.points for other in after)
        if worth <= 0:
            return cat.text("coach_nothing_to_take")
        reason = cat.count("coach_lays", len(after), **slots(card), points=worth)
    if round(cost.next, 1) == 0.0:  # nothing worth a tenth of a point to him
        return reason
    if cost.chance >= 1:
        return cat.text("coach_with_offer_any", reason=reason, formula=formula(cost, lang))
    return cat.text(
        "coach_with_offer",
        reason=reason,
        pct=round(cost.chance * 100),
        formula=formula(cost, lang),
    )


# ------------------------------------------------------------ differences

#: The parts of a difference, in the order a tie between them is named.
PARTS: Final = ("now", "next", "later")


@dataclasses.dataclass(frozen=True, slots=True)
class Difference:
    """How ``other`` compares with ``chosen`` in points of the seat's expected deal margin.

    ``total`` is the difference of the coach's values (``other``'s minus ``chosen``'s) as the
    words show it; it is split into three parts that add up to it exactly: ``now``, what the
    two moves score at once (``Cost.now``); ``next``, what they leave the next player to take
    on his turn (``Cost.next``, from the card count), to a tenth of a point; and ``later``,
    the rest, which only the coach's search sees: the play that follows, as its sampled deals
    (or its solved endgame) play it out.  ``main`` is the part the words name first: the
    costliest when ``other`` is worse, else the largest; "" when no part is worth a tenth.
    """

    chosen: Cost
    other: Cost
    total: float
    now: int
    next: float
    later: float

    def part(self, name: str) -> float:
        """One part by its name in ``PARTS``."""
        return float({"now": self.now, "next": self.next, "later": self.later}[name])

    @property
    def main(self) -> str:
        """The part that explains the difference (see the class)."""
        if self.total < 0:
            name = min(PARTS, key=self.part)
        else:
            name = max(PARTS, key=lambda part: abs(self.part(part)))
        return name if abs(self.part(name)) >= 0.05 else ""


def difference(
    obs: Observation,
    chosen: Action,
    other: Action,
    total: float,
    *,
    count: CardCount | None = None,
) -> Difference:
    """``other`` against ``chosen`` (see ``Difference``): ``total`` is the difference of their
    values, ``other``'s minus ``chosen``'s, as the words show it (whole points in a review)."""
    count = count if count is not None else card_count(obs)
    by_action = {effect.action: effect for effect in effects(obs)}
    a = move_cost(by_action[chosen], obs, count)
    b = move_cost(by_action[other], obs, count)
    now = b.now - a.now
    nxt = round(b.next - a.next, 1) + 0.0
    later = round(total - now - nxt, 1) + 0.0
    return Difference(a, b, total, now, nxt, later)


def cost_text(
    diff: Difference,
    obs: Observation,
    lang: str = "en",
    *,
    count: CardCount | None = None,
    words: bool = False,
) -> str:
    """What the other move of ``diff`` does differently, as a verb phrase ("gives up the
    foxtrot: -10 at once; besides, -2.4 in the play that follows"): the main part with its
    number and how it is computed, then the other parts, so that the numbers add up to
    ``diff.total``.  When the difference is not in what the moves score at once, the other
    move's own effect is said first ("feeds the pile with the Q♠: ...; the difference, -21.0,
    comes in the play that follows"), unless the two moves' own reasons read the same.  It
    names the other move's card where it names one, never the chosen move's, so it is never
    the chosen move's own reason (``explain``)."""
    count = count if count is not None else card_count(obs)
    cat = catalog(lang)
    main = diff.main
    found = effects(obs)
    own = _reason(diff.chosen, found, obs, count, lang, words=words)
    does = _reason(diff.other, found, obs, count, lang, words=words)
    alike = does == own  # the same words at once: only what follows tells them apart
    if main == "now":
        text = _now_text(diff, lang, words=words)
    elif main == "next":
        text = _next_text(diff, does, lang, words=words)
    elif main == "later":
        delta = number_text(diff.later, lang)
        if not alike:
            text = cat.text("coach_cost_later_does", does=does, delta=delta)
        elif diff.now == 0 and diff.next == 0:
            text = cat.text("coach_cost_later_same", delta=delta)
        else:
            text = cat.text("coach_cost_later", delta=delta)
    else:
        return (
            cat.text("coach_cost_same_does", does=does)
            if not alike
            else cat.text("coach_cost_same")
        )
    rest = []
    for name in PARTS:
        value = diff.part(name)
        if name == main or abs(value) < 0.05:
            continue
        if name == "now":
            rest.append(cat.text("coach_part_now", delta=diff.now))
        else:
            rest.append(cat.text(f"coach_part_{name}", delta=number_text(value, lang)))
    return cat.text("coach_cost_rest", main=text, parts=", ".join(rest)) if rest else text


def _now_text(diff: Difference, lang: str, *, words: bool) -> str:
    cat = catalog(lang)
    a, b = diff.chosen.effect, diff.other.effect
    if diff.now < 0 and a.bonus > b.bonus:
        key = (
            "coach_cost_no_double"
            if a.result is PlayResult.DOUBLE_FOXTROT
            else "coach_cost_no_foxtrot"
        )
        return cat.text(key, delta=diff.now)
    if diff.now < 0 and QUEEN_OF_SPADES in b.taken and QUEEN_OF_SPADES not in a.taken:
        return cat.text(
            "coach_cost_queen", **card_slots(QUEEN_OF_SPADES, lang, words=words), delta=diff.now
        )
    if diff.now < 0 and a.taken and not b.taken:
        return cat.text("coach_cost_no_take", points=diff.chosen.now, delta=diff.now)
    return cat.text("coach_cost_now", b=diff.other.now, a=diff.chosen.now, delta=diff.now)


def _next_text(diff: Difference, does: str, lang: str, *, words: bool) -> str:
    cat = catalog(lang)
    a, b = diff.chosen, diff.other
    shown = formula(b, lang)
    if a.next != 0.0:
        shown = cat.text(
            "coach_formula_against",
            formula=shown,
            other=number_text(a.next, lang),
            delta=number_text(diff.next, lang),
        )
    if b.next < 0 and b.lone:
        card = b.effect.pile[0]
        return cat.text(
            "coach_lone_risk",
            **card_slots(card, lang, words=words),
            pct=round(b.chance * 100),
            formula=shown,
        )
    if b.next < 0 and b.chance >= 1:
        return cat.text("coach_cost_offer_any", worth=b.offer, formula=shown)
    if b.next < 0:
        return cat.text("coach_cost_offer", worth=b.offer, pct=round(b.chance * 100), formula=shown)
    return cat.text(  # it leaves him less than the chosen move: say what it does instead
        "coach_cost_next",
        does=does,
        delta=number_text(diff.next, lang),
        b=number_text(b.next, lang),
        a=number_text(a.next, lang),
    )


def _explain(
    obs: Observation, action: Action, lang: str, count: CardCount, *, words: bool = False
) -> str:
    found = effects(obs)
    chosen = next((effect for effect in found if effect.action == action), None)
    if chosen is None:
        raise ValueError(f"{action} is not a legal action of seat {obs.seat}")
    cat = catalog(lang)
    reason = _reason(move_cost(chosen, obs, count), found, obs, count, lang, words=words)
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


def reasons(
    obs: Observation,
    action: Action,
    other: Action,
    gap: float,
    lang: str = "en",
    *,
    count: CardCount | None = None,
    words: bool = False,
) -> tuple[str, str]:
    """The two halves of ``compared``: ``action``'s own reason (``explain``'s), and what
    ``other`` does differently, with the part of the difference that explains it and its
    number (``cost_text``).  The second is never the first: when both moves do the same at
    once, it says what differs after (the next player's chances, or the coach's search)."""
    count = count if count is not None else card_count(obs)
    found = effects(obs)
    by_action = {effect.action: effect for effect in found}
    chosen = by_action[action]
    reason = _reason(move_cost(chosen, obs, count), found, obs, count, lang, words=words)
    diff = difference(obs, action, other, -shown_gap(gap), count=count)
    return reason, cost_text(diff, obs, lang, count=count, words=words)


def shown_gap(gap: float) -> float:
    """A gap between two values as the words show it: whole points from one point up (the
    points a hint and a review count), else to a tenth."""
    points = round(gap)
    return float(points) if points >= 1 else round(gap, 1)


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
    what it does differently, with the number ("makes a foxtrot: +10; playing 7♣ instead is
    12 points worse — it gives up the foxtrot: -10 at once; besides, -2 in the play that
    follows").  ``gap`` is the difference of their expected margins (``reasons``)."""
    reason, other_reason = reasons(obs, action, other, gap, lang, count=count, words=words)
    cat = catalog(lang)
    points = round(gap)
    alt = alternative_text(other, lang, words=words)
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
        or what it cost against the expert's move (a weaker one), with the numbers.

        A weaker move's cost is ``cost_text`` of the played move against the expert's, its
        parts adding up to the points lost as the review shows them (``round(loss)``).
        """
        lang = lang if lang is not None else self.lang
        count = card_count(self.observation)
        if self.grade is not Grade.GOOD:
            total = -float(round(self.loss))
            diff = difference(self.observation, self.best, self.played, total, count=count)
            cost = cost_text(diff, self.observation, lang, count=count)
            return catalog(lang).text("coach_cost_played", cost=cost)
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
        move, a weaker one by what it cost against the expert's move (``reason``).
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
    "PARTS",
    "CardCount",
    "Cost",
    "Difference",
    "Grade",
    "Hint",
    "ReviewItem",
    "action_text",
    "alternative_text",
    "card_count",
    "compared",
    "cost_text",
    "difference",
    "explain",
    "formula",
    "move_cost",
    "number_text",
    "observation_rng",
    "observation_seed",
    "quoted",
    "reasons",
    "review",
    "runner_up",
    "shown_gap",
    "solved_note",
    "suggest",
    "summary",
]
